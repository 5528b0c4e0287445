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
//! use paytoken::postgres::deadpool_postgres::{Manager, Pool, Runtime, tokio_postgres};
//! use paytoken::postgres::PostgresDuplicates;
//!
//! // Every wait bounded: connecting, a dead peer (keepalives), a connection from the pool.
//! let config: tokio_postgres::Config =
//!     "host=db.internal user=shop connect_timeout=2 keepalives_idle=30".parse()?;
//! let pool = Pool::builder(Manager::new(config, tokio_postgres::NoTls))
//!     .runtime(Runtime::Tokio1)
//!     .wait_timeout(Some(Duration::from_secs(1)))
//!     .create_timeout(Some(Duration::from_secs(2)))
//!     .recycle_timeout(Some(Duration::from_secs(1)))
//!     .build()?;
//! let store = PostgresDuplicates::new(pool).with_lock_timeout(Duration::from_secs(1))?;
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
//!
//! // Once a day, in one task of one instance (any instance may: rows are skipped, not
//! // waited for): forget what was done more than the retention (30 days) ago.
//! let forgotten = store.reap().await?;
//! # let _ = forgotten; Ok(()) }
//! ```
//!
//! A database that cannot be reached is an error from every call ([`Error::Pool`]): answer
//! the gateway with a `503`, and its retry comes back; a commit whose acknowledgement was
//! lost leaves either a done key (the retry is answered `200`) or a claim whose lease runs
//! out (the retry acts).
//!
//! # Every wait bounded
//!
//! Each of the store's statements runs in a short transaction of its own that sets
//! `lock_timeout` for itself alone ([`with_lock_timeout`](PostgresDuplicates::with_lock_timeout),
//! 1 s unless set, at most half the gateway's [`ATTEMPT_TIMEOUT`]). A claim that meets its
//! key's row locked (a holder marked it done and stalled before its commit: a pause, a
//! partition) is [`Claim::Busy`] once that timeout passes, told by the server's SQLSTATE
//! `55P03`, so the handler answers `503` while the gateway still waits. Nothing is set on
//! the session or in the connection's startup options, so the store works through
//! PgBouncer in transaction mode. Two settings on the database end what the store cannot:
//!
//! ```sql
//! -- A holder idle inside its transaction this long is ended: its done mark and its action
//! -- roll back together, and the key's lease lapses for another instance to take over.
//! ALTER ROLE shop SET idle_in_transaction_session_timeout = '10s';
//! -- A connection whose peer vanished is noticed (the client's side: keepalives_idle).
//! ALTER SYSTEM SET tcp_keepalives_idle = 30;
//! ```
//!
//! # Done keys, reaped
//!
//! [`reap`](PostgresDuplicates::reap) deletes the keys done more than the retention ago
//! ([`with_retention`](PostgresDuplicates::with_retention), [`DEFAULT_RETENTION`] unless
//! set), and the claims that lapsed unfinished as long ago, in batches of short
//! transactions. A duplicate arriving after its key was reaped is acted on again: the
//! shop's own order state must make that harmless (an order paid once is not paid twice).
//!
//! # Failover
//!
//! The store is as durable as a commit the shop was told of. With a standby replicated
//! asynchronously, a promotion loses the primary's last commits: a notification answered
//! `200` is gone with its action (and the gateway does not send it again), and fences are
//! handed out a second time, since a sequence continues from what reached the standby. A
//! fence is unique within one timeline only. A fleet that fails over needs a synchronous
//! standby (`synchronous_standby_names`, `synchronous_commit = on` or stronger), with
//! which no acknowledged notification is lost: a commit the standby has not confirmed is
//! never answered `200`, and the gateway's retry acts on it after the promotion.
//!
//! # Effects outside the database
//!
//! An action that lives elsewhere (another database, a message, a call) cannot join the
//! done mark's transaction: a handler that outlived its lease may act beside the one that
//! took its key over. Hand the downstream the notification's key (it acts once per key)
//! or the fence (it refuses a fence lower than one it has seen for the key), or write an
//! outbox row in the transaction of [`done_in`](PostgresDuplicates::done_in) that a relay
//! sends afterwards: the cookbook's notifications recipe shows both.

