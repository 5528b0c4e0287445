//! # paytoken-node
//!
//! paytoken for Node: the addon behind the npm package `paytoken`, built by napi-rs from
//! this crate. It is the protocol crate's sans-IO core as JavaScript sees it: build an
//! operation's signed request, send it with `fetch` (or any HTTP client), read the answer
//! into an object or a thrown `Error` with a `code`. Nothing is re-implemented here: every
//! rule (the form, the checksum, the verdicts) is `paytoken-protocol`'s. The package's
//! `index.js` loads the addon and lets `util.inspect` show each class by its `toString`,
//! which masks what is secret.
//!
//! **Layer:** beside `paytoken-hyper` and `paytoken-python`, above `paytoken-protocol`;
//! nothing depends on it. napi-rs's macros write the glue to Node-API, the one `unsafe`
//! this crate holds (the macros allow it where they write it; the workspace denies any
//! written here).
//!
//! ```
//! // The Rust behind `paytoken.inquiry({ paymentId: '54279' }).request(context)`.
//! use paytoken_protocol::Operation as _;
//! use paytoken_protocol::ops::inquiry::Inquiry;
//!
//! let context = paytoken_protocol::Context::new(paytoken_checksum::Credentials::merchant(
//!     "11344".parse()?,
//!     paytoken_checksum::SecureKey::new("key")?,
//! ));
//! let request = Inquiry::ByPaymentId("54279".parse()?).request(&context)?;
//! assert_eq!(request.path(), "/transactionServices/REST/v1/payments/54279");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Features
//! None. The TypeScript definitions come from napi-derive's `type-def`, written when
//! `napi build` asks for them.

// napi-rs exports to JavaScript what is public, in modules Rust never reaches from outside.
#![expect(
    unreachable_pub,
    reason = "JavaScript reaches the exported items, Rust does not"
)]
// Under `cfg(test)` (clippy's `--all-targets`) napi-rs registers no export, which leaves
// them all unused; the crate has no unit tests (`test = false`).
#![cfg_attr(
    test,
    allow(dead_code, reason = "napi-rs registers no export under test")
)]

mod answer;
mod args;
mod checksum;
mod credentials;
mod errors;
mod notification;
mod operation;
mod raw;
mod recorded;
mod request;
mod values;
