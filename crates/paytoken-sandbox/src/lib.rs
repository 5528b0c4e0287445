//! A stateful simulator of the card-tokenization gateway, over real HTTP.
//!
//! `paytoken-sandbox` plays the gateway so that tests, paytoken's own and every user's, run
//! against something that behaves like the real service, without credentials or a network.
//! It sits beside the stack (it uses `paytoken-types`, `paytoken-checksum` and the paths of
//! `paytoken-protocol`) and nothing but tests and the command-line tool depend on it.
//!
//! Every operation of the interface and of its deployments (docs/WIRE.md) answers in its
//! real wire shape; checksums and auth tokens (valid an hour on an injectable [`Clock`])
//! are checked; each merchant sees only its own records; [`cards`] decide outcomes; the
//! back office is a state machine per payment. Around it: [`notifications`] and the 3-D
//! Secure challenge page, [`faults`] on demand ([`Sandbox::fault_next`]), the [`console`]
//! under [`CONSOLE_PREFIX`] (books, the request log, the clock), answers varied
//! ([`SandboxBuilder::vary_answers`]) or shaped like one deployment's
//! ([`SandboxBuilder::answers_like`]), every result code in [`codes`]. Where the
//! platform's behaviour is not published, the sandbox's choice is documented as its own
//! and no client may rely on it. The manual, docs/SANDBOX.md, tells each of these in full.
//!
//! # Example
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use paytoken_sandbox::{Faults, InvoiceShape, ManualClock, Sandbox};
//!
//! let clock = Arc::new(ManualClock::at_unix_seconds(1_795_000_000));
//! let sandbox = Sandbox::builder()
//!     .clock(clock.clone())
//!     .invoice_shape(InvoiceShape::PositionMap)
//!     .faults(Faults::parse("latency=5ms")?)
//!     .start()
//!     .await?;
//! // Point a client at `sandbox.base_url()`, with the credentials of `sandbox.config()`.
//! println!("gateway at {}", sandbox.base_url());
//! sandbox.shutdown().await;
//! # Ok(())
//! # }
//! ```
//!
//! # Features
//! - `tls`: serves HTTPS with a certificate of the caller's (`SandboxBuilder::tls`), on
//!   rustls with ring. Without it, plain HTTP/1.1 on tokio.
//! - `sqlite`: keeps the state in one SQLite file (`SandboxBuilder::state_file`), SQLite
//!   compiled in. Without it, the state lives in memory.
//! - `simulation`: exposes `simulation`, the request handling in the caller's process with
//!   ids and tokens from a seed, the notifications it posts and the payments it settles
//!   handed over, (with `sqlite`) a state file it is killed and restarted from, and the
//!   defects a simulator plants to show it catches them, for a deterministic simulator
//!   (paytoken-sim). Without it, none of those defects is compiled.

#![forbid(unsafe_code)]

mod body;
mod books;
mod bounded_log;
pub mod cards;
mod clock;
pub mod codes;
mod config;
pub mod console;
mod currencies;
mod edge;
mod entropy;
mod error;
mod exchange;
mod explain;
pub mod faults;
mod form;
#[cfg(fuzzing)]
#[doc(hidden)]
pub mod fuzzing;
mod gateway;
mod html;
mod invoices;
mod json;
mod like;
mod node;
/// What the command shares with the sandbox: paytoken's one JSON tree, which `paytoken
/// record` reads and redacts with, and the one server edge. Not part of the API: no
/// promise holds for anything under this path.
#[doc(hidden)]
pub mod internal {
    pub use crate::faults::parse_duration;
    pub use crate::node::Node;
    /// The operation a request to the gateway is, by its one name, as far as its path and
    /// form tell (the sandbox's routing, which `paytoken record` names exchanges by).
    #[must_use]
    pub fn operation_of(path: &str, body: &[u8]) -> Option<&'static str> {
        crate::gateway::Gateway::operation_of(path, body)
    }
    /// Why `sent` is not the checksum of `parts` (after `id|key`, in the rule's order) by
    /// `caller_id` with `key`: the joined text expected, the key masked (personal values
    /// shown), and the first usual mistake that gives `sent`, as the sandbox's explanations
    /// say it (`paytoken conform` says it of a client's checksum).
    #[must_use]
    pub fn checksum_mismatch(
        caller_id: &str,
        key: &paytoken_checksum::SecureKey,
        rule: &str,
        parts: &[(&str, &str)],
        sent: &str,
    ) -> String {
        let signed = crate::explain::Signed { rule, parts };
        let suspects = crate::explain::Suspects::default();
        crate::explain::checksum_mismatch_showing(caller_id, key, &signed, sent, &suspects, true)
    }
    /// The one server edge, which the command's local servers run on too.
    pub mod edge {
        pub use crate::edge::*;
    }
}
pub mod notifications;
mod operation_names;
mod ops;
#[cfg(feature = "simulation")]
mod planted;
mod problem;
mod received;
mod request_log;
mod router;
pub mod samples;
mod sandbox;
mod server;
#[cfg(feature = "simulation")]
pub mod simulation;
mod state;
mod store;
pub mod tap;
#[cfg(feature = "tls")]
mod tls;
mod tokens;
mod vary;

pub use books::PaymentBooks;
pub use clock::{Clock, MAX_CLOCK_ADVANCE, ManualClock, SystemClock};
pub use config::{
    DEFAULT_MERCHANT_ID, DEFAULT_MERCHANT_SECURE_KEY, DEFAULT_MERCHANT_USERNAME,
    DEFAULT_PARTNER_ID, DEFAULT_PARTNER_SECURE_KEY, DEFAULT_PARTNER_USERNAME,
    MAX_CONFIG_FILE_BYTES, MerchantConfig, OTHER_MERCHANT_ID, OTHER_MERCHANT_SECURE_KEY,
    OTHER_MERCHANT_USERNAME, PartnerConfig, SandboxConfig,
};
pub use console::{CONSOLE_PREFIX, DASHBOARD_PATH};
pub use error::Error;
pub use explain::EXPLAIN_HEADER;
pub use faults::{FAULT_HEADER, FaultTarget, Faults, MAX_FAULT_DURATION, NotificationFault};
pub use invoices::{InvoiceShape, SEEDED_INVOICES_PER_MERCHANT};
pub use like::AnswerShapes;
pub use notifications::{NotificationPolicy, NotificationTargets, SentNotification};
pub use received::Received;
pub use request_log::{LoggedRequest, REQUESTS_KEPT};

/// How long a payment waits for its 3-D Secure challenge on the sandbox's clock before it
/// is declined as not completed in time (and notified): fifteen minutes, the sandbox's
/// choice (a gateway's own is not public).
pub const THREE_D_SECURE_EXPIRES_AFTER: std::time::Duration =
    std::time::Duration::from_secs(15 * 60);
pub use sandbox::{
    DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_RECORDS, DEFAULT_MAX_TOKENS,
    DEFAULT_PENDING_SETTLES_AFTER, DEFAULT_REQUEST_DEADLINE, Sandbox, SandboxBuilder,
};
#[cfg(feature = "sqlite")]
pub use store::file::remove_state_file;
#[cfg(feature = "tls")]
pub use tls::TlsIdentity;
pub use tokens::AUTH_TOKEN_LIFETIME;

/// The crate's README, whose example is compiled and run with the doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
