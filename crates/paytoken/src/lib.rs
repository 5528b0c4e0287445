//! # paytoken
//!
//! A Rust SDK for card-tokenization payment gateways: store cards and bank accounts as
//! tokens, sign customers up, pay with a card or a token (plain, recurring, in
//! installments), list stored cards, invoices and transactions. Many white-label gateways
//! run this interface; the base URL is yours to choose.
//!
//! **Layer:** the facade. It re-exports the four layers, so one dependency is enough:
//! [`types`] (the values), [`checksum`] (the MD5 signatures), [`protocol`] (every operation
//! as a request builder and a response parser, without I/O) and, with the default `hyper`
//! feature, the async [`Client`].
//!
//! ```no_run
//! use paytoken::ops::payment::Payment;
//! use paytoken::{Card, CardNumber, Client, Credentials, Cvv, SecureKey, Username};
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
//! let payment = Payment::new("order1001".parse()?, "50.00".parse()?, "EUR".parse()?, card)
//!     .store_card();
//! let transaction = client.pay(&payment).await?;
//! println!("{:?}, token {:?}", transaction.status, transaction.registration_id);
//! # Ok(()) }
//! ```
//!
//! ## Errors
//! Every call returns one [`Error`], the same type with and without the client. Match it in
//! one step with [`Error::kind`]: [`ErrorKind::Refused`] carries the gateway's codes, their
//! family and descriptions (nothing was processed); [`ErrorKind::OutcomeUnknown`] means a
//! call that changes something may have been processed and its answer was lost: it was
//! not sent again, and `Client::settle` (or `reconcile`) asks the gateway before anything
//! else. `error.refusal()`, `error.is_outcome_unknown()` and
//! `error.may_have_been_processed()` answer the same questions one at a time.
//!
//! `use paytoken::prelude::*;` brings the client, every operation and the values a payment
//! is made of; the common types are at the crate root as well. The `cookbook` (feature
//! `sandbox`, on docs.rs) has every operation and every recovery as a recipe that runs.
//!
//! ## Features
//! - `hyper` (default): the async client on hyper and rustls ([`Client`]).
//!   `default-features = false` leaves the sans-IO core: build requests with
//!   [`protocol`], send them with any HTTP stack. [`Error`] is the same type either way.
//! - `testing`: the client's in-memory transport for unit tests (`testing::FakeTransport`),
//!   for `[dev-dependencies]`.
//! - `http`: `Request::into_http` and `parse_http`, for stacks that speak the `http` crate.
//! - `axum`: an extractor that reads and verifies a notification (`axum::Verified`).
//! - `postgres`: a `DuplicateStore` a fleet of instances shares, on PostgreSQL
//!   (`postgres::PostgresDuplicates`, on tokio-postgres).
//! - `opentelemetry`: the client's spans, which follow OpenTelemetry's conventions for HTTP
//!   clients, exported as OpenTelemetry spans (`opentelemetry::layer`, on
//!   tracing-opentelemetry).
//! - `sandbox`: the gateway simulated in the test's own process and a client for it
//!   (`sandbox::TestGateway`), for `[dev-dependencies]`; it never brings SQLite.

#![forbid(unsafe_code)]

/// The values requests are built from: amounts, currencies, cards, customers, identifiers.
pub mod types {
    pub use paytoken_types::*;
}

/// Credentials and the checksum rules.
pub mod checksum {
    pub use paytoken_checksum::*;
}

/// Every operation as a request builder and a response parser, without I/O.
pub mod protocol {
    pub use paytoken_protocol::*;
}

pub use paytoken_checksum::{Credentials, SecureKey};
pub use paytoken_protocol::{
    AuthToken, BaseUrl, CardSummary, Context, Field, FieldValue, InvalidValue, Invoice,
    InvoiceCustomer, InvoicePager, Operation, OperationKind, PaymentStatus, Redirect,
    RedirectParameter, Refusal, Transaction, Username, notification, ops,
};
pub use paytoken_types::{
    AccountId, Amount, BankAccount, Bic, Billing, BirthDate, Card, CardNumber, CodeFamily,
    CountryCode, Currency, Customer, CustomerId, Cvv, Email, ExpiryMonth, ExpiryYear,
    GatewayResult, Iban, LanguageCode, MemberId, MerchantTransactionId, PartnerId, PaymentBrand,
    PaymentId, PaymentMode, PaymentType, Phone, RecurringType, RegistrationId, RegistrationStatus,
    ResultCode, Sex, Shipping, TelephoneCountryCode, TerminalId, Timestamp, TransactionState,
    TransactionStatus,
};

pub mod prelude;

#[cfg(feature = "hyper")]
pub use paytoken_hyper::{
    Client, ClientBuilder, DEFAULT_BODY_LIMIT, DEFAULT_CONNECT_TIMEOUT, DEFAULT_POOL_IDLE_TIMEOUT,
    DEFAULT_POOL_MAX_IDLE_PER_HOST, DEFAULT_REQUEST_TIMEOUT, DEFAULT_USER_AGENT, HyperTransport,
    MemoryDuplicates, Proxy, RetryPolicy, Transport, TransportRequest, TransportResponse,
    environment, new_merchant_transaction_id,
};
pub use paytoken_protocol::DuplicateStore;
/// The one error of a call, the same type with and without the client.
pub use paytoken_protocol::call::Error;
pub use paytoken_protocol::call::{ErrorKind, Finding, TransportError, TransportErrorKind};

#[cfg(feature = "axum")]
pub mod axum;
#[cfg(feature = "sandbox")]
pub mod cookbook;
#[cfg(feature = "opentelemetry")]
pub mod opentelemetry;
#[cfg(feature = "postgres")]
pub mod postgres;
#[cfg(feature = "sandbox")]
pub mod sandbox;

/// An in-memory transport for unit tests, without sockets (feature `testing`).
#[cfg(feature = "testing")]
pub use paytoken_hyper::testing;
