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

use paytoken_types::form::FormWriter;

mod common;
#[path = "support/counting.rs"]
mod counting;

#[test]
fn encoding_a_payment_form_into_a_reused_buffer_does_not_allocate() {
    let payment = common::PaymentForm::sample();
    let mut body = Vec::new();
    payment.write(&mut FormWriter::new(&mut body));
    let fields = body.iter().filter(|&&b| b == b'&').count() + 1;
    assert!(fields >= 35, "a full payment form has {fields} fields");

    let before = counting::allocations();
    for _ in 0..100 {
        body.clear();
        payment.write(&mut FormWriter::new(&mut body));
    }
    assert_eq!(counting::allocations() - before, 0);
}
