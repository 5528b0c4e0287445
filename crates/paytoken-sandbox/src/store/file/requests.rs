//! The request log in the state file: each entry as it is recorded, the rows past the
//! log's bound let go, and the entries read back at start.

use rusqlite::params;

use super::FileStore;
use super::refusal::Refusal;
use crate::request_log::{self, KeepRequests, LoggedRequest, REQUESTS_KEPT};

impl FileStore {
    /// Keeps one entry of the request log, and lets go of the rows the log no longer
    /// keeps.
    ///
    /// # Errors
    /// SQLite's, when the file cannot be written.
    pub(crate) fn keep_request(&mut self, entry: &LoggedRequest) -> rusqlite::Result<()> {
        let number = i64::try_from(entry.number).unwrap_or(i64::MAX);
        let fields = serde_json::to_string(&entry.fields).unwrap_or_else(|_| "[]".to_owned());
        let transaction = self.connection.transaction()?;
        transaction.execute(
            "INSERT OR REPLACE INTO requests VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                number,
                entry.at,
                entry.method,
                entry.path,
                entry.operation,
                entry.caller,
                entry.status,
                entry.result_code,
                entry.explanation,
                fields
            ],
        )?;
        let kept = i64::try_from(REQUESTS_KEPT).unwrap_or(i64::MAX);
        transaction.execute(
            "DELETE FROM requests WHERE number <= ?1",
            [number.saturating_sub(kept)],
        )?;
        transaction.commit()
    }

    /// The request log's entries kept, oldest first.
    pub(crate) fn requests(&self) -> Result<Vec<LoggedRequest>, Refusal> {
        self.rows("requests", "ORDER BY number", |row| {
            Ok(LoggedRequest {
                number: u64::try_from(row.get::<i64>(0)?).map_err(|_| row.damaged(0))?,
                at: row.get(1)?,
                method: row.get(2)?,
                path: row.get(3)?,
                operation: row.optional(4, request_log::operation_named)?,
                caller: row.get(5)?,
                status: row.get(6)?,
                result_code: row.get(7)?,
                explanation: row.get(8)?,
                fields: row.parsed(9, |fields| serde_json::from_str(fields).ok())?,
            })
        })
    }
}

impl KeepRequests for std::sync::Mutex<FileStore> {
    fn keep(&self, entry: &LoggedRequest) -> Result<(), String> {
        self.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .keep_request(entry)
            .map_err(|error| error.to_string())
    }
}
