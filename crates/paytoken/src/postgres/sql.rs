//! The store's statements, on the table [`SCHEMA`](super::SCHEMA) makes. Every duration
//! is a `bigint` of milliseconds, and every time the database's own `now()`.

use std::time::Duration;

/// One statement, so that of two instances claiming the same key one writes the row: a new
/// row, or a row whose lease lapsed unfinished taken over with a new fence.
pub(super) const CLAIM: &str = "INSERT INTO paytoken_notifications AS held (key, fence, lease_until)
    VALUES ($1, nextval('paytoken_notification_fence'), now() + $2::bigint * interval '1 millisecond')
    ON CONFLICT (key) DO UPDATE SET fence = excluded.fence, lease_until = excluded.lease_until
    WHERE NOT held.done AND held.lease_until <= now()
    RETURNING fence";

/// Whether a key the claim did not take is done (else a live claim holds it, or it was
/// released since).
pub(super) const IS_DONE: &str = "SELECT done FROM paytoken_notifications WHERE key = $1";

pub(super) const DONE: &str = "UPDATE paytoken_notifications SET done = true, done_at = now()
    WHERE key = $1 AND fence = $2 AND NOT done";

pub(super) const RELEASE: &str =
    "DELETE FROM paytoken_notifications WHERE key = $1 AND fence = $2 AND NOT done";

/// Up to `$2` rows settled more than `$1` ago: done then, or a claim that lapsed then
/// unfinished (which a claim would take over as if missing). Rows a stalled holder keeps
/// locked are skipped, not waited for.
pub(super) const REAP: &str = "DELETE FROM paytoken_notifications WHERE key IN (
    SELECT key FROM paytoken_notifications
    WHERE coalesce(done_at, lease_until) < now() - $1::bigint * interval '1 millisecond'
    LIMIT $2 FOR UPDATE SKIP LOCKED)";

/// The rows one reaping statement deletes, so that no transaction of the reaper is long.
pub(super) const REAP_BATCH: i64 = 1_000;

/// Bounds the current transaction's every wait for a lock to `wait` (at least a
/// millisecond: 0 is no limit to the server), for this transaction only: nothing stays on
/// the session, which a pooler in transaction mode hands to other clients.
pub(super) fn lock_timeout(wait: Duration) -> String {
    format!("SET LOCAL lock_timeout = {}", wait.as_millis())
}
