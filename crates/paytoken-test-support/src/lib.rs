//! # paytoken-test-support
//!
//! What paytoken's tests and benchmarks share, in one place instead of files included
//! across crates: a dev-dependency only, never published.
//!
//! **Layer:** beside the others, used by their tests. It may depend on any paytoken crate,
//! since only their integration tests and benches depend on it.
//!
//! - [`counting`]: a global allocator that counts this thread's allocations.
//! - [`interleaved`]: same-run ratios to a baseline, as `cargo xtask bench` reads them.
//! - `payment` and `baseline` (feature `protocol`): the full sample payment, and the same
//!   payment written by hand with `format!`, `md5`, `serde_urlencoded` and
//!   `serde_json::Value`.
//! - `samples` and `http` (feature `sandbox`): the sandbox's test cards and fresh order ids,
//!   and one HTTP/1.1 request read off a socket.
//! - `schema` (feature `schema`): a JSON Schema validator for the keywords the project's
//!   schemas use (the conformance kit's, the command's output).
//!
//! ```
//! let before = paytoken_test_support::counting::allocations();
//! assert!(paytoken_test_support::counting::allocations() >= before);
//! ```
//!
//! Test code: a failed set-up panics, and so fails the test that asked for it.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::missing_panics_doc,
    reason = "test code: a failed set-up is a failed test"
)]

#[cfg(feature = "protocol")]
pub mod baseline;
pub mod counting;
#[cfg(feature = "sandbox")]
pub mod http;
pub mod interleaved;
#[cfg(feature = "protocol")]
pub mod payment;
#[cfg(feature = "sandbox")]
pub mod samples;
#[cfg(feature = "schema")]
pub mod schema;
