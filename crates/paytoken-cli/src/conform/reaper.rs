//! What a client leaves behind. A client's process group is stopped with it, but a child
//! that leaves the group (`setsid sleep 317 & python3 adapter.py`) would outlive `conform`.
//! On Linux, `conform` makes itself the child subreaper: every process orphaned below it
//! becomes its child instead of init's, and once the client is stopped, [`sweep`] ends and
//! reaps each of them, and each one their ending orphans in turn. Elsewhere (no
//! `PR_SET_CHILD_SUBREAPER`), only the client's process group is stopped.
//!
//! Only the `conform` command adopts ([`adopt`]): it starts no process but its client, so
//! every child it has once the client is stopped is the client's leaving.

use std::sync::atomic::{AtomicBool, Ordering};

/// Whether this process adopted its client's orphans.
static ADOPTING: AtomicBool = AtomicBool::new(false);

/// The most rounds of ending children one sweep takes: each round ends the orphans the
/// round before made.
const MAX_ROUNDS: usize = 64;

/// Makes this process the child subreaper of what it starts (Linux); a no-op elsewhere, or
/// where the kernel refuses.
pub(crate) fn adopt() {
    #[cfg(target_os = "linux")]
    if rustix::process::set_child_subreaper(Some(rustix::process::getpid())).is_ok() {
        ADOPTING.store(true, Ordering::SeqCst);
    }
}

/// Ends and reaps every child this process has, when it adopted them ([`adopt`]): what the
/// client left behind. Returns how many it ended.
pub(crate) fn sweep() -> usize {
    if !ADOPTING.load(Ordering::SeqCst) {
        return 0;
    }
    #[cfg(target_os = "linux")]
    {
        linux::sweep()
    }
    #[cfg(not(target_os = "linux"))]
    {
        0
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use rustix::process::{Pid, Signal, WaitOptions, getpid, kill_process, waitpid};

    use super::MAX_ROUNDS;

    /// Each round: every child killed and reaped (an orphan of one just ended becomes a
    /// child for the next round).
    pub(super) fn sweep() -> usize {
        let mut ended = 0;
        for _ in 0..MAX_ROUNDS {
            let children = children();
            if children.is_empty() {
                break;
            }
            for child in children {
                // Reaped, so that none is left a zombie: SIGKILL ends it, and the wait is
                // for that one child alone.
                if kill_process(child, Signal::KILL).is_ok() {
                    let _ = waitpid(Some(child), WaitOptions::empty());
                    ended += 1;
                }
            }
        }
        ended
    }

    /// The processes whose parent is this one, read from `/proc`.
    fn children() -> Vec<Pid> {
        let me = getpid().as_raw_nonzero().get();
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
            .filter(|pid| parent_of(*pid) == Some(me))
            .filter_map(Pid::from_raw)
            .collect()
    }

    /// The parent of `pid`: the fourth field of `/proc/<pid>/stat`, read after the command
    /// name, which may hold spaces and parentheses.
    fn parent_of(pid: i32) -> Option<i32> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let (_, after_name) = stat.rsplit_once(')')?;
        after_name.split_whitespace().nth(1)?.parse().ok()
    }
}
