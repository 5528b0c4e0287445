//! Starting and stopping a sandbox.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::clock::{Clock, SystemClock};
use crate::config::SandboxConfig;
use crate::faults::Faults;
use crate::gateway::{Gateway, Reshape};
use crate::invoices::InvoiceShape;
use crate::notifications::{NotificationPolicy, Outbox, SentNotification};
use crate::store::Store;
use crate::vary::Variation;

/// How long a client has to send a request, headers and body, by default.
pub const DEFAULT_REQUEST_DEADLINE: Duration = Duration::from_secs(30);

/// How many connections the sandbox serves at once, by default.
pub const DEFAULT_MAX_CONNECTIONS: usize = 4096;

/// How long a payment with the pending test card stays pending on the sandbox's clock, by
/// default, before the sandbox approves it (and notifies it).
pub const DEFAULT_PENDING_SETTLES_AFTER: Duration = Duration::from_secs(10);

/// How many records of each kind the sandbox keeps, by default: about 150 MB at the
/// largest each record's bounded fields allow.
pub const DEFAULT_MAX_RECORDS: usize = 50_000;

/// How many live auth tokens the sandbox keeps, by default. A token lives
/// [`AUTH_TOKEN_LIFETIME`](crate::AUTH_TOKEN_LIFETIME) and counts until then.
pub const DEFAULT_MAX_TOKENS: usize = 10_000;
use crate::faults::{FaultQueue, FaultTarget};
use crate::received::ReceivedLog;
use crate::{Error, server};

/// Sets a sandbox up: who may use it, its clock, its faults, its invoice shape, where it
/// listens. Everything has a default: `Sandbox::builder().start().await` is a sandbox on
/// `127.0.0.1` at a free port, with the default partner and two merchants.
#[derive(Debug)]
#[must_use = "a builder does nothing until `start` is awaited"]
pub struct SandboxBuilder {
    config: SandboxConfig,
    clock: Arc<dyn Clock>,
    faults: Faults,
    invoice_shape: InvoiceShape,
    address: SocketAddr,
    reshape: Option<Reshape>,
    request_deadline: Duration,
    max_connections: usize,
    max_records: usize,
    max_tokens: usize,
    notifications: NotificationPolicy,
    pending_settles_after: Option<Duration>,
    explain: Option<crate::gateway::Explainer>,
    tap: Option<crate::tap::Tap>,
    gateway_only: bool,
    #[cfg(feature = "sqlite")]
    state_file: Option<std::path::PathBuf>,
    #[cfg(feature = "tls")]
    tls: Option<crate::TlsIdentity>,
}

impl Default for SandboxBuilder {
    fn default() -> Self {
        Self {
            config: SandboxConfig::default(),
            clock: Arc::new(SystemClock),
            faults: Faults::NONE,
            invoice_shape: InvoiceShape::default(),
            address: SocketAddr::from(([127, 0, 0, 1], 0)),
            reshape: None,
            request_deadline: DEFAULT_REQUEST_DEADLINE,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_records: DEFAULT_MAX_RECORDS,
            max_tokens: DEFAULT_MAX_TOKENS,
            notifications: NotificationPolicy::default(),
            pending_settles_after: Some(DEFAULT_PENDING_SETTLES_AFTER),
            explain: None,
            tap: None,
            gateway_only: false,
            #[cfg(feature = "sqlite")]
            state_file: None,
            #[cfg(feature = "tls")]
            tls: None,
        }
    }
}

