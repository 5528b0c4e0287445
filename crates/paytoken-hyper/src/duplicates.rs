//! [`MemoryDuplicates`]: a shop's [`DuplicateStore`] in this process's memory, its leases on
//! tokio's clock (so that a paused test clock moves them too).

use std::convert::Infallible;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use paytoken_protocol::DuplicateStore;
use paytoken_protocol::notification::{Claim, DuplicateFilter, DuplicateKey, Fence};
use tokio::time::Instant;

/// A [`DuplicateStore`] in this process's memory (a [`DuplicateFilter`]): the newest
/// `capacity` keys acted on, and the claims on those being acted on, each for its lease.
/// For a shop that runs one instance; several share a database table.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use std::time::Duration;
/// use paytoken_hyper::MemoryDuplicates;
/// use paytoken_protocol::DuplicateStore as _;
/// use paytoken_protocol::notification::{Claim, DuplicateKey};
///
/// let seen = MemoryDuplicates::new(10_000);
/// let key = DuplicateKey { payment_id: "60001".parse().unwrap(), transaction_status: "Y".into() };
/// let lease = Duration::from_secs(30);
/// let Ok(Claim::Claimed(fence)) = seen.claim(&key, lease).await else { panic!("a new one") };
/// assert_eq!(seen.claim(&key, lease).await, Ok(Claim::Busy), "the repeat while acting");
/// assert_eq!(seen.done(&key, fence).await, Ok(true));
/// assert_eq!(seen.claim(&key, lease).await, Ok(Claim::Done));
/// # }
/// ```
#[derive(Debug)]
pub struct MemoryDuplicates {
    filter: Mutex<DuplicateFilter>,
    /// Where the filter's timeline starts.
    since: Instant,
}

impl MemoryDuplicates {
    /// Remembers the newest `capacity` notifications (at least one).
    #[must_use]
    pub fn new(capacity: usize) -> Self {
        Self {
            filter: Mutex::new(DuplicateFilter::new(capacity)),
            since: Instant::now(),
        }
    }

    fn filter(&self) -> MutexGuard<'_, DuplicateFilter> {
        // Each change to the filter is whole: a poison means nothing.
        self.filter.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl DuplicateStore for MemoryDuplicates {
    type Error = Infallible;

    async fn claim(&self, key: &DuplicateKey, lease: Duration) -> Result<Claim, Infallible> {
        Ok(self.filter().claim(key, self.since.elapsed(), lease))
    }

    async fn done(&self, key: &DuplicateKey, fence: Fence) -> Result<bool, Infallible> {
        Ok(self.filter().done(key, fence))
    }

    async fn release(&self, key: &DuplicateKey, fence: Fence) -> Result<(), Infallible> {
        self.filter().release(key, fence);
        Ok(())
    }
}