mod error;
mod sql;

use std::time::Duration;

pub use deadpool_postgres;
use deadpool_postgres::{Object, Pool, Transaction};
use tokio_postgres::GenericClient;
use tokio_postgres::error::SqlState;

pub use self::error::Error;
use crate::DuplicateStore;
use crate::notification::{ATTEMPT_TIMEOUT, Claim, DuplicateKey, Fence};

/// The table and the sequence of fences, created when missing; a table made before the
/// reaper existed takes its column and index.
pub const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS paytoken_notifications (
    key text PRIMARY KEY,
    fence bigint NOT NULL,
    lease_until timestamptz NOT NULL,
    done boolean NOT NULL DEFAULT false
);
ALTER TABLE paytoken_notifications ADD COLUMN IF NOT EXISTS done_at timestamptz;
CREATE INDEX IF NOT EXISTS paytoken_notifications_settled
    ON paytoken_notifications ((coalesce(done_at, lease_until)));
CREATE SEQUENCE IF NOT EXISTS paytoken_notification_fence;";

/// The longest lease a claim may ask for: a lease past the gateway's last retry would
/// leave a crashed holder's notification unacted on.
pub const MAX_LEASE: Duration = Duration::from_secs(60 * 60);

/// How long a statement waits for a row lock unless set otherwise.
pub const DEFAULT_LOCK_TIMEOUT: Duration = Duration::from_secs(1);

/// The longest lock timeout: half the gateway's attempt, so that a claim is told
/// [`Claim::Busy`] while there is time left to answer `503`.
pub const MAX_LOCK_TIMEOUT: Duration = match ATTEMPT_TIMEOUT.checked_div(2) {
    Some(half) => half,
    None => Duration::ZERO, // only a division by zero has no quotient
};

/// How long a done key is kept unless set otherwise: 30 days.
pub const DEFAULT_RETENTION: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// The longest retention: ten years.
pub const MAX_RETENTION: Duration = Duration::from_secs(10 * 365 * 24 * 60 * 60);

/// A [`DuplicateStore`] on the `paytoken_notifications` table ([`SCHEMA`]), through the
/// instance's pool. The database's clock times every lease, so the instances' clocks never
/// have to agree.
#[derive(Debug, Clone)]
pub struct PostgresDuplicates {
    pool: Pool,
    lock_timeout: Duration,
    retention: Duration,
}

impl PostgresDuplicates {
    /// A store on `pool`'s database, waiting [`DEFAULT_LOCK_TIMEOUT`] for a lock and
    /// keeping done keys [`DEFAULT_RETENTION`].
    #[must_use]
    pub const fn new(pool: Pool) -> Self {
        Self {
            pool,
            lock_timeout: DEFAULT_LOCK_TIMEOUT,
            retention: DEFAULT_RETENTION,
        }
    }

    /// The store waiting at most `wait` for a row lock in each statement.
    ///
    /// # Errors
    /// [`Error::LockTimeout`] under a millisecond or over [`MAX_LOCK_TIMEOUT`].
    pub fn with_lock_timeout(self, wait: Duration) -> Result<Self, Error> {
        if wait < Duration::from_millis(1) || wait > MAX_LOCK_TIMEOUT {
            return Err(Error::LockTimeout(wait));
        }
        Ok(Self {
            lock_timeout: wait,
            ..self
        })
    }

    /// The store whose [`reap`](Self::reap) forgets keys done more than `keep` ago.
    ///
    /// # Errors
    /// [`Error::RetentionTooLong`] over [`MAX_RETENTION`].
    pub fn with_retention(self, keep: Duration) -> Result<Self, Error> {
        if keep > MAX_RETENTION {
            return Err(Error::RetentionTooLong(keep));
        }
        Ok(Self {
            retention: keep,
            ..self
        })
    }

    /// Creates the table, its index and its sequence when missing ([`SCHEMA`]).
    ///
    /// # Errors
    /// The pool's or the database's.
    pub async fn create_table(&self) -> Result<(), Error> {
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
            .execute(sql::DONE, &[&key.to_string(), &number(fence)])
            .await?;
        Ok(changed == 1)
    }

