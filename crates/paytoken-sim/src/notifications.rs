//! Notifications in a run: the gateway's posts delivered the way the sandbox delivers them
//! (at least once: its attempts, its waits, its attempt timeout), over a way that loses a
//! request or its answer, repeats a delivery, or holds it long enough to reorder it and to
//! cross the clock's jumps; and the shop that receives them with the SDK's handling
//! (`Notification::from_request`, `verify`, a `DuplicateStore` claimed before acting),
//! whose work on one is sometimes slow (past the gateway's patience) and sometimes fails
//! (`500`, the claim released so that the retry is claimed again).

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use paytoken::SecureKey;
use paytoken_protocol::notification::{Claim, Notification};
use paytoken_protocol::{DuplicateStore as _, MemoryDuplicates, PaymentStatus};
use paytoken_sandbox::NotificationPolicy;
use paytoken_sandbox::simulation::{InProcess, Posted};
use tokio::task::JoinSet;

use crate::history::History;

/// Where every checkout asks its notifications to go.
pub(crate) const SHOP_URL: &str = "http://shop.invalid/notifications";

/// How long the gateway waits between two looks for what fell due and for notifications
/// to send.
const TICK: Duration = Duration::from_secs(1);

/// The longest the shop works on one notification, in milliseconds: past the gateway's
/// attempt timeout.
const SLOWEST_WORK_MS: u64 = 12_000;

/// What the way to the shop does to one attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    /// Delivered, its answer back.
    Clear,
    /// The request never reached the shop.
    Lost,
    /// The shop took it; its answer was lost.
    AnswerLost,
    /// The shop was handed it twice.
    Repeated,
    /// Held for a while first.
    Held,
}

/// Each way with its weight.
const WAYS: [(Way, u32); 5] = [
    (Way::Clear, 60),
    (Way::Lost, 10),
    (Way::AnswerLost, 10),
    (Way::Repeated, 10),
    (Way::Held, 10),
];

/// A notification the shop acted on.
#[derive(Debug, Clone)]
pub(crate) struct Acted {
    /// Its duplicate key, `{payment id}:{short status}`.
    pub(crate) key: String,
    pub(crate) payment_id: String,
    pub(crate) status: PaymentStatus,
}

/// A notification the gateway posted, and whether any attempt was answered `2xx`.
#[derive(Debug, Clone)]
pub(crate) struct Delivery {
    pub(crate) payment_id: String,
    pub(crate) body: String,
    pub(crate) taken: bool,
}

/// The shop's notification endpoint.
#[derive(Debug)]
pub(crate) struct Shop {
    key: SecureKey,
    seen: MemoryDuplicates,
    /// The planted defect: done when claimed, before acting.
    done_before_acting: bool,
    acted: Mutex<Vec<Acted>>,
    /// Genuine notifications the shop could not verify.
    rejected: Mutex<Vec<String>>,
    random: Mutex<fastrand::Rng>,
    history: History,
}

impl Shop {
    /// A shop verifying with `key`, remembering `remembered` notifications.
    pub(crate) fn new(
        key: SecureKey,
        remembered: usize,
        done_before_acting: bool,
        seed: u64,
        history: History,
    ) -> Self {
        Self {
            key,
            seen: MemoryDuplicates::new(remembered),
            done_before_acting,
            acted: Mutex::new(Vec::new()),
            rejected: Mutex::new(Vec::new()),
            random: Mutex::new(fastrand::Rng::with_seed(seed)),
            history,
        }
    }

