//! The client under test: a child process spoken to in JSON Lines, one message on its
//! stdin, one answer a line on its stdout, each awaited no longer than the guard timeout.
//! Its stderr is its own. Every line read is bounded, and so is what is read ahead: the
//! reader holds at most one line nobody asked for, so a client that writes on and on
//! waits on its full pipe. At the end of every run its whole process group is stopped, and
//! on Linux every process it left behind outside the group (`reaper`).

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::os::unix::process::CommandExt as _;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::Duration;

use serde_json::Value;

/// The longest line a client may answer with.
const MAX_LINE: u64 = 1024 * 1024;

/// What became of one message.
pub(crate) enum Reply {
    /// The client's answer, a JSON object.
    Answer(Value),
    /// Why there is none: the client broke the protocol, ended, or took too long.
    Broken(String),
}

/// A line the reader thread read, or why it stopped.
enum Line {
    Text(Vec<u8>),
    Ended,
    TooLong,
    Failed(String),
}

/// The running client.
pub(crate) struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    guard: Duration,
    /// How many lines the reader has taken off the client's stdout.
    #[cfg(test)]
    lines_read: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl Client {
    /// Starts `command` with `sh -c`, in a process group of its own: what it starts is
    /// stopped with it.
    pub(crate) fn start(command: &str, guard: Duration) -> Result<Self, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|error| format!("cannot start the client: {error}"))?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| "the client has no standard output".to_owned())?;
        // One line waits in the channel, one in the reader's hand; no more is read
        // until the run asks.
        let (sender, lines) = sync_channel(1);
        let lines_read = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counted = std::sync::Arc::clone(&lines_read);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                let read = (&mut reader)
                    .take(MAX_LINE + 1)
                    .read_until(b'\n', &mut line);
                let message = match read {
                    Ok(0) => Line::Ended,
                    Ok(_)
                        if !line.ends_with(b"\n")
                            && line.len() > usize::try_from(MAX_LINE).unwrap_or(usize::MAX) =>
                    {
                        Line::TooLong
                    }
                    Ok(_) => Line::Text(line),
                    Err(error) => Line::Failed(error.to_string()),
                };
                counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let last = !matches!(message, Line::Text(_));
                if sender.send(message).is_err() || last {
                    return;
                }
            }
        });
        #[cfg(not(test))]
        drop(lines_read);
        Ok(Self {
            child,
            stdin,
            lines,
            guard,
            #[cfg(test)]
            lines_read,
        })
    }

    /// Sends `message` and waits for the answer line.
    pub(crate) fn ask(&mut self, message: &Value) -> Reply {
        let sent = self.stdin.as_mut().map(|stdin| {
            stdin
                .write_all(format!("{message}\n").as_bytes())
                .and_then(|()| stdin.flush())
        });
        if !matches!(sent, Some(Ok(()))) {
            return Reply::Broken("the client stopped reading its input".to_owned());
        }
        match self.lines.recv_timeout(self.guard) {
            Ok(Line::Text(line)) => match serde_json::from_slice::<Value>(&line) {
                Ok(answer) if answer.is_object() => Reply::Answer(answer),
                _ => {
                    Reply::Broken("the client answered a line that is not a JSON object".to_owned())
                }
            },
            Ok(Line::Ended) | Err(RecvTimeoutError::Disconnected) => {
                Reply::Broken("the client ended before it answered".to_owned())
            }
            Ok(Line::TooLong) => Reply::Broken("the client answered a line over 1 MiB".to_owned()),
            Ok(Line::Failed(error)) => Reply::Broken(format!("reading the client failed: {error}")),
            Err(RecvTimeoutError::Timeout) => Reply::Broken(format!(
                "the client did not answer within {} s",
                self.guard.as_secs_f64()
            )),
        }
    }

    /// Closes the client's input, gives it the guard time to end, then stops what is left
    /// of its process group.
    pub(crate) fn finish(mut self) {
        drop(self.stdin.take());
        let deadline = std::time::Instant::now() + self.guard;
        while std::time::Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        // Dropped: `stop`.
    }

    /// Stops the client's whole process group: a shell's children too (`sleep 60 &
    /// python3 adapter.py`), which would live on after the shell and hold the pipes open.
    /// The group outlives its leader while any member lives, so its id is not reused
    /// before they are stopped.
    fn stop(&mut self) {
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
        // And what left the group, adopted by `conform` (Linux).
        super::reaper::sweep();
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_that_writes_on_and_on_is_not_read_ahead() {
        let client = Client::start("yes conform", Duration::from_secs(5)).unwrap();
        std::thread::sleep(Duration::from_millis(300));
        // One line in the channel, one in the reader's hand waiting to go in: the rest
        // waits in the client's pipe.
        let read = client.lines_read.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(read, 2, "lines read ahead of any question");
    }

    #[test]
    fn the_clients_children_are_stopped_with_it() {
        let folder = std::env::temp_dir().join(format!("paytoken-conform-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let pid_file = folder.join("pid");
        let command = format!("sleep 316 & echo $! > {}; exit 0", pid_file.display());
        let client = Client::start(&command, Duration::from_secs(5)).unwrap();
        client.finish();
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        let alive = |pid: &str| {
            std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
                .is_ok_and(|stat| !stat.contains(") Z "))
        };
        // Killed at once; the kernel may take a moment to take it down.
        let mut waited = 0;
        while alive(&pid) && waited < 200 {
            std::thread::sleep(Duration::from_millis(10));
            waited += 1;
        }
        assert!(!alive(&pid), "the client's child {} lives on", pid.trim());
    }
}
