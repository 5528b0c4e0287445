//! Failover, shown: a primary and a streaming standby built from its base backup. The
//! standby falls behind (here: it stops), the shop goes on acting on notifications, the
//! primary is lost (a crash) and the standby promoted. With asynchronous replication,
//! notifications answered `200` are gone and fences are handed out a second time; with a
//! synchronous standby nothing acknowledged is lost, and the gateway's retries act once.
//!
//! Not part of `.ci/run`: `cargo xtask fleet-failover` runs both and prints what each
//! left.

use std::collections::BTreeSet;
use std::time::Duration;

use paytoken::DuplicateStore as _;
use paytoken::notification::{Claim, Fence};
use paytoken::postgres::PostgresDuplicates;
use paytoken::postgres::deadpool_postgres::Pool;
use paytoken::postgres::deadpool_postgres::tokio_postgres::types::FromSql;
use tokio::task::JoinSet;

use super::server::Server;
use super::{ACT, acted, key, shop_store};

/// How long the shop gives one notification, claim to commit, before it answers `503`.
const ANSWER_WITHIN: Duration = Duration::from_secs(1);

/// Notifications acted on while the standby keeps up, then while it is away: more than
/// the 32 values a sequence logs ahead, so that some fences are bound to come again.
const BEFORE: std::ops::Range<usize> = 0..20;
const WHILE_AWAY: std::ops::Range<usize> = 20..80;

/// Claims `number`'s key, writes its action (a row of `acted`) and the done mark in one
/// transaction, commits: the fence when all of it was acknowledged within the time a
/// handler has, as the `200` the gateway is told.
async fn act(store: &PostgresDuplicates, number: usize) -> Option<Fence> {
    let acting = async {
        let key = key(number);
        let Claim::Claimed(fence) = store.claim(&key, Duration::from_secs(30)).await.ok()? else {
            return None;
        };
        let mut connection = store.pool().get().await.ok()?;
        let transaction = connection.transaction().await.ok()?;
        transaction.execute(ACT, &[&key.to_string()]).await.ok()?;
        PostgresDuplicates::done_in(&*transaction, &key, fence)
            .await
            .ok()?
            .then_some(())?;
        transaction.commit().await.ok()?;
        Some(fence)
    };
    tokio::time::timeout(ANSWER_WITHIN, acting).await.ok()?
}

/// Acts on every notification in `numbers` at once: the fence of each one acknowledged.
async fn act_on_all(
    store: &PostgresDuplicates,
    numbers: impl Iterator<Item = usize>,
) -> Vec<(usize, Fence)> {
    let mut acting = JoinSet::new();
    for number in numbers {
        let store = store.clone();
        acting.spawn(async move { act(&store, number).await.map(|fence| (number, fence)) });
    }
    let mut acknowledged: Vec<_> = acting.join_all().await.into_iter().flatten().collect();
    acknowledged.sort_by_key(|&(number, _)| number);
    acknowledged
}

/// One statement's single value, on `pool`.
async fn value<T: for<'a> FromSql<'a>>(pool: &Pool, sql: &str) -> T {
    pool.get()
        .await
        .unwrap()
        .query_one(sql, &[])
        .await
        .unwrap()
        .get(0)
}