    /// What the shop acted on, in order.
    pub(crate) fn acted(&self) -> Vec<Acted> {
        self.acted
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// What the shop acted on for `payment_id`, if it did.
    pub(crate) fn acted_on(&self, payment_id: &str) -> Option<PaymentStatus> {
        self.acted()
            .into_iter()
            .find(|acted| acted.payment_id == payment_id)
            .map(|acted| acted.status)
    }

    /// The genuine notifications that failed verification, with why.
    pub(crate) fn rejected(&self) -> Vec<String> {
        self.rejected
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// How long the work on the next notification takes, and whether it fails.
    fn draw(&self) -> (Duration, bool) {
        let mut random = self.random.lock().unwrap_or_else(PoisonError::into_inner);
        let work = if random.u8(0..5) == 0 {
            random.u64(3_000..=SLOWEST_WORK_MS)
        } else {
            random.u64(10..200)
        };
        let work = Duration::from_millis(work);
        (work, random.u8(0..10) == 0)
    }

    /// Handles one delivery of `body` as a shop's endpoint does: the status it answers.
    async fn receive(&self, body: &[u8]) -> u16 {
        let (work, fails) = self.draw();
        let verified = match Notification::from_request(Some("application/json"), body)
            .and_then(|notification| notification.verify(&self.key))
        {
            Ok(verified) => verified,
            Err(error) => {
                self.rejected
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(error.to_string());
                return 400;
            }
        };
        let key = verified.duplicate_key();
        let Ok(claim) = self.seen.claim(&key).await;
        match claim {
            Claim::Claimed => {}
            Claim::Done => {
                self.history.note(format_args!("shop: {key} again, 200"));
                return 200;
            }
            _ => {
                self.history
                    .note(format_args!("shop: {key} being acted on, 503"));
                return 503;
            }
        }
        if self.done_before_acting {
            let Ok(()) = self.seen.done(&key).await;
        }
        tokio::time::sleep(work).await;
        if fails {
            let Ok(()) = self.seen.release(&key).await;
            self.history.note(format_args!("shop: {key} failed, 500"));
            return 500;
        }
        let Ok(()) = self.seen.done(&key).await;
        self.history.note(format_args!("shop: {key} acted on"));
        self.acted
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Acted {
                key: key.to_string(),
                payment_id: key.payment_id.as_str().to_owned(),
                status: verified.status,
            });
        200
    }
}

/// The gateway's side: settles what fell due, and delivers each notification it posts,
/// until `stop` is set and every delivery has ended; every delivery, then.
pub(crate) async fn dispatch(
    gateway: Arc<InProcess>,
    shop: Arc<Shop>,
    seed: u64,
    history: History,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> Vec<Delivery> {
    let mut random = fastrand::Rng::with_seed(seed);
    let mut deliveries = JoinSet::new();
    let mut done = Vec::new();
    loop {
        gateway.settle_due();
        for posted in gateway.posted() {
            deliveries.spawn(deliver(
                posted,
                Arc::clone(&shop),
                fastrand::Rng::with_seed(random.u64(..)),
                history.clone(),
            ));
        }
        while let Some(finished) = deliveries.try_join_next() {
            if let Ok(delivery) = finished {
                done.push(delivery);
            }
        }
        if deliveries.is_empty() && stop.load(std::sync::atomic::Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(TICK).await;
    }
    // The shop may still be working on a delivery its gateway gave up waiting for.
    tokio::time::sleep(Duration::from_millis(SLOWEST_WORK_MS * 2)).await;
    done
}

/// Delivers `posted` as the sandbox's policy says, over the way `random` draws.
async fn deliver(
    posted: Posted,
    shop: Arc<Shop>,
    mut random: fastrand::Rng,
    history: History,
) -> Delivery {
    let policy = NotificationPolicy::default();
    let mut taken = false;
    for attempt in 1..=policy.attempts {
        if attempt > 1 {
            tokio::time::sleep(policy.wait_before(attempt)).await;
        }
        let way = crate::weighted(&mut random, &WAYS, Way::Clear);
        history.note(format_args!(
            "notification of {} attempt {attempt}: {way:?}",
            posted.payment_id
        ));
        tokio::time::sleep(Duration::from_millis(random.u64(1..50))).await;
        match way {
            Way::Lost => continue,
            Way::Held => tokio::time::sleep(Duration::from_secs(random.u64(1..120))).await,
            Way::Repeated => {
                let (shop, body) = (Arc::clone(&shop), posted.body.clone());
                tokio::spawn(async move { shop.receive(body.as_bytes()).await });
            }
            Way::Clear | Way::AnswerLost => {}
        }
        // The shop goes on working when the gateway stops waiting.
        let (handler, body) = (Arc::clone(&shop), posted.body.clone());
        let answer = tokio::spawn(async move { handler.receive(body.as_bytes()).await });
        let status = match tokio::time::timeout(policy.attempt_timeout, answer).await {
            Ok(Ok(status)) if way != Way::AnswerLost => Some(status),
            _ => None,
        };
        history.note(format_args!(
            "notification of {} attempt {attempt}: answered {status:?}",
            posted.payment_id
        ));
        if status.is_some_and(|status| (200..300).contains(&status)) {
            taken = true;
            break;
        }
    }
    Delivery {
        payment_id: posted.payment_id,
        body: posted.body,
        taken,
    }
}
