//! The integration tests of `paytoken-cli`, built as one binary: a module per subject.
//!
//! `#![cfg(test)]` puts every module, helpers included, under the test settings of
//! `clippy.toml` (unwrap, expect, panics, indexing and printing allowed in tests).
#![cfg(test)]

mod answers_like;
mod audit;
mod bounds;
mod cli;
#[path = "../common/mod.rs"]
mod common;
mod conform;
mod conform_http;
mod console;
mod doctor;
mod doors;
mod examples;
mod explain;
mod hostile;
mod listen;
mod manual;
mod names;
mod profiles;
mod record;
mod shop_acts;
mod state_file;
mod vectors;
