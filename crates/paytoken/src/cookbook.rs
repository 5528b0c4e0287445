//! Every operation and every recovery, each a recipe that runs (feature `sandbox`).
//!
//! Each recipe is an example that `cargo test` runs against the sandbox in the test's own
//! process ([`TestGateway`](crate::sandbox::TestGateway)) and that asserts what it shows.
//! In a shop, `gateway.client()` is your own [`Client`](crate::Client), built once:
//!
//! ```
//! use paytoken::prelude::*;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let client = Client::builder()
//!     .base_url("https://gateway.example")
//!     .credentials(Credentials::merchant(
//!         MemberId::new("11344")?,
//!         SecureKey::new(std::env::var("PAYTOKEN_SECURE_KEY").unwrap_or("key".into()))?,
//!     ))
//!     .fetch_auth_token(PartnerId::new("100")?, Username::new("shop.admin")?)
//!     .build()?;
//! # drop(client); Ok(()) }
//! ```
//!
//! | recipe | operations |
//! |---|---|
//! | [`payments`] | `pay` (a debit, storing the card, a pre-authorisation), a refusal, a decline |
//! | [`tokens`] | `register`, `pay_with_token` (`INITIAL`, `REPEATED`, installments), `installments`, `repeat_payment`, `delete_token` |
//! | [`customers`] | `customer_signup`, `cards_and_accounts` |
//! | [`back_office`] | `capture`, `refund`, `cancel`, `inquiry` |
//! | [`recovery`] | an unknown outcome: `reconcile`, `settle`, a lost refund with `reconcile_move` |
//! | [`three_d_secure`] | a challenged payment, approved on the sandbox's page |
//! | [`notifications`] | verifying what the gateway posts, once per payment; effects elsewhere fenced, or an outbox |
//! | [`invoices`] | `invoices` (a stream), `invoice_page`, `next_invoice_page`, `all_invoices` |
//! | [`auth_tokens`] | `fetch_auth_token`, `regenerate_auth_token` |
//! | [`tracing`] | every call a span, exported to OpenTelemetry (feature `opentelemetry`) |

pub mod auth_tokens;
pub mod back_office;
pub mod customers;
pub mod invoices;
pub mod notifications;
pub mod payments;
pub mod recovery;
pub mod three_d_secure;
pub mod tokens;
#[cfg(feature = "opentelemetry")]
pub mod tracing;
