//! The sandbox's state file in the runs that keep one: which runs, and a path of the run's
//! own, removed when the run ends.

use std::sync::atomic::{AtomicUsize, Ordering};

/// One run in this many keeps the sandbox's state in a file and kills it now and then (the
/// file store is slower); which ones, the seed salted with [`ON_FILE_SALT`] says.
pub(crate) const ON_FILE_ONE_IN: u32 = 5;
pub(crate) const ON_FILE_SALT: u64 = 0x5eed_f11e;

/// A state file of its own for one run, removed with its SQLite companions when dropped
/// ([`paytoken_sandbox::remove_state_file`]).
pub(crate) struct StateFile(pub(crate) std::path::PathBuf);

impl StateFile {
    /// A new path, in memory where the machine has a `/dev/shm`: a run kills the
    /// sandbox's process, not the machine, so a disk's flushes would only be waited on.
    pub(crate) fn new() -> Self {
        static MADE: AtomicUsize = AtomicUsize::new(0);
        let number = MADE.fetch_add(1, Ordering::Relaxed);
        let shared_memory = std::path::Path::new("/dev/shm");
        let folder = if shared_memory.is_dir() {
            shared_memory.to_path_buf()
        } else {
            std::env::temp_dir()
        };
        Self(folder.join(format!("paytoken-sim-{}-{number}.db", std::process::id())))
    }
}

impl Drop for StateFile {
    fn drop(&mut self) {
        let _ = paytoken_sandbox::remove_state_file(&self.0);
    }
}
