//! Stored cards (tokens): registering one, charging it (plain, the first and a later one
//! of a series, in installments), repeating a series' first payment, deleting the token.
//!
//! ```
//! use paytoken::prelude::*;
//! use paytoken::sandbox::{TestGateway, cards};
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let gateway = TestGateway::start().await?;
//! let client = gateway.client();
//!
//! // A token without a payment; this card's issuer offers installments.
//! let registered = client
//!     .register(&Registration::card(gateway.card(cards::INSTALLMENTS)))
//!     .await?;
//! let token = registered.registration_id;
//! let plans = client.installments(&Installments::new(token)).await?;
//! let count = *plans.counts.first().expect("a plan");
//!
//! // The first payment of a series, then a later one the shop starts itself.
//! let first = TokenPayment::new(token, Amount::new(30, 0)?, Currency::EUR)
//!     .recurring(RecurringType::Initial);
//! assert!(client.pay_with_token(&first).await?.is_approved());
//! let later = TokenPayment::new(token, Amount::new(30, 0)?, Currency::EUR)
//!     .recurring(RecurringType::Repeated);
//! let charged = client.pay_with_token(&later).await?;
//! assert!(charged.is_approved());
//! // A payment without a merchant transaction id is given one, so it can be settled.
//! assert!(charged.merchant_transaction_id.is_some());
//!
//! // In installments, as the issuer offers.
//! let split = TokenPayment::new(token, Amount::new(90, 0)?, Currency::EUR).installment(count);
//! assert!(client.pay_with_token(&split).await?.is_approved());
//!
//! // A card payment that opens a series, repeated by its payment id.
//! let opening = Payment::new(
//!     gateway.order_id(),
//!     Amount::new(12, 0)?,
//!     Currency::EUR,
//!     gateway.card(cards::APPROVED),
//! )
//! .store_card()
//! .recurring(RecurringType::Initial);
//! let opened = client.pay(&opening).await?;
//! let repeat = RepeatPayment::new(opened.payment_id, Amount::new(12, 0)?, Currency::EUR);
//! assert!(client.repeat_payment(&repeat).await?.is_approved());
//!
//! // A deleted token is refused from then on.
//! client.delete_token(&DeleteToken::new(token)).await?;
//! let after = TokenPayment::new(token, Amount::new(1, 0)?, Currency::EUR);
//! assert!(client.pay_with_token(&after).await.unwrap_err().refusal().is_some());
//! gateway.shutdown().await;
//! # Ok(()) }
//! ```
