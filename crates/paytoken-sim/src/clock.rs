//! The sandbox's clock in a simulated run: the runtime's virtual time, from a fixed start,
//! and whatever the network skipped ahead to let auth tokens expire.

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use paytoken_sandbox::Clock;
use tokio::time::Instant;

/// Where a run's clock starts: 2026-11-29 00:00:00 UTC, the same every run.
const START_UNIX_SECONDS: i64 = 1_796_083_200;

/// Virtual seconds since the run began, plus the skips.
#[derive(Debug)]
pub(crate) struct VirtualClock {
    began: Instant,
    skipped: AtomicI64,
}

impl VirtualClock {
    /// A clock at the start, on the paused runtime's time.
    pub(crate) fn start() -> Self {
        Self {
            began: Instant::now(),
            skipped: AtomicI64::new(0),
        }
    }

    /// Moves the sandbox's time (not the client's) forward by `by`.
    pub(crate) fn skip(&self, by: Duration) {
        let seconds = i64::try_from(by.as_secs()).unwrap_or(i64::MAX);
        self.skipped.fetch_add(seconds, Ordering::SeqCst);
    }

    /// Virtual milliseconds since the run began, for the history.
    pub(crate) fn millis(&self) -> u128 {
        self.began.elapsed().as_millis()
    }
}

impl Clock for VirtualClock {
    fn unix_seconds(&self) -> i64 {
        let elapsed = i64::try_from(self.began.elapsed().as_secs()).unwrap_or(i64::MAX);
        START_UNIX_SECONDS
            .saturating_add(elapsed)
            .saturating_add(self.skipped.load(Ordering::SeqCst))
    }
}
