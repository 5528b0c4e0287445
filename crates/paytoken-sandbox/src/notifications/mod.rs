//! Notifications: the sandbox's calls to a payment's `notificationUrl` when its outcome
//! becomes known later than its answer.
//!
//! Two outcomes come late: a 3-D Secure payment's, when the cardholder approves or declines
//! on the sandbox's challenge page, and a pending payment's, which the sandbox approves
//! once [`SandboxBuilder::pending_settles_after`](crate::SandboxBuilder::pending_settles_after)
//! has passed on its clock. A payment whose answer already said approved or declined gets no
//! notification (the gateway's behaviour: the notification is for what the answer could
//! not tell).
//!
//! The notification is a `POST` of a JSON body shaped like a payment's answer, with the
//! long `status` and a `checksum`: MD5 over `paymentId|merchantTransactionId|amount|`
//! `transactionStatus|secureKey` (the key of whoever made the payment, last; the short
//! status), over the texts the body carries. It is delivered at least once: an attempt that
//! fails to connect, times out or is answered with anything but `2xx` is tried again after
//! a wait that doubles, up to [`NotificationPolicy::attempts`]. Every notification and each
//! of its attempts is kept ([`Sandbox::notifications`](crate::Sandbox::notifications), the
//! newest [`NOTIFICATIONS_KEPT`]).
//!
//! The sandbox sends over plain `http` only, and by default only to loopback addresses (a
//! host name is resolved, and every address must be loopback): a sandbox cannot be made to
//! post at the machines of a network by whoever can make a payment.
//! [`NotificationTargets::Anywhere`] lifts that. Whatever the targets, the sandbox never
//! delivers to its own port on any address of this machine, and every delivery carries
//! the [`DELIVERY_MARK`] header, which every sandbox refuses (`403`) on every path: a
//! notification URL cannot drive a sandbox's console, its challenge page, or itself.
//!
//! Faults ([`faults`](crate::faults)): `notify=twice`, `notify=late`,
//! `notify=broken-checksum` on the request that makes the payment.

mod delivery;
mod log;
mod message;
mod outbox;
mod target;

use std::time::Duration;

use hyper::header::HeaderName;

pub(crate) use log::Keep;
pub use log::{Attempt, NOTIFICATIONS_KEPT, SentNotification};
pub(crate) use message::{Message, browser_return_fields};
#[cfg(feature = "simulation")]
pub(crate) use outbox::Dispatcher;
pub(crate) use outbox::{NotResent, Outbox};

/// The header every delivery carries (value `notification`), and which a sandbox refuses
/// on every request: a notification is for the merchant's listener, never for a sandbox.
pub const DELIVERY_MARK: HeaderName = HeaderName::from_static("paytoken-sandbox-delivery");

/// Where the sandbox may send notifications.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotificationTargets {
    /// Loopback addresses only (`127.0.0.0/8`, `::1`, a name that resolves only to them).
    #[default]
    Loopback,
    /// Any address the machine can reach.
    Anywhere,
}

/// How the sandbox delivers notifications. Plain data; the default is what
/// [`Default`] says of each field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotificationPolicy {
    /// Attempts per notification before the sandbox gives up: 6.
    pub attempts: u32,
    /// The wait after the first failed attempt, doubled after each further one: 1 s.
    pub first_retry_after: Duration,
    /// The longest wait between two attempts: 30 s.
    pub max_retry_after: Duration,
    /// How long one attempt may take, connecting, sending and reading the status: 5 s
    /// ([`ATTEMPT_TIMEOUT`](paytoken_protocol::notification::ATTEMPT_TIMEOUT)).
    pub attempt_timeout: Duration,
    /// How long a notification with the `notify=late` fault waits before its first
    /// attempt: 3 s.
    pub late_by: Duration,
    /// Where notifications may go: loopback only by default.
    pub targets: NotificationTargets,
}

impl Default for NotificationPolicy {
    fn default() -> Self {
        Self {
            attempts: 6,
            first_retry_after: Duration::from_secs(1),
            max_retry_after: Duration::from_secs(30),
            attempt_timeout: paytoken_protocol::notification::ATTEMPT_TIMEOUT,
            late_by: Duration::from_secs(3),
            targets: NotificationTargets::Loopback,
        }
    }
}

impl NotificationPolicy {
    /// The wait before attempt `next` (2 or more): the first wait, doubled per attempt
    /// since, at most the longest.
    #[must_use]
    pub fn wait_before(&self, next: u32) -> Duration {
        let doublings = next.saturating_sub(2).min(31);
        self.first_retry_after
            .saturating_mul(1 << doublings)
            .min(self.max_retry_after)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_up_to_the_longest() {
        let policy = NotificationPolicy::default();
        let waits: Vec<u64> = (2..=8).map(|n| policy.wait_before(n).as_secs()).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 30, 30]);
        assert_eq!(policy.wait_before(u32::MAX), policy.max_retry_after);
    }
}
