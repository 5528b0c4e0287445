//! Notifications acted on once across a shop's instances: a [`DuplicateStore`] on a SQL
//! table whose primary key is the notification's key. Every instance opens the same
//! database; the insert that skips a key already there decides which one acts.
//!
//! ```text
//! cargo run -p paytoken --example duplicates_sqlite -- shop.db
//! ```

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use paytoken::DuplicateStore;
use paytoken::notification::DuplicateKey;
use rusqlite::Connection;

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
            "CREATE TABLE IF NOT EXISTS notifications_seen (key TEXT PRIMARY KEY NOT NULL)",
        )?;
        Ok(Self {
            connection: Mutex::new(connection),
        })
    }
}

impl DuplicateStore for SqlDuplicates {
    type Error = rusqlite::Error;

    async fn first_time(&self, key: &DuplicateKey) -> Result<bool, rusqlite::Error> {
        let connection = self
            .connection
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        // One statement: of two instances inserting the same key, one inserts a row.
        let inserted = connection.execute(
            "INSERT INTO notifications_seen (key) VALUES (?1) ON CONFLICT (key) DO NOTHING",
            [key.to_string()],
        )?;
        Ok(inserted == 1)
    }

    async fn forget(&self, key: &DuplicateKey) -> Result<(), rusqlite::Error> {
        let connection = self
            .connection
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        connection.execute(
            "DELETE FROM notifications_seen WHERE key = ?1",
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
    let first = store.first_time(&key).await?;
    println!("{key}: {}", if first { "act on it" } else { "seen before" });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two instances of a shop on one database: the gateway's first delivery is acted on
    /// by whichever gets it, its repeat refused by the other; a key forgotten after a
    /// failed fulfilment is acted on again.
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
        assert!(one.first_time(&key).await.unwrap());
        assert!(!other.first_time(&key).await.unwrap());
        assert!(!one.first_time(&key).await.unwrap());
        // Another status of the same payment is another notification.
        let declined = DuplicateKey {
            transaction_status: "N".to_owned(),
            ..key.clone()
        };
        assert!(other.first_time(&declined).await.unwrap());
        other.forget(&key).await.unwrap();
        assert!(one.first_time(&key).await.unwrap());
        drop((one, other));
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
