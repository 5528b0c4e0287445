//! Why a state file cannot be used: the sandbox's words, and SQLite's error when SQLite's
//! refusal is the cause, kept whole for [`Error::State`]'s `source`.

use std::path::Path;

use crate::Error;

/// A state file refused, before it becomes the public [`Error::State`].
#[derive(Debug)]
pub(crate) struct Refusal {
    reason: String,
    source: Option<rusqlite::Error>,
}

impl Refusal {
    /// A refusal in the sandbox's words alone.
    pub(super) fn new(reason: impl Into<String>) -> Self {
        Self {
            reason: reason.into(),
            source: None,
        }
    }

    /// A column holding what the sandbox never writes.
    pub(super) fn damaged(table: &str, column: &str) -> Self {
        Self::new(format!(
            "it is damaged: {table}.{column} holds a value the sandbox never writes"
        ))
    }

    /// The public error, naming the file.
    pub(crate) fn at(self, path: &Path) -> Error {
        Error::State {
            path: path.display().to_string(),
            reason: self.reason,
            source: self.source.map(|error| error.into()),
        }
    }
}

/// SQLite's refusal, in words that say what to do for the two a user meets: a file that is
/// not a database, and one another sandbox holds.
impl From<rusqlite::Error> for Refusal {
    fn from(error: rusqlite::Error) -> Self {
        let reason = match error.sqlite_error_code() {
            Some(rusqlite::ErrorCode::NotADatabase) => "not a paytoken sandbox state file",
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
                "in use by another sandbox"
            }
            _ => "sqlite cannot use it",
        };
        Self {
            reason: reason.to_owned(),
            source: Some(error),
        }
    }
}
