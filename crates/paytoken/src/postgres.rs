//! Notifications acted on once across a fleet (feature `postgres`): [`PostgresDuplicates`],
//! a [`DuplicateStore`] on a PostgreSQL table every instance of a shop shares, its leases on
//! the database's clock, through the instance's own pool of connections ([`deadpool_postgres`],
//! which replaces a connection the server dropped).
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! use paytoken::DuplicateStore as _;
//! use paytoken::notification::{Claim, DuplicateKey};
//! use paytoken::postgres::deadpool_postgres::{Manager, Pool, tokio_postgres};
//! use paytoken::postgres::PostgresDuplicates;
//!
//! let config: tokio_postgres::Config = "host=/run/postgresql user=shop".parse()?;
//! let pool = Pool::builder(Manager::new(config, tokio_postgres::NoTls)).build()?;
//! let store = PostgresDuplicates::new(pool);
//! store.create_table().await?;
//!
//! // In the notification handler, once the notification verified:
//! let key = DuplicateKey { payment_id: "60001".parse()?, transaction_status: "Y".into() };
//! let fence = match store.claim(&key, Duration::from_secs(30)).await {
//!     Ok(Claim::Claimed(fence)) => fence,
//!     Ok(Claim::Done) => return Ok(()), // answer 200: acted on before
//!     Ok(_) => return Ok(()),           // answer 503: another instance is acting on it
//!     Err(error) => return Err(error.into()), // answer 503: the gateway sends it again
//! };
//! // The order's fulfilment and the done mark commit together, or not at all.
//! let mut connection = store.pool().get().await?;
//! let transaction = connection.transaction().await?;
//! transaction.execute("UPDATE orders SET paid = true WHERE payment_id = $1", &[&"60001"]).await?;
//! if PostgresDuplicates::done_in(&*transaction, &key, fence).await? {
//!     transaction.commit().await?; // answer 200; a failed commit: 503
//! } // dropped uncommitted: another instance claimed the key after this lease ran out
//! # Ok(()) }
//! ```
//!
//! A database that cannot be reached is an error from every call ([`PoolError`]): answer
//! the gateway with a `503`, and its retry comes back (give the pool a `create_timeout` and
//! a `wait_timeout`, on `Runtime::Tokio1`, so that one that hangs is an error too); a commit whose acknowledgement was
//! lost leaves either a done key (the retry is answered `200`) or a claim whose lease runs
//! out (the retry acts). A shop whose action lives elsewhere (another database, a message)
//! makes it idempotent by the notification's key, and marks the key done after it with
//! [`done`](DuplicateStore::done): a handler that outlived its lease may then have acted
//! beside the one that took its key over, and the key makes the second action a no-op.

use std::time::Duration;

pub use deadpool_postgres;
use deadpool_postgres::{Pool, PoolError};
use tokio_postgres::GenericClient;

use crate::DuplicateStore;
use crate::notification::{Claim, DuplicateKey, Fence};

/// The table and the sequence of fences, created when missing.
pub const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS paytoken_notifications (
    key text PRIMARY KEY,
    fence bigint NOT NULL,
    lease_until timestamptz NOT NULL,
    done boolean NOT NULL DEFAULT false
);
CREATE SEQUENCE IF NOT EXISTS paytoken_notification_fence;";

/// One statement, so that of two instances claiming the same key one writes the row: a new
/// row, or a row whose lease lapsed unfinished taken over with a new fence.
const CLAIM: &str = "INSERT INTO paytoken_notifications AS held (key, fence, lease_until)
    VALUES ($1, nextval('paytoken_notification_fence'), now() + $2::bigint * interval '1 millisecond')
    ON CONFLICT (key) DO UPDATE SET fence = excluded.fence, lease_until = excluded.lease_until
    WHERE NOT held.done AND held.lease_until <= now()
    RETURNING fence";

const DONE: &str =
    "UPDATE paytoken_notifications SET done = true WHERE key = $1 AND fence = $2 AND NOT done";

const RELEASE: &str =
    "DELETE FROM paytoken_notifications WHERE key = $1 AND fence = $2 AND NOT done";

/// A [`DuplicateStore`] on the `paytoken_notifications` table ([`SCHEMA`]), through the
/// instance's pool. The database's clock times every lease, so the instances' clocks never
/// have to agree.
#[derive(Debug, Clone)]
pub struct PostgresDuplicates {
    pool: Pool,
}

impl PostgresDuplicates {
    /// A store on `pool`'s database.
    #[must_use]
    pub const fn new(pool: Pool) -> Self {
        Self { pool }
    }

    /// Creates the table and its sequence when missing ([`SCHEMA`]).
    ///
    /// # Errors
    /// The pool's or the database's.
    pub async fn create_table(&self) -> Result<(), PoolError> {
        self.pool.get().await?.batch_execute(SCHEMA).await?;
        Ok(())
    }

    /// The pool, for the shop's own transactions (see [`done_in`](Self::done_in)).
    #[must_use]
    pub const fn pool(&self) -> &Pool {
        &self.pool
    }

    /// Marks `key` done inside the shop's own transaction (or on any client) when `fence`
    /// still holds its claim: whether it did. Commit the action only when it did.
    ///
    /// # Errors
    /// The database's.
    pub async fn done_in(
        client: &impl GenericClient,
        key: &DuplicateKey,
        fence: Fence,
    ) -> Result<bool, tokio_postgres::Error> {
        let changed = client
            .execute(DONE, &[&key.to_string(), &number(fence)])
            .await?;
        Ok(changed == 1)
    }
}

impl DuplicateStore for PostgresDuplicates {
    type Error = PoolError;

    async fn claim(&self, key: &DuplicateKey, lease: Duration) -> Result<Claim, Self::Error> {
        let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX);
        let text = key.to_string();
        let connection = self.pool.get().await?;
        if let Some(row) = connection.query_opt(CLAIM, &[&text, &lease_ms]).await? {
            let fence: i64 = row.try_get(0)?;
            return Ok(Claim::Claimed(Fence::new(fence.unsigned_abs())));
        }
        let done = connection
            .query_opt(
                "SELECT done FROM paytoken_notifications WHERE key = $1",
                &[&text],
            )
            .await?;
        // Released since the insert: busy for now, claimed on the gateway's retry.
        Ok(
            match done.map(|row| row.try_get::<_, bool>(0)).transpose()? {
                Some(true) => Claim::Done,
                _ => Claim::Busy,
            },
        )
    }

    async fn done(&self, key: &DuplicateKey, fence: Fence) -> Result<bool, Self::Error> {
        let connection = self.pool.get().await?;
        Ok(Self::done_in(&**connection, key, fence).await?)
    }

    async fn release(&self, key: &DuplicateKey, fence: Fence) -> Result<(), Self::Error> {
        self.pool
            .get()
            .await?
            .execute(RELEASE, &[&key.to_string(), &number(fence)])
            .await?;
        Ok(())
    }
}

/// A fence as the `bigint` the table keeps it in (a sequence's values fit).
fn number(fence: Fence) -> i64 {
    i64::try_from(fence.get()).unwrap_or(i64::MAX)
}
