//! `PostgresDuplicates` against a real PostgreSQL server which the test starts, stops and
//! starts again in a folder of its own ([`server`]), with a fleet of four shop instances
//! and a gateway ([`fleet`]). Ignored by default (it needs Debian's `postgresql`);
//! `cargo xtask ci` installs it and runs it:
//!
//! ```text
//! cargo test -p paytoken --test it -- --ignored postgres::
//! ```

mod failover;
mod fleet;
mod reaper;
mod server;
mod waits;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use paytoken::DuplicateStore as _;
use paytoken::SecureKey;
use paytoken::notification::{Claim, DuplicateKey};
use paytoken::postgres::PostgresDuplicates;
use paytoken::postgres::deadpool_postgres::Pool;

use fleet::{Instance, Keeping, Shop, Watch, until};
use server::Server;

const NOTIFICATIONS: usize = 200;
const DELIVERIES: usize = 10;
/// The instance that hangs holding the claims of notifications 0, 1 and 2 until killed.
const HANGING: usize = 3;
/// The instance that acts on notification 3 past its lease.
const SLOW: usize = 1;
/// The deliveries answered before instance [`HANGING`] is killed.
const KILL_AFTER: usize = 100;
/// The deliveries answered before the database is stopped, then before it is crashed.
const STOP_AFTER: usize = 600;
const CRASH_AFTER: usize = 1300;
/// The deliveries the gateway holds until the database was stopped, then crashed: some
/// always meet it away, whichever instance wins which race.
const HOLDS: &[usize] = &[STOP_AFTER + 100, CRASH_AFTER + 100];

/// What a run left: each notification's rows of `acted`, and what the fleet counted.
struct Run {
    acted: BTreeMap<usize, i64>,
    watch: Arc<Watch>,
    server: Server,
}

impl Run {
    /// The notifications acted on other than once: (number, times).
    fn not_once(&self) -> Vec<(usize, i64)> {
        (0..NOTIFICATIONS)
            .map(|number| (number, self.acted.get(&number).copied().unwrap_or(0)))
            .filter(|&(_, times)| times != 1)
            .collect()
    }
}

/// The shop's action on a key: a row of `acted`, written in the transaction of `done_in`
/// (an outbox row, which a relay would send).
const ACT: &str = "INSERT INTO acted (key) VALUES ($1)";

/// A store on `pool`, its table created, beside the shop's table of actions.
async fn shop_store(pool: Pool) -> PostgresDuplicates {
    let store = PostgresDuplicates::new(pool);
    store.create_table().await.unwrap();
    store
        .pool()
        .get()
        .await
        .unwrap()
        .batch_execute("CREATE TABLE acted (key text NOT NULL)")
        .await
        .unwrap();
    store
}

/// How many times the shop acted on each key it acted on.
async fn acted(pool: &Pool) -> BTreeMap<String, i64> {
    let rows = pool
        .get()
        .await
        .unwrap()
        .query("SELECT key, count(*) FROM acted GROUP BY key", &[])
        .await
        .unwrap();
    rows.iter().map(|row| (row.get(0), row.get(1))).collect()
}

fn key(number: usize) -> DuplicateKey {
    DuplicateKey {
        payment_id: format!("{}", 60_000 + number).parse().unwrap(),
        transaction_status: "Y".to_owned(),
    }
}

