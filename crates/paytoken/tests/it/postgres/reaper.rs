//! The reaper: keys done longer ago than the retention, and claims lapsed unfinished as
//! long ago, are deleted in batches; a table made before the reaper takes its column and
//! index; a row a stalled holder keeps locked is skipped, not waited for.

use std::time::Duration;

use paytoken::DuplicateStore as _;
use paytoken::notification::Claim;
use paytoken::postgres::PostgresDuplicates;

use super::key;
use super::server::Server;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Debian's postgresql; cargo xtask ci installs it and runs it"]
async fn done_keys_past_the_retention_are_reaped_and_old_tables_take_the_column() {
    let server = Server::start();
    let admin = server.pool();
    let sql = admin.get().await.unwrap();
    // The table as the store made it before it reaped, with a key done 40 days ago and
    // one done now.
    sql.batch_execute(
        "CREATE TABLE paytoken_notifications (key text PRIMARY KEY, fence bigint NOT NULL,
             lease_until timestamptz NOT NULL, done boolean NOT NULL DEFAULT false);
         INSERT INTO paytoken_notifications VALUES
             ('old-done', 1, now() - interval '40 days', true),
             ('new-done', 2, now(), true);",
    )
    .await
    .unwrap();
    let store = PostgresDuplicates::new(server.pool());
    store.create_table().await.unwrap();
    let columns = sql
        .query_one(
            "SELECT count(*) FROM information_schema.columns
             WHERE table_name = 'paytoken_notifications' AND column_name = 'done_at'",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(
        columns.get::<_, i64>(0),
        1,
        "an existing table takes the column"
    );
    store.create_table().await.unwrap(); // and again, changing nothing

    let lease = Duration::from_secs(30);
    // Keys 0 and 1 done, 2 a claim that will have lapsed, 3 a live claim.
    let mut fences = Vec::new();
    for number in 0..4 {
        let Claim::Claimed(fence) = store.claim(&key(number), lease).await.unwrap() else {
            panic!("a new key")
        };
        fences.push(fence);
    }
    assert!(store.done(&key(0), fences[0]).await.unwrap());
    assert!(store.done(&key(1), fences[1]).await.unwrap());
    sql.batch_execute(&format!(
        "UPDATE paytoken_notifications SET done_at = now() - interval '31 days' WHERE key = '{}';
         UPDATE paytoken_notifications SET lease_until = now() - interval '31 days' WHERE key = '{}';
         INSERT INTO paytoken_notifications (key, fence, lease_until, done, done_at)
             SELECT 'bulk-' || n, n, now(), true, now() - interval '40 days'
             FROM generate_series(1, 2500) AS n;",
        key(0),
        key(2)
    ))
    .await
    .unwrap();

    // A stalled holder keeps one old row locked: the reaper leaves it for next time.
    let mut holder = server.pool().get().await.unwrap();
    let stalled = holder.transaction().await.unwrap();
    stalled
        .execute(
            "SELECT 1 FROM paytoken_notifications WHERE key = 'bulk-1' FOR UPDATE",
            &[],
        )
        .await
        .unwrap();
    let reaped = tokio::time::timeout(Duration::from_secs(5), store.reap())
        .await
        .expect("the reaper skips locked rows")
        .unwrap();
    assert_eq!(
        reaped,
        2_499 + 3,
        "the bulk but the locked one, the old done, the lapsed, the legacy"
    );
    stalled.rollback().await.unwrap();
    assert_eq!(store.reap().await.unwrap(), 1, "the row let go");

    let left = sql
        .query("SELECT key FROM paytoken_notifications ORDER BY key", &[])
        .await
        .unwrap();
    let left: Vec<String> = left.iter().map(|row| row.get(0)).collect();
    assert_eq!(
        left,
        [
            key(1).to_string(),
            key(3).to_string(),
            "new-done".to_owned()
        ]
    );

    // A duplicate after its key was reaped is acted on again: the shop's order state
    // must make that harmless.
    assert!(matches!(
        store.claim(&key(0), lease).await,
        Ok(Claim::Claimed(_))
    ));
    // Kept as long as asked: a retention of ten days spares what is nine days done.
    sql.execute(
        "UPDATE paytoken_notifications SET done_at = now() - interval '9 days' WHERE key = $1",
        &[&key(1).to_string()],
    )
    .await
    .unwrap();
    let ten_days = store
        .clone()
        .with_retention(Duration::from_secs(10 * 86_400))
        .unwrap();
    assert_eq!(ten_days.reap().await.unwrap(), 0);
    let eight_days = store
        .with_retention(Duration::from_secs(8 * 86_400))
        .unwrap();
    assert_eq!(eight_days.reap().await.unwrap(), 1);
}
