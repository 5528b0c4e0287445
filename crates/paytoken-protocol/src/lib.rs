//! # paytoken-protocol
//!
//! Every operation of the card-tokenization gateway interface as a request builder and a
//! response parser, with no I/O: for teams that bring their own HTTP stack (reqwest, ureq,
//! an in-house client, a WASM fetch), and the core of paytoken's own client.
//!
//! **Layer:** above `paytoken-types` (the values) and `paytoken-checksum` (the signatures),
//! below `paytoken-hyper` (the async client). It does no I/O, spawns nothing, reads no clock
//! and no randomness: the caller passes `now` and ids in.
//!
//! ## The flow
//! 1. Build a [`Context`]: credentials (merchant or partner), account and terminal ids, the
//!    current auth token ([`AuthTokenLifecycle`] keeps one fresh).
//! 2. Build an operation from typed values ([`ops`]: one module per operation) and call
//!    [`Operation::request`]: the input is checked (a bad field is an error naming it, and
//!    nothing is sent) and the result is a signed [`Request`]: path, headers, form body.
//! 3. Send it with any HTTP client to [`BaseUrl`] + path.
//! 4. Hand the status and body to the same operation's [`Operation::parse`]: the typed
//!    answer, or an [`Error`] that says whether the gateway refused (nothing happened), or
//!    whether the request may have been processed (inquire before sending a payment again).
//!
//! ## Tolerance
//! Exact in what it sends, liberal in what it accepts. An answer's verdict rests on its
//! deciding fields only: `paymentId` (a real one or `"-"`), the result code (of `result`
//! or `statusInvoiceResult`), `transactionStatus`, and the id the operation exists to
//! return. Every other field is a [`Field`]: kept exactly as the gateway sent it, with a
//! typed view that may fail alone, so `"amount": 50`, `"currency": "eur"`, a `null`, an
//! ISO date or a card object inside a one-element list never make an approved payment
//! unreadable ([`answer`] has the rules). And an answer that echoes another transaction
//! than its request (another merchant transaction id, amount, currency or id) is never a
//! success: it is [`Error::Contradiction`] ([`echo`] lists what each operation checks).
//!
//! ```
//! use paytoken_checksum::{Credentials, SecureKey};
//! use paytoken_protocol::ops::payment::Payment;
//! use paytoken_protocol::{AuthToken, BaseUrl, Context, Operation, PaymentStatus, Request};
//! use paytoken_types::{Card, CardNumber, Cvv};
//!
//! /// A toy transport: any HTTP client goes here. This one plays the gateway.
//! fn send(base_url: &BaseUrl, request: &Request) -> (u16, Vec<u8>) {
//!     assert_eq!(
//!         request.url(base_url),
//!         "https://sandbox.gateway.example/transactionServices/REST/v1/payments"
//!     );
//!     assert_eq!(request.header("AuthToken"), Some("eyJ0.e30.c2ln"));
//!     let body = br#"{"paymentId":"54279","registrationId":"8a82944a4cc25ebf014cc2c782423202",
//!         "result":{"code":"00001","description":"Transaction succeeded"},
//!         "transactionStatus":"Y","amount":"50.00","currency":"EUR",
//!         "card":{"bin":"400000","last4Digits":"0051"},"timestamp":"2026-11-22 10:15:00"}"#;
//!     (200, body.to_vec())
//! }
//!
//! let base_url = BaseUrl::new("https://sandbox.gateway.example")?;
//! let context = Context {
//!     terminal_id: Some("1".parse()?),
//!     auth_token: Some(AuthToken::new("eyJ0.e30.c2ln")?),
//!     ..Context::new(Credentials::merchant("11344".parse()?, SecureKey::new("key")?))
//! };
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
//!
//! let request = payment.request(&context)?;                 // build and sign
//! let (status, body) = send(&base_url, &request);           // any transport
//! let transaction = payment.parse(status, &body)?;           // parse, against the request
//!
//! assert_eq!(transaction.status, PaymentStatus::Approved);
//! assert_eq!(transaction.payment_id.as_str(), "54279");
//! assert!(transaction.registration_id.is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Operations
//! | module | operation | safe to retry |
//! |---|---|---|
//! | [`ops::customer_signup`] | customer sign-up | no |
//! | [`ops::payment`] | payment (DB/PA), optionally storing the card, INITIAL | no |
//! | [`ops::registration`] | stand-alone registration of a card or bank account | no |
//! | [`ops::token_payment`] | payment with a token: plain, INITIAL, REPEATED, installments | no |
//! | [`ops::delete_token`] | delete a token | no |
//! | [`ops::installments`] | installment plans of a token | yes |
//! | [`ops::cards_and_accounts`] | stored cards and accounts | yes |
//! | [`ops::invoice_list`] | a page of invoices ([`InvoicePager`] for all) | yes |
//! | [`ops::auth_token`] | auth token for a merchant or partner, regenerate | yes |
//! | [`ops::inquiry`] | a transaction by payment id or merchant transaction id | yes |
//! | [`ops::capture`] | capture of a pre-authorisation | no |
//! | [`ops::refund`] | refund, whole or in part | no |
//! | [`ops::cancel`] | cancel (void) of a pre-authorisation | no |
//! | [`ops::repeat_payment`] | a REPEATED payment by the first payment's id | no |
//!
//! [`notification`] reads and verifies what the gateway sends back later: its call to a
//! payment's `notificationUrl`, and the cardholder's browser at `merchantRedirectUrl`.
//! [`recorded`] reads an answer recorded off the wire (a cassette) by its operation's
//! parser, as the live call would have read it.
//!
//! ## Features
//! - `http`: `Request::into_http` and `parse_http`, for stacks that speak the `http`
//!   crate.

#![forbid(unsafe_code)]

extern crate alloc;

pub mod answer;
mod base_url;
pub mod call;
mod context;
mod duplicates;
pub mod echo;
mod error;
mod fields;
#[cfg(feature = "http")]
mod http;
mod invoices;
mod lifecycle;
pub mod notification;
pub mod ops;
mod outcome;
mod pager;
pub mod recorded;
pub mod redact;
mod request;
mod signed;
mod wire;

pub use answer::{Field, FieldValue};
pub use base_url::BaseUrl;
pub use context::{AuthToken, Context, Username};
pub use duplicates::DuplicateStore;
pub use error::{Error, InvalidValue, Refusal, ShownError};
#[cfg(feature = "http")]
pub use http::parse_http;
pub use invoices::{Invoice, InvoiceCustomer};
pub use lifecycle::{AuthTokenLifecycle, DEFAULT_REFRESH_BEFORE, TOKEN_LIFETIME, TokenStep};
pub use ops::Operation;
pub use outcome::{CardSummary, PaymentStatus, Redirect, RedirectParameter, Transaction};
pub use pager::InvoicePager;
pub use request::{
    AUTH_TOKEN_HEADER, Body, FORM_CONTENT_TYPE, Header, Method, OperationKind, PathTemplate,
    Request,
};
pub use wire::Owner;
