//! Notifications in a run: the gateway's posts delivered the way the sandbox delivers them
//! (at least once: its attempts, its waits, its attempt timeout), over a way that loses a
//! request or its answer, repeats a delivery, or holds it long enough to reorder it and to
//! cross the clock's jumps, to one of two endpoints:
//!
//! - the shop, receiving them with the SDK's handling (`Notification::from_request`,
//!   `verify`, a `DuplicateStore` claimed for a lease before acting, the action and the
//!   done mark one fenced step), its work on one sometimes slow (past the gateway's
//!   patience, past its lease) and sometimes failing (`500`, the claim released so that
//!   the retry is claimed again);
//! - `paytoken listen --forward-to`'s relay, in this process, relaying to a merchant's
//!   endpoint that is down, fails, hangs past the relay's timeout, or takes it.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use paytoken::MemoryDuplicates;
use paytoken::SecureKey;
use paytoken_cli::simulation::Relay;
use paytoken_protocol::notification::{Claim, Notification, VerifiedNotification};
use paytoken_protocol::{DuplicateStore as _, PaymentStatus};
use paytoken_sandbox::NotificationPolicy;
use paytoken_sandbox::simulation::{InProcess, Posted};
use tokio::task::JoinSet;

use crate::history::History;

/// Where a checkout asks its notifications to go: the shop's endpoint, or the relay.
pub(crate) const SHOP_URL: &str = "http://shop.invalid/notifications";
pub(crate) const RELAY_URL: &str = "http://listen.invalid/";

/// How long the relay waits for its target: less than the gateway waits for the relay,
/// as `listen --relay-timeout` must be, so that a failed relay is answered in time.
const RELAY_TIMEOUT: Duration = Duration::from_secs(3);

/// How long the gateway waits between two looks for what fell due and for notifications
/// to send.
const TICK: Duration = Duration::from_secs(1);

/// The longest the shop works on one notification, in milliseconds: past the gateway's
/// attempt timeout, and past the shop's lease.
const SLOWEST_WORK_MS: u64 = 12_000;

/// How long the shop claims a notification for: shorter than its slowest work, so that
/// a lease sometimes runs out while its handler still acts.
const SHOP_LEASE: Duration = Duration::from_secs(6);

/// What the way to an endpoint does to one attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    /// Delivered, its answer back.
    Clear,
    /// The request never reached the endpoint.
    Lost,
    /// The endpoint took it; its answer was lost.
    AnswerLost,
    /// The endpoint was handed it twice.
    Repeated,
    /// Held for a while first.
    Held,
}

impl std::fmt::Display for Way {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Clear => "delivered",
            Self::Lost => "lost",
            Self::AnswerLost => "answer lost",
            Self::Repeated => "repeated",
            Self::Held => "held",
        })
    }
}

/// Each way with its base weight (a run's mix multiplies each fault's).
const WAYS: [(Way, u32); 5] = [
    (Way::Clear, 60),
    (Way::Lost, 10),
    (Way::AnswerLost, 10),
    (Way::Repeated, 10),
    (Way::Held, 10),
];

/// A notification an endpoint acted on.
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
    pub(crate) url: String,
    pub(crate) payment_id: String,
    pub(crate) body: String,
    pub(crate) taken: bool,
}

/// What an endpoint acted on, and the genuine notifications it could not verify.
#[derive(Debug, Default)]
pub(crate) struct Ledger {
    acted: Mutex<Vec<Acted>>,
    rejected: Mutex<Vec<String>>,
}

impl Ledger {
    /// Verifies `body` with `key`; the error is kept as a rejection.
    fn verify(&self, body: &[u8], key: &SecureKey) -> Option<VerifiedNotification> {
        let verified = Notification::from_request(Some("application/json"), body)
            .and_then(|notification| notification.verify(key));
        match verified {
            Ok(verified) => Some(verified),
            Err(error) => {
                self.rejected
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(error.to_string());
                None
            }
        }
    }