/// Four instances, each with its own pool, receive the same 200 notifications ten times
/// each, sixteen at once and out of order. Before the gateway starts, instance 3 is handed
/// notifications 0 to 2 and hangs holding their claims, between claim and done (it is
/// killed once 100 deliveries were answered), and instance 1 acts on notification 3 past
/// its lease, which the database's clock runs out and instance 0 takes over. Once 600
/// deliveries were answered the server is stopped (the fleet answers `503` meanwhile) and
/// started again; once 1,300 were, it crashes and recovers. Every step waits only for what
/// is bound to happen, and a run that does not settle panics with the fleet's counters.
async fn run(keeping: Keeping) -> Run {
    let server = Server::start();
    let setup = shop_store(server.pool()).await;
    let secure_key = SecureKey::new("the-fleet-s-secure-key").unwrap();
    let watch = Arc::new(Watch::default());
    let shops: Vec<Shop> = (0..4)
        .map(|_| Shop::new(&secure_key, server.pool(), keeping, &watch))
        .collect();
    shops[SLOW].slow_next.store(true, Ordering::SeqCst);
    let mut instances: Vec<Instance> = shops
        .into_iter()
        .enumerate()
        .map(|(number, shop)| {
            Instance::start(if number == HANGING {
                shop.hanging_on(3)
            } else {
                shop
            })
        })
        .collect();
    let bodies: Vec<String> = (0..NOTIFICATIONS)
        .map(|number| fleet::body(&secure_key, number))
        .collect();
    let addresses: Vec<_> = instances.iter().map(|instance| instance.address).collect();
    let count = |counter: &AtomicUsize| counter.load(Ordering::SeqCst);

    let settled = async {
        // Each first delivery of notifications 0 to 2 goes to the hanging instance, which
        // is the first to see them: its claims, bound to hang.
        for body in &bodies[..3] {
            let (hanging, body) = (addresses[HANGING], body.clone());
            tokio::spawn(async move { fleet::send(hanging, &body).await });
        }
        until(|| count(&watch.hanging) == 3).await;
        // Notification 3 to the slow instance, then again to instance 0, which takes the
        // key over once the lease ran out; the slow one's action is then fenced out.
        let (slow, body) = (addresses[SLOW], bodies[3].clone());
        let slow = tokio::spawn(async move { fleet::send(slow, &body).await });
        until(|| count(&watch.outliving) == 1).await;
        fleet::send_until_ok(addresses[0], &bodies[3]).await;
        slow.await.unwrap();

        let gateway = tokio::spawn(fleet::deliver(
            addresses.clone(),
            bodies.clone(),
            (DELIVERIES, HOLDS),
            Arc::clone(&watch),
        ));
        until(|| count(&watch.answered) >= KILL_AFTER).await;
        instances[HANGING].kill();
        for (interruption, after) in [STOP_AFTER, CRASH_AFTER].into_iter().enumerate() {
            until(|| count(&watch.answered) >= after).await;
            let unreachable = count(&watch.unreachable);
            tokio::task::block_in_place(|| {
                if interruption == 0 {
                    server.stop();
                } else {
                    server.crash();
                }
            });
            watch.interruptions.fetch_add(1, Ordering::SeqCst);
            until(|| count(&watch.unreachable) >= unreachable + 3).await;
            tokio::task::block_in_place(|| server.resume());
        }
        gateway.await.unwrap();
    };
    if tokio::time::timeout(Duration::from_secs(120), settled)
        .await
        .is_err()
    {
        panic!("the fleet did not settle every notification in 120 s: {watch:?}");
    }
    let numbers: BTreeMap<String, usize> = (0..NOTIFICATIONS)
        .map(|number| (key(number).to_string(), number))
        .collect();
    let acted = acted(setup.pool())
        .await
        .into_iter()
        .map(|(key, times)| (numbers[&key], times))
        .collect();
    drop(instances);
    Run {
        acted,
        watch,
        server,
    }
}

/// Every notification has exactly one row of `acted` (an outbox row written in the
/// transaction of `done_in`), through a kill, a restart and a crash of the database and a
/// lease run out under its holder, whose late transaction was rolled back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Debian's postgresql; cargo xtask ci installs it and runs it"]
async fn a_fleet_acts_on_each_notification_once() {
    let run = run(Keeping::Fenced).await;
    let watch = &run.watch;
    eprintln!("the fleet: {watch:?}");
    assert_eq!(run.not_once(), [], "(notification, times acted on)");
    assert!(watch.unreachable.load(Ordering::SeqCst) >= 6, "{watch:?}");
    assert!(watch.fenced_out.load(Ordering::SeqCst) >= 1, "{watch:?}");

    // A lease that lapses (none at all here) is taken over with a new fence; its late
    // holder's mark changes nothing.
    let (late, other) = (
        PostgresDuplicates::new(run.server.pool()),
        PostgresDuplicates::new(run.server.pool()),
    );
    let late_key = key(NOTIFICATIONS + 1);
    let lease = Duration::from_secs(30);
    let Claim::Claimed(late_fence) = late.claim(&late_key, Duration::ZERO).await.unwrap() else {
        panic!("a new key")
    };
    let Claim::Claimed(fence) = other.claim(&late_key, lease).await.unwrap() else {
        panic!("the lapsed claim is taken over")
    };
    assert_ne!(fence, late_fence);
    assert!(!late.done(&late_key, late_fence).await.unwrap());
    assert!(other.done(&late_key, fence).await.unwrap());
    assert_eq!(other.claim(&late_key, lease).await.unwrap(), Claim::Done);
}

/// The same run with a store that marks a key done before the shop acts loses the
/// notifications the killed instance held: the fleet test can fail.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Debian's postgresql; cargo xtask ci installs it and runs it"]
async fn a_store_marking_done_before_acting_loses_notifications() {
    let run = run(Keeping::DoneBeforeActing).await;
    let lost: Vec<usize> = run
        .not_once()
        .into_iter()
        .filter(|&(_, times)| times == 0)
        .map(|(number, _)| number)
        .collect();
    assert!(lost.len() >= 3, "lost: {lost:?}");
}