impl SandboxBuilder {
    paytoken_types::setters! {
        /// Partners and merchants other than the default ones.
        pub fn config(config: SandboxConfig) => config = config;

        /// A clock of the caller's, such as a shared [`ManualClock`](crate::ManualClock) that a
        /// test moves forward to expire auth tokens.
        pub fn clock(clock: Arc<dyn Clock>) => clock = clock;

        /// Faults applied to every request (a request's own fault header overrides them one by
        /// one).
        pub fn faults(faults: Faults) => faults = faults;

        /// The shape of the invoice list's answers.
        pub fn invoice_shape(shape: InvoiceShape) => invoice_shape = shape;

        /// Serves the incidental fields of every JSON answer in the varied shapes other
        /// deployments send (JSON numbers, `null`, `""`, lower case, ISO dates, one-element
        /// lists, unknown fields, ...), chosen from `seed` so that a run can be repeated. The
        /// fields that decide an answer (`paymentId`, the result, `transactionStatus`, the ids)
        /// never change, and echoed ones only into equivalent forms (`50` for `50.00`, `eur`
        /// for `EUR`): a tolerant client reads the same verdicts as without it. Replaces
        /// [`SandboxBuilder::answers_like`].
        pub fn vary_answers(seed: u64) => reshape = Some(Reshape::Varied(Variation::new(seed)));

        /// Serves answers in the shapes one deployment sends, learned from its recorded
        /// answers: which incidental fields appear, their JSON types, amount, case, expiry and
        /// date formats, the fields only it sends, its lists of one, its invoice list. The
        /// same shapes every time; deciding fields stay the sandbox's own, echoed ones take only
        /// equivalent forms, and no value of the recording is ever written, only its shapes.
        /// An operation (and result family) the recording lacks keeps the sandbox's own shape.
        /// See [`AnswerShapes`](crate::AnswerShapes). Replaces
        /// [`SandboxBuilder::vary_answers`].
        pub fn answers_like(shapes: &crate::AnswerShapes) => reshape = Some(Reshape::Like(shapes.decide()));

        /// How long a client has to send one request, headers and body, once it has started
        /// ([`DEFAULT_REQUEST_DEADLINE`] by default); a connection past it is closed, with
        /// `408` when its headers were read. Idle keep-alive connections get as long.
        pub fn request_deadline(deadline: Duration) => request_deadline = deadline;

        /// How many connections are served at once ([`DEFAULT_MAX_CONNECTIONS`] by default);
        /// one past that is closed as soon as it is accepted. With every connection held to
        /// its [request deadline](Self::request_deadline), slow clients cannot hold the
        /// sandbox for long.
        pub fn max_connections(max: usize) => max_connections = max.max(1);

        /// How many payments, registrations and customers the sandbox keeps, of each
        /// ([`DEFAULT_MAX_RECORDS`] by default). Once one kind is full, every call that would
        /// add one is refused with `90020` "Sandbox storage full": start a new sandbox. Reads
        /// (auth tokens, inquiries, lists) are still answered. (Each record's fields are
        /// bounded too, so memory is.)
        pub fn max_records(max: usize) => max_records = max.max(1);

        /// How many live auth tokens the sandbox keeps ([`DEFAULT_MAX_TOKENS`] by default),
        /// apart from the records: a token stops counting when it expires, and issuing one
        /// past the bound lets go of the one that expires first (its holder is answered
        /// `20002` and renews, as after its expiry). So tokens are always issued.
        pub fn max_tokens(max: usize) => max_tokens = max.max(1);

        /// How notifications are delivered: attempts, waits, and where they may go
        /// ([`NotificationPolicy`]'s default: six attempts, loopback only).
        pub fn notifications(policy: NotificationPolicy) => notifications = policy;

        /// How long a payment with the pending test card stays pending on the sandbox's clock
        /// before the sandbox approves it and notifies it ([`DEFAULT_PENDING_SETTLES_AFTER`]
        /// by default); `None` leaves it pending for good. With a
        /// [`ManualClock`](crate::ManualClock), the payment settles when the test moves the
        /// clock past it.
        pub fn pending_settles_after(after: Option<Duration>) => pending_settles_after = after;

        /// Keeps everything the sandbox remembers (auth tokens, customers, registrations,
        /// payments with their captures, refunds and cancels, invoices, the ids handed out) in
        /// the SQLite file `path`, created when missing, so that it survives a restart or a
        /// killed process: every answer reflects a committed write (feature `sqlite`). The
        /// configuration must name every merchant the file holds records of.
        #[cfg(feature = "sqlite")]
        pub fn state_file(path: impl Into<std::path::PathBuf>) => state_file = Some(path.into());

        /// Where to listen; `127.0.0.1:0` (a free port on loopback) by default.
        pub fn address(address: SocketAddr) => address = address;

        /// Serves HTTPS with this certificate and key; the base URL then starts `https://`.
        #[cfg(feature = "tls")]
        pub fn tls(identity: crate::TlsIdentity) => tls = Some(identity);

        /// Explains each refusal to the integrator: a line in the answer's
        /// [`EXPLAIN_HEADER`](crate::EXPLAIN_HEADER) header, also handed to `sink` (the command
        /// prints it on stderr). For a checksum mismatch it names the rule and its parts in
        /// order, shows the joined text with the key masked (a card number as its first six and
        /// last four digits), and the first usual mistake whose checksum is the one sent:
        /// upper-case hex, the key at the wrong end, another order, another amount text, the
        /// values form- or percent-encoded. Off by default: the body is the gateway's either way.
        ///
        /// ```
        /// # #[tokio::main(flavor = "current_thread")]
        /// # async fn main() -> Result<(), paytoken_sandbox::Error> {
        /// use paytoken_sandbox::Sandbox;
        ///
        /// let sandbox = Sandbox::builder()
        ///     .explain(|line| eprintln!("sandbox: {line}"))
        ///     .start()
        ///     .await?;
        /// # sandbox.shutdown().await;
        /// # Ok(())
        /// # }
        /// ```
        pub fn explain(sink: impl Fn(&str) + Send + Sync + 'static) => explain = Some(crate::gateway::Explainer(Arc::new(sink)));

        /// Records every gateway request whole in `tap` (not the console's, nor a
        /// notification's): for a harness in this process that holds a client's requests to
        /// the interface's rules (see [`tap`](crate::tap)).
        pub fn tap(tap: crate::tap::Tap) => tap = Some(tap);
    }

    /// Serves the gateway's paths only, for a harness that judges a client and drives the
    /// sandbox itself (faults, books, clock, 3-D Secure decisions, from its own process):
    /// the console, the dashboard and the 3-D Secure page answer `404`, and the
    /// [`FAULT_HEADER`](crate::FAULT_HEADER) is not read. With a [`tap`](Self::tap), those
    /// requests are tapped too, so the harness sees what the client reached for.
    pub fn gateway_only(mut self) -> Self {
        self.gateway_only = true;
        self
    }

    /// Opens the socket and starts serving on the current tokio runtime.
    ///
    /// # Errors
    /// [`Error::Bind`] when the address cannot be listened on; [`Error::Tls`] when rustls
    /// refuses the certificate or key (feature `tls`); [`Error::State`] when the state
    /// file cannot be used (feature `sqlite`).
    pub async fn start(self) -> Result<Sandbox, Error> {
        #[cfg(feature = "sqlite")]
        let (store, restored, notified, requested) = match &self.state_file {
            Some(path) => crate::store::open(path, &self.config)?,
            None => (Store::Memory, None, Vec::new(), Vec::new()),
        };
        #[cfg(not(feature = "sqlite"))]
        let (store, restored, notified, requested) = (Store::Memory, None, Vec::new(), Vec::new());
        #[cfg(feature = "tls")]
        let tls = self.tls.as_ref().map(crate::tls::acceptor).transpose()?;
        #[cfg(not(feature = "tls"))]
        let tls: Option<crate::edge::Acceptor> = None;
        let bind_error = |source| Error::Bind {
            address: self.address.to_string(),
            source,
        };
        let listener = TcpListener::bind(self.address).await.map_err(bind_error)?;
        let address = listener.local_addr().map_err(bind_error)?;
        let scheme = if tls.is_some() { "https" } else { "http" };
        let base_url = format!("{scheme}://{}", reachable(address));
        let (outbox, dispatcher) = Outbox::channel();
        // Only the page's writer can make the documentation's map of positions.
        let invoice_shape = match &self.reshape {
            Some(Reshape::Like(likeness)) => likeness.invoice_shape(),
            _ => None,
        }
        .unwrap_or(self.invoice_shape);
        let gateway = Arc::new(
            Gateway::new(
                self.config.clone(),
                self.clock,
                invoice_shape,
                base_url.clone(),
            )
            .reshaping(self.reshape)
            .keeping(self.max_records, self.max_tokens)
            .notifying(outbox, self.pending_settles_after)
            .explaining(self.explain)
            .storing(store, restored, notified, requested),
        );
        let dispatching = tokio::spawn({
            let gateway = Arc::clone(&gateway);
            // The tick settles what is due: taking the lock is enough.
            let clock = Arc::clone(&gateway.clock);
            dispatcher.run(self.notifications, clock, address, move || {
                drop(gateway.lock());
            })
        });
        let (shutdown, signal) = watch::channel(false);
        let received = Arc::new(ReceivedLog::default());
        let fault_queue = Arc::new(FaultQueue::default());
        let task = tokio::spawn(server::serve(
            server::Listening {
                listener,
                tls,
                faults: self.faults,
                fault_queue: Arc::clone(&fault_queue),
                request_deadline: self.request_deadline,
                max_connections: self.max_connections,
                tap: self.tap,
                gateway_only: self.gateway_only,
            },
            Arc::clone(&gateway),
            Arc::clone(&received),
            signal,
        ));
        Ok(Sandbox {
            gateway,
            address,
            base_url,
            config: self.config,
            received,
            fault_queue,
            shutdown,
            task: Some(task),
            dispatching,
        })
    }
}

/// A running sandbox. It stops when dropped, or cleanly with [`shutdown`](Self::shutdown).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), paytoken_sandbox::Error> {
/// use paytoken_sandbox::{DEFAULT_MERCHANT_ID, Sandbox};
///
/// let sandbox = Sandbox::start().await?;
/// assert!(sandbox.base_url().starts_with("http://127.0.0.1:"));
/// let merchant = sandbox.config().merchant(DEFAULT_MERCHANT_ID).expect("a default merchant");
/// let context = merchant.context(); // credentials, account and terminal, to sign requests
/// # let _ = context;
/// sandbox.shutdown().await;
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct Sandbox {
    gateway: Arc<Gateway>,
    address: SocketAddr,
    base_url: String,
    config: SandboxConfig,
    received: Arc<ReceivedLog>,
    fault_queue: Arc<FaultQueue>,
    shutdown: watch::Sender<bool>,
    task: Option<JoinHandle<()>>,
    /// Delivers notifications and settles pending payments; it holds the gateway, so it
    /// is stopped by hand.
    dispatching: JoinHandle<()>,
}

impl Sandbox {
    /// A builder, to set the sandbox up.
    pub fn builder() -> SandboxBuilder {
        SandboxBuilder::default()
    }

