//! # tests
//!
//! paytoken's end-to-end tests, in `tests/`: the invariants that hold only across crates.
//! Today that is a signed request body built from `paytoken-types` and
//! `paytoken-checksum`, a protocol request carried through the `http` crate, and the
//! README's examples (one of them a payment against the sandbox over a socket); the
//! client-against-sandbox tests over TCP and TLS join them with the client. This library
//! is empty on purpose: a package needs one target.
#![allow(clippy::std_instead_of_core, clippy::std_instead_of_alloc)]

/// The README's examples, compiled and run as doctests so they stay true.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
