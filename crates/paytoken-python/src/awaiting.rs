//! A call awaited from asyncio: `AsyncClient`'s one path.
//!
//! The call runs as a task of its own on the runtime; the awaiting coroutine holds an
//! `asyncio` future of its running loop, which a thread of the module's own (never one of
//! the runtime's) completes through the loop's `call_soon_threadsafe`. Cancelling the
//! coroutine cancels that future: a read is abandoned then, while a call that changes
//! something (a payment, a refund...) goes on with its settlement, and how it ended is
//! logged at warning under the `paytoken` logger. A loop closed before the answer gets no
//! answer: one warning says so, and nothing is raised on any thread of the module's.
//!
//! After `fork` the child's first awaited call starts the completing thread again, as the
//! runtime is made again.

use std::sync::mpsc::{Receiver, Sender, channel};

use pyo3::prelude::*;
use tokio::task::AbortHandle;

use crate::call::{self, Call, Outcome};
use crate::per_process::PerProcess;
use crate::runtime::{runtime, warn};

/// A finished call for the completing thread: the future to complete on its loop.
struct Finished {
    event_loop: Py<PyAny>,
    future: Py<PyAny>,
    /// The outcome, or `None` for a task that failed.
    outcome: Option<Outcome>,
    /// For a call that changes something, what it was (`pay of order order-7`).
    changing: Option<String>,
}

/// The completing thread's queue, in this process.
static COMPLETING: PerProcess<Sender<Finished>> = PerProcess::new();

/// Starts `call` with `client`: the `asyncio` future of the running loop its coroutine
/// awaits.
pub(crate) fn start(
    py: Python<'_>,
    client: paytoken_hyper::Client,
    call: Call,
) -> PyResult<Py<PyAny>> {
    let event_loop = py.import("asyncio")?.call_method0("get_running_loop")?;
    let future = event_loop.call_method0("create_future")?;
    let completing = completing()?;
    let changing = call.changes().then(|| call.described().0);
    let runtime = runtime()?;
    let task = runtime.spawn(call.run(client));
    if changing.is_none() {
        // A read nobody awaits any more is abandoned.
        let abandon = Abandon(task.abort_handle());
        future.call_method1("add_done_callback", (abandon,))?;
    }
    let finished = Finished {
        event_loop: event_loop.unbind(),
        future: future.clone().unbind(),
        outcome: None,
        changing,
    };
    runtime.spawn(async move {
        let outcome = match task.await {
            Ok(outcome) => Some(outcome),
            // Abandoned: its future was cancelled, nothing is owed to anyone.
            Err(failed) if failed.is_cancelled() => return,
            Err(_) => None,
        };
        // The completing thread outlives the process's every task: a send fails only when
        // the process is ending, when nobody awaits anything.
        let _ = completing.send(Finished {
            outcome,
            ..finished
        });
    });
    Ok(future.unbind())
}

/// The completing thread's queue, the thread started in this process first.
fn completing() -> PyResult<Sender<Finished>> {
    COMPLETING.get_or_make(|| {
        let (queue, finished) = channel();
        std::thread::Builder::new()
            .name("paytoken-complete".to_owned())
            .spawn(move || complete_each(&finished))?;
        Ok(queue)
    })
}

/// Completes each finished call's future on its loop, for as long as the process runs.
fn complete_each(finished: &Receiver<Finished>) {
    while let Ok(call) = finished.recv() {
        // `None` while the interpreter shuts down: nothing awaits then.
        let _ = Python::try_attach(|py| {
            if let Err(failed) = complete(py, call) {
                failed.write_unraisable(py, None);
            }
        });
    }
}

/// Hands `call`'s outcome to its loop, or logs why it cannot.
fn complete(py: Python<'_>, call: Finished) -> PyResult<()> {
    let future = call.future.bind(py);
    let Some(outcome) = call.outcome else {
        return warn(py, "a call's task failed before its answer");
    };
    if future.call_method0("cancelled")?.is_truthy()? {
        return match call.changing {
            Some(what) => {
                let ended = call::outcome_in_words(&outcome);
                warn(py, &format!("the cancelled {what} ended: {ended}"))
            }
            None => Ok(()),
        };
    }
    let (ok, value) = match call::answered(py, outcome) {
        Ok(answer) => (true, answer),
        Err(raised) => (false, raised.into_value(py).into_any()),
    };
    let deliver = py.import("paytoken._paytoken")?.getattr("_deliver")?;
    let scheduled = (call.event_loop.bind(py))
        .call_method1("call_soon_threadsafe", (deliver, future, ok, value));
    if scheduled.is_err() {
        let what = call.changing.as_deref().unwrap_or("read");
        warn(
            py,
            &format!("the event loop closed before the {what} ended; its answer is dropped"),
        )?;
    }
    Ok(())
}

/// Completes `future` on its loop's thread, unless it is done (cancelled) already.
#[pyfunction]
pub(crate) fn _deliver(
    future: &Bound<'_, PyAny>,
    ok: bool,
    value: &Bound<'_, PyAny>,
) -> PyResult<()> {
    if future.call_method0("done")?.is_truthy()? {
        return Ok(());
    }
    let method = if ok { "set_result" } else { "set_exception" };
    future.call_method1(method, (value,))?;
    Ok(())
}

/// A done callback that abandons a read whose future was cancelled.
#[pyclass(frozen)]
struct Abandon(AbortHandle);

#[pymethods]
impl Abandon {
    fn __call__(&self, future: &Bound<'_, PyAny>) -> PyResult<()> {
        if future.call_method0("cancelled")?.is_truthy()? {
            self.0.abort();
        }
        Ok(())
    }
}
