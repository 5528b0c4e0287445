//! A request's body holds the card number and CVV: whatever becomes of it, its bytes are
//! wiped before the memory goes back to the allocator. A global allocator looks into every
//! block freed while a request is built and dropped, for the card number in clear. The
//! test runs alone in its binary, and looks only at its own thread's frees.
#![cfg(test)]

use paytoken_protocol::Operation;

#[allow(
    dead_code,
    reason = "the shared helpers, of which this test uses a part"
)]
mod common;

#[allow(
    unsafe_code,
    reason = "a global allocator that reads the blocks it is handed back"
)]
mod freed {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    /// The card number of the shared test card, as the form writes it.
    pub(crate) const CARD_NUMBER: &[u8] = b"4000000000000051";

    struct Watching;

    thread_local! {
        // `const`: no allocation of its own, so the allocator may use it.
        static WATCHING: Cell<bool> = const { Cell::new(false) };
        static SEEN: Cell<bool> = const { Cell::new(false) };
    }

    // SAFETY: forwards to the system allocator unchanged; on `dealloc` it only reads the
    // block it is handed, which is still allocated until it is passed on.
    unsafe impl GlobalAlloc for Watching {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, passed on as is.
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            if WATCHING.try_with(Cell::get).unwrap_or(false) {
                // SAFETY: `ptr` points to a live block of `layout.size()` bytes, which
                // are initialized or not; only bytes a form wrote can match, and a
                // `u8` has no invalid values.
                let block = unsafe { std::slice::from_raw_parts(ptr, layout.size()) };
                if block.windows(CARD_NUMBER.len()).any(|w| w == CARD_NUMBER) {
                    let _ = SEEN.try_with(|seen| seen.set(true));
                }
            }
            // SAFETY: `ptr` came from `System.alloc` with this layout.
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            // SAFETY: as for `alloc` and `dealloc`.
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    #[global_allocator]
    static GLOBAL: Watching = Watching;

    /// Whether a block freed while `work` ran held the card number in clear.
    pub(crate) fn freed_in_clear(work: impl FnOnce()) -> bool {
        SEEN.with(|seen| seen.set(false));
        WATCHING.with(|watching| watching.set(true));
        work();
        WATCHING.with(|watching| watching.set(false));
        SEEN.with(Cell::get)
    }
}

#[test]
fn a_request_wipes_its_body_whether_it_is_made_or_refused() {
    let context = common::merchant();
    let payment = common::full_payment();
    // Made, then dropped.
    assert!(!freed::freed_in_clear(|| {
        let request = payment.request(&context).unwrap();
        assert!(
            request
                .body()
                .windows(freed::CARD_NUMBER.len())
                .any(|w| w == freed::CARD_NUMBER)
        );
        drop(request);
    }));
    // Refused by the billing block, written after the card: the body half-written.
    let mut refused = common::full_payment();
    if let Some(billing) = refused.billing.as_mut() {
        billing.city = Some("Köln\u{7}".into());
    }
    assert!(!freed::freed_in_clear(|| {
        let error = refused.request(&context).unwrap_err();
        assert_eq!(error.field(), Some("billing.city"));
    }));
    // The watch itself: a plain copy of the number, freed, is seen.
    assert!(freed::freed_in_clear(|| drop(freed::CARD_NUMBER.to_vec())));
}
