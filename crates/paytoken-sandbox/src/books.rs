//! The sandbox's books, read from outside: per payment, what was authorised or debited,
//! captured, refunded or cancelled. How a test checks that the money a client believes it
//! moved is the money the gateway moved, faults or not.

use paytoken_types::Amount;

use crate::state::State;

/// One payment, as the sandbox's books hold it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PaymentBooks {
    /// The gateway's id of the payment.
    pub payment_id: String,
    /// The order it was made for, when the request named one.
    pub merchant_transaction_id: Option<String>,
    /// `DB` or `PA`.
    pub payment_type: String,
    /// Whether it was approved (only an approved payment moves money).
    pub approved: bool,
    /// The amount authorised (`PA`) or debited (`DB`).
    pub amount: Amount,
    /// What a `PA` was captured for, once it was.
    pub captured: Option<Amount>,
    /// The sum of its refunds.
    pub refunded: Amount,
    /// Whether a `PA` was cancelled.
    pub cancelled: bool,
    /// Its `notificationUrl`, when the request gave one.
    pub notification_url: Option<String>,
    /// Whether its outcome is still to come: waiting for its 3-D Secure challenge, or
    /// pending.
    pub waiting: bool,
}

/// Every payment in the order it was made.
pub(crate) fn of(state: &State) -> Vec<PaymentBooks> {
    state
        .payments()
        .iter()
        .map(|payment| PaymentBooks {
            payment_id: payment.payment_id.to_string(),
            merchant_transaction_id: payment
                .merchant_transaction_id
                .as_ref()
                .map(|id| id.as_str().to_owned()),
            payment_type: payment.payment_type.to_string(),
            approved: payment.status == crate::state::Status::Approved,
            amount: payment.amount,
            captured: payment.moves.captured,
            refunded: payment.moves.refunded,
            cancelled: payment.moves.cancelled,
            notification_url: payment.notify.as_ref().map(|to| to.url.clone()),
            waiting: matches!(
                payment.status,
                crate::state::Status::ThreeDSecure | crate::state::Status::Pending
            ),
        })
        .collect()
}