    fn act(&self, verified: &VerifiedNotification) {
        let key = verified.duplicate_key();
        self.acted
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Acted {
                key: key.to_string(),
                payment_id: key.payment_id.as_str().to_owned(),
                status: verified.status.clone(),
            });
    }

    /// What was acted on, in order.
    pub(crate) fn acted(&self) -> Vec<Acted> {
        self.acted
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The genuine notifications that failed verification, with why.
    pub(crate) fn rejected(&self) -> Vec<String> {
        self.rejected
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// Both endpoints a notification may go to.
#[derive(Debug)]
pub(crate) struct Endpoints {
    pub(crate) shop: Shop,
    pub(crate) listener: Listener,
}

impl Endpoints {
    /// The ledger of the endpoint at `url`: the shop's, or the relay target's.
    pub(crate) fn ledger(&self, url: &str) -> &Ledger {
        if url == RELAY_URL {
            &self.listener.target.ledger
        } else {
            &self.shop.ledger
        }
    }

    /// What the endpoint at `url` acted on for `payment_id`, if it did.
    pub(crate) fn acted_on(&self, url: &str, payment_id: &str) -> Option<PaymentStatus> {
        self.ledger(url)
            .acted
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .find(|acted| acted.payment_id == payment_id)
            .map(|acted| acted.status.clone())
    }

    /// Hands `body` to the endpoint at `url`: the status it answers.
    async fn receive(&self, url: &str, body: &[u8]) -> u16 {
        if url == RELAY_URL {
            self.listener.receive(body).await
        } else {
            self.shop.receive(body).await
        }
    }
}

/// A defect planted in the shop's handling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShopDefect {
    /// Marks a notification done when it claims it, before acting.
    DoneBeforeActing,
    /// Acts whether or not its fence still holds the claim.
    Unfenced,
}

/// The shop's notification endpoint.
#[derive(Debug)]
pub(crate) struct Shop {
    key: SecureKey,
    seen: MemoryDuplicates,
    /// The planted defect, if any.
    defect: Option<ShopDefect>,
    ledger: Ledger,
    random: Mutex<fastrand::Rng>,
    history: History,
}

impl Shop {
    /// A shop verifying with `key`, remembering `remembered` notifications.
    pub(crate) fn new(
        key: SecureKey,
        remembered: usize,
        defect: Option<ShopDefect>,
        seed: u64,
        history: History,
    ) -> Self {
        Self {
            key,
            seen: MemoryDuplicates::new(remembered),
            defect,
            ledger: Ledger::default(),
            random: Mutex::new(fastrand::Rng::with_seed(seed)),
            history,
        }
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
        let Some(verified) = self.ledger.verify(body, &self.key) else {
            return 400;
        };
        let key = verified.duplicate_key();
        let Ok(claim) = self.seen.claim(&key, SHOP_LEASE).await;
        let fence = match claim {
            Claim::Claimed(fence) => fence.get(),
            Claim::Done => {
                self.history.note(format_args!("shop: {key} again, 200"));
                return 200;
            }
            _ => {
                self.history
                    .note(format_args!("shop: {key} being acted on, 503"));
                return 503;
            }
        };
        self.history.note(format_args!(
            "shop: {key} claimed [fence {fence}, lease {SHOP_LEASE:?}, work {work:?}]"
        ));
        let fence = paytoken_protocol::notification::Fence::new(fence);
        if self.defect == Some(ShopDefect::DoneBeforeActing) {
            let Ok(_) = self.seen.done(&key, fence).await;
            self.history.note(format_args!(
                "shop: {key} marked done before acting [fence {}]",
                fence.get()
            ));
        }
        tokio::time::sleep(work).await;
        if fails {
            let Ok(()) = self.seen.release(&key, fence).await;
            self.history.note(format_args!(
                "shop: {key} failed, 500 [fence {} released]",
                fence.get()
            ));
            return 500;
        }
        // The action and the done mark in one step, as one transaction fenced by the claim:
        // a handler that outlived its lease, its key claimed again since, does not act.
        let Ok(still_held) = self.seen.done(&key, fence).await;
        if !(still_held || self.defect.is_some()) {
            self.history.note(format_args!(
                "shop: {key} lease lost, 500 [fence {} no longer holds]",
                fence.get()
            ));
            return 500;
        }
        self.history.note(format_args!(
            "shop: {key} acted on [fence {}, held {still_held}]",
            fence.get()
        ));
        self.ledger.act(&verified);
        200
    }
}

/// `paytoken listen --forward-to` in this process, and the merchant's endpoint it relays
/// to.
pub(crate) struct Listener {
    relay: Relay,
    target: Arc<Target>,
    history: History,
}

impl std::fmt::Debug for Listener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Listener")
    }
}

