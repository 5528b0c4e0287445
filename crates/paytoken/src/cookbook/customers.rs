//! Customers: signing one up, storing a card for them, listing their cards and accounts.
//!
//! ```
//! use paytoken::prelude::*;
//! use paytoken::sandbox::{TestGateway, cards};
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let gateway = TestGateway::start().await?;
//! let client = gateway.client();
//!
//! let customer = Customer {
//!     given_name: Some("Zoë".into()),
//!     surname: Some("O'Neil".into()),
//!     email: Some(Email::new("zoe@example.com")?),
//!     ..Customer::default()
//! };
//! let signed_up = client.customer_signup(&CustomerSignup::new(customer)).await?;
//! let customer_id = signed_up.customer_id;
//!
//! // A card stored for the customer, with their first payment.
//! let payment = Payment::new(
//!     gateway.order_id(),
//!     Amount::new(25, 0)?,
//!     Currency::EUR,
//!     gateway.card(cards::APPROVED),
//! )
//! .store_card()
//! .customer(Customer {
//!     customer_id: Some(customer_id),
//!     ..Customer::default()
//! });
//! client.pay(&payment).await?;
//!
//! let stored = client
//!     .cards_and_accounts(&CardsAndAccounts::of_customer(customer_id))
//!     .await?;
//! assert_eq!(stored.cards.len(), 1);
//! assert_eq!(stored.cards[0].last_four.as_deref(), Some("0051"));
//! gateway.shutdown().await;
//! # Ok(()) }
//! ```
