//! The sandbox inside a deterministic simulation (feature `simulation`): its request
//! handling called in the caller's process, with no server, no thread and no clock of its
//! own, its ids and tokens drawn from a seed; the notifications it posts handed to the
//! simulation to deliver; with the `sqlite` feature, its state in a file it is killed and
//! restarted from; and the defects a simulation must be able to catch, planted at run
//! time. For a simulator's network to call; a shop's tests use
//! [`Sandbox`](crate::Sandbox).
//!
//! ```
//! use std::sync::Arc;
//! use paytoken_sandbox::ManualClock;
//! use paytoken_sandbox::simulation::InProcess;
//!
//! let gateway = InProcess::new(7, Arc::new(ManualClock::at_unix_seconds(1_700_000_000)));
//! let (status, body) = gateway.handle("/no/such/path", None, b"");
//! assert_eq!(status, 404);
//! assert!(!body.is_empty());
//! assert!(gateway.books().is_empty());
//! ```

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::clock::Clock;
use crate::entropy::Entropy;
use crate::gateway::Gateway;
use crate::invoices::InvoiceShape;
use crate::notifications::{Dispatcher, Outbox};
use crate::ops::three_d_secure;
use crate::planted::Defects;
pub use crate::planted::Settled;
use crate::store::{Opened, Store};
use crate::{DEFAULT_PENDING_SETTLES_AFTER, PaymentBooks, SandboxConfig};

/// The sandbox's gateway with the default configuration, answering in the caller's
/// process.
#[derive(Debug)]
pub struct InProcess {
    config: SandboxConfig,
    clock: Arc<dyn Clock>,
    seed: u64,
    defects: Defects,
    /// The gateway now, and where the notifications it posts wait; a restart puts
    /// another in its place.
    running: Mutex<Running>,
    /// What the gateway before a restart had posted, and settled, and nobody had taken yet.
    carried: Mutex<(Vec<Posted>, Vec<Settled>)>,
    /// The state file, when there is one.
    #[cfg(feature = "sqlite")]
    file: Option<std::path::PathBuf>,
    restarts: AtomicU64,
}

#[derive(Debug)]
struct Running {
    gateway: Gateway,
    dispatcher: Dispatcher,
}

/// A notification the gateway posted: where to, and its JSON body, signed with the
/// payment owner's secure key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Posted {
    /// The payment it is about.
    pub payment_id: String,
    /// The payment's `notificationUrl`.
    pub url: String,
    /// The body to post.
    pub body: String,
}

impl InProcess {
    /// A gateway whose ids and tokens come from `seed` and whose time is `clock`'s, its
    /// state in memory. A pending payment is approved [`DEFAULT_PENDING_SETTLES_AFTER`]
    /// after it was made, once the gateway is next called or
    /// [`settle_due`](Self::settle_due) after it.
    #[must_use]
    pub fn new(seed: u64, clock: Arc<dyn Clock>) -> Self {
        Self::started(seed, clock, (Store::Memory, None, Vec::new(), Vec::new()))
    }

    /// As [`new`](Self::new), its state kept in the SQLite file at `path` (created when
    /// missing), as `paytoken sandbox --state` keeps it: each call's changes written
    /// before its answer.
    ///
    /// # Errors
    /// [`Error::State`](crate::Error::State) for a file that cannot be used.
    #[cfg(feature = "sqlite")]
    pub fn on_file(
        seed: u64,
        clock: Arc<dyn Clock>,
        path: &std::path::Path,
    ) -> Result<Self, crate::Error> {
        let config = SandboxConfig::default();
        let mut gateway = Self::started(seed, clock, crate::store::open(path, &config)?);
        gateway.file = Some(path.to_path_buf());
        Ok(gateway)
    }

    fn started(seed: u64, clock: Arc<dyn Clock>, opened: Opened) -> Self {
        let config = SandboxConfig::default();
        let running = Running::start(
            &config,
            Arc::clone(&clock),
            seed,
            opened,
            Defects::default(),
        );
        Self {
            config,
            clock,
            seed,
            defects: Defects::default(),
            running: Mutex::new(running),
            carried: Mutex::new((Vec::new(), Vec::new())),
            #[cfg(feature = "sqlite")]
            file: None,
            restarts: AtomicU64::new(0),
        }
    }

    /// Kills the gateway, whatever it was doing between two calls, and starts another
    /// from its state file (with none, from nothing): what the file holds survives, what
    /// only the memory held (its live auth tokens among it) is gone. Posted notifications
    /// nobody took yet are carried over. Its ids and tokens come from the seed and the
    /// count of restarts, so none is handed out twice.
    ///
    /// # Errors
    /// [`Error::State`](crate::Error::State) when the file cannot be opened again; the
    /// gateway then answers from an empty memory.
    pub fn restart(&self) -> Result<(), crate::Error> {
        let mut running = self.running();
        let taken = running.dispatcher.take_posted();
        let settled = std::mem::take(&mut *running.gateway.hooks.settled());
        let mut carried = self.carried();
        carried.0.extend(taken.into_iter().map(Posted::from));
        carried.1.extend(settled);
        drop(carried);
        let restarts = self.restarts.fetch_add(1, Ordering::SeqCst).wrapping_add(1);
        let seed = self.seed ^ restarts.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let start = |opened| {
            Running::start(
                &self.config,
                Arc::clone(&self.clock),
                seed,
                opened,
                self.defects,
            )
        };
        // The old gateway goes first: its file stays locked while it lives.
        *running = start((Store::Memory, None, Vec::new(), Vec::new()));
        #[cfg(feature = "sqlite")]
        if let Some(path) = &self.file {
            *running = start(crate::store::open(path, &self.config)?);
        }
        Ok(())
    }

