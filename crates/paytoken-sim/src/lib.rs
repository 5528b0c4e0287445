//! # paytoken-sim
//!
//! A deterministic simulation of many checkouts against the gateway: paytoken's real
//! client (its call path, retries, settlement of lost answers, auth-token renewal) and the
//! sandbox's real request handling and state, joined by a simulated network that the run's
//! seed drives (connections refused, requests and answers lost, answers stalled past the
//! client's timeout, cut short or late, proxies' `502` pages before and after the gateway
//! acted, auth tokens expired, and in some runs the sandbox killed and restarted from its
//! state file). The gateway's notifications are delivered at least once, lost, repeated
//! and held, to a shop's handler built on the SDK's `DuplicateStore` and to `paytoken
//! listen --forward-to`'s relay. Time is virtual (a paused tokio runtime on one thread), so
//! a run of hours of shop time takes milliseconds, and one seed gives one history.
//!
//! **Layer:** beside the stack, like the tests: it uses the client through its
//! [`Transport`](paytoken_hyper::Transport), the sandbox through its `simulation` feature
//! and the relay through `paytoken-cli`'s; nothing depends on it.
//!
//! Each run draws its own mix of faults from its seed (swarm testing: some left out,
//! others made common), the first lines of its history. After each run (a run on a file
//! ends with one more restart, so that its books are read as the file kept them), the
//! invariants are checked against the sandbox's books: no order charged twice; what the
//! client believes of each payment (made or refused, approved or not, captured, refunded,
//! cancelled) is the books' truth, and the payment it holds is the books' payment of that
//! order; no payment refunded beyond what it took; every payment settled later was
//! notified; no notification acted on twice, and every one answered `2xx` acted on, as the
//! books say. Planted defects ([`Defect`]), installed at run time by the simulator (in the
//! sandbox and the relay only with their `simulation` feature, which no build of the SDK
//! enables), show that a broken client, gateway, store or relay is caught.
//!
//! ```
//! let run = paytoken_sim::run(42, &paytoken_sim::Plan::default());
//! assert!(run.passed(), "{}", run.report());
//! assert_eq!(run.digest(), paytoken_sim::run(42, &paytoken_sim::Plan::default()).digest());
//! ```
//!
//! `cargo xtask sim --seeds N` runs many seeds; a failing one prints the command that
//! replays it and the history of the orders it broke.

mod checkout;
mod clock;
mod history;
mod invariants;
mod mix;
mod network;
mod notifications;
mod state_file;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use paytoken::sandbox::client_builder_at;
use paytoken_sandbox::DEFAULT_MERCHANT_ID;
use paytoken_sandbox::simulation::InProcess;

use checkout::Checkout;
use clock::VirtualClock;
use history::History;
use network::Network;
use notifications::{Endpoints, Listener, Outgoing, Shop, ShopDefect};
use state_file::{ON_FILE_ONE_IN, ON_FILE_SALT, StateFile};

/// The history's words for a restart of the sandbox from its file, which every report of a
/// broken run shows: a restart is where a write the file did not keep is lost.
const RESTARTED: &str = "sandbox restarted from its file";

/// How long the client waits for an answer, in virtual time.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(5);

/// How many notifications the shop's duplicate store remembers (one, under
/// [`Defect::ForgetfulDuplicateStore`]).
const REMEMBERED: usize = 10_000;

/// A defect planted on purpose, which a run must catch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Defect {
    /// The shop sends a payment whose answer was lost again, under a new order id, instead
    /// of settling it by inquiry.
    FreshOrderOnLostAnswer,
    /// The sandbox's refund check reads what was refunded before as nothing.
    StaleRefundCheck,
    /// The shop's duplicate store remembers one notification only.
    ForgetfulDuplicateStore,
    /// The shop marks a notification done when it claims it, before acting on it: a
    /// repeat during the action passes for done, and a failed action is never retried.
    DoneBeforeActing,
    /// The shop acts on a notification whether or not its claim's fence still holds it.
    UnfencedAction,
    /// `paytoken listen`'s relay marks a notification done when it claims it, before its
    /// target took it.
    DoneBeforeRelaying,
    /// The sandbox writes a call's changes to its state file when the next call comes,
    /// after its answer left.
    WriteBehind,
    /// The sandbox never posts the notification of a payment settled after its answer.
    NeverNotifies,
    /// The sandbox's state file keeps no refund: a restart forgets the refunds answered.
    RefundLostInFile,
}

impl Defect {
    /// Every defect, by the name `cargo xtask sim --defect` takes.
    pub const ALL: [(&'static str, Self); 9] = [
        ("fresh-order-on-lost-answer", Self::FreshOrderOnLostAnswer),
        ("stale-refund-check", Self::StaleRefundCheck),
        ("forgetful-duplicate-store", Self::ForgetfulDuplicateStore),
        ("done-before-acting", Self::DoneBeforeActing),
        ("unfenced-action", Self::UnfencedAction),
        ("done-before-relaying", Self::DoneBeforeRelaying),
        ("write-behind", Self::WriteBehind),
        ("never-notifies", Self::NeverNotifies),
        ("refund-lost-in-file", Self::RefundLostInFile),
    ];

    /// Its name.
    #[must_use]
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, defect)| *defect == self)
            .map_or("", |(name, _)| name)
    }
}

