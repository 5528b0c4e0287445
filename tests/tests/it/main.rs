//! The workspace's integration tests (client against sandbox, over real HTTP and TLS), built
//! as one binary: a module per subject.
//!
//! `#![cfg(test)]` puts every module, helpers included, under the test settings of
//! `clippy.toml` (unwrap, expect, panics, indexing and printing allowed in tests).
#![cfg(test)]

mod browser;
mod chaos_back_office;
mod client_back_office;
mod client_faults;
mod client_http2;
mod client_lifecycle;
mod client_proxy;
mod client_secrets;
mod client_settling;
#[path = "../common/mod.rs"]
mod common;
mod conformance;
mod conformance_negative;
mod conformance_openapi;
mod conformance_rules;
mod conformance_schemas;
mod docs;
mod load;
mod names;
mod protocol_http;
mod readme_crate;
mod signed_form;
mod spans;