    /// A sandbox with every default, started.
    ///
    /// # Errors
    /// [`Error::Bind`] when no loopback port can be opened.
    pub async fn start() -> Result<Self, Error> {
        Self::builder().start().await
    }

    /// The address it listens on.
    #[must_use]
    pub const fn address(&self) -> SocketAddr {
        self.address
    }

    /// The base URL to give a client, such as `http://127.0.0.1:41234`: on loopback when
    /// the sandbox listens on every interface (`0.0.0.0`, `[::]`), an address a client can
    /// reach, where the unspecified one is none.
    #[must_use]
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The partners and merchants it knows, with their credentials.
    #[must_use]
    pub const fn config(&self) -> &SandboxConfig {
        &self.config
    }

    /// Every request that reached it so far (the newest 10,000),
    /// in order, those a fault dropped included: how a test tells that a client sent a
    /// payment once and did not retry it.
    #[must_use]
    pub fn received(&self) -> Vec<crate::Received> {
        self.received.snapshot()
    }

    /// The requests it answered (the newest [`REQUESTS_KEPT`](crate::REQUESTS_KEPT)) numbered
    /// above `after`, oldest first: `requests_after(0)` is the whole log. What the console's
    /// request log serves, for a test to read without HTTP.
    #[must_use]
    pub fn requests_after(&self, after: u64) -> Vec<crate::LoggedRequest> {
        self.gateway.requests.after(after)
    }

