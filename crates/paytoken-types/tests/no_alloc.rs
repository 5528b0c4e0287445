//! Encoding a full payment form into a reused buffer allocates nothing once the buffer has
//! grown: counted by a global allocator, not timed.
#![allow(
    clippy::std_instead_of_core,
    clippy::std_instead_of_alloc,
    clippy::unwrap_used,
    clippy::expect_used,
    missing_docs,
    unsafe_code
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use paytoken_types::form::FormWriter;

mod common;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged, only counting calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, passed on as is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as for `alloc` and `dealloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn encoding_a_payment_form_into_a_reused_buffer_does_not_allocate() {
    let payment = common::PaymentForm::sample();
    let mut body = Vec::new();
    payment.write(&mut FormWriter::new(&mut body));
    let fields = body.iter().filter(|&&b| b == b'&').count() + 1;
    assert!(fields >= 35, "a full payment form has {fields} fields");

    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for _ in 0..100 {
        body.clear();
        payment.write(&mut FormWriter::new(&mut body));
    }
    assert_eq!(ALLOCATIONS.load(Ordering::Relaxed) - before, 0);
}
