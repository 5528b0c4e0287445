//! What the sandbox sent: every notification with each of its attempts, the newest
//! [`NOTIFICATIONS_KEPT`].

use std::fmt;
use std::sync::{Arc, OnceLock};

use super::Message;
use crate::bounded_log::BoundedLog;
use crate::faults::NotificationFault;

/// The most notifications remembered; older ones are forgotten.
pub const NOTIFICATIONS_KEPT: usize = 10_000;

/// The most attempts one notification keeps: past them, it is not resent (each resend
/// adds up to a policy's attempts).
pub(crate) const ATTEMPTS_KEPT: usize = 100;

/// One notification the sandbox sent, or tried to.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SentNotification {
    /// The payment it is about.
    pub payment_id: String,
    /// Where it went: the payment's `notificationUrl`.
    pub url: String,
    /// The JSON body, as sent (sandbox credentials sign it: it holds no secret).
    pub body: String,
    /// The fault it was sent under, if any.
    pub fault: Option<NotificationFault>,
    /// Each attempt, in order; empty while the first waits.
    pub attempts: Vec<Attempt>,
    /// Whether an attempt was answered with a `2xx` status.
    pub delivered: bool,
}

/// How one attempt went.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Attempt {
    /// The listener answered with this HTTP status (`2xx`: delivered; anything else is
    /// tried again).
    Answered(u16),
    /// No answer: the connection was refused or broke, or the attempt timed out; tried
    /// again.
    Failed(String),
    /// Not sent, and never will be: the URL is not one the sandbox sends to (not `http`,
    /// not loopback without [`NotificationTargets::Anywhere`](crate::NotificationTargets::Anywhere)),
    /// or the sandbox stopped.
    NotSent(String),
    /// Not an attempt: the console resent the notification here. The attempts before it
    /// that were still to come were dropped; those after it are the resend's.
    Resent,
}

/// Where notifications are kept as they happen, beyond memory: the state file's store
/// implements it, so this module needs nothing of the store's.
pub(crate) trait Keep: Send + Sync + fmt::Debug {
    /// Keeps notification `number` as it stands, its attempts so far included.
    ///
    /// # Errors
    /// Why it could not be kept.
    fn keep(&self, number: u64, sent: &SentNotification) -> Result<(), String>;
}

/// The log, shared by the deliveries (which write) and the `Sandbox` handle (which reads);
/// with a state file, each notification and attempt is kept there as it happens.
/// Notifications are numbered from 1, as the request log's entries are: one numbering for
/// what `events list` shows and `events resend N` takes.
#[derive(Debug, Default)]
pub(crate) struct NotificationLog {
    entries: BoundedLog<SentNotification, NOTIFICATIONS_KEPT>,
    keeper: OnceLock<Arc<dyn Keep>>,
    /// Why the keeper could not write, the first time it could not.
    failure: OnceLock<String>,
}

impl NotificationLog {
    /// Keeps notifications with `keeper` from now on, after the `kept` ones (by number, in
    /// order: what a state file held).
    pub(crate) fn keep_with(
        &self,
        keeper: Option<Arc<dyn Keep>>,
        kept: Vec<(u64, SentNotification)>,
    ) {
        self.entries.restore(kept);
        if let Some(keeper) = keeper {
            let _ = self.keeper.set(keeper);
        }
    }

    /// Why a notification could not be kept, if one could not.
    pub(crate) fn failure(&self) -> Option<&str> {
        self.failure.get().map(String::as_str)
    }

    /// Keeps entry `number` as it stands, with the keeper if there is one.
    fn keep(&self, number: u64, entry: &SentNotification) {
        if let Some(Err(reason)) = self.keeper.get().map(|keeper| keeper.keep(number, entry)) {
            let _ = self.failure.set(reason);
        }
    }

    /// Keeps `sent`, and says its number for [`NotificationLog::attempted`].
    pub(crate) fn open(&self, sent: SentNotification) -> u64 {
        self.entries.push_with(|number| {
            self.keep(number, &sent);
            sent
        })
    }

    /// Adds an attempt to notification `number`, if it is still kept.
    pub(crate) fn attempted(&self, number: u64, attempt: Attempt) {
        self.entries.with_entry(number, |entry| {
            entry.delivered |= matches!(attempt, Attempt::Answered(200..=299));
            entry.attempts.push(attempt);
            self.keep(number, entry);
        });
    }

    pub(crate) fn snapshot(&self) -> Vec<SentNotification> {
        self.entries.all(SentNotification::clone)
    }

    /// At most `limit` entries numbered above `after`, with their numbers, and whether
    /// more follow: only those are copied under the log's lock.
    pub(crate) fn page(&self, after: u64, limit: usize) -> (Vec<(u64, SentNotification)>, bool) {
        self.entries
            .page(after, limit, |number, sent| (number, sent.clone()))
    }

    /// The number of the newest notification; 0 before the first.
    pub(crate) fn last(&self) -> u64 {
        self.entries.last()
    }

    /// How many attempts notification `number` has had, if it is still kept.
    pub(crate) fn attempts_of(&self, number: u64) -> Option<usize> {
        self.entries.with_entry(number, |sent| sent.attempts.len())
    }

    /// What to send again of notification `number`: as it was sent, without its fault.
    pub(crate) fn message(&self, number: u64) -> Option<Message> {
        self.entries.with_entry(number, |sent| Message {
            payment_id: sent.payment_id.clone(),
            url: sent.url.clone(),
            body: sent.body.clone(),
            fault: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(payment_id: &str) -> SentNotification {
        SentNotification {
            payment_id: payment_id.into(),
            url: "http://127.0.0.1:1/".into(),
            body: "{}".into(),
            fault: None,
            attempts: Vec::new(),
            delivered: false,
        }
    }

    #[test]
    fn attempts_land_on_their_notification_and_a_2xx_delivers_it() {
        let log = NotificationLog::default();
        let first = log.open(sent("1"));
        let second = log.open(sent("2"));
        log.attempted(second, Attempt::Answered(500));
        log.attempted(second, Attempt::Answered(204));
        log.attempted(first, Attempt::Failed("refused".into()));
        let kept = log.snapshot();
        assert_eq!(kept[0].attempts, [Attempt::Failed("refused".into())]);
        assert!(!kept[0].delivered);
        assert_eq!(kept[1].attempts.len(), 2);
        assert!(kept[1].delivered);
    }

    #[test]
    fn keeps_the_newest_only_and_forgets_attempts_on_forgotten_ones() {
        let log = NotificationLog::default();
        let oldest = log.open(sent("0"));
        for n in 1..=NOTIFICATIONS_KEPT {
            log.open(sent(&n.to_string()));
        }
        log.attempted(oldest, Attempt::Answered(200));
        let kept = log.snapshot();
        assert_eq!(kept.len(), NOTIFICATIONS_KEPT);
        assert_eq!(kept[0].payment_id, "1");
        assert!(kept.iter().all(|sent| sent.attempts.is_empty()));
    }
}
