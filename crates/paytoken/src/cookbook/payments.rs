//! Paying with a card: a debit, storing the card, a pre-authorisation; a refusal and a
//! decline.
//!
//! ```
//! use paytoken::prelude::*;
//! use paytoken::sandbox::{TestGateway, cards};
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let gateway = TestGateway::start().await?;
//! let client = gateway.client();
//!
//! // A debit that stores the card: the answer carries its token.
//! let payment = Payment::new(
//!     gateway.order_id(),
//!     Amount::new(50, 0)?,
//!     Currency::EUR,
//!     gateway.card(cards::APPROVED),
//! )
//! .store_card();
//! let paid = client.pay(&payment).await?;
//! assert_eq!(paid.status, PaymentStatus::Approved);
//! assert!(paid.registration_id.value().is_some());
//!
//! // A pre-authorisation reserves the amount; `back_office` captures it.
//! let reserved = Payment::new(
//!     gateway.order_id(),
//!     Amount::from_minor_units(1999),
//!     Currency::EUR,
//!     gateway.card(cards::APPROVED),
//! )
//! .preauthorization();
//! assert!(client.pay(&reserved).await?.is_approved());
//!
//! // The bank declines: an answer, not an error.
//! let declined = Payment::new(
//!     gateway.order_id(),
//!     Amount::new(10, 0)?,
//!     Currency::EUR,
//!     gateway.card(cards::DECLINED),
//! );
//! assert_eq!(client.pay(&declined).await?.status, PaymentStatus::Declined);
//!
//! // The gateway refuses what it cannot take (here a currency it does not know): nothing
//! // was processed, and the refusal carries the gateway's code.
//! let refused = Payment::new(
//!     gateway.order_id(),
//!     Amount::new(10, 0)?,
//!     "XXX".parse()?,
//!     gateway.card(cards::APPROVED),
//! );
//! match client.pay(&refused).await {
//!     Err(error) => match error.kind() {
//!         ErrorKind::Refused(refusal) => {
//!             assert_eq!(refusal.result.code.as_str(), "30016"); // the sandbox's "unknown currency"
//!             assert!(!error.may_have_been_processed());
//!         }
//!         ErrorKind::OutcomeUnknown => { /* settle it: see `recovery` */ }
//!         other => panic!("{other:?}: {error}"),
//!     },
//!     Ok(transaction) => panic!("{transaction:?}"),
//! }
//! gateway.shutdown().await;
//! # Ok(()) }
//! ```