    /// Every payment it holds, with what the back office did to it: the books a test
    /// compares with what its client believes (captures, refunds, cancels).
    #[must_use]
    pub fn books(&self) -> Vec<crate::PaymentBooks> {
        crate::books::of(&self.gateway.lock())
    }

    /// Every notification the sandbox sent or tried to (the newest
    /// [`NOTIFICATIONS_KEPT`](crate::notifications::NOTIFICATIONS_KEPT)), each with its
    /// attempts so far: how a test sees a listener's failures retried, or a notification
    /// refused.
    #[must_use]
    pub fn notifications(&self) -> Vec<SentNotification> {
        self.gateway.outbox.sent()
    }

    /// Applies `faults` to the next request that `target` hits, instead of the
    /// sandbox-wide ones; called several times, to as many requests, in order. Requests the
    /// target does not hit pass it by (the auth-token fetch a client makes quietly before a
    /// payment, with [`FaultTarget::MONEY_MOVING`]). A request's fault header still
    /// overrides them one by one. How a test breaks one exchange and lets the retry through:
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use paytoken_sandbox::{FaultTarget, Faults, Sandbox};
    ///
    /// let sandbox = Sandbox::start().await?;
    /// // The next payment, capture, refund, ... is processed, and its answer lost.
    /// sandbox.fault_next(FaultTarget::MONEY_MOVING, Faults::parse("drop=after")?);
    /// // The next inquiry answers a proxy's 502 page.
    /// sandbox.fault_next(FaultTarget::parse("inquiry")?, Faults::parse("status=502")?);
    /// # Ok(()) }
    /// ```
    pub fn fault_next(&self, target: FaultTarget, faults: Faults) {
        // Past the queue's bound (a thousand waiting) the fault is not queued: a test that
        // queues so many has lost count.
        let _ = self.fault_queue.push(target, faults);
    }

