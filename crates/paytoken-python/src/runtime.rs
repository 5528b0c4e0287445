//! The process's one tokio runtime, and waiting on it from Python.
//!
//! The runtime is made on first use, with [`DEFAULT_WORKER_THREADS`] worker threads unless
//! `paytoken.configure_runtime` said otherwise before. No Python code ever runs on its
//! threads: every call into Python (logging included) happens on the caller's thread.
//!
//! A caller waits with the GIL released, waking every [`TICK`] to run Python's signal
//! handlers, so that Ctrl-C raises at once. A read is abandoned then. A call that changes
//! something (a payment, a refund, a registration...) is not: it goes on, its settlement
//! with it, and its outcome is logged at warning under the `paytoken` logger by the next
//! caller or when the interpreter exits, which waits for it ([`finish_interrupted`]).
//!
//! After `fork` the child's first call makes a runtime of its own: the parent's threads do
//! not exist in the child, so its runtime is left as it is, never dropped (dropping would
//! wait for them).

use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError};
use pyo3::prelude::*;
use tokio::runtime::Runtime;
use tokio::task::JoinHandle;

use crate::errors::invalid_field;
use crate::per_process::PerProcess;

/// Worker threads of the runtime unless configured: a client's calls are I/O, which two
/// threads serve for many Python threads.
pub(crate) const DEFAULT_WORKER_THREADS: usize = 2;

/// The most worker threads a runtime may be given.
const MAX_WORKER_THREADS: usize = 256;

/// How often a waiting caller wakes to run Python's signal handlers.
const TICK: Duration = Duration::from_millis(100);

static WORKER_THREADS: AtomicUsize = AtomicUsize::new(DEFAULT_WORKER_THREADS);

/// The runtime of this process.
static RUNTIME: PerProcess<&'static Runtime> = PerProcess::new();

/// Calls interrupted by a signal that went on: each logged once it ends.
static INTERRUPTED: Mutex<Vec<Interrupted>> = Mutex::new(Vec::new());

/// A call that changes something, interrupted while it went on.
struct Interrupted {
    pid: u32,
    /// What it was, for the log: `pay of order order-7`.
    what: String,
    /// Its outcome in words, once it ends.
    task: JoinHandle<String>,
}

fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The runtime of this process, made now if it has none (or only its parent's).
pub(crate) fn runtime() -> PyResult<&'static Runtime> {
    RUNTIME.get_or_make(|| {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(WORKER_THREADS.load(Ordering::Relaxed))
            .thread_name("paytoken-runtime")
            .enable_all()
            .build()
            .map_err(|error| {
                PyRuntimeError::new_err(format!("cannot start paytoken's runtime: {error}"))
            })?;
        // Lives as long as the process: a forked child leaves its parent's as it is.
        Ok(&*Box::leak(Box::new(runtime)))
    })
}

/// Sets how many worker threads the runtime gets: before the first call of any client in
/// this process (the default is 2).
///
/// Raises `InvalidInput` for 0 or more than 256, and `RuntimeError` once the runtime runs.
#[pyfunction]
#[pyo3(signature = (*, worker_threads))]
pub(crate) fn configure_runtime(worker_threads: usize) -> PyResult<()> {
    if !(1..=MAX_WORKER_THREADS).contains(&worker_threads) {
        return Err(invalid_field("worker_threads", "is from 1 to 256"));
    }
    if RUNTIME.get().is_some() {
        return Err(PyRuntimeError::new_err(
            "paytoken's runtime already runs: configure it before the first call",
        ));
    }
    WORKER_THREADS.store(worker_threads, Ordering::Relaxed);
    Ok(())
}

/// The outcome of `future`, a read: abandoned when a signal handler raises (Ctrl-C), which
/// is raised then.
pub(crate) fn wait_read<T: Send + 'static>(
    py: Python<'_>,
    future: impl Future<Output = T> + Send + 'static,
) -> PyResult<T> {
    match waited(py, future)? {
        Waited::Done(done) => done,
        Waited::Interrupted { by, task, .. } => {
            task.abort();
            Err(by)
        }
    }
}

