//! How many allocations building and signing a request makes: the request's own parts and
//! nothing per field. Counted by a global allocator, not timed. The test runs alone in its
//! binary, on one thread, so the count is the request's.
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

use paytoken_protocol::{AuthToken, Operation};

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

/// The allocations of `build`, the request it returns included (it is dropped after).
fn allocations_of<T>(build: impl Fn() -> T) -> usize {
    drop(build()); // once to warm up anything lazy
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let built = build();
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    drop(built);
    after - before
}

#[test]
fn building_and_signing_a_request_allocates_its_own_parts_only() {
    let context = common::merchant().with_auth_token(AuthToken::new(common::TOKEN).unwrap());
    // The full payment of the golden files: 38 fields, two URLs, an escaped descriptor.
    let full = common::full_payment();
    let request = full.request(&context).unwrap();
    let fields = request.body().iter().filter(|&&b| b == b'&').count() + 1;
    assert!(fields >= 38, "{fields} fields");
    // Five: the body's bytes and the shared cell that wipes them, the path, the header
    // list, the auth token's header value. Not one per field.
    assert_eq!(allocations_of(|| full.request(&context).unwrap()), 5);
    // The same five for the smallest payment and for a token payment (its path carries
    // the registration id; still one path).
    let minimal = common::minimal_preauthorization();
    assert_eq!(allocations_of(|| minimal.request(&context).unwrap()), 5);
    let token = common::token_payment();
    assert_eq!(allocations_of(|| token.request(&context).unwrap()), 5);
}
