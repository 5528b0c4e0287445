//! When the answer is lost: a payment whose outcome is unknown is never sent again before
//! the gateway says what it did. `settle` (or `reconcile`, by merchant transaction id)
//! asks it; a lost refund that the status cannot settle is settled with what the shop
//! knows (`reconcile_move`).
//!
//! ```
//! use paytoken::prelude::*;
//! use paytoken::sandbox::{FaultTarget, Faults, TestGateway, cards};
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let gateway = TestGateway::start().await?;
//! let client = gateway.client();
//! let forty = Amount::new(40, 0)?;
//! let reserve = || {
//!     Payment::new(gateway.order_id(), forty, Currency::EUR, gateway.card(cards::APPROVED))
//!         .preauthorization()
//! };
//!
//! let first = client.pay(&reserve()).await?;
//! // The gateway processes the next payment and the answer is lost on the way back.
//! gateway.fault_next(FaultTarget::MONEY_MOVING, Faults::parse("drop=after")?);
//! let lost = reserve();
//! let error = client.pay(&lost).await.unwrap_err();
//! assert!(error.is_outcome_unknown());
//! assert_eq!(error.merchant_transaction_id(), Some(&lost.merchant_transaction_id));
//! let settled = client.settle(error).await?; // an inquiry, never a second payment
//! assert!(settled.is_approved());
//! // The same, by the merchant transaction id a shop keeps with the order.
//! assert!(client.reconcile(&lost.merchant_transaction_id).await?.is_approved());
//!
//! // A partial refund whose answer is lost: the payment's status before and after a first
//! // partial refund differ, so knowing both settles it.
//! let id = first.payment_id;
//! client.capture(&Capture::new(id, forty, Currency::EUR)).await?;
//! gateway.fault_next(FaultTarget::MONEY_MOVING, Faults::parse("drop=after")?);
//! let refund = Refund::new(id, Amount::new(10, 0)?, Currency::EUR);
//! let error = client.refund(&refund).await.unwrap_err();
//! assert_eq!(error.payment_id(), Some(&id));
//! let refunded = client
//!     .reconcile_move(
//!         OperationKind::Refund,
//!         &id,
//!         &TransactionState::CaptureSuccess,
//!         &TransactionState::MarkedForReversal,
//!     )
//!     .await?;
//! assert_eq!(refunded.payment_id, id);
//! gateway.shutdown().await;
//! # Ok(()) }
//! ```
//!
//! Or let the client settle every money-moving call's lost answer before it returns
//! (`settle_lost_answers`): the transaction the gateway holds, or `Error::StillUnknown`
//! saying what the inquiry found (no such payment, one still under way, an answer that
//! cannot tell), never a payment sent twice.
//!
//! ```
//! use paytoken::prelude::*;
//! use paytoken::sandbox::{FaultTarget, Faults, TestGateway, cards, client_builder};
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let gateway = TestGateway::start().await?;
//! let (builder, _) = client_builder(gateway.sandbox()).expect("the sandbox's merchant");
//! let client = builder.settle_lost_answers(true).build()?;
//! let card = gateway.card(cards::APPROVED);
//! let payment = Payment::new(gateway.order_id(), Amount::new(25, 0)?, Currency::EUR, card);
//! client.cards_and_accounts(&CardsAndAccounts::all()).await?; // signed in first
//! gateway.fault_next(FaultTarget::MONEY_MOVING, Faults::parse("drop=after")?);
//! let paid = client.pay(&payment).await?; // the answer was lost; the inquiry told
//! assert!(paid.is_approved());
//! assert_eq!(gateway.sandbox().books().len(), 1, "paid once");
//! gateway.shutdown().await;
//! # Ok(()) }
//! ```
