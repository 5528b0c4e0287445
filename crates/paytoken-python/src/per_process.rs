//! A value of the process that made it, made again in a process forked from it: the
//! runtime, the thread that completes awaited calls, a client's connections.
//!
//! The parent's value is left as it is in the child, never dropped: what it holds may wait,
//! when dropped, for threads the child does not have. Locked only with the GIL held, so no
//! other thread holds the lock when Python forks (`os.fork` holds the GIL).

use std::sync::{Mutex, PoisonError};

use pyo3::PyResult;

/// A value made at most once in each process.
pub(crate) struct PerProcess<T>(Mutex<Option<(u32, T)>>);

impl<T: Clone> PerProcess<T> {
    /// None made yet.
    pub(crate) const fn new() -> Self {
        Self(Mutex::new(None))
    }

    /// `value`, made by this process.
    pub(crate) fn made(value: T) -> Self {
        Self(Mutex::new(Some((std::process::id(), value))))
    }

    /// This process's value, if it made one.
    pub(crate) fn get(&self) -> Option<T> {
        let held = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        match &*held {
            Some((pid, value)) if *pid == std::process::id() => Some(value.clone()),
            _ => None,
        }
    }

    /// This process's value, made by `make` if it has none (or only its parent's).
    pub(crate) fn get_or_make(&self, make: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
        let pid = std::process::id();
        let mut held = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((owner, value)) = &*held
            && *owner == pid
        {
            return Ok(value.clone());
        }
        let value = make()?;
        if let Some(parents) = held.replace((pid, value.clone())) {
            std::mem::forget(parents);
        }
        Ok(value)
    }
}
