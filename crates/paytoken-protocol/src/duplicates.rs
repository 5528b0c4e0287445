//! Where a shop remembers the notifications it has acted on, so that the gateway's repeat,
//! or a replay, is acted on once: in this process's memory, or in a store its instances
//! share (a database table with a unique key; `examples/duplicates_sqlite.rs` of the
//! `paytoken` crate is one).

use std::convert::Infallible;
use std::future::Future;
use std::sync::{Mutex, PoisonError};

use crate::notification::{DuplicateFilter, DuplicateKey};

/// Remembers notifications by their [`DuplicateKey`]
/// ([`VerifiedNotification::duplicate_key`](crate::notification::VerifiedNotification::duplicate_key)).
///
/// `first_time` must decide atomically: of two instances handed the same notification at
/// once, one is told "first". A table with the key as its primary key, written with an
/// insert that skips a key already there, does that.
pub trait DuplicateStore: Send + Sync {
    /// Why the store could not answer (the database is down): the handler answers the
    /// gateway with an error, and its retry comes back.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Records `key`; whether it was not recorded before (act on the notification now).
    fn first_time(
        &self,
        key: &DuplicateKey,
    ) -> impl Future<Output = Result<bool, Self::Error>> + Send;

    /// Forgets `key`, for a handler whose own work on the notification failed: the
    /// gateway's retry then counts as the first.
    fn forget(&self, key: &DuplicateKey) -> impl Future<Output = Result<(), Self::Error>> + Send;
}

/// A [`DuplicateStore`] in this process's memory: the newest `capacity` keys. For a shop
/// that runs one instance.
#[derive(Debug)]
pub struct MemoryDuplicates(Mutex<DuplicateFilter>);

impl MemoryDuplicates {
    /// Remembers the newest `capacity` notifications (at least one).
    #[must_use]
    pub fn new(capacity: usize) -> Self {
        Self(Mutex::new(DuplicateFilter::new(capacity)))
    }
}

impl DuplicateStore for MemoryDuplicates {
    type Error = Infallible;

    async fn first_time(&self, key: &DuplicateKey) -> Result<bool, Infallible> {
        let mut filter = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(filter.first_time_key(key.clone()))
    }

    async fn forget(&self, key: &DuplicateKey) -> Result<(), Infallible> {
        let mut filter = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        filter.forget_key(key);
        Ok(())
    }
}
