//! When a request is sent again, and how long to wait first.

use core::time::Duration;

/// How often, and with what pauses, a request is sent again.
///
/// Which requests qualify is not the policy's to say: every call is sent again after a
/// connection that never opened (nothing left), and only reads (installments, lists,
/// inquiry, auth tokens) after a broken connection or a `5xx` status. A timeout is not
/// retried: the bound is the caller's.
///
/// The pause before attempt `n + 1` is drawn between half and all of
/// `min(max_backoff, initial_backoff × 2ⁿ⁻¹)` ("equal jitter"), so that clients that failed
/// together do not come back together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// The most times a request is sent, the first included; 1 turns retries off.
    pub max_attempts: u32,
    /// The pause before the second attempt, before jitter.
    pub initial_backoff: Duration,
    /// The longest pause, before jitter.
    pub max_backoff: Duration,
}

impl RetryPolicy {
    /// Three attempts, pausing about 100 ms then 200 ms.
    pub const DEFAULT: Self = Self {
        max_attempts: 3,
        initial_backoff: Duration::from_millis(100),
        max_backoff: Duration::from_secs(2),
    };

    /// One attempt: never send again.
    pub const NEVER: Self = Self {
        max_attempts: 1,
        initial_backoff: Duration::ZERO,
        max_backoff: Duration::ZERO,
    };

    /// The pause after failed attempt `attempt` (counting from 1), with its jitter drawn
    /// from `random`.
    #[must_use]
    pub(crate) fn backoff(&self, attempt: u32, random: u64) -> Duration {
        let doublings = attempt.saturating_sub(1).min(31);
        let ceiling = self
            .initial_backoff
            .saturating_mul(1 << doublings)
            .min(self.max_backoff);
        let nanos = u64::try_from(ceiling.as_nanos()).unwrap_or(u64::MAX);
        let half = nanos / 2;
        let spread = (nanos - half).saturating_add(1);
        Duration::from_nanos(half + random % spread)
    }
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn doubles_up_to_the_ceiling() {
        let policy = RetryPolicy::DEFAULT;
        assert_eq!(policy.backoff(1, 0), Duration::from_millis(50));
        assert_eq!(policy.backoff(2, 0), Duration::from_millis(100));
        assert_eq!(policy.backoff(3, 0), Duration::from_millis(200));
        assert_eq!(policy.backoff(30, 0), Duration::from_secs(1));
        assert_eq!(policy.backoff(30, 1_000_000_000), Duration::from_secs(2));
    }

    proptest! {
        #[test]
        fn pauses_stay_within_half_and_all_of_the_ceiling(
            attempt in 1u32..100,
            random: u64,
            initial_ms in 0u64..10_000,
            max_ms in 0u64..100_000,
        ) {
            let policy = RetryPolicy {
                max_attempts: 5,
                initial_backoff: Duration::from_millis(initial_ms),
                max_backoff: Duration::from_millis(max_ms),
            };
            let ceiling = Duration::from_millis(initial_ms)
                .saturating_mul(1 << (attempt - 1).min(31))
                .min(Duration::from_millis(max_ms));
            let pause = policy.backoff(attempt, random);
            prop_assert!(pause <= ceiling);
            prop_assert!(pause >= ceiling / 2);
        }
    }
}
