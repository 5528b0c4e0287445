//! A shop's fleet and the gateway that notifies it. Each instance is an axum server on a
//! runtime of its own (killing it drops everything it was doing, as a killed process does)
//! with a pool of its own; the gateway posts every notification ten times, out of order,
//! to whichever instance it picks, and sends again whatever was not answered `200`.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::{FromRef, State};
use axum::http::StatusCode;
use axum::routing::post;
use paytoken::DuplicateStore as _;
use paytoken::SecureKey;
use paytoken::axum::Verified;
use paytoken::notification::{Claim, DuplicateKey, Fence};
use paytoken::postgres::PostgresDuplicates;
use paytoken::postgres::deadpool_postgres::{Pool, PoolError};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

/// How long a claim holds: far longer than acting takes, short enough for the test.
const LEASE: Duration = Duration::from_secs(1);

/// Which store the shop keeps: the SDK's, or a planted one that marks a key done as soon
/// as it is claimed, before the shop acts (which the test must catch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Keeping {
    Fenced,
    DoneBeforeActing,
}

/// What the fleet did, counted as it happened.
#[derive(Debug, Default)]
pub(super) struct Watch {
    /// Claims held by an instance that hangs until it is killed.
    pub(super) hanging: AtomicUsize,
    /// Notifications answered `503` because the database could not be reached.
    pub(super) unreachable: AtomicUsize,
    /// Actions rolled back because another instance took their lapsed claim over.
    pub(super) fenced_out: AtomicUsize,
    /// Claims acted on past their lease, until another instance took the key over.
    pub(super) outliving: AtomicUsize,
    /// Deliveries answered `200`.
    pub(super) answered: AtomicUsize,
    /// How many times the database was stopped or crashed: the gateway holds some of its
    /// deliveries until then, so that they meet the database away.
    pub(super) interruptions: AtomicUsize,
}

