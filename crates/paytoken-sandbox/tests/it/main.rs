//! The integration tests of `paytoken-sandbox`, built as one binary: a module per subject.
//!
//! `#![cfg(test)]` puts every module, helpers included, under the test settings of
//! `clippy.toml` (unwrap, expect, panics, indexing and printing allowed in tests).
#![cfg(test)]

mod clock;
#[path = "../common/mod.rs"]
mod common;
mod concurrency;
mod console;
mod doors;
mod explain;
mod faults;
mod hostile;
mod notifications;
mod rules;
mod secrets;
mod state_file;
mod wire;
