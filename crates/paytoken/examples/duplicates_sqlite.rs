//! Notifications acted on once across a shop's instances: a [`DuplicateStore`] on a SQL
//! table whose primary key is the notification's key, with whether it was acted on. Every
//! instance opens the same database; the insert that skips a key already there decides
//! which one acts, and the row's `done` tells a repeat from one still being acted on.
//!
//! ```text
//! cargo run -p paytoken --example duplicates_sqlite -- shop.db
//! ```

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use paytoken::DuplicateStore;
use paytoken::notification::{Claim, DuplicateKey};
use rusqlite::{Connection, OptionalExtension as _};

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
            "CREATE TABLE IF NOT EXISTS notifications_seen \
             (key TEXT PRIMARY KEY NOT NULL, done INTEGER NOT NULL DEFAULT 0)",
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

    async fn claim(&self, key: &DuplicateKey) -> Result<Claim, rusqlite::Error> {
        let connection = self.connection();
        // One statement: of two instances inserting the same key, one inserts a row.
        let inserted = connection.execute(
            "INSERT INTO notifications_seen (key) VALUES (?1) ON CONFLICT (key) DO NOTHING",
            [key.to_string()],
        )?;
        if inserted == 1 {
            return Ok(Claim::Claimed);
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

    async fn done(&self, key: &DuplicateKey) -> Result<(), rusqlite::Error> {
        self.connection().execute(
            "UPDATE notifications_seen SET done = 1 WHERE key = ?1",
            [key.to_string()],
        )?;
        Ok(())
    }

    async fn release(&self, key: &DuplicateKey) -> Result<(), rusqlite::Error> {
        self.connection().execute(
            "DELETE FROM notifications_seen WHERE key = ?1 AND done = 0",
            [key.to_string()],
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
    let said = match store.claim(&key).await? {
        Claim::Claimed => {
            // The shop acts here, then marks it done (or releases it when acting failed).
            store.done(&key).await?;
            "acted on it"
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
    /// a claim released after a failed fulfilment is claimed again.
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
        let key = DuplicateKey {
            payment_id: "60001".parse().unwrap(),
            transaction_status: "Y".to_owned(),
        };
        assert_eq!(one.claim(&key).await.unwrap(), Claim::Claimed);
        assert_eq!(other.claim(&key).await.unwrap(), Claim::Busy);
        one.done(&key).await.unwrap();
        assert_eq!(other.claim(&key).await.unwrap(), Claim::Done);
        // A done key is never released.
        other.release(&key).await.unwrap();
        assert_eq!(one.claim(&key).await.unwrap(), Claim::Done);
        // Another status of the same payment is another notification.
        let declined = DuplicateKey {
            transaction_status: "N".to_owned(),
            ..key.clone()
        };
        assert_eq!(other.claim(&declined).await.unwrap(), Claim::Claimed);
        other.release(&declined).await.unwrap();
        assert_eq!(one.claim(&declined).await.unwrap(), Claim::Claimed);
        drop((one, other));
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
