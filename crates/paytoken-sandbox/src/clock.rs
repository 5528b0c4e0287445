//! The sandbox's clock, injectable so that tests can jump an hour and see a token expire.

use std::fmt;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use paytoken_types::Timestamp;

/// Where the sandbox reads the time: for auth-token expiry, card expiry and the
/// `timestamp` of every answer.
pub trait Clock: Send + Sync + fmt::Debug {
    /// Seconds since 1970-01-01 00:00:00 UTC.
    fn unix_seconds(&self) -> i64;
}

/// The machine's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn unix_seconds(&self) -> i64 {
        // A clock before 1970 is a broken machine; the epoch is as good an answer as any.
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| {
                i64::try_from(since.as_secs()).unwrap_or(i64::MAX)
            })
    }
}

/// A clock that moves only when told to: share it (`Arc<ManualClock>`) between the
/// sandbox and the test.
///
/// ```
/// use std::time::Duration;
/// use paytoken_sandbox::{Clock, ManualClock};
///
/// let clock = ManualClock::at_unix_seconds(1_795_000_000);
/// clock.advance(Duration::from_secs(3600));
/// assert_eq!(clock.unix_seconds(), 1_795_003_600);
/// ```
#[derive(Debug)]
pub struct ManualClock {
    seconds: AtomicI64,
}

impl ManualClock {
    /// A clock standing at `seconds` after the epoch.
    #[must_use]
    pub const fn at_unix_seconds(seconds: i64) -> Self {
        Self {
            seconds: AtomicI64::new(seconds),
        }
    }

    /// A clock standing at `time` (read as UTC).
    #[must_use]
    pub fn at(time: Timestamp) -> Self {
        Self::at_unix_seconds(time.unix_seconds())
    }

    /// Moves the clock forward by whole seconds.
    pub fn advance(&self, by: Duration) {
        let seconds = i64::try_from(by.as_secs()).unwrap_or(i64::MAX);
        // fetch_update cannot fail with a closure that always returns Some.
        let _ = self
            .seconds
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |now| {
                Some(now.saturating_add(seconds))
            });
    }

    /// Sets the clock to `seconds` after the epoch.
    pub fn set_unix_seconds(&self, seconds: i64) {
        self.seconds.store(seconds, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn unix_seconds(&self) -> i64 {
        self.seconds.load(Ordering::SeqCst)
    }
}
