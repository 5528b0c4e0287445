//! The back office: capturing a pre-authorisation, refunding part of it, cancelling
//! another, and reading a payment again by inquiry.
//!
//! ```
//! use paytoken::prelude::*;
//! use paytoken::sandbox::{TestGateway, cards};
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let gateway = TestGateway::start().await?;
//! let client = gateway.client();
//! let reserve = |amount: Amount| {
//!     Payment::new(gateway.order_id(), amount, Currency::EUR, gateway.card(cards::APPROVED))
//!         .preauthorization()
//! };
//!
//! let reserved = client.pay(&reserve(Amount::new(80, 0)?)).await?;
//! let id = reserved.payment_id;
//! client.capture(&Capture::new(id, Amount::new(80, 0)?, Currency::EUR)).await?;
//! client.refund(&Refund::new(id, Amount::new(30, 0)?, Currency::EUR)).await?;
//! let now = client.inquiry(&Inquiry::ByPaymentId(id)).await?;
//! assert_eq!(now.state.value(), Some(&TransactionState::MarkedForReversal));
//!
//! let other = client.pay(&reserve(Amount::new(5, 0)?)).await?;
//! client.cancel(&Cancel::new(other.payment_id)).await?;
//!
//! // The sandbox's books say what moved.
//! let books = gateway.sandbox().books();
//! assert_eq!(books.len(), 2);
//! gateway.shutdown().await;
//! # Ok(()) }
//! ```