/// What a run does: how many checkouts at once, and the defects planted.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Checkouts running at once.
    pub checkouts: usize,
    /// Defects planted (none by default).
    pub defects: Vec<Defect>,
}

impl Default for Plan {
    fn default() -> Self {
        Self {
            checkouts: 8,
            defects: Vec::new(),
        }
    }
}

/// What a run did: its history, its digest, and the invariants it broke.
#[derive(Debug)]
pub struct Run {
    seed: u64,
    defects: Vec<Defect>,
    history: Vec<String>,
    digest: u64,
    broken: Vec<String>,
    /// The ids the broken invariants are about.
    named: Vec<String>,
    /// Calls whose outcome no inquiry could settle.
    unknown_left: usize,
}

impl Run {
    /// Whether every invariant held.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.broken.is_empty()
    }

    /// The invariants broken, each naming its order or payment.
    #[must_use]
    pub fn broken(&self) -> &[String] {
        &self.broken
    }

    /// The run's fingerprint: the same seed gives the same one.
    #[must_use]
    pub const fn digest(&self) -> u64 {
        self.digest
    }

    /// How many calls no inquiry could settle: refunds whose status cannot tell (the
    /// invariants count them as neither made nor refused).
    #[must_use]
    pub const fn unknown_left(&self) -> usize {
        self.unknown_left
    }

    /// Every line of the history.
    #[must_use]
    pub fn history(&self) -> &[String] {
        &self.history
    }

    /// What broke, the command that replays the run, and the history that explains it: the
    /// run's mix of faults, every restart of the sandbox, and every line naming an order or
    /// payment it broke (their requests, claims, fences, leases, relays and settlements).
    #[must_use]
    pub fn report(&self) -> String {
        let mut report = String::new();
        if self.passed() {
            report.push_str(&format!("seed {}: every invariant held\n", self.seed));
            return report;
        }
        let defects: String = self
            .defects
            .iter()
            .map(|defect| format!(" --defect {}", defect.name()))
            .collect();
        report.push_str(&format!(
            "seed {} broke {} invariant(s); replay: cargo xtask sim --seed {}{defects}\n",
            self.seed,
            self.broken.len(),
            self.seed
        ));
        for broken in &self.broken {
            report.push_str(&format!("  {broken}\n"));
        }
        report.push_str("history:\n");
        for line in &self.history {
            let explains = mix::is_mix(line)
                || line.contains(RESTARTED)
                || self.named.iter().any(|id| line.contains(id.as_str()));
            if explains {
                report.push_str(&format!("  {line}\n"));
            }
        }
        report
    }
}

/// Runs the checkouts of `plan` under the faults `seed` draws, and checks the invariants.
#[must_use]
pub fn run(seed: u64, plan: &Plan) -> Run {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build();
    let Ok(runtime) = runtime else {
        return failed(seed, plan, "cannot build the runtime");
    };
    runtime.block_on(simulate(seed, plan))
}