/// The outcome of `future`, a call that changes something (`what` names it for the log,
/// `then` what to do next). When a signal handler raises, the call goes on: a
/// `KeyboardInterrupt` is raised saying so and naming `then`; any other exception as it
/// came. `outcome` says how it ended, for the log.
pub(crate) fn wait_change<T: Send + 'static>(
    py: Python<'_>,
    future: impl Future<Output = T> + Send + 'static,
    what: String,
    then: &str,
    outcome: fn(&T) -> String,
) -> PyResult<T> {
    match waited(py, future)? {
        Waited::Done(done) => done,
        Waited::Interrupted {
            by: interrupted,
            task,
            runtime,
        } => {
            let said = format!("interrupted; the {what} goes on and settles: {then}");
            let raised = if interrupted.is_instance_of::<PyKeyboardInterrupt>(py) {
                let raised = PyKeyboardInterrupt::new_err(said);
                raised.set_cause(py, Some(interrupted));
                raised
            } else {
                interrupted
            };
            let ended = runtime.spawn(async move {
                match task.await {
                    Ok(done) => outcome(&done),
                    Err(_) => "its task failed".to_owned(),
                }
            });
            locked(&INTERRUPTED).push(Interrupted {
                pid: std::process::id(),
                what,
                task: ended,
            });
            Err(raised)
        }
    }
}

/// How a wait ended.
enum Waited<T> {
    /// The task ended: its outcome, or the error of a task that failed.
    Done(PyResult<T>),
    /// A signal handler raised `by` while the task still ran.
    Interrupted {
        by: PyErr,
        task: JoinHandle<T>,
        runtime: &'static Runtime,
    },
}

/// `future` run on the runtime and waited for with the GIL released, the signal handlers
/// run every [`TICK`].
fn waited<T: Send + 'static>(
    py: Python<'_>,
    future: impl Future<Output = T> + Send + 'static,
) -> PyResult<Waited<T>> {
    log_interrupted(py, false);
    let runtime = runtime()?;
    let mut task = runtime.spawn(future);
    loop {
        let ticked = py.detach(|| {
            // The timer is made inside the runtime, whose clock it needs.
            runtime.block_on(async { tokio::time::timeout(TICK, &mut task).await })
        });
        match ticked {
            Ok(Ok(done)) => return Ok(Waited::Done(Ok(done))),
            Ok(Err(_)) => {
                return Ok(Waited::Done(Err(PyRuntimeError::new_err(
                    "paytoken's call ended without an outcome (its task failed)",
                ))));
            }
            Err(_elapsed) => {
                if let Err(by) = py.check_signals() {
                    return Ok(Waited::Interrupted { by, task, runtime });
                }
            }
        }
    }
}

/// Logs, at warning under the `paytoken` logger, each interrupted call of this process that
/// has ended; with `wait`, waits for the others first (the GIL released).
fn log_interrupted(py: Python<'_>, wait: bool) {
    let pid = std::process::id();
    let ended: Vec<Interrupted> = {
        let mut interrupted = locked(&INTERRUPTED);
        // A parent's, in a forked child: they go on in the parent, not here.
        interrupted.retain(|call| call.pid == pid);
        if !wait && interrupted.iter().all(|call| !call.task.is_finished()) {
            return;
        }
        let all = std::mem::take(&mut *interrupted);
        let (ended, going): (Vec<_>, Vec<_>) = all
            .into_iter()
            .partition(|call| wait || call.task.is_finished());
        *interrupted = going;
        ended
    };
    let Some(runtime) = RUNTIME.get() else {
        return;
    };
    for call in ended {
        let outcome = py.detach(|| runtime.block_on(call.task));
        let outcome = outcome.unwrap_or_else(|_| "its task failed".to_owned());
        let logged = warn(
            py,
            &format!("the interrupted {} ended: {outcome}", call.what),
        );
        if let Err(failed) = logged {
            failed.write_unraisable(py, None);
        }
    }
}

/// `message` logged at warning under the `paytoken` logger, card numbers masked.
pub(crate) fn warn(py: Python<'_>, message: &str) -> PyResult<()> {
    let message = paytoken_protocol::redact::description(message, None);
    let logger = py
        .import("logging")?
        .call_method1("getLogger", ("paytoken",))?;
    logger.call_method1("warning", (message,))?;
    Ok(())
}

/// Waits for the calls a signal interrupted that are still going on, and logs how each
/// ended: registered with `atexit`, so that the interpreter does not exit in the middle of
/// a payment.
#[pyfunction]
pub(crate) fn finish_interrupted(py: Python<'_>) {
    log_interrupted(py, true);
}
