//! How many allocations building and signing a request makes: the request's own parts and
//! nothing per field. Counted by a global allocator, not timed. The test runs alone in its
//! binary, on one thread, so the count is the request's.
#![cfg(test)]

use paytoken_protocol::{AuthToken, Context, Operation};

#[allow(
    dead_code,
    reason = "the shared helpers, of which this test uses a part"
)]
mod common;

use paytoken_test_support::counting::{self, Counting};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations of `build`, the request it returns included (it is dropped after).
fn allocations_of<T>(build: impl Fn() -> T) -> usize {
    drop(build()); // once to warm up anything lazy
    let before = counting::allocations();
    let built = build();
    let after = counting::allocations();
    drop(built);
    after - before
}

#[test]
fn building_and_signing_a_request_allocates_its_own_parts_only() {
    let context = Context {
        auth_token: Some(AuthToken::new(common::TOKEN).unwrap()),
        ..common::merchant()
    };
    // The full payment of the golden files: 38 fields, two URLs, an escaped descriptor.
    let full = common::full_payment();
    let request = full.request(&context).unwrap();
    let fields = request.body().iter().filter(|&&b| b == b'&').count() + 1;
    assert!(fields >= 38, "{fields} fields");
    // Two: the body's bytes and the shared cell that wipes them. Not one per field, none for
    // the headers (held inline), none for a path that is a constant, and none for the auth
    // token's header, which shares the context's token.
    assert_eq!(allocations_of(|| full.request(&context).unwrap()), 2);
    let minimal = common::minimal_preauthorization();
    assert_eq!(allocations_of(|| minimal.request(&context).unwrap()), 2);
    // A token payment's path carries the registration id: one more, the path.
    let token = common::token_payment();
    assert_eq!(allocations_of(|| token.request(&context).unwrap()), 3);
}