async fn simulate(seed: u64, plan: &Plan) -> Run {
    let clock = Arc::new(VirtualClock::start());
    let history = History::new(Arc::clone(&clock));
    let sandbox_clock: Arc<dyn paytoken_sandbox::Clock> = clock.clone();
    // A seeded fraction of runs keep the sandbox's state in a file, and kill it.
    let state_file = (fastrand::Rng::with_seed(seed ^ ON_FILE_SALT).u32(0..ON_FILE_ONE_IN) == 0)
        .then(StateFile::new);
    let mut gateway = match &state_file {
        None => InProcess::new(seed, sandbox_clock),
        Some(file) => match InProcess::on_file(seed, sandbox_clock, &file.0) {
            Ok(gateway) => gateway,
            Err(error) => {
                return failed(seed, plan, &format!("cannot open the state file: {error}"));
            }
        },
    };
    if plan.defects.contains(&Defect::StaleRefundCheck) {
        gateway = gateway.with_stale_refund_check();
    }
    if plan.defects.contains(&Defect::WriteBehind) {
        gateway = gateway.with_write_behind();
    }
    if plan.defects.contains(&Defect::RefundLostInFile) {
        gateway = gateway.with_refunds_lost_in_file();
    }
    let gateway = Arc::new(gateway);
    // Never dialled: the network hands requests to the sandbox in this process.
    let Some((builder, _)) = client_builder_at(gateway.config(), "http://sandbox.invalid") else {
        return failed(seed, plan, "the sandbox has no merchant");
    };
    let failed_restarts = Arc::new(Mutex::new(Vec::new()));
    let network = Network::new(
        Arc::clone(&gateway),
        seed,
        Arc::clone(&clock),
        history.clone(),
        CLIENT_TIMEOUT,
        state_file.is_some(),
        Arc::clone(&failed_restarts),
    );
    let client = match builder
        .request_timeout(CLIENT_TIMEOUT)
        .seed(seed)
        .build_with_transport(network)
    {
        Ok(client) => client,
        Err(error) => return failed(seed, plan, &format!("cannot build the client: {error}")),
    };
    let Some(merchant) = gateway.config().merchant(DEFAULT_MERCHANT_ID) else {
        return failed(seed, plan, "the sandbox has no default merchant");
    };
    let remembered = if plan.defects.contains(&Defect::ForgetfulDuplicateStore) {
        1
    } else {
        REMEMBERED
    };
    let endpoints = Arc::new(Endpoints {
        shop: Shop::new(
            merchant.secure_key.clone(),
            remembered,
            shop_defect(&plan.defects),
            seed.rotate_left(17),
            history.clone(),
        ),
        listener: Listener::new(
            merchant.secure_key.clone(),
            seed.rotate_left(23),
            plan.defects.contains(&Defect::DoneBeforeRelaying),
            history.clone(),
        ),
    });
    let stop = Arc::new(AtomicBool::new(false));
    let outgoing = Arc::new(Outgoing {
        gateway: Arc::clone(&gateway),
        never_notifies: plan.defects.contains(&Defect::NeverNotifies),
        history: history.clone(),
    });
    let dispatcher = tokio::spawn(notifications::dispatch(
        Arc::clone(&outgoing),
        Arc::clone(&endpoints),
        seed.rotate_left(31),
        Arc::clone(&stop),
    ));
    let orders = Arc::new(Mutex::new(Vec::new()));
    let unknown_left = Arc::new(AtomicUsize::new(0));
    let mut checkouts = tokio::task::JoinSet::new();
    for number in 1..=plan.checkouts {
        checkouts.spawn(
            Checkout {
                number,
                random: fastrand::Rng::with_seed(
                    seed ^ u64::try_from(number)
                        .unwrap_or(0)
                        .wrapping_mul(0x9e37_79b9_7f4a_7c15),
                ),
                client: client.clone(),
                history: history.clone(),
                orders: Arc::clone(&orders),
                defects: plan.defects.clone(),
                unknown_left: Arc::clone(&unknown_left),
                gateway: Arc::clone(&gateway),
                endpoints: Arc::clone(&endpoints),
            }
            .run(),
        );
    }
    let mut broken = Vec::new();
    while let Some(joined) = checkouts.join_next().await {
        if let Err(error) = joined {
            broken.push(format!("a checkout did not finish: {error}"));
        }
    }
    stop.store(true, Ordering::SeqCst);
    let deliveries = dispatcher.await.unwrap_or_else(|error| {
        broken.push(format!(
            "the notifications' dispatcher did not finish: {error}"
        ));
        Vec::new()
    });
    let orders = orders
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    let mut named = Vec::new();
    for why in failed_restarts
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
    {
        broken.push(format!("the sandbox did not restart from its file: {why}"));
    }
    if state_file.is_some() {
        // The books as the file kept them: what a restart now would find.
        if let Err(error) = gateway.restart() {
            broken.push(format!(
                "the sandbox did not restart from its file: {error}"
            ));
        }
        history.note(format_args!("{RESTARTED} before its books are read"));
    }
    let books = gateway.books();
    // Posted as the run ended (reading the books settles what fell due): never delivered.
    let last_posted = outgoing.take();
    let posted: Vec<&str> = deliveries
        .iter()
        .map(|delivery| delivery.payment_id.as_str())
        .chain(last_posted.iter().map(|posted| posted.payment_id.as_str()))
        .collect();
    let notified = invariants::notifications(&endpoints, &deliveries, &merchant.secure_key, &books);
    for invariant in invariants::broken(&orders, &books)
        .into_iter()
        .chain(invariants::owed_notifications(&books, &posted))
        .chain(notified)
    {
        broken.push(invariant.said);
        named.extend(invariant.names);
    }
    Run {
        seed,
        defects: plan.defects.clone(),
        history: history.lines(),
        digest: history.digest(),
        broken,
        named,
        unknown_left: unknown_left.load(Ordering::Relaxed),
    }
}

/// One of `table`'s choices, each as likely as its weight; `otherwise` when all weigh
/// nothing.
fn weighted<T: Copy>(random: &mut fastrand::Rng, table: &[(T, u32)], otherwise: T) -> T {
    let total: u32 = table.iter().map(|(_, weight)| weight).sum();
    let mut pick = random.u32(0..total.max(1));
    table
        .iter()
        .find(|(_, weight)| {
            let hit = pick < *weight;
            pick = pick.saturating_sub(*weight);
            hit
        })
        .map_or(otherwise, |(choice, _)| *choice)
}

/// The defect planted in the shop, if any.
fn shop_defect(defects: &[Defect]) -> Option<ShopDefect> {
    defects.iter().find_map(|defect| match defect {
        Defect::DoneBeforeActing => Some(ShopDefect::DoneBeforeActing),
        Defect::UnfencedAction => Some(ShopDefect::Unfenced),
        _ => None,
    })
}

fn failed(seed: u64, plan: &Plan, why: &str) -> Run {
    Run {
        seed,
        defects: plan.defects.clone(),
        history: Vec::new(),
        digest: 0,
        broken: vec![why.to_owned()],
        named: Vec::new(),
        unknown_left: 0,
    }
}