/// Waits (polling) until `done` holds.
pub(super) async fn until(done: impl Fn() -> bool) {
    while !done() {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// One instance's state, cloned into each request.
#[derive(Debug, Clone)]
pub(super) struct Shop {
    key: SecureKey,
    store: PostgresDuplicates,
    keeping: Keeping,
    /// This instance's first claims hang (the test kills it holding them).
    hang_first: usize,
    claims: Arc<AtomicUsize>,
    /// Armed: the next claim acts on until its lease has run out and been taken over.
    pub(super) slow_next: Arc<AtomicBool>,
    watch: Arc<Watch>,
}

impl FromRef<Shop> for SecureKey {
    fn from_ref(shop: &Shop) -> Self {
        shop.key.clone()
    }
}

impl Shop {
    pub(super) fn new(key: &SecureKey, pool: Pool, keeping: Keeping, watch: &Arc<Watch>) -> Self {
        Self {
            key: key.clone(),
            store: PostgresDuplicates::new(pool),
            keeping,
            hang_first: 0,
            claims: Arc::default(),
            slow_next: Arc::default(),
            watch: Arc::clone(watch),
        }
    }

    /// This instance hangs holding its first `claims`.
    pub(super) fn hanging_on(mut self, claims: usize) -> Self {
        self.hang_first = claims;
        self
    }

    /// Claims, acts (a row of `acted`) and marks done in one transaction while the fence
    /// holds: `200` when acted on now or before, `503` when the gateway must come back.
    async fn act(&self, key: &DuplicateKey) -> Result<StatusCode, paytoken::postgres::Error> {
        let claim = self.store.claim(key, LEASE).await?;
        let Claim::Claimed(fence) = claim else {
            return Ok(match claim {
                Claim::Done => StatusCode::OK,
                _ => StatusCode::SERVICE_UNAVAILABLE,
            });
        };
        if self.keeping == Keeping::DoneBeforeActing {
            self.store.done(key, fence).await?;
        }
        let mut connection = self.store.pool().get().await?;
        let transaction = connection.transaction().await?;
        transaction.execute(super::ACT, &[&key.to_string()]).await?;
        if self.claims.fetch_add(1, Ordering::SeqCst) < self.hang_first {
            self.watch.hanging.fetch_add(1, Ordering::SeqCst);
            std::future::pending::<()>().await;
        }
        if self.slow_next.swap(false, Ordering::SeqCst) {
            self.watch.outliving.fetch_add(1, Ordering::SeqCst);
            self.outlive_lease(key, fence).await;
        }
        let holds = match self.keeping {
            Keeping::Fenced => PostgresDuplicates::done_in(&*transaction, key, fence).await?,
            Keeping::DoneBeforeActing => true,
        };
        if !holds {
            // Dropped uncommitted: the instance that took the key over acted.
            self.watch.fenced_out.fetch_add(1, Ordering::SeqCst);
            return Ok(StatusCode::SERVICE_UNAVAILABLE);
        }
        transaction.commit().await?;
        Ok(StatusCode::OK)
    }

    /// Goes on acting until the database's clock has run the lease out and the key is no
    /// longer this claim's (taken over, or done).
    async fn outlive_lease(&self, key: &DuplicateKey, fence: Fence) {
        let fence = i64::try_from(fence.get()).unwrap();
        loop {
            let taken = async {
                let row = self
                    .store
                    .pool()
                    .get()
                    .await?
                    .query_one(
                        "SELECT fence <> $2 OR done FROM paytoken_notifications WHERE key = $1",
                        &[&key.to_string(), &fence],
                    )
                    .await?;
                Ok::<bool, PoolError>(row.get(0))
            };
            if matches!(taken.await, Ok(true)) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

/// The shop's notification endpoint: verified, then acted on once.
async fn notification(State(shop): State<Shop>, Verified(verified): Verified) -> StatusCode {
    shop.act(&verified.duplicate_key())
        .await
        .unwrap_or_else(|_| {
            // The database cannot be reached: the gateway sends it again.
            shop.watch.unreachable.fetch_add(1, Ordering::SeqCst);
            StatusCode::SERVICE_UNAVAILABLE
        })
}

/// An instance, serving on a runtime of its own until killed.
#[derive(Debug)]
pub(super) struct Instance {
    runtime: Option<tokio::runtime::Runtime>,
    pub(super) address: SocketAddr,
}

impl Instance {
    pub(super) fn start(shop: Shop) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let address = listener.local_addr().unwrap();
        let app = Router::new()
            .route("/notifications", post(notification))
            .with_state(shop);
        runtime.spawn(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            axum::serve(listener, app).await.unwrap();
        });
        Self {
            runtime: Some(runtime),
            address,
        }
    }

    /// Gone at once: its requests, its transactions and its connections with it.
    pub(super) fn kill(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Notification `number`'s body, signed with `key` as the gateway signs.
pub(super) fn body(key: &SecureKey, number: usize) -> String {
    let (payment_id, order) = (format!("{}", 60_000 + number), format!("order-{number}"));
    let checksum =
        paytoken::checksum::rules::notification(key, &payment_id, &order, "10.00", "Y").unwrap();
    format!(
        r#"{{"paymentId":"{payment_id}","merchantTransactionId":"{order}","amount":"10.00","currency":"EUR","transactionStatus":"Y","checksum":"{}"}}"#,
        checksum.to_hex().as_str()
    )
}

/// Posts every body `times` times, sixteen at once: notification `n` first around the
/// `n`th tenth of the run, its repeats after it among the others'; each to an instance of
/// its own, and on to the next one until one answers `200`. The delivery numbered
/// `holds[i]` and those after it wait until the database was interrupted `i + 1` times.
pub(super) async fn deliver(
    instances: Vec<SocketAddr>,
    bodies: Vec<String>,
    (times, holds): (usize, &'static [usize]),
    watch: Arc<Watch>,
) {
    let mut order: Vec<(usize, usize)> = (0..bodies.len())
        .flat_map(|number| (0..times).map(move |round| (number, round)))
        .collect();
    order.sort_by_key(|&(number, round)| (number * 10 + (round * 37 + number * 13) % 100, round));
    let bodies: Arc<[String]> = bodies.into();
    let instances: Arc<[SocketAddr]> = instances.into();
    let in_flight = Arc::new(Semaphore::new(16));
    let mut deliveries = JoinSet::new();
    for (index, (number, round)) in order.into_iter().enumerate() {
        if let Some(hold) = holds.iter().position(|&hold| hold == index) {
            until(|| watch.interruptions.load(Ordering::SeqCst) > hold).await;
        }
        let permit = Arc::clone(&in_flight).acquire_owned().await.unwrap();
        let (bodies, instances, watch) = (
            Arc::clone(&bodies),
            Arc::clone(&instances),
            Arc::clone(&watch),
        );
        deliveries.spawn(async move {
            let mut target = number + round;
            while send(instances[target % instances.len()], &bodies[number]).await != Some(200) {
                target += 1;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            watch.answered.fetch_add(1, Ordering::SeqCst);
            drop(permit);
        });
    }
    while let Some(delivered) = deliveries.join_next().await {
        delivered.unwrap();
    }
}

/// Posts `body` to `instance` until it answers `200`.
pub(super) async fn send_until_ok(instance: SocketAddr, body: &str) {
    while send(instance, body).await != Some(200) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// One `POST` on a connection of its own: the status, or `None` when there was no answer.
pub(super) async fn send(address: SocketAddr, body: &str) -> Option<u16> {
    let mut stream = TcpStream::connect(address).await.ok()?;
    let request = format!(
        "POST /notifications HTTP/1.1\r\nhost: shop\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.ok()?;
    String::from_utf8_lossy(&answer)
        .split(' ')
        .nth(1)?
        .parse()
        .ok()
}