impl Listener {
    /// The relay verifying with `key`, relaying to a target whose health `seed` draws;
    /// marking a notification done before its target took it under the planted defect.
    pub(crate) fn new(
        key: SecureKey,
        seed: u64,
        done_before_relaying: bool,
        history: History,
    ) -> Self {
        let mut random = fastrand::Rng::with_seed(seed);
        let health = crate::mix::swarm(&mut random, &HEALTH);
        history.note(crate::mix::described("relay target", &health));
        let target = Arc::new(Target {
            key: key.clone(),
            ledger: Ledger::default(),
            random: Mutex::new(random),
            health,
            history: history.clone(),
        });
        let posted_to = Arc::clone(&target);
        let mut relay = Relay::new(key, RELAY_TIMEOUT, move |body| {
            let target = Arc::clone(&posted_to);
            async move { target.post(body).await }
        });
        if done_before_relaying {
            relay = relay.with_done_before_relaying();
        }
        Self {
            relay,
            target,
            history,
        }
    }

    /// Hands `body` to the relay: the status it answers, its verdict in the history.
    async fn receive(&self, body: &[u8]) -> u16 {
        let (status, verdict) = self.relay.receive(body, Some("application/json")).await;
        self.history.note(format_args!(
            "relay: {verdict}, {status} [{}]",
            payment_of(body)
        ));
        status
    }
}

/// The payment a notification's body names (verified or not), for the history.
fn payment_of(body: &[u8]) -> String {
    Notification::from_request(Some("application/json"), body)
        .ok()
        .and_then(|notification| notification.claimed_payment_id().map(str::to_owned))
        .unwrap_or_default()
}

/// What the merchant's endpoint behind the relay does with one post.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Health {
    /// Takes it: verifies it, acts on it, answers `200`.
    Up,
    /// Refuses the connection.
    Down,
    /// Answers `500` without acting.
    Failing,
    /// Never answers, and never acts.
    Hanging,
}

impl std::fmt::Display for Health {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Up => "up",
            Self::Down => "down",
            Self::Failing => "failing",
            Self::Hanging => "hanging",
        })
    }
}

/// Each health with its base weight (a run's mix multiplies each fault's).
const HEALTH: [(Health, u32); 4] = [
    (Health::Up, 60),
    (Health::Down, 15),
    (Health::Failing, 15),
    (Health::Hanging, 10),
];

/// The merchant's endpoint behind the relay, which verifies what it is given too.
#[derive(Debug)]
struct Target {
    key: SecureKey,
    ledger: Ledger,
    random: Mutex<fastrand::Rng>,
    /// This run's weight of each health.
    health: Vec<(Health, u32)>,
    history: History,
}