    /// How many times the gateway was restarted.
    #[must_use]
    pub fn restarts(&self) -> u64 {
        self.restarts.load(Ordering::SeqCst)
    }

    /// Plants a defect: a refund's check reads what was refunded before as nothing, so
    /// refunds that race may sum above what was taken.
    #[must_use]
    pub fn with_stale_refund_check(mut self) -> Self {
        self.defects.stale_refund_check = true;
        self.running().gateway.hooks.defects = self.defects;
        self
    }

    /// Plants a defect: a call's changes are written to the state file when the next call
    /// comes, after its answer left, so that a kill in between loses what was answered.
    #[must_use]
    pub fn with_write_behind(mut self) -> Self {
        self.defects.write_behind = true;
        self.running().gateway.hooks.defects = self.defects;
        self
    }

    /// Plants a defect: the state file keeps every payment with nothing refunded, so that
    /// a restart forgets the refunds it answered (a run in memory shows nothing).
    #[must_use]
    pub fn with_refunds_lost_in_file(mut self) -> Self {
        self.defects.refunds_lost_in_file = true;
        let mut running = self.running();
        running.gateway.hooks.defects = self.defects;
        running.gateway.store().lose_refunds();
        drop(running);
        self
    }

    /// Its configuration: the merchants and partners a client signs in as.
    #[must_use]
    pub const fn config(&self) -> &SandboxConfig {
        &self.config
    }

    /// Answers a `POST` of `body` to `path` (with `auth_token` in its header): the status
    /// and the body.
    #[must_use]
    pub fn handle(&self, path: &str, auth_token: Option<&str>, body: &[u8]) -> (u16, String) {
        let answer = self
            .running()
            .gateway
            .handle("POST", path, None, auth_token, body, None);
        (answer.status, answer.body)
    }

    /// The notifications posted since the last call, oldest first: the simulation delivers
    /// them (the sandbox's own deliveries and their retries are not run).
    #[must_use]
    pub fn posted(&self) -> Vec<Posted> {
        let taken = self.running().dispatcher.take_posted();
        let mut posted = std::mem::take(&mut self.carried().0);
        posted.extend(taken.into_iter().map(Posted::from));
        posted
    }

    /// The payments settled since the last call, oldest first (whether or not they have a
    /// `notificationUrl`): each one's notification is due.
    #[must_use]
    pub fn settled(&self) -> Vec<Settled> {
        let taken = std::mem::take(&mut *self.running().gateway.hooks.settled());
        let mut settled = std::mem::take(&mut self.carried().1);
        settled.extend(taken);
        settled
    }

    /// Settles what has fallen due on the clock (pending payments, expired 3-D Secure
    /// challenges), posting their notifications.
    pub fn settle_due(&self) {
        drop(self.running().gateway.lock());
    }

    /// Decides payment `payment_id`'s 3-D Secure challenge as its cardholder would:
    /// approved or declined, notified; `false` when it is not waiting for one.
    pub fn decide_three_d_secure(&self, payment_id: &str, approved: bool) -> bool {
        let running = self.running();
        three_d_secure::decide_waiting(
            &running.gateway,
            &mut running.gateway.lock(),
            payment_id,
            approved,
        )
    }

    /// Every payment it holds, with what was done to it.
    #[must_use]
    pub fn books(&self) -> Vec<PaymentBooks> {
        crate::books::of(&self.running().gateway.lock())
    }

    fn running(&self) -> MutexGuard<'_, Running> {
        // Each call leaves the gateway whole: a poison means nothing.
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn carried(&self) -> MutexGuard<'_, (Vec<Posted>, Vec<Settled>)> {
        lock(&self.carried)
    }
}

impl Running {
    /// A gateway on `opened`'s store and state, its entropy from `seed`.
    fn start(
        config: &SandboxConfig,
        clock: Arc<dyn Clock>,
        seed: u64,
        opened: Opened,
        defects: Defects,
    ) -> Self {
        let (store, restored, notified, requested) = opened;
        let (outbox, dispatcher) = Outbox::channel();
        let mut gateway = Gateway::new(
            config.clone(),
            clock,
            InvoiceShape::default(),
            // Nothing is served: the 3-D Secure redirect names no reachable place.
            "http://sandbox.invalid".to_owned(),
        )
        .notifying(outbox, Some(DEFAULT_PENDING_SETTLES_AFTER))
        .storing(store, restored, notified, requested);
        gateway.hooks.defects = defects;
        if defects.refunds_lost_in_file {
            gateway.store().lose_refunds();
        }
        gateway.lock().entropy = Entropy::seeded(seed);
        Self {
            gateway,
            dispatcher,
        }
    }
}

impl From<crate::notifications::Message> for Posted {
    fn from(message: crate::notifications::Message) -> Self {
        Self {
            payment_id: message.payment_id,
            url: message.url,
            body: message.body,
        }
    }
}

/// `mutex`'s value: each holder leaves it whole, so a poison means nothing.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
