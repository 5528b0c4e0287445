//! Request timeouts without a timer per request.
//!
//! Each request in flight puts its deadline and its waker in the client's [`Deadlines`];
//! one ticker task per client, started with the first request that waits and ended when
//! none is left, wakes every request whose deadline has passed. A request then times out
//! at most one tick after its deadline; a tick is a sixteenth of the timeout (1 ms to
//! 250 ms).
//!
//! Why not `tokio::time::timeout`: a tokio timer per request, entered into the runtime's
//! timer wheel when the request first waits and taken out when it ends, cost about 6 % of
//! the client's requests per second at 64 in flight (pair-mode rounds of the client
//! benchmark, docs/PERFORMANCE.md). Here a request takes a lock twice, to put its slot in
//! and to take it out, and the runtime's wheel holds one timer per client.

use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::task::{Poll, Waker};
use std::time::Duration;

// tokio's clock, the one its `sleep` counts by (and that a paused test runtime stops).
use tokio::time::{Instant, Sleep};

/// The deadlines of one client's requests in flight.
#[derive(Debug)]
pub(crate) struct Deadlines {
    /// How long an attempt may take.
    timeout: Duration,
    tick: Duration,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// One slot per request waiting; `None` where a request has ended.
    slots: Vec<Option<Slot>>,
    /// Indexes of the `None` slots, reused first.
    free: Vec<usize>,
    /// The number of the ticker task running, if one is: a ticker that ends clears this
    /// only when it is still its own number, so a ticker started after it stays counted.
    ticker: Option<u64>,
    /// The number the next ticker gets.
    next_ticker: u64,
}

#[derive(Debug)]
struct Slot {
    deadline: Instant,
    waker: Waker,
    expired: bool,
}

impl Deadlines {
    /// Deadlines for requests that time out after `timeout`, looked at every sixteenth of
    /// it (1 ms to 250 ms).
    pub(crate) fn new(timeout: Duration) -> Arc<Self> {
        let tick = (timeout / 16).clamp(Duration::from_millis(1), Duration::from_millis(250));
        Self::with_tick(timeout, tick)
    }

    /// Deadlines for requests that time out after `timeout`, looked at every `tick`.
    fn with_tick(timeout: Duration, tick: Duration) -> Arc<Self> {
        Arc::new(Self {
            timeout,
            tick,
            state: Mutex::new(State::default()),
        })
    }

    /// How long an attempt may take.
    pub(crate) const fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Runs `future` to its end, or until the timeout has passed (then `None`; the caller
    /// drops the future).
    ///
    /// The future is pinned where the caller keeps it, not moved in: an async function's
    /// state would otherwise hold it twice (the argument and its pinned copy), and every
    /// future around it would grow and be copied by as much (`send` is 440 bytes).
    pub(crate) async fn run<F: Future + ?Sized>(
        self: &Arc<Self>,
        mut future: Pin<&mut F>,
    ) -> Option<F::Output> {
        // A timeout past what the clock can count never ends.
        let Some(deadline) = Instant::now().checked_add(self.timeout) else {
            return Some(future.await);
        };
        let mut waiting = Waiting {
            deadlines: self,
            slot: None,
        };
        poll_fn(|cx| {
            if let Poll::Ready(output) = future.as_mut().poll(cx) {
                return Poll::Ready(Some(output));
            }
            if waiting.expired(deadline, cx.waker()) {
                Poll::Ready(None)
            } else {
                Poll::Pending
            }
        })
        .await
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // The state stays consistent whatever panicked while it was held: every change
        // is a single step.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts a ticker task on the current runtime, when none runs. Its first sleep is
    /// made here, in the caller's context, so that a runtime without its timer fails the
    /// call as `tokio::time::timeout` would, not a task nobody sees. Outside a tokio
    /// runtime (where the client's transport cannot run either) there is none to start.
    fn start_ticker(self: &Arc<Self>, state: &mut State) {
        if state.ticker.is_some() {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let first = tokio::time::sleep(self.tick);
        let number = state.next_ticker;
        state.next_ticker = state.next_ticker.wrapping_add(1);
        state.ticker = Some(number);
        let ticker = Ticker {
            deadlines: Arc::downgrade(self),
            number,
        };
        runtime.spawn(ticker.run(first, self.tick));
    }

    /// Marks and wakes the requests whose deadline has passed. `false` when no request is
    /// left waiting: the ticker then ends (and says so in the state, under the same lock).
    fn fire(&self, number: u64) -> bool {
        let now = Instant::now();
        let mut expired = Vec::new();
        let waiting = {
            let mut state = self.lock();
            let mut waiting = false;
            for slot in state.slots.iter_mut().flatten() {
                waiting = true;
                if !slot.expired && slot.deadline <= now {
                    slot.expired = true;
                    expired.push(slot.waker.clone());
                }
            }
            if !waiting && state.ticker == Some(number) {
                state.ticker = None;
            }
            waiting
        };
        // Woken once the lock is let go: a waker that polls its task at once would
        // otherwise find the lock taken.
        expired.into_iter().for_each(Waker::wake);
        waiting
    }
}

/// One request's place among the deadlines; its slot is freed when it is dropped.
struct Waiting<'a> {
    deadlines: &'a Arc<Deadlines>,
    slot: Option<usize>,
}

impl Waiting<'_> {
    /// Whether the deadline has passed, as the ticker saw it; puts the request in a slot
    /// with `waker` when it first waits, and keeps the slot's waker current after.
    fn expired(&mut self, deadline: Instant, waker: &Waker) -> bool {
        let mut state = self.deadlines.lock();
        if let Some(slot) = self
            .slot
            .and_then(|index| state.slots.get_mut(index)?.as_mut())
        {
            if !slot.waker.will_wake(waker) {
                slot.waker.clone_from(waker);
            }
            let expired = slot.expired;
            // Woken because the ticker went with its runtime: one starts on this one.
            self.deadlines.start_ticker(&mut state);
            return expired;
        }
        let slot = Some(Slot {
            deadline,
            waker: waker.clone(),
            expired: false,
        });
        let index = match state.free.pop() {
            Some(index) => {
                if let Some(free) = state.slots.get_mut(index) {
                    *free = slot;
                }
                index
            }
            None => {
                state.slots.push(slot);
                state.slots.len() - 1
            }
        };
        self.slot = Some(index);
        self.deadlines.start_ticker(&mut state);
        false
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        let Some(index) = self.slot else {
            return;
        };
        let mut state = self.deadlines.lock();
        if let Some(slot) = state.slots.get_mut(index) {
            *slot = None;
            state.free.push(index);
        }
    }
}

/// The task that wakes requests past their deadline.
struct Ticker {
    deadlines: Weak<Deadlines>,
    number: u64,
}

impl Ticker {
    async fn run(self, first: Sleep, tick: Duration) {
        first.await;
        loop {
            // The client is gone: nothing is left to wake.
            let Some(deadlines) = self.deadlines.upgrade() else {
                return;
            };
            if !deadlines.fire(self.number) {
                return;
            }
            drop(deadlines);
            tokio::time::sleep(tick).await;
        }
    }
}

impl Drop for Ticker {
    /// A ticker dropped before it ended (its runtime shut down) says so, and wakes every
    /// request still waiting: each then starts another ticker on the runtime it runs on
    /// (a client may serve several), or is dropped with the runtime that went.
    fn drop(&mut self) {
        let Some(deadlines) = self.deadlines.upgrade() else {
            return;
        };
        let waiting: Vec<Waker> = {
            let mut state = deadlines.lock();
            if state.ticker != Some(self.number) {
                return;
            }
            state.ticker = None;
            state
                .slots
                .iter()
                .flatten()
                .map(|slot| slot.waker.clone())
                .collect()
        };
        waiting.into_iter().for_each(Waker::wake);
    }
}

#[cfg(test)]
mod tests {
    //! On the real clock (a paused one would need tokio's `test-util` in every build of
    //! the benchmarks too): short timeouts where one must pass, long ones where none may.

