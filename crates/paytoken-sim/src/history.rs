//! What happened in a run, in order: each request, the fault the network drew for it and
//! the answer, each call's outcome as the checkout saw it. Its digest is the run's
//! fingerprint: the same seed gives the same history.

use std::hash::{DefaultHasher, Hasher};
use std::sync::{Arc, Mutex, PoisonError};

use crate::clock::VirtualClock;

/// The run's history, shared by the network and the checkouts.
#[derive(Debug, Clone)]
pub(crate) struct History {
    lines: Arc<Mutex<Vec<String>>>,
    clock: Arc<VirtualClock>,
}

impl History {
    pub(crate) fn new(clock: Arc<VirtualClock>) -> Self {
        Self {
            lines: Arc::new(Mutex::new(Vec::new())),
            clock,
        }
    }

    /// Notes `line` at the virtual time.
    pub(crate) fn note(&self, line: impl std::fmt::Display) {
        let at = self.clock.millis();
        self.lock().push(format!("{at:>8} ms  {line}"));
    }

    /// Every line so far.
    pub(crate) fn lines(&self) -> Vec<String> {
        self.lock().clone()
    }

    /// A fingerprint of the lines (`std`'s fixed-key hasher: the same in every run of a
    /// build).
    pub(crate) fn digest(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        for line in self.lock().iter() {
            hasher.write(line.as_bytes());
            hasher.write_u8(b'\n');
        }
        hasher.finish()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<String>> {
        // A line is pushed whole or not at all: a poison means nothing.
        self.lines.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
