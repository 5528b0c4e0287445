//! # tests
//!
//! paytoken's end-to-end tests, in `tests/`: the invariants that hold only across crates.
//! Today that is a signed request body built from `paytoken-types` and
//! `paytoken-checksum`, and a protocol request carried through the `http` crate; the
//! client-against-sandbox tests over TCP and TLS join them as those crates arrive. This library is empty on purpose: a package needs one target.
#![allow(clippy::std_instead_of_core, clippy::std_instead_of_alloc)]

/// The README's examples, compiled and run as doctests so they stay true.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
