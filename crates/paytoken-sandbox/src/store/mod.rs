//! Where the sandbox keeps what it remembers. In memory by default: the state lives and
//! dies with the process, and a call's journal is simply emptied. With the `sqlite`
//! feature and [`SandboxBuilder::state_file`](crate::SandboxBuilder::state_file), in one
//! SQLite file (`file.rs`, schema in `schema.sql`): loaded whole at start, and each call's
//! journal written in one transaction before its answer leaves.
//!
//! Both stores run the same operations on the same in-memory state under the same lock, so
//! the race rules (one approval of 50 racing duplicates, refunds never above the capture)
//! hold alike; the file store adds the writes.

#[cfg(feature = "sqlite")]
pub(crate) mod file;

use std::sync::Arc;
#[cfg(feature = "sqlite")]
use std::sync::{Mutex, PoisonError};

use crate::notifications::Keep;
use crate::request_log::KeepRequests;
use crate::state::State;

/// What a state file holds, ready for [`Gateway::storing`](crate::gateway::Gateway::storing):
/// the store, its state (`None` for a new file), its notifications and its request log.
#[cfg(any(feature = "sqlite", feature = "simulation"))]
pub(crate) type Opened = (
    Store,
    Option<State>,
    Vec<(u64, crate::notifications::SentNotification)>,
    Vec<crate::LoggedRequest>,
);

/// Opens the state file at `path` (created when missing) for `config`'s sandbox.
///
/// # Errors
/// [`Error::State`](crate::Error::State) for a file that cannot be used, saying why.
#[cfg(feature = "sqlite")]
pub(crate) fn open(
    path: &std::path::Path,
    config: &crate::SandboxConfig,
) -> Result<Opened, crate::Error> {
    let (file, restored) = file::FileStore::open(path, config)?;
    let notified = file.notifications().map_err(|refusal| refusal.at(path))?;
    let requested = file.requests().map_err(|refusal| refusal.at(path))?;
    let file = Arc::new(Mutex::new(file));
    Ok((Store::File(file), restored, notified, requested))
}

/// The store of a running sandbox.
#[derive(Debug)]
pub(crate) enum Store {
    /// Nothing outlives the process.
    Memory,
    /// One SQLite file (feature `sqlite`), shared with the notifications' log.
    #[cfg(feature = "sqlite")]
    File(Arc<Mutex<file::FileStore>>),
}

impl Store {
    /// Plants a simulation's defect: the file, if there is one, keeps no refund.
    #[cfg(feature = "simulation")]
    pub(crate) fn lose_refunds(&self) {
        #[cfg(feature = "sqlite")]
        if let Self::File(file) = self {
            file.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .loses_refunds = true;
        }
    }

    /// What the notifications' log keeps its records with, when anything does.
    pub(crate) fn keeper(&self) -> Option<Arc<dyn Keep>> {
        match self {
            Self::Memory => None,
            #[cfg(feature = "sqlite")]
            Self::File(file) => {
                let keeper: Arc<dyn Keep> = file.clone();
                Some(keeper)
            }
        }
    }

    /// What the request log keeps its entries with, when anything does.
    pub(crate) fn request_keeper(&self) -> Option<Arc<dyn KeepRequests>> {
        match self {
            Self::Memory => None,
            #[cfg(feature = "sqlite")]
            Self::File(file) => {
                let keeper: Arc<dyn KeepRequests> = file.clone();
                Some(keeper)
            }
        }
    }

    /// Keeps what `state`'s journal says changed, then empties the journal.
    ///
    /// # Errors
    /// Why the file could not be written (the journal is emptied all the same: the
    /// sandbox stops answering, as its memory and its file no longer agree).
    pub(crate) fn keep(&self, state: &mut State) -> Result<(), String> {
        let kept = match self {
            Self::Memory => Ok(()),
            #[cfg(feature = "sqlite")]
            Self::File(file) => file
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .keep(state)
                .map_err(|error| error.to_string()),
        };
        state.forget_changes();
        kept
    }
}
