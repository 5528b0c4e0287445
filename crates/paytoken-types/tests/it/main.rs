//! The integration tests of `paytoken-types`, built as one binary: a module per subject.
//!
//! `#![cfg(test)]` puts every module, helpers included, under the test settings of
//! `clippy.toml` (unwrap, expect, panics, indexing and printing allowed in tests).
#![cfg(test)]

mod properties;
mod secrets;
