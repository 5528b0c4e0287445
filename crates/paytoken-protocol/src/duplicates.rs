//! Where a shop remembers the notifications it has acted on, and those it is acting on, so
//! that the gateway's repeat, or a replay, is acted on once: in this process's memory
//! (`paytoken::MemoryDuplicates`), or in a store its instances share (a database table
//! with a unique key; `examples/duplicates_sqlite.rs` of the `paytoken` crate is one).

use core::time::Duration;
use std::future::Future;

use crate::notification::{Claim, DuplicateKey, Fence};

/// Remembers notifications by their [`DuplicateKey`]
/// ([`VerifiedNotification::duplicate_key`](crate::notification::VerifiedNotification::duplicate_key)).
///
/// A handler [`claim`](Self::claim)s each verified notification for a lease before acting
/// on it: [`Claim::Claimed`], act, then [`done`](Self::done) with the claim's [`Fence`]
/// (answer `2xx`), or [`release`](Self::release) when acting failed (answer with an error,
/// so that the gateway's retry is claimed again); [`Claim::Done`], answer `2xx`;
/// [`Claim::Busy`], answer `503` so that the gateway tries again once the handler acting on
/// it has finished. Told "done" while the first handler still acts, a repeat would be
/// answered `2xx`, and the gateway would stop sending a notification that may yet fail.
///
/// A claim whose lease ran out (its handler died, or was cancelled) may be claimed again,
/// a done key never. `done` succeeds only while the fence still holds the claim: a handler
/// that outlived its lease, and whose key another handler claimed since, learns that its
/// work may be done twice. Where the action writes to the store's own database, make the
/// action and the done mark one transaction that checks the fence; where it lives
/// elsewhere, make it idempotent by the notification's key.
///
/// `claim` must decide atomically: of two instances handed the same notification at once,
/// one is told [`Claim::Claimed`]. A table with the key as its primary key, written with an
/// insert that takes a missing or lapsed row only, does that.
pub trait DuplicateStore: Send + Sync {
    /// Why the store could not answer (the database is down): the handler answers the
    /// gateway with an error, and its retry comes back.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Claims `key` for the caller, for `lease`, when nobody acted on it and no live claim
    /// holds it; what the caller may do with it.
    fn claim(
        &self,
        key: &DuplicateKey,
        lease: Duration,
    ) -> impl Future<Output = Result<Claim, Self::Error>> + Send;

    /// Marks `key` acted on when `fence` still holds its claim: whether it did. From then
    /// on it is a duplicate.
    fn done(
        &self,
        key: &DuplicateKey,
        fence: Fence,
    ) -> impl Future<Output = Result<bool, Self::Error>> + Send;

    /// Lets go of the claim `fence` holds on `key`, whose action failed: the gateway's
    /// retry is claimed again.
    fn release(
        &self,
        key: &DuplicateKey,
        fence: Fence,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send;
}
