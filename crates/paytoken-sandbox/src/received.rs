//! What reached the sandbox: every request whose head was read, faults included, so that a
//! test can tell "the gateway saw exactly one payment" after a dropped connection.

use crate::bounded_log::BoundedLog;

/// The most requests remembered; older ones are forgotten, so a long-running sandbox does
/// not grow without bound.
pub(crate) const RECEIVED_KEPT: usize = 10_000;

/// One request, as it arrived.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Received {
    /// `POST`, or whatever the client sent.
    pub method: String,
    /// The path, without any query.
    pub path: String,
}

/// The log, shared by the server (which writes) and the `Sandbox` handle (which reads).
#[derive(Debug, Default)]
pub(crate) struct ReceivedLog(BoundedLog<Received, RECEIVED_KEPT>);

impl ReceivedLog {
    pub(crate) fn record(&self, method: &str, path: &str) {
        self.0.push(Received {
            method: method.to_owned(),
            path: path.to_owned(),
        });
    }

    pub(crate) fn snapshot(&self) -> Vec<Received> {
        self.0.all(Received::clone)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_requests_only() {
        let log = ReceivedLog::default();
        for n in 0..=RECEIVED_KEPT {
            log.record("POST", &format!("/{n}"));
        }
        let seen = log.snapshot();
        assert_eq!(seen.len(), RECEIVED_KEPT);
        assert_eq!(seen[0].path, "/1");
        assert_eq!(seen[RECEIVED_KEPT - 1].path, format!("/{RECEIVED_KEPT}"));
    }
}
