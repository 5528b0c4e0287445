//! The client under test: a child process spoken to in JSON Lines, one message on its
//! stdin, one answer a line on its stdout, each awaited no longer than the guard timeout.
//! Its stderr is its own. Every line read is bounded.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::os::unix::process::CommandExt as _;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
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
        let (sender, lines) = channel();
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
                let last = !matches!(message, Line::Text(_));
                if sender.send(message).is_err() || last {
                    return;
                }
            }
        });
        Ok(Self {
            child,
            stdin,
            lines,
            guard,
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

    /// Closes the client's input, gives it the guard time to end, then stops it.
    pub(crate) fn finish(mut self) {
        drop(self.stdin.take());
        let deadline = std::time::Instant::now() + self.guard;
        while std::time::Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        self.stop();
    }

    /// Stops the client's whole process group (a shell's children too, which would hold
    /// the pipes open).
    fn stop(&mut self) {
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.stop();
        }
    }
}
