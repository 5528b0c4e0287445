//! The sandbox's clock, injectable so that tests can jump an hour and see a token expire.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use paytoken_types::Timestamp;
use tokio::sync::Notify;

/// The most the sandbox's clock may be moved forward in all: a century, far past any
/// token, retry or challenge a test waits for, and far short of the year 9999 where
/// timestamps and HTTP dates end. An advance past it is refused, nothing moved.
pub const MAX_CLOCK_ADVANCE: Duration = Duration::from_secs(100 * 366 * 86_400);

/// [`MAX_CLOCK_ADVANCE`] in the clock's milliseconds.
const MAX_ADVANCED_MILLIS: i64 = 100 * 366 * 86_400 * 1000;

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
}

impl Clock for ManualClock {
    fn unix_seconds(&self) -> i64 {
        self.seconds.load(Ordering::SeqCst)
    }
}

/// The clock the sandbox runs on: the clock it was given, moved forward by what the
/// console advanced it by ([`crate::Sandbox::advance_clock`]). It never moves back.
///
/// Waits the sandbox schedules (a notification's retry, `notify=late`) run on it too:
/// [`SandboxClock::wait`] ends when real time plus the advances since it began cover the
/// wait, so an advance fires at once what falls due.
#[derive(Debug)]
pub(crate) struct SandboxClock {
    base: Arc<dyn Clock>,
    /// Milliseconds advanced so far.
    advanced: AtomicI64,
    moved: Notify,
}

impl SandboxClock {
    pub(crate) fn new(base: Arc<dyn Clock>) -> Self {
        Self {
            base,
            advanced: AtomicI64::new(0),
            moved: Notify::new(),
        }
    }

    /// Seconds since 1970-01-01 00:00:00 UTC on this clock.
    pub(crate) fn now(&self) -> i64 {
        self.base
            .unix_seconds()
            .saturating_add(self.advanced_millis() / 1000)
    }

    /// How far the console has moved the clock, in milliseconds.
    pub(crate) fn advanced_millis(&self) -> i64 {
        self.advanced.load(Ordering::SeqCst)
    }

    /// Moves the clock forward by `by` (whole milliseconds), waking every wait; past
    /// [`MAX_CLOCK_ADVANCE`] in all, nothing moves and the error says how much is left.
    pub(crate) fn advance(&self, by: Duration) -> Result<(), Duration> {
        let millis = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        self.advanced
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |now| {
                now.checked_add(millis)
                    .filter(|next| *next <= MAX_ADVANCED_MILLIS)
            })
            .map_err(|now| {
                let left = MAX_ADVANCED_MILLIS.saturating_sub(now).max(0);
                Duration::from_millis(u64::try_from(left).unwrap_or(0))
            })?;
        self.moved.notify_waiters();
        Ok(())
    }

    /// Sets the advance a state file kept, before the sandbox serves: within
    /// [`MAX_CLOCK_ADVANCE`], as every advance is.
    pub(crate) fn restore(&self, advanced_millis: i64) {
        self.advanced.store(
            advanced_millis.clamp(0, MAX_ADVANCED_MILLIS),
            Ordering::SeqCst,
        );
    }

    /// Waits `length` on this clock: real time and advances both count.
    pub(crate) async fn wait(&self, length: Duration) {
        let started = tokio::time::Instant::now();
        let advanced_before = self.advanced_millis();
        loop {
            let moved = self.moved.notified();
            let advanced = Duration::from_millis(
                u64::try_from(self.advanced_millis().saturating_sub(advanced_before)).unwrap_or(0),
            );
            let Some(left) = length
                .checked_sub(started.elapsed())
                .and_then(|left| left.checked_sub(advanced))
                .filter(|left| !left.is_zero())
            else {
                return;
            };
            tokio::select! {
                () = tokio::time::sleep(left) => {}
                () = moved => {}
            }
        }
    }
}

impl Clock for SandboxClock {
    fn unix_seconds(&self) -> i64 {
        self.now()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_moves_a_century_in_all_and_no_further() {
        let clock = SandboxClock::new(Arc::new(ManualClock::at_unix_seconds(0)));
        let decade = Duration::from_secs(10 * 366 * 86_400);
        for _ in 0..10 {
            assert_eq!(clock.advance(decade), Ok(()));
        }
        assert_eq!(clock.advance(Duration::from_secs(1)), Err(Duration::ZERO));
        assert_eq!(
            u64::try_from(clock.advanced_millis()).unwrap(),
            u64::try_from(MAX_CLOCK_ADVANCE.as_millis()).unwrap()
        );
        clock.restore(i64::MAX);
        assert_eq!(clock.advanced_millis(), MAX_ADVANCED_MILLIS);
    }
}
