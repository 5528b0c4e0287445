//! Where a shop remembers the notifications it has acted on, and those it is acting on, so
//! that the gateway's repeat, or a replay, is acted on once: in this process's memory, or in
//! a store its instances share (a database table with a unique key;
//! `examples/duplicates_sqlite.rs` of the `paytoken` crate is one).

use std::convert::Infallible;
use std::future::Future;
use std::sync::{Mutex, PoisonError};

use crate::notification::{Claim, DuplicateFilter, DuplicateKey};

/// Remembers notifications by their [`DuplicateKey`]
/// ([`VerifiedNotification::duplicate_key`](crate::notification::VerifiedNotification::duplicate_key)).
///
/// A handler [`claim`](Self::claim)s each verified notification before acting on it:
/// [`Claim::Claimed`], act, then [`done`](Self::done) (answer `2xx`), or
/// [`release`](Self::release) when acting failed (answer with an error, so that the
/// gateway's retry is claimed again); [`Claim::Done`], answer `2xx`; [`Claim::Busy`],
/// answer `503` so that the gateway tries again once the handler acting on it has
/// finished. Told "done" while the first handler still acts, a repeat would be answered
/// `2xx`, and the gateway would stop sending a notification that may yet fail.
///
/// `claim` must decide atomically: of two instances handed the same notification at once,
/// one is told [`Claim::Claimed`]. A table with the key as its primary key and a state
/// column, written with an insert that skips a key already there, does that. Run the
/// action on a task of its own (`tokio::spawn`), so that a gateway hanging up does not
/// cancel it between its claim and its end.
pub trait DuplicateStore: Send + Sync {
    /// Why the store could not answer (the database is down): the handler answers the
    /// gateway with an error, and its retry comes back.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Claims `key` for the caller when nobody acted on it or is acting on it; what the
    /// caller may do with it.
    fn claim(&self, key: &DuplicateKey) -> impl Future<Output = Result<Claim, Self::Error>> + Send;

    /// Marks `key`, claimed by the caller, acted on: from now on it is a duplicate.
    fn done(&self, key: &DuplicateKey) -> impl Future<Output = Result<(), Self::Error>> + Send;

    /// Lets go of the caller's claim on `key`, whose action failed: the gateway's retry
    /// is claimed again.
    fn release(&self, key: &DuplicateKey) -> impl Future<Output = Result<(), Self::Error>> + Send;
}

/// A [`DuplicateStore`] in this process's memory ([`DuplicateFilter`]): the newest
/// `capacity` keys acted on. For a shop that runs one instance.
#[derive(Debug)]
pub struct MemoryDuplicates(Mutex<DuplicateFilter>);

impl MemoryDuplicates {
    /// Remembers the newest `capacity` notifications (at least one).
    #[must_use]
    pub fn new(capacity: usize) -> Self {
        Self(Mutex::new(DuplicateFilter::new(capacity)))
    }

    fn filter(&self) -> std::sync::MutexGuard<'_, DuplicateFilter> {
        // Each change to the filter is whole: a poison means nothing.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl DuplicateStore for MemoryDuplicates {
    type Error = Infallible;

    async fn claim(&self, key: &DuplicateKey) -> Result<Claim, Infallible> {
        Ok(self.filter().claim(key))
    }

    async fn done(&self, key: &DuplicateKey) -> Result<(), Infallible> {
        self.filter().done(key);
        Ok(())
    }

    async fn release(&self, key: &DuplicateKey) -> Result<(), Infallible> {
        self.filter().release(key);
        Ok(())
    }
}
