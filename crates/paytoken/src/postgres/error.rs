//! Why the fleet store did not answer, or refused a setting.

use std::fmt;
use std::time::Duration;

use deadpool_postgres::PoolError;

/// Why a [`PostgresDuplicates`](super::PostgresDuplicates) call failed. From a claim, a
/// done mark or a release, answer the gateway `503`: its retry comes back.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The pool gave no connection: the database cannot be reached (the pool could not
    /// connect), or the pool's wait ran out.
    Pool(PoolError),
    /// The database refused a statement, or the connection broke under it.
    Database(tokio_postgres::Error),
    /// A lease longer than [`MAX_LEASE`](super::MAX_LEASE).
    LeaseTooLong(Duration),
    /// A lock timeout under a millisecond (which the server reads as no limit) or over
    /// [`MAX_LOCK_TIMEOUT`](super::MAX_LOCK_TIMEOUT).
    LockTimeout(Duration),
    /// A retention over [`MAX_RETENTION`](super::MAX_RETENTION).
    RetentionTooLong(Duration),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Pool(error) => write!(f, "no connection to the duplicates' database: {error}"),
            Self::Database(error) => write!(f, "the duplicates' database: {error}"),
            Self::LeaseTooLong(lease) => write!(
                f,
                "a lease of {lease:?} is longer than the store's {:?}",
                super::MAX_LEASE
            ),
            Self::LockTimeout(wait) => write!(
                f,
                "a lock timeout of {wait:?} is outside 1ms..={:?}",
                super::MAX_LOCK_TIMEOUT
            ),
            Self::RetentionTooLong(keep) => write!(
                f,
                "a retention of {keep:?} is longer than the store's {:?}",
                super::MAX_RETENTION
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Pool(error) => Some(error),
            Self::Database(error) => Some(error),
            _ => None,
        }
    }
}

impl From<PoolError> for Error {
    fn from(error: PoolError) -> Self {
        Self::Pool(error)
    }
}

impl From<tokio_postgres::Error> for Error {
    fn from(error: tokio_postgres::Error) -> Self {
        Self::Database(error)
    }
}
