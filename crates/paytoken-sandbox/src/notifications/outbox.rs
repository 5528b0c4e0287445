//! The way out: the gateway posts a notification into the outbox under its lock, without
//! waiting; the dispatcher, a task of the running sandbox, delivers each on its own task,
//! a bounded number at once, and wakes the gateway to settle pending payments on time.
//! The console's resend goes the same way: it stops the notification's delivery under way
//! (its pending retries) and starts another, whose attempts follow a `Resent` mark.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use std::collections::HashMap;

use tokio::sync::mpsc;
use tokio::task::{AbortHandle, JoinSet};

use super::delivery::{Schedule, deliver};
use super::log::Keep;
use super::log::{ATTEMPTS_KEPT, Attempt, NotificationLog, SentNotification};
use super::{Message, NotificationPolicy};
use crate::clock::SandboxClock;

/// How many notifications may wait for the dispatcher; past that, one is recorded as not
/// sent rather than held in memory without bound.
const QUEUED: usize = 4096;

/// How many deliveries run at once; the rest wait in the queue.
const IN_FLIGHT: usize = 64;

/// How often the dispatcher wakes the gateway, so that a pending payment settles when its
/// time comes on the sandbox's clock even when no request arrives.
const SETTLE_EVERY: Duration = Duration::from_millis(100);

/// What the dispatcher is asked to do.
#[derive(Debug)]
enum Job {
    /// Deliver a new notification.
    New(Message),
    /// Deliver the kept notification of this number again, now.
    Resend(u64),
}

/// The gateway's end.
#[derive(Debug)]
pub(crate) struct Outbox {
    sender: mpsc::Sender<Job>,
    log: Arc<NotificationLog>,
}

/// The running sandbox's end.
#[derive(Debug)]
pub(crate) struct Dispatcher {
    receiver: mpsc::Receiver<Job>,
    log: Arc<NotificationLog>,
}

/// Why a resend was not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NotResent {
    /// No notification of that number is kept.
    Unknown,
    /// The outbox is full, or the sandbox stopped.
    Busy,
    /// The notification has had [`ATTEMPTS_KEPT`] attempts: enough to learn from.
    Exhausted,
}

impl Outbox {
    /// An outbox and the dispatcher that empties it.
    pub(crate) fn channel() -> (Self, Dispatcher) {
        let (sender, receiver) = mpsc::channel(QUEUED);
        let log = Arc::new(NotificationLog::default());
        let dispatcher = Dispatcher {
            receiver,
            log: Arc::clone(&log),
        };
        (Self { sender, log }, dispatcher)
    }

    /// Hands `message` to the dispatcher, or records why it cannot be sent.
    pub(crate) fn post(&self, message: Message) {
        let Err(error) = self.sender.try_send(Job::New(message)) else {
            return;
        };
        let (reason, job) = match error {
            mpsc::error::TrySendError::Full(job) => ("the sandbox's outbox is full", job),
            mpsc::error::TrySendError::Closed(job) => ("the sandbox has stopped", job),
        };
        let Job::New(message) = job else { return };
        let number = self.log.open(SentNotification {
            payment_id: message.payment_id,
            url: message.url,
            body: message.body,
            fault: message.fault,
            attempts: Vec::new(),
            delivered: false,
        });
        self.log
            .attempted(number, Attempt::NotSent(reason.to_owned()));
    }

    /// Keeps every notification with `keeper` from now on, after the `kept` ones.
    pub(crate) fn keep_with(
        &self,
        keeper: Option<Arc<dyn Keep>>,
        kept: Vec<(u64, SentNotification)>,
    ) {
        self.log.keep_with(keeper, kept);
    }

    /// Why a notification could not be kept, if one could not.
    pub(crate) fn failure(&self) -> Option<&str> {
        self.log.failure()
    }

    /// Every notification kept, with its attempts so far.
    pub(crate) fn sent(&self) -> Vec<SentNotification> {
        self.log.snapshot()
    }

    /// A page of the notifications kept (see [`NotificationLog::page`]).
    pub(crate) fn page(&self, after: u64, limit: usize) -> (Vec<(u64, SentNotification)>, bool) {
        self.log.page(after, limit)
    }

    /// The number of the newest notification; 0 before the first.
    pub(crate) fn last(&self) -> u64 {
        self.log.last()
    }

    /// Asks for notification `number` to be delivered again, now.
    pub(crate) fn resend(&self, number: u64) -> Result<(), NotResent> {
        match self.log.attempts_of(number) {
            None => return Err(NotResent::Unknown),
            Some(attempts) if attempts >= ATTEMPTS_KEPT => return Err(NotResent::Exhausted),
            Some(_) => {}
        }
        self.sender
            .try_send(Job::Resend(number))
            .map_err(|_| NotResent::Busy)
    }
}

impl Dispatcher {
    /// The notifications posted since the last call, for a simulation that delivers them
    /// itself; a resend asked of the console is not taken.
    #[cfg(feature = "simulation")]
    pub(crate) fn take_posted(&mut self) -> Vec<Message> {
        let mut posted = Vec::new();
        while let Ok(job) = self.receiver.try_recv() {
            if let Job::New(message) = job {
                posted.push(message);
            }
        }
        posted
    }

    /// Delivers what the outbox receives, as `policy` says, its waits on the sandbox's
    /// `clock`, never to the port of the sandbox listening at `sandbox`, and calls
    /// `settle` every [`SETTLE_EVERY`]; runs until the outbox is dropped (or the task
    /// aborted, which aborts the deliveries under way with it).
    pub(crate) async fn run(
        mut self,
        policy: NotificationPolicy,
        clock: Arc<SandboxClock>,
        sandbox: SocketAddr,
        settle: impl Fn(),
    ) {
        let mut deliveries = JoinSet::new();
        // The delivery under way of each notification, by number: a resend stops it.
        let mut under_way: HashMap<u64, AbortHandle> = HashMap::new();
        let mut ticker = tokio::time::interval(SETTLE_EVERY);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                job = self.receiver.recv(), if deliveries.len() < IN_FLIGHT => {
                    let Some(job) = job else { break };
                    let (number, message, waits_late) = match job {
                        Job::New(message) => {
                            let number = self.log.open(SentNotification {
                                payment_id: message.payment_id.clone(),
                                url: message.url.clone(),
                                body: message.body.clone(),
                                fault: message.fault,
                                attempts: Vec::new(),
                                delivered: false,
                            });
                            (number, message, true)
                        }
                        Job::Resend(number) => {
                            let Some(message) = self.log.message(number) else { continue };
                            if let Some(running) = under_way.remove(&number) {
                                running.abort();
                            }
                            self.log.attempted(number, Attempt::Resent);
                            (number, message, false)
                        }
                    };
                    let handle = deliveries.spawn(deliver(
                        number,
                        message,
                        Schedule { policy, waits_late, clock: Arc::clone(&clock), sandbox },
                        Arc::clone(&self.log),
                    ));
                    under_way.insert(number, handle);
                }
                Some(done) = deliveries.join_next(), if !deliveries.is_empty() => {
                    // A stopped one was taken out when it was stopped.
                    if let Ok(number) = done {
                        under_way.remove(&number);
                    }
                }
                _ = ticker.tick() => settle(),
            }
        }
        while deliveries.join_next().await.is_some() {}
    }
}
