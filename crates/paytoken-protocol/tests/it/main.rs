//! The integration tests of `paytoken-protocol`, built as one binary: a module per subject.
//!
//! `#![cfg(test)]` puts every module, helpers included, under the test settings of
//! `clippy.toml` (unwrap, expect, panics, indexing and printing allowed in tests).
#![cfg(test)]

mod checked_text;
#[path = "../common/mod.rs"]
mod common;
mod conformance;
mod echoes;
mod flows;
mod golden;
mod notifications;
mod properties;
mod provenance;
mod responses;
mod secrets;
mod tolerance;
