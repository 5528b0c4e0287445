//! 3-D Secure: a payment that waits for the cardholder. Send their browser to the
//! redirect (a `POST` of its parameters); the gateway settles the payment when they have
//! authenticated, and tells the shop by notification and by the browser's return.
//!
//! ```
//! use paytoken::prelude::*;
//! use paytoken::sandbox::{TestGateway, cards};
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let gateway = TestGateway::start().await?;
//! let client = gateway.client();
//! let payment = Payment::new(
//!     gateway.order_id(),
//!     Amount::new(60, 0)?,
//!     Currency::EUR,
//!     gateway.card(cards::THREE_D_SECURE),
//! )
//! .merchant_redirect_url("https://shop.example/return");
//! let waiting = client.pay(&payment).await?;
//! let PaymentStatus::ThreeDSecure { redirect: Some(redirect) } = &waiting.status else {
//!     panic!("a challenge");
//! };
//! // What the shop's page posts from the cardholder's browser.
//! assert_eq!(redirect.method, "POST");
//! assert!(redirect.parameters.iter().any(|p| p.name == "TermUrl"));
//!
//! // In a test, the cardholder approves on the sandbox's page without a browser.
//! assert!(gateway.approve_3ds(&waiting));
//! let settled = client.inquiry(&Inquiry::ByPaymentId(waiting.payment_id)).await?;
//! assert_eq!(settled.transaction_status, Some(TransactionStatus::Approved));
//! gateway.shutdown().await;
//! # Ok(()) }
//! ```
