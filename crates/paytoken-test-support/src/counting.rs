//! A global allocator that counts allocations (and reallocations), for the tests that
//! state how many a piece of work makes. A test binary installs it as its
//! `#[global_allocator]`, and runs the test alone:
//!
//! ```
//! use paytoken_test_support::counting::{Counting, allocations};
//!
//! #[global_allocator]
//! static GLOBAL: Counting = Counting;
//!
//! let before = allocations();
//! let boxed = Box::new(7);
//! assert_eq!(allocations() - before, 1);
//! # drop(boxed);
//! ```
//!
//! Each thread counts its own: the test harness's other threads (its main thread, its
//! output capture) allocate when they please, and a process-wide count charged their
//! allocations to the work measured now and then, failing a test that allocates nothing.

#![allow(
    unsafe_code,
    reason = "a global allocator that counts, around the system one"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The counting allocator: the system one, counting each allocation on its thread.
#[derive(Debug)]
pub struct Counting;

thread_local! {
    // `const`: the thread-local needs no allocation of its own, so the allocator may use it.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// Counts one allocation on this thread (none while the thread is being torn down).
fn count() {
    let _ = ALLOCATIONS.try_with(|count| count.set(count.get() + 1));
}

// SAFETY: forwards to the system allocator unchanged, only counting calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, passed on as is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: as for `alloc` and `dealloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// This thread's allocations so far.
pub fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}
