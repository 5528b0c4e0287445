//! The way out: the gateway posts a notification into the outbox under its lock, without
//! waiting; the dispatcher, a task of the running sandbox, delivers each on its own task,
//! a bounded number at once, and wakes the gateway to settle pending payments on time.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::task::JoinSet;

use super::delivery::deliver;
use super::log::Keep;
use super::log::{Attempt, NotificationLog, SentNotification};
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

/// The gateway's end.
#[derive(Debug)]
pub(crate) struct Outbox {
    sender: mpsc::Sender<Message>,
    log: Arc<NotificationLog>,
}

/// The running sandbox's end.
#[derive(Debug)]
pub(crate) struct Dispatcher {
    receiver: mpsc::Receiver<Message>,
    log: Arc<NotificationLog>,
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
        let Err(error) = self.sender.try_send(message) else {
            return;
        };
        let (reason, message) = match error {
            mpsc::error::TrySendError::Full(message) => ("the sandbox's outbox is full", message),
            mpsc::error::TrySendError::Closed(message) => ("the sandbox has stopped", message),
        };
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
}

impl Dispatcher {
    /// Delivers what the outbox receives, as `policy` says, its waits on the sandbox's
    /// `clock`, and calls `settle` every [`SETTLE_EVERY`]; runs until the outbox is dropped (or the task aborted, which
    /// aborts the deliveries under way with it).
    pub(crate) async fn run(
        mut self,
        policy: NotificationPolicy,
        clock: Arc<SandboxClock>,
        settle: impl Fn(),
    ) {
        let mut deliveries = JoinSet::new();
        let mut ticker = tokio::time::interval(SETTLE_EVERY);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                message = self.receiver.recv(), if deliveries.len() < IN_FLIGHT => {
                    let Some(message) = message else { break };
                    deliveries.spawn(deliver(
                        message,
                        policy,
                        Arc::clone(&self.log),
                        Arc::clone(&clock),
                    ));
                }
                Some(_) = deliveries.join_next(), if !deliveries.is_empty() => {}
                _ = ticker.tick() => settle(),
            }
        }
        while deliveries.join_next().await.is_some() {}
    }
}
