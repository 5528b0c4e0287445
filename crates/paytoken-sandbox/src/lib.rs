//! A stateful simulator of the card-tokenization gateway, over real HTTP.
//!
//! `paytoken-sandbox` plays the gateway so that tests, paytoken's own and every user's, run
//! against something that behaves like the real service, without credentials or a network.
//! It sits beside the stack (it uses `paytoken-types`, `paytoken-checksum` and the paths of
//! `paytoken-protocol`) and nothing but tests and the command-line tool depend on it.
//!
//! - **Every operation** of the interface and of its deployments (docs/WIRE.md): auth tokens (merchant,
//!   partner, regenerate), customer sign-up, payments (storing the card or not, `INITIAL`),
//!   stand-alone registrations (card, bank account), token payments (plain, `INITIAL`,
//!   `REPEATED`, installments), deletes, installment lookup, cards and accounts, invoices
//!   with pagination, inquiry, and the back office: capture, refund in parts, cancel, and
//!   the repeat of a recurring series by its first payment's id.
//! - **The real wire shape**: HTTP 200 for every handled outcome, every JSON value a
//!   string, one-element lists as an object, empty lists left out, `paymentId` `"-"` on
//!   refusals, joined codes (`"30001 | 30007"`), timestamps `yyyy-MM-dd HH:mm:ss`, the
//!   platform's brand codes, the short answer of a `REPEATED` token payment, the long
//!   `status` of an inquiry, the regenerate answer under `statusInvoiceResult`.
//! - **The rules**: checksums recomputed and compared in constant time; auth tokens issued
//!   by the auth-token endpoints, valid one hour on an injectable [`Clock`], required
//!   everywhere else; each merchant sees only its own customers, tokens, payments and
//!   invoices (a partner sees its merchants'); deleted tokens stay inactive; a
//!   `merchantTransactionId` is used once. Result codes are listed in one table: [`codes`].
//! - **Test cards** decide outcomes: see [`cards`].
//! - **Notifications** ([`notifications`]): the 3-D Secure challenge page, where the
//!   cardholder approves or declines and is sent back to `merchantRedirectUrl` with signed
//!   fields; pending payments approved after a delay on the clock; each late outcome posted
//!   to the payment's `notificationUrl`, signed, retried, recorded
//!   ([`Sandbox::notifications`]), to loopback only unless told otherwise.
//! - **Faults** on demand, per sandbox, for the next requests ([`Sandbox::fault_next`]) or
//!   per request (a header): see [`faults`].
//! - **The console** ([`console`], under [`CONSOLE_PREFIX`]): JSON over HTTP,
//!   from loopback only, to read the books, the request log ([`Sandbox::requests_after`],
//!   the newest [`REQUESTS_KEPT`], masked) and the notifications, and to move the clock
//!   ([`Sandbox::advance_clock`]: everything time-dependent follows it), fault the next
//!   requests, resend a notification and decide a 3-D Secure challenge.
//! - **Varied answers** ([`SandboxBuilder::vary_answers`]): incidental fields in the shapes
//!   other deployments send (numbers, `null`, `""`, lower case, ISO dates, one-element
//!   lists, unknown fields), from a seed; deciding fields untouched. A client that reads
//!   the verdict and nothing else passes against it.
//! - **Answers like a deployment** ([`SandboxBuilder::answers_like`]): incidental fields
//!   in the shapes one deployment sends, learned from its recorded answers
//!   ([`AnswerShapes`]: the most frequent shape of each field, per operation and result
//!   family), the same every time; deciding fields untouched, no recorded value written.
//! - **The back office** is a state machine per payment: a `PA` is captured once (at most
//!   the authorised amount) or cancelled; what was taken (a `DB`, a captured `PA`) is
//!   refunded in parts that never sum above it, even under concurrent refunds; a cancelled
//!   or fully refunded payment refuses every further move; another merchant's payment is
//!   never found. The inquiry's long `status` follows: `authsuccessful`, then
//!   `capturesuccess` or `cancelled`; `markedforreversal` after a partial refund and
//!   `reversed` after a full one (the sandbox's choice of statuses for partial and full
//!   refunds and for a cancel, the platform's being unpublished).
//! - **Its own choices**, where the gateway's are not public, are documented as such: the
//!   code `30025` of "Invalid Recurring Type." (no registrations), every code of [`codes`]
//!   not named by the interface, the long statuses after refunds and cancels above, the
//!   payment's own id in the answer to a move, and two fields of its own in an inquiry's
//!   answer, `sandboxCapturedAmount` and `sandboxRefundedAmount`, which no client may rely
//!   on (paytoken's does not).
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
//!   rustls with ring. Without it, plain HTTP/1.1.
//!
//! The sandbox always serves HTTP/1.1 on tokio; its state lives in memory.

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
    pub use crate::node::Node;
    /// The operation a request to the gateway is, by its one name, as far as its path and
    /// form tell (the sandbox's routing, which `paytoken record` names exchanges by).
    #[must_use]
    pub fn operation_of(path: &str, body: &[u8]) -> Option<&'static str> {
        crate::gateway::Gateway::operation_of(path, body)
    }
    /// The one server edge, which the command's local servers run on too.
    pub mod edge {
        pub use crate::edge::*;
    }
}
pub mod notifications;
mod operation_names;
mod ops;
mod problem;
mod received;
mod request_log;
mod router;
pub mod samples;
mod sandbox;
mod server;
mod state;
mod store;
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
#[cfg(feature = "tls")]
pub use tls::TlsIdentity;
pub use tokens::AUTH_TOKEN_LIFETIME;

/// The crate's README, whose example is compiled and run with the doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