/// Waits until the standby streams in the given mode (`sync` or `async`) and has replayed
/// all the primary wrote.
async fn caught_up(primary: &Pool, standby: &Pool, mode: &str) {
    loop {
        let state: Option<String> = primary
            .get()
            .await
            .unwrap()
            .query_opt(
                "SELECT sync_state FROM pg_stat_replication WHERE state = 'streaming'",
                &[],
            )
            .await
            .unwrap()
            .map(|row| row.get(0));
        let behind: bool = if state.as_deref() == Some(mode) {
            let written: String = value(primary, "SELECT pg_current_wal_lsn()::text").await;
            let sql = format!("SELECT pg_last_wal_replay_lsn() < '{written}'::pg_lsn");
            value(standby, &sql).await
        } else {
            true
        };
        if !behind {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// What a failover left.
struct Failover {
    /// Notifications answered `200` (acknowledged) on the old primary.
    acknowledged: Vec<usize>,
    /// Of those, the ones the promoted standby has no action for.
    lost: Vec<usize>,
    /// Fences handed out on the old primary and again on the new one.
    reissued: Vec<u64>,
    /// After the gateway's retries, how many times each notification was acted on.
    acted: Vec<i64>,
}

async fn fail_over(synchronous: bool) -> Failover {
    let primary = Server::start();
    let standby = Server::standby_of(&primary);
    let (primary_pool, standby_pool) = (primary.pool_as("postgres", 16), standby.pool());
    let sql = primary_pool.get().await.unwrap();
    if synchronous {
        // One statement each: `ALTER SYSTEM` refuses the transaction a batch makes.
        for statement in [
            "ALTER SYSTEM SET synchronous_standby_names = '*'",
            "SELECT pg_reload_conf()",
        ] {
            sql.batch_execute(statement).await.unwrap();
        }
    }
    drop(sql);
    let store = shop_store(primary_pool.clone()).await;
    let mode = if synchronous { "sync" } else { "async" };

    let mut acknowledged = act_on_all(&store, BEFORE).await;
    let caught_up = caught_up(&primary_pool, &standby_pool, mode);
    tokio::time::timeout(Duration::from_secs(30), caught_up)
        .await
        .expect("the standby streams and catches up");
    tokio::task::block_in_place(|| standby.stop());
    acknowledged.extend(act_on_all(&store, WHILE_AWAY).await);
    tokio::task::block_in_place(|| {
        primary.crash();
        standby.resume();
        standby.promote();
    });
    drop((store, primary_pool));

    let promoted = PostgresDuplicates::new(standby.pool_as("postgres", 16));
    let acted_once = acted(promoted.pool()).await;
    let lost = acknowledged
        .iter()
        .map(|&(number, _)| number)
        .filter(|&number| !acted_once.contains_key(&key(number).to_string()))
        .collect();
    // The gateway sends again what was not answered `200`; new notifications come.
    let answered: BTreeSet<usize> = acknowledged.iter().map(|&(number, _)| number).collect();
    let retried = BEFORE.start..WHILE_AWAY.end;
    let mut after = act_on_all(
        &promoted,
        retried.filter(|number| !answered.contains(number)),
    )
    .await;
    after.extend(act_on_all(&promoted, 100..160).await);
    let before: BTreeSet<u64> = acknowledged.iter().map(|(_, fence)| fence.get()).collect();
    let reissued: BTreeSet<u64> = after
        .iter()
        .map(|(_, fence)| fence.get())
        .filter(|fence| before.contains(fence))
        .collect();
    let acted_after = acted(promoted.pool()).await;
    let acted = (BEFORE.start..WHILE_AWAY.end)
        .map(|number| {
            acted_after
                .get(&key(number).to_string())
                .copied()
                .unwrap_or(0)
        })
        .collect();
    Failover {
        acknowledged: answered.into_iter().collect(),
        lost,
        reissued: reissued.into_iter().collect(),
        acted,
    }
}

/// `first..=last (count)` of a sorted list, for the report.
fn span<T: std::fmt::Display>(list: &[T]) -> String {
    match (list.first(), list.last()) {
        (Some(first), Some(last)) => format!("{first}..={last} ({})", list.len()),
        _ => "none".to_owned(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "builds a primary and a standby: cargo xtask fleet-failover runs it"]
async fn an_asynchronous_standby_loses_acknowledged_notifications_and_reissues_fences() {
    let run = fail_over(false).await;
    eprintln!(
        "asynchronous standby: answered 200 on the old primary: {}; lost on promotion: {}; \
         fences handed out again: {}",
        span(&run.acknowledged),
        span(&run.lost),
        span(&run.reissued)
    );
    assert_eq!(run.acknowledged.len(), BEFORE.len() + WHILE_AWAY.len());
    assert!(!run.lost.is_empty(), "an acknowledged notification lost");
    assert!(!run.reissued.is_empty(), "a fence handed out twice");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "builds a primary and a standby: cargo xtask fleet-failover runs it"]
async fn a_synchronous_standby_loses_no_acknowledged_notification() {
    let run = fail_over(true).await;
    let once = run.acted.iter().filter(|&&times| times == 1).count();
    eprintln!(
        "synchronous standby: answered 200 on the old primary: {}; lost on promotion: {}; \
         fences handed out again: {}; acted on exactly once after the gateway's retries: \
         {once} of {}",
        span(&run.acknowledged),
        span(&run.lost),
        span(&run.reissued),
        run.acted.len()
    );
    assert_eq!(
        run.acknowledged,
        Vec::from_iter(BEFORE),
        "none answered while the standby was away"
    );
    assert!(
        run.lost.is_empty(),
        "acknowledged, then lost: {:?}",
        run.lost
    );
    assert!(
        run.reissued.is_empty(),
        "handed out twice: {:?}",
        run.reissued
    );
    assert_eq!(once, run.acted.len(), "{:?}", run.acted);
}