    use std::pin::pin;

    use super::*;

    /// A timeout that passes in the test.
    const SHORT: Duration = Duration::from_millis(50);
    /// A timeout no test waits for.
    const LONG: Duration = Duration::from_secs(60);

    fn wait(millis: u64) -> Sleep {
        tokio::time::sleep(Duration::from_millis(millis))
    }

    #[tokio::test]
    async fn a_future_that_ends_at_once_never_takes_a_slot() {
        let deadlines = Deadlines::new(LONG);
        assert_eq!(deadlines.run(pin!(async { 7 })).await, Some(7));
        let state = deadlines.lock();
        assert!(state.slots.is_empty());
        assert_eq!(state.ticker, None);
    }

    #[tokio::test]
    async fn the_run_holds_the_future_it_times_by_reference_only() {
        // A future as large as the transport's: were it moved into the run, every future
        // around a request would grow by as much, and copy it at each level (twice here,
        // the argument and its pinned copy, as it once was).
        let payload = [7_u8; 4096];
        let large = pin!(async move { payload.iter().map(|&b| usize::from(b)).sum::<usize>() });
        let deadlines = Deadlines::new(LONG);
        let run = deadlines.run(large);
        assert!(size_of_val(&run) < 256, "{} bytes", size_of_val(&run));
        assert_eq!(run.await, Some(7 * 4096));
    }

    #[tokio::test]
    async fn a_future_past_its_deadline_ends_the_run_and_frees_its_slot() {
        let deadlines = Deadlines::new(SHORT);
        let never = pin!(std::future::pending::<()>());
        assert_eq!(deadlines.run(never).await, None);
        let state = deadlines.lock();
        assert_eq!(state.slots.len(), 1);
        assert!(state.slots.iter().all(Option::is_none));
        assert_eq!(state.free, [0]);
    }

    #[tokio::test]
    async fn a_future_that_ends_within_its_timeout_is_not_cut_short() {
        let slow = async {
            wait(10).await;
            7
        };
        assert_eq!(Deadlines::new(LONG).run(pin!(slow)).await, Some(7));
    }

    #[tokio::test]
    async fn slots_are_reused_and_the_ticker_ends_when_none_is_left() {
        // A long timeout, which none of these waits may reach, looked at often, so that
        // the ticker is seen to end soon after the last wait.
        let deadlines = Deadlines::with_tick(LONG, Duration::from_millis(3));
        let (five, ten) = (pin!(wait(5)), pin!(wait(10)));
        let (first, second) = tokio::join!(deadlines.run(five), deadlines.run(ten));
        assert_eq!((first, second), (Some(()), Some(())));
        assert_eq!(deadlines.run(pin!(wait(5))).await, Some(()));
        assert_eq!(deadlines.lock().slots.len(), 2, "two at once at most");
        // With no request left, the next tick ends the ticker.
        let ended = async {
            while deadlines.lock().ticker.is_some() {
                wait(5).await;
            }
        };
        tokio::time::timeout(LONG, ended)
            .await
            .expect("the ticker ends when no request is left");
        // And the next request that waits starts a new one.
        let never = pin!(std::future::pending::<()>());
        let waiting = deadlines.run(never);
        let probe = async {
            wait(5).await;
            deadlines.lock().ticker.is_some()
        };
        tokio::select! {
            _ = waiting => unreachable!("a pending future within a long timeout"),
            started = probe => assert!(started),
        }
    }
}