    /// Deletes the keys done more than the retention ago, and the claims that lapsed
    /// unfinished as long ago, a batch per transaction until none is left: how many.
    /// Rows locked by a stalled holder are left for the next time.
    ///
    /// # Errors
    /// The pool's or the database's; the batches before it stay deleted.
    pub async fn reap(&self) -> Result<u64, Error> {
        let retention = millis(self.retention);
        let mut connection = self.pool.get().await?;
        let mut reaped = 0;
        loop {
            let transaction = self.begin(&mut connection).await?;
            let deleted = transaction
                .execute(sql::REAP, &[&retention, &sql::REAP_BATCH])
                .await?;
            transaction.commit().await?;
            reaped += deleted;
            if deleted < sql::REAP_BATCH.unsigned_abs() {
                return Ok(reaped);
            }
        }
    }

    /// A transaction on `connection` whose waits for a lock end after the lock timeout.
    async fn begin<'c>(
        &self,
        connection: &'c mut Object,
    ) -> Result<Transaction<'c>, tokio_postgres::Error> {
        let transaction = connection.transaction().await?;
        transaction
            .batch_execute(&sql::lock_timeout(self.lock_timeout))
            .await?;
        Ok(transaction)
    }

    async fn claim_on(
        &self,
        connection: &mut Object,
        key: &str,
        lease_ms: i64,
    ) -> Result<Claim, tokio_postgres::Error> {
        let transaction = self.begin(connection).await?;
        let claim = if let Some(row) = transaction
            .query_opt(sql::CLAIM, &[&key, &lease_ms])
            .await?
        {
            let fence: i64 = row.try_get(0)?;
            Claim::Claimed(Fence::new(fence.unsigned_abs()))
        } else {
            let done = transaction.query_opt(sql::IS_DONE, &[&key]).await?;
            // Released since the insert: busy for now, claimed on the gateway's retry.
            match done.map(|row| row.try_get::<_, bool>(0)).transpose()? {
                Some(true) => Claim::Done,
                _ => Claim::Busy,
            }
        };
        transaction.commit().await?;
        Ok(claim)
    }
}

impl DuplicateStore for PostgresDuplicates {
    type Error = Error;

    async fn claim(&self, key: &DuplicateKey, lease: Duration) -> Result<Claim, Self::Error> {
        if lease > MAX_LEASE {
            return Err(Error::LeaseTooLong(lease));
        }
        let mut connection = self.pool.get().await?;
        match self
            .claim_on(&mut connection, &key.to_string(), millis(lease))
            .await
        {
            // The key's row stayed locked past the lock timeout: its holder is acting, or
            // stalled before its commit. The gateway's retry finds it settled.
            Err(error) if error.code() == Some(&SqlState::LOCK_NOT_AVAILABLE) => Ok(Claim::Busy),
            claim => Ok(claim?),
        }
    }

    async fn done(&self, key: &DuplicateKey, fence: Fence) -> Result<bool, Self::Error> {
        let mut connection = self.pool.get().await?;
        let transaction = self.begin(&mut connection).await?;
        let done = Self::done_in(&*transaction, key, fence).await?;
        transaction.commit().await?;
        Ok(done)
    }

    async fn release(&self, key: &DuplicateKey, fence: Fence) -> Result<(), Self::Error> {
        let mut connection = self.pool.get().await?;
        let transaction = self.begin(&mut connection).await?;
        transaction
            .execute(sql::RELEASE, &[&key.to_string(), &number(fence)])
            .await?;
        transaction.commit().await?;
        Ok(())
    }
}

/// A fence as the `bigint` the table keeps it in (a sequence's values fit).
fn number(fence: Fence) -> i64 {
    i64::try_from(fence.get()).unwrap_or(i64::MAX)
}

/// A duration the store bounded (a lease, a lock timeout, a retention: each far under
/// `i64::MAX` milliseconds) as the milliseconds its statements take.
fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}