    /// Drops every fault [`fault_next`](Self::fault_next) queued that no request took yet:
    /// how a run of several tests keeps one test's unused fault from hitting the next.
    pub fn clear_faults(&self) {
        self.fault_queue.clear();
    }

    /// Approves the 3-D Secure challenge of payment `payment_id`, as its cardholder would
    /// on the sandbox's page (the payment is approved and notified); `false` when it is not
    /// a payment waiting for 3-D Secure. For tests in the sandbox's process, which need no
    /// browser and no HTTP request to the page.
    pub fn approve_three_d_secure(&self, payment_id: &str) -> bool {
        crate::ops::three_d_secure::decide_waiting(
            &self.gateway,
            &mut self.gateway.lock(),
            payment_id,
            true,
        )
    }

    /// Declines the 3-D Secure challenge of payment `payment_id` (authentication failed,
    /// notified); `false` when it is not a payment waiting for 3-D Secure.
    pub fn decline_three_d_secure(&self, payment_id: &str) -> bool {
        crate::ops::three_d_secure::decide_waiting(
            &self.gateway,
            &mut self.gateway.lock(),
            payment_id,
            false,
        )
    }

    /// Moves the sandbox's clock forward by `by` (whole milliseconds; it never moves back),
    /// as the console's `advance` does: what falls due on it happens now, at the next tick
    /// (auth tokens expire, pending payments settle, notification retries and `notify=late`
    /// fire), and answers' timestamps and `Date` headers tell the new time.
    ///
    /// # Errors
    /// [`Error::ClockBound`] past [`MAX_CLOCK_ADVANCE`](crate::MAX_CLOCK_ADVANCE) in all:
    /// nothing moved.
    pub fn advance_clock(&self, by: Duration) -> Result<(), Error> {
        self.gateway
            .advance_clock(by)
            .map_err(|left| Error::ClockBound { left })
    }

    /// The time on the sandbox's clock, in seconds since 1970-01-01 00:00:00 UTC: the
    /// clock it was given, plus its advances.
    #[must_use]
    pub fn unix_seconds(&self) -> i64 {
        self.gateway.clock.now()
    }

    /// Stops accepting connections, lets open ones finish for up to two seconds, then
    /// closes the rest. Notifications still being delivered stop at once (their attempts
    /// so far stay in [`notifications`](Self::notifications)). Once it returns, a state
    /// file is closed and another sandbox may open it.
    pub async fn shutdown(mut self) {
        self.dispatching.abort();
        let _ = (&mut self.dispatching).await;
        let _ = self.shutdown.send(true);
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.dispatching.abort();
        let _ = self.shutdown.send(true);
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

/// The address a client on this machine reaches a listener at `address` by: loopback of
/// its family in place of the unspecified address.
fn reachable(address: SocketAddr) -> SocketAddr {
    let ip = match address.ip() {
        std::net::IpAddr::V4(ip) if ip.is_unspecified() => std::net::Ipv4Addr::LOCALHOST.into(),
        std::net::IpAddr::V6(ip) if ip.is_unspecified() => std::net::Ipv6Addr::LOCALHOST.into(),
        ip => ip,
    };
    SocketAddr::new(ip, address.port())
}
