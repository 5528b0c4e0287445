//! Notifications: when a payment settles after its answer (3-D Secure, pending), the
//! gateway posts the outcome to its `notificationUrl`, maybe more than once, and again
//! while the first is still being handled. Verify each with the secure key before acting
//! on it, and act once: claim it for a lease, act, then mark it done with the claim's
//! fence (a handler that outlived its lease, its key claimed again since, is told so).
//! (`examples/notifications_axum.rs` and `notifications_hyper.rs` are whole endpoints.)
//!
//! ```
//! use std::time::Duration;
//!
//! use paytoken::notification::{Claim, Notification};
//! use paytoken::prelude::*;
//! use paytoken::sandbox::{TestGateway, cards};
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let gateway = TestGateway::start().await?;
//! let payment = Payment::new(
//!     gateway.order_id(),
//!     Amount::new(15, 0)?,
//!     Currency::EUR,
//!     gateway.card(cards::THREE_D_SECURE),
//! )
//! // Nothing listens here: the sandbox keeps what it sent, which is what a handler gets.
//! .notification_url("http://127.0.0.1:9/notifications");
//! let paid = gateway.client().pay(&payment).await?;
//! assert!(gateway.approve_3ds(&paid)); // the cardholder authenticates; the gateway notifies
//! let mut sent = gateway.sandbox().notifications();
//! for _ in 0..100 {
//!     if !sent.is_empty() {
//!         break;
//!     }
//!     tokio::time::sleep(Duration::from_millis(20)).await;
//!     sent = gateway.sandbox().notifications();
//! }
//! let body = sent.first().expect("a notification").body.as_bytes();
//!
//! // What a handler does with the request's content type and raw body. One instance keeps
//! // what it has acted on in memory; several share a table (`examples/duplicates_sqlite.rs`).
//! let seen = MemoryDuplicates::new(10_000);
//! let verified = Notification::from_request(Some("application/json"), body)?
//!     .verify(gateway.secure_key())?;
//! assert_eq!(verified.payment_id, paid.payment_id);
//! assert_eq!(verified.status, PaymentStatus::Approved);
//! let (key, lease) = (verified.duplicate_key(), Duration::from_secs(30));
//! let Claim::Claimed(fence) = seen.claim(&key, lease).await? else {
//!     panic!("the first delivery is new")
//! };
//! // Fulfil the order now. The gateway's repeat meanwhile: answer 503, it comes back.
//! assert_eq!(seen.claim(&key, lease).await?, Claim::Busy);
//! // Fulfilled: answer 200 (had it failed: `release`, answer 500). With the order in the
//! // same database as the store, the fulfilment and this mark are one transaction.
//! assert!(seen.done(&key, fence).await?);
//! let again = Notification::from_request(Some("application/json"), body)?
//!     .verify(gateway.secure_key())?;
//! assert_eq!(seen.claim(&again.duplicate_key(), lease).await?, Claim::Done); // 200, do nothing
//!
//! // A forgery fails its checksum.
//! let forged = String::from_utf8_lossy(body).replace("\"Y\"", "\"N\"");
//! let read = Notification::from_request(Some("application/json"), forged.as_bytes())?;
//! assert!(read.verify(gateway.secure_key()).is_err());
//! gateway.shutdown().await;
//! # Ok(()) }
//! ```
//!
//! Several instances share their claims in a database: `postgres::PostgresDuplicates`
//! (feature `postgres`) keeps them in a PostgreSQL table with leases on the database's
//! clock, through each instance's own pool (`deadpool_postgres`, which replaces the
//! connections a restarted server dropped), and its `done_in` marks a key done inside the
//! transaction that fulfils the order, so both commit or neither does. While the database
//! cannot be reached, every call is an error: answer `503`, and the gateway sends the
//! notification again. `examples/duplicates_sqlite.rs` does the same on SQLite.
//!
//! # Effects outside the database
//!
//! An action in another system (a warehouse's API, a message) cannot join the done mark's
//! transaction, and a handler paused past its lease may act beside the one that took its
//! key over. Hand the other system the notification's key and the claim's fence: it acts
//! once per key, and refuses a fence lower than the highest it has seen for the key.
//!
//! ```
//! use std::collections::HashMap;
//! use std::time::Duration;
//!
//! use paytoken::notification::{Claim, DuplicateKey, Fence};
//! use paytoken::prelude::*;
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! /// The other system: ships each order once, and never for a holder fenced out.
//! #[derive(Default)]
//! struct Warehouse {
//!     shipped: HashMap<String, u64>,
//! }
//!
//! impl Warehouse {
//!     fn ship(&mut self, key: &DuplicateKey, fence: Fence) -> Result<(), &'static str> {
//!         match self.shipped.get(&key.to_string()) {
//!             Some(&highest) if fence.get() < highest => Err("a later claim holds this key"),
//!             Some(_) => Ok(()), // shipped already: once per key
//!             None => {
//!                 self.shipped.insert(key.to_string(), fence.get());
//!                 Ok(())
//!             }
//!         }
//!     }
//! }
//!
//! let (seen, mut warehouse) = (MemoryDuplicates::new(10_000), Warehouse::default());
//! let key = DuplicateKey { payment_id: "60001".parse()?, transaction_status: "Y".into() };
//! // A handler claims, then pauses past its lease (none here); another takes the key over.
//! let Claim::Claimed(paused) = seen.claim(&key, Duration::ZERO).await? else { panic!() };
//! let Claim::Claimed(fence) = seen.claim(&key, Duration::from_secs(30)).await? else {
//!     panic!("a lapsed claim is taken over")
//! };
//! warehouse.ship(&key, fence)?;
//! assert!(seen.done(&key, fence).await?); // answer 200
//! // The paused handler wakes: the warehouse refuses it, and its mark changes nothing.
//! assert!(warehouse.ship(&key, paused).is_err());
//! assert!(!seen.done(&key, paused).await?); // answer 503; the gateway's retry is Done
//! assert_eq!(warehouse.shipped.len(), 1);
//! # Ok(()) }
//! ```
//!
//! With the store on PostgreSQL, an outbox does it without the other system's help: write
//! what is to be sent as a row in the transaction that marks the key done, so both commit
//! or neither does, and let a relay send the rows afterwards, each by its key (the fleet
//! test's shop acts this way: `tests/it/postgres/`).
//!
//! ```no_run
//! use paytoken::notification::{DuplicateKey, Fence};
//! use paytoken::postgres::PostgresDuplicates;
//!
//! /// After `Claim::Claimed(fence)`: the outbox row and the done mark, or neither.
//! async fn ship_once(
//!     store: &PostgresDuplicates,
//!     key: &DuplicateKey,
//!     fence: Fence,
//! ) -> Result<u16, Box<dyn std::error::Error>> {
//!     let mut connection = store.pool().get().await?;
//!     let transaction = connection.transaction().await?;
//!     transaction
//!         .execute(
//!             "INSERT INTO outbox (key, message) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
//!             &[&key.to_string(), &"ship the order"],
//!         )
//!         .await?;
//!     if PostgresDuplicates::done_in(&*transaction, key, fence).await? {
//!         transaction.commit().await?;
//!         return Ok(200);
//!     }
//!     Ok(503) // dropped uncommitted: the claim that took the key over writes the row
//! }
//! ```
