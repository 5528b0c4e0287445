//! The sandbox's test cards and fresh order ids, as the end-to-end tests use them.

use paytoken_types::{Card, MerchantTransactionId};

/// A sandbox test card, valid until 12/2099.
pub fn card(number: &str) -> Card {
    paytoken_sandbox::samples::card(number).unwrap()
}

/// A merchant transaction id no other test of this process uses.
pub fn order_id() -> MerchantTransactionId {
    paytoken_sandbox::samples::order_id("order").unwrap()
}
