//! What the sandbox sent: every notification with each of its attempts, the newest
//! [`NOTIFICATIONS_KEPT`].

use std::collections::VecDeque;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use super::Message;
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
#[derive(Debug, Default)]
pub(crate) struct NotificationLog {
    entries: Mutex<Entries>,
    keeper: OnceLock<Arc<dyn Keep>>,
    /// Why the keeper could not write, the first time it could not.
    failure: OnceLock<String>,
}

#[derive(Debug)]
struct Entries {
    /// The number of the oldest entry kept.
    first: u64,
    entries: VecDeque<SentNotification>,
}

/// Notifications are numbered from 1, as the request log's entries are: one numbering for
/// what `events list` shows and `events resend N` takes.
impl Default for Entries {
    fn default() -> Self {
        Self {
            first: 1,
            entries: VecDeque::new(),
        }
    }
}

impl NotificationLog {
    fn entries(&self) -> std::sync::MutexGuard<'_, Entries> {
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Keeps notifications with `keeper` from now on, after the `kept` ones (by number, in
    /// order: what a state file held).
    pub(crate) fn keep_with(
        &self,
        keeper: Option<Arc<dyn Keep>>,
        kept: Vec<(u64, SentNotification)>,
    ) {
        let mut log = self.entries();
        let skip = kept.len().saturating_sub(NOTIFICATIONS_KEPT);
        let mut kept = kept.into_iter().skip(skip).peekable();
        if let Some((first, _)) = kept.peek() {
            log.first = *first;
            log.entries = kept.map(|(_, sent)| sent).collect();
        }
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
        let mut log = self.entries();
        if log.entries.len() == NOTIFICATIONS_KEPT {
            log.entries.pop_front();
            log.first += 1;
        }
        log.entries.push_back(sent);
        // The deque holds at most NOTIFICATIONS_KEPT entries, which fits a u64.
        let number = log.first + u64::try_from(log.entries.len() - 1).unwrap_or(u64::MAX);
        if let Some(entry) = log.entries.back() {
            self.keep(number, entry);
        }
        number
    }

    /// Adds an attempt to notification `number`, if it is still kept.
    pub(crate) fn attempted(&self, number: u64, attempt: Attempt) {
        let mut log = self.entries();
        let Some(index) = number
            .checked_sub(log.first)
            .and_then(|index| usize::try_from(index).ok())
        else {
            return;
        };
        if let Some(entry) = log.entries.get_mut(index) {
            entry.delivered |= matches!(attempt, Attempt::Answered(200..=299));
            entry.attempts.push(attempt);
            self.keep(number, entry);
        }
    }

    pub(crate) fn snapshot(&self) -> Vec<SentNotification> {
        self.entries().entries.iter().cloned().collect()
    }

    /// At most `limit` entries numbered above `after`, with their numbers, and whether
    /// more follow: only those are copied under the log's lock.
    pub(crate) fn page(&self, after: u64, limit: usize) -> (Vec<(u64, SentNotification)>, bool) {
        let log = self.entries();
        let start = after.saturating_sub(log.first.saturating_sub(1));
        let start = usize::try_from(start)
            .unwrap_or(usize::MAX)
            .min(log.entries.len());
        let first = log.first + u64::try_from(start).unwrap_or(u64::MAX);
        let taken = (first..)
            .zip(log.entries.range(start..).take(limit).cloned())
            .collect();
        (taken, log.entries.len() - start > limit)
    }

    /// The number of the newest notification; 0 before the first.
    pub(crate) fn last(&self) -> u64 {
        let log = self.entries();
        log.first
            .saturating_sub(1)
            .saturating_add(u64::try_from(log.entries.len()).unwrap_or(u64::MAX))
    }

    /// How many attempts notification `number` has had, if it is still kept.
    pub(crate) fn attempts_of(&self, number: u64) -> Option<usize> {
        let log = self.entries();
        let index = usize::try_from(number.checked_sub(log.first)?).ok()?;
        log.entries.get(index).map(|sent| sent.attempts.len())
    }

    /// What to send again of notification `number`: as it was sent, without its fault.
    pub(crate) fn message(&self, number: u64) -> Option<Message> {
        let log = self.entries();
        let index = usize::try_from(number.checked_sub(log.first)?).ok()?;
        log.entries.get(index).map(|sent| Message {
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
