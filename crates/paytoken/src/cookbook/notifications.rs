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
