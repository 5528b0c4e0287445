//! # tests
//!
//! paytoken's end-to-end tests, in `tests/`: the invariants that hold only across crates.
//! A signed request body built from `paytoken-types` and `paytoken-checksum`; a protocol
//! request carried through the `http` crate; the client against the sandbox over TCP and
//! TLS (`client_lifecycle`: every operation; `client_faults`: stalls, drops, `5xx`,
//! oversized and broken answers, expired tokens, redirects; `client_secrets`: every log
//! line and error of a whole run; `client_http2`: h2 by ALPN); and the examples of README
//! and `docs/`. This library is empty on purpose: a package needs one target.

/// The README's examples, compiled and run as doctests so they stay true.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The library's manual's examples, run as doctests.
#[doc = include_str!("../../docs/LIBRARY.md")]
#[cfg(doctest)]
pub struct LibraryDoctests;

/// The sandbox's manual's examples, run as doctests.
#[doc = include_str!("../../docs/SANDBOX.md")]
#[cfg(doctest)]
pub struct SandboxDoctests;
