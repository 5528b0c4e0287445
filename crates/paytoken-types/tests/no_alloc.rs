//! Encoding a full payment form into a reused buffer allocates nothing once the buffer has
//! grown: counted by a global allocator, not timed.
#![cfg(test)]

use paytoken_test_support::counting::{self, Counting};
use paytoken_test_support::form::PaymentForm;
use paytoken_types::internal::FormWriter;

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn encoding_a_payment_form_into_a_reused_buffer_does_not_allocate() {
    let payment = PaymentForm::sample();
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
