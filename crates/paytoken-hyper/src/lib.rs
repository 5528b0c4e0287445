//! # paytoken-hyper
//!
//! The async client of the card-tokenization gateway interface: pooled HTTPS on hyper and
//! rustls, with timeouts, retries that never repeat a payment, auth-token renewal and
//! tracing that never shows a secret. Most users reach it through the `paytoken` crate.
//!
//! **Layer:** above `paytoken-protocol` (which builds and parses every request; this crate
//! sends them), below the `paytoken` facade and the CLI.
//!
//! ```no_run
//! use paytoken_checksum::{Credentials, SecureKey};
//! use paytoken_hyper::Client;
//! use paytoken_protocol::Username;
//! use paytoken_protocol::ops::payment::Payment;
//! use paytoken_types::{Card, CardNumber, Cvv};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let client = Client::builder()
//!     .base_url("https://sandbox.gateway.example")
//!     .credentials(Credentials::merchant("11344".parse()?, SecureKey::new("key")?))
//!     .fetch_auth_token("100".parse()?, Username::new("shop.admin")?)
//!     .build()?;
//!
//! let card = Card {
//!     number: CardNumber::new("4000000000000051")?,
//!     expiry_month: "06".parse()?,
//!     expiry_year: "2030".parse()?,
//!     cvv: Cvv::new("745")?,
//!     holder: None,
//! };
//! let payment = Payment::new("order1001".parse()?, "50.00".parse()?, "EUR".parse()?, card);
//! let transaction = match client.pay(&payment).await {
//!     Ok(transaction) => transaction,
//!     // The answer was lost: the payment was not sent again. Ask what became of it.
//!     Err(error) if error.is_outcome_unknown() => {
//!         client.reconcile(&payment.merchant_transaction_id).await?
//!     }
//!     Err(error) => return Err(error.into()),
//! };
//! println!("{:?} {}", transaction.status, transaction.payment_id);
//! # Ok(()) }
//! ```
//!
//! ## What the client guarantees
//! - **A payment is never sent twice** once its bytes may have left: a timeout, a broken
//!   connection, a `5xx` or an unreadable answer is [`Error::OutcomeUnknown`], carrying the
//!   merchant transaction id for [`Client::reconcile`]. Only a connection that never opened
//!   is tried again (nothing left).
//! - **Reads are retried** (installments, lists, inquiry, auth tokens) after a broken
//!   connection or a `5xx`, with exponential backoff and jitter ([`RetryPolicy`]).
//! - **Bounded**: a connect timeout, a whole-request timeout per attempt, and a body limit
//!   (1 MiB) beyond which nothing more is read. Redirects are not followed.
//! - **Auth tokens**: fixed, or fetched with a login name, renewed before expiry and after
//!   a refusal, one renewal at a time ([`ClientBuilder::fetch_auth_token`]).
//! - **Tracing** (target `paytoken`), by OpenTelemetry's conventions for HTTP clients: a
//!   span `paytoken.call` per call (`paytoken.operation`, `paytoken.merchant_transaction_id`,
//!   `paytoken.payment_id`, `paytoken.attempts`, `paytoken.result_code`, `paytoken.outcome`,
//!   `error.type`), a child `paytoken.attempt` of kind client per request sent
//!   (`http.request.method`, `url.template`, `url.full`, `server.address`, `server.port`,
//!   `http.request.resend_count`, `http.response.status_code`, `error.type`), a
//!   `paytoken.settle` span around a settlement, and one `debug` event when a call ends
//!   (`call answered` or `call failed`) with its ids; never a key, a token, a card number, a
//!   CVV, a request body or an id in a URL (`url.template` names it instead).
//!
//! ## Transports
//! [`HyperTransport`] (hyper-util's pool, hyper-rustls with ring and the webpki roots,
//! HTTP/1.1 keep-alive, HTTP/2 by ALPN) is the default; [`Transport`] lets another stack in,
//! and `testing::FakeTransport` (feature `testing`) answers unit tests without sockets.
//!
//! ## Features
//! - `testing`: the module `testing`, an in-memory [`Transport`] for unit tests
//!   (`FakeTransport`). Turn it on in `[dev-dependencies]`; a release build has no fake.
//!
//! This crate is the client. Leave it out (the `paytoken` crate's `hyper` feature) to keep
//! only the sans-IO core. Its [`Error`] is the protocol crate's (`paytoken_protocol::call`),
//! which a client on another stack returns too.

#![forbid(unsafe_code)]

mod any;
mod auth;
mod body;
mod builder;
mod call;
mod call_loop;
mod client;
mod conn;
mod duplicates;
pub mod environment;
mod exchange;
mod held;
mod hyper_transport;
mod merchant_transaction_id;
mod proxy;
mod randomness;
mod renewal;
mod retry;
mod settlement;
mod span;
#[cfg(feature = "testing")]
pub mod testing;
mod transport;
mod unknown;

pub use builder::{
    ClientBuilder, DEFAULT_BODY_LIMIT, DEFAULT_CONNECT_TIMEOUT, DEFAULT_POOL_IDLE_TIMEOUT,
    DEFAULT_POOL_MAX_IDLE_PER_HOST, DEFAULT_REQUEST_TIMEOUT, DEFAULT_USER_AGENT,
};
pub use client::Client;
pub use duplicates::MemoryDuplicates;
pub use hyper_transport::HyperTransport;
pub use merchant_transaction_id::new_merchant_transaction_id;
pub use paytoken_protocol::call::{Error, ErrorKind, Finding, TransportError, TransportErrorKind};
pub use proxy::Proxy;
pub use retry::RetryPolicy;
pub use transport::{Transport, TransportRequest, TransportResponse};

/// What the command shares with the client: a connection opened by hand and the one TLS
/// configuration (`conn`). Not part of the API: no promise holds for anything under this
/// path.
#[doc(hidden)]
pub mod internal {
    pub mod conn {
        pub use crate::conn::*;
    }
}
