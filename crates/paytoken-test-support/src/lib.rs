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
//! - `form` (feature `types`): a full payment form, written by the types' form writer.
//! - `payment`, `asked` and `baseline` (feature `protocol`): the full sample payment and
//!   the other sample operations, the request each response fixture answers, and the same
//!   payment written by hand with `format!`, `md5`, `serde_urlencoded` and
//!   `serde_json::Value`.
//! - `raw` (features `sandbox` and `protocol`): a plain HTTP/1.1 client of the sandbox,
//!   with sign-in helpers, for the sandbox's tests and benchmark.
//! - `samples`, `http`, `shown` and `state_file` (feature `sandbox`): the sandbox's test
//!   cards and fresh order ids, HTTP/1.1 by hand, a request's fields held to the table of
//!   fields as a log shows them, and a state file read as text.
//! - [`generated`]: the Python client generated from the conformance kit's `openapi.yaml`.
//! - `schema` (feature `schema`): JSON Schema checks by the `jsonschema` crate (the
//!   conformance kit's schemas, the command's output).
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
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a failed set-up is a failed test"
)]

#[cfg(feature = "protocol")]
pub mod asked;
#[cfg(feature = "protocol")]
pub mod baseline;
pub mod counting;
#[cfg(feature = "types")]
pub mod form;
pub mod generated;
#[cfg(feature = "sandbox")]
pub mod http;
pub mod interleaved;
#[cfg(feature = "protocol")]
pub mod payment;
#[cfg(all(feature = "sandbox", feature = "protocol"))]
pub mod raw;
#[cfg(feature = "sandbox")]
pub mod samples;
#[cfg(feature = "schema")]
pub mod schema;
#[cfg(feature = "sandbox")]
pub mod shown;
#[cfg(feature = "sandbox")]
pub mod state_file;