impl Target {
    async fn post(&self, body: Bytes) -> Result<u16, String> {
        let health = {
            let mut random = self.random.lock().unwrap_or_else(PoisonError::into_inner);
            crate::weighted(&mut random, &self.health, Health::Up)
        };
        self.history.note(format_args!(
            "relay target: {health} [{}]",
            payment_of(&body)
        ));
        match health {
            Health::Up => {
                let Some(verified) = self.ledger.verify(&body, &self.key) else {
                    return Err("answered 400".to_owned());
                };
                self.ledger.act(&verified);
                Ok(200)
            }
            Health::Down => Err("connection refused".to_owned()),
            Health::Failing => Err("answered 500".to_owned()),
            Health::Hanging => std::future::pending().await,
        }
    }
}

/// What the gateway has to send: the payments it settled since it was last asked (each a
/// line of the history: the moment a notification is due) and the notifications it
/// posted; none of them under the planted defect of a gateway that never notifies.
#[derive(Debug)]
pub(crate) struct Outgoing {
    pub(crate) gateway: Arc<InProcess>,
    pub(crate) never_notifies: bool,
    pub(crate) history: History,
}

impl Outgoing {
    /// The notifications posted since the last call.
    pub(crate) fn take(&self) -> Vec<Posted> {
        for settled in self.gateway.settled() {
            self.history.note(format_args!(
                "gateway: settled, approved {} [{}]",
                settled.approved, settled.payment_id
            ));
        }
        let posted = self.gateway.posted();
        if self.never_notifies {
            return Vec::new();
        }
        posted
    }
}

/// The gateway's side: settles what fell due, and delivers each notification it posts,
/// until `stop` is set and every delivery has ended; every delivery, then.
pub(crate) async fn dispatch(
    outgoing: Arc<Outgoing>,
    endpoints: Arc<Endpoints>,
    seed: u64,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> Vec<Delivery> {
    let mut random = fastrand::Rng::with_seed(seed);
    let ways: Arc<[(Way, u32)]> = crate::mix::swarm(&mut random, &WAYS).into();
    let history = outgoing.history.clone();
    history.note(crate::mix::described("notification", &ways));
    let mut deliveries = JoinSet::new();
    let mut done = Vec::new();
    loop {
        outgoing.gateway.settle_due();
        for posted in outgoing.take() {
            deliveries.spawn(deliver(
                posted,
                Arc::clone(&endpoints),
                (fastrand::Rng::with_seed(random.u64(..)), Arc::clone(&ways)),
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

/// Delivers `posted` as the sandbox's policy says, over the way `random` draws from the
/// run's mix of `ways`.
async fn deliver(
    posted: Posted,
    endpoints: Arc<Endpoints>,
    (mut random, ways): (fastrand::Rng, Arc<[(Way, u32)]>),
    history: History,
) -> Delivery {
    let policy = NotificationPolicy::default();
    let mut taken = false;
    for attempt in 1..=policy.attempts {
        if attempt > 1 {
            tokio::time::sleep(policy.wait_before(attempt)).await;
        }
        let way = crate::weighted(&mut random, &ways, Way::Clear);
        history.note(format_args!(
            "notification of {} attempt {attempt}: {way}",
            posted.payment_id
        ));
        tokio::time::sleep(Duration::from_millis(random.u64(1..50))).await;
        match way {
            Way::Lost => continue,
            Way::Held => tokio::time::sleep(Duration::from_secs(random.u64(1..120))).await,
            Way::Repeated => {
                let (endpoints, posted) = (Arc::clone(&endpoints), posted.clone());
                tokio::spawn(async move {
                    endpoints.receive(&posted.url, posted.body.as_bytes()).await
                });
            }
            Way::Clear | Way::AnswerLost => {}
        }
        // The endpoint goes on working when the gateway stops waiting.
        let (handler, sent) = (Arc::clone(&endpoints), posted.clone());
        let answer =
            tokio::spawn(async move { handler.receive(&sent.url, sent.body.as_bytes()).await });
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
        url: posted.url,
        payment_id: posted.payment_id,
        body: posted.body,
        taken,
    }
}
