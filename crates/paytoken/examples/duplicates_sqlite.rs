//! Notifications acted on once across a shop's instances: a [`DuplicateStore`] on a SQL
//! table whose primary key is the notification's key, with its claim's fence, when the
//! claim's lease ends (on the database's clock), and whether it was acted on. Every
//! instance opens the same database; the insert that takes only a missing or lapsed row
//! decides which one acts, and the row's `done` tells a repeat from one still being acted
//! on.
//!
//! ```text
//! cargo run -p paytoken --example duplicates_sqlite -- shop.db
//! ```

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use paytoken::DuplicateStore;
use paytoken::notification::{Claim, DuplicateKey, Fence};
use rusqlite::{Connection, OptionalExtension as _, params};

/// The database's clock, in milliseconds since 1970: every instance reads the same one.
const NOW_MS: &str = "CAST(unixepoch('subsec') * 1000 AS INTEGER)";

/// The shop's table of notifications acted on, shared by its instances.
struct SqlDuplicates {
    connection: Mutex<Connection>,
}

impl SqlDuplicates {
    /// Opens (or creates) the table in the database at `path`.
    fn open(path: &str) -> rusqlite::Result<Self> {
        let connection = Connection::open(path)?;
        // Another instance may be writing: wait for it rather than fail.
        connection.busy_timeout(Duration::from_secs(5))?;
        connection.execute_batch(
            "CREATE TABLE IF NOT EXISTS notifications_seen (key TEXT PRIMARY KEY NOT NULL, \
             fence INTEGER NOT NULL, lease_until_ms INTEGER NOT NULL, \
             done INTEGER NOT NULL DEFAULT 0)",
        )?;
        Ok(Self {
            connection: Mutex::new(connection),
        })
    }

    fn connection(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.connection
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl DuplicateStore for SqlDuplicates {
    type Error = rusqlite::Error;

    async fn claim(&self, key: &DuplicateKey, lease: Duration) -> Result<Claim, rusqlite::Error> {
        let connection = self.connection();
        let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX);
        // One statement: of two instances claiming the same key, one writes the row; a
        // row whose lease lapsed unfinished is taken over with a new fence.
        let fence: Option<i64> = connection
            .query_row(
                &format!(
                    "INSERT INTO notifications_seen (key, fence, lease_until_ms) \
                     VALUES (?1, (SELECT coalesce(max(fence), 0) + 1 FROM notifications_seen), \
                     {NOW_MS} + ?2) \
                     ON CONFLICT (key) DO UPDATE SET fence = excluded.fence, \
                     lease_until_ms = excluded.lease_until_ms \
                     WHERE notifications_seen.done = 0 \
                     AND notifications_seen.lease_until_ms <= {NOW_MS} \
                     RETURNING fence"
                ),
                params![key.to_string(), lease_ms],
                |row| row.get(0),
            )
            .optional()?;
        if let Some(fence) = fence {
            return Ok(Claim::Claimed(Fence::new(fence.unsigned_abs())));
        }
        let done: Option<bool> = connection
            .query_row(
                "SELECT done FROM notifications_seen WHERE key = ?1",
                [key.to_string()],
                |row| row.get(0),
            )
            .optional()?;
        // Released since the insert: busy for now, claimed on the gateway's retry.
        Ok(if done == Some(true) {
            Claim::Done
        } else {
            Claim::Busy
        })
    }

    async fn done(&self, key: &DuplicateKey, fence: Fence) -> Result<bool, rusqlite::Error> {
        // A shop whose action writes to this database runs this statement in the action's
        // own transaction, and rolls the action back when it changes no row.
        let changed = self.connection().execute(
            "UPDATE notifications_seen SET done = 1 WHERE key = ?1 AND fence = ?2 AND done = 0",
            params![
                key.to_string(),
                i64::try_from(fence.get()).unwrap_or(i64::MAX)
            ],
        )?;
        Ok(changed == 1)
    }

    async fn release(&self, key: &DuplicateKey, fence: Fence) -> Result<(), rusqlite::Error> {
        self.connection().execute(
            "DELETE FROM notifications_seen WHERE key = ?1 AND fence = ?2 AND done = 0",
            params![
                key.to_string(),
                i64::try_from(fence.get()).unwrap_or(i64::MAX)
            ],
        )?;
        Ok(())
    }
}

#[tokio::main(flavor = "current_thread")]
#[expect(
    clippy::print_stdout,
    reason = "the example says what the store decided"
)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "shop.db".to_owned());
    let store = SqlDuplicates::open(&path)?;
    let key = DuplicateKey {
        payment_id: "60001".parse()?,
        transaction_status: "Y".to_owned(),
    };
    let said = match store.claim(&key, Duration::from_secs(30)).await? {
        Claim::Claimed(fence) => {
            // The shop acts here, then marks it done (or releases it when acting failed).
            if store.done(&key, fence).await? {
                "acted on it"
            } else {
                "acted on it, but its lease ran out and another instance claimed it"
            }
        }
        Claim::Done => "acted on before",
        _ => "another instance is acting on it",
    };
    println!("{key}: {said}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two instances of a shop on one database: the gateway's first delivery is claimed
    /// by whichever gets it; a repeat while it acts is busy, once it is done a duplicate;
    /// a claim released after a failed fulfilment is claimed again; a lapsed lease is
    /// taken over, and its first holder can no longer mark it done.
    #[tokio::test]
    async fn two_instances_on_one_database_act_on_a_notification_once() {
        let folder = std::env::temp_dir().join(format!("paytoken-dup-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let path = folder.join("shop.db");
        let _ = std::fs::remove_file(&path);
        let path = path.to_str().unwrap();
        let (one, other) = (
            SqlDuplicates::open(path).unwrap(),
            SqlDuplicates::open(path).unwrap(),
        );
        let lease = Duration::from_secs(60);
        let key = DuplicateKey {
            payment_id: "60001".parse().unwrap(),
            transaction_status: "Y".to_owned(),
        };
        let Claim::Claimed(fence) = one.claim(&key, lease).await.unwrap() else {
            panic!("the first claim")
        };
        assert_eq!(other.claim(&key, lease).await.unwrap(), Claim::Busy);
        assert!(one.done(&key, fence).await.unwrap());
        assert_eq!(other.claim(&key, lease).await.unwrap(), Claim::Done);
        // A done key is never released.
        other.release(&key, fence).await.unwrap();
        assert_eq!(one.claim(&key, lease).await.unwrap(), Claim::Done);
        // Another status of the same payment is another notification.
        let declined = DuplicateKey {
            transaction_status: "N".to_owned(),
            ..key.clone()
        };
        let Claim::Claimed(failed) = other.claim(&declined, lease).await.unwrap() else {
            panic!("a new key")
        };
        other.release(&declined, failed).await.unwrap();
        // A lease that ran out (none at all here) is taken over with a new fence.
        let Claim::Claimed(lapsed) = one.claim(&declined, Duration::ZERO).await.unwrap() else {
            panic!("released")
        };
        let Claim::Claimed(taken) = other.claim(&declined, lease).await.unwrap() else {
            panic!("lapsed")
        };
        assert_ne!(lapsed, taken);
        assert!(!one.done(&declined, lapsed).await.unwrap(), "fenced out");
        assert!(other.done(&declined, taken).await.unwrap());
        drop((one, other));
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
