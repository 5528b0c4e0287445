//! What the client adds to an unknown outcome on its way out: the ids to settle it by.

use paytoken_types::{MerchantTransactionId, PaymentId};

use crate::Error;

/// The ids a call knows of the payment it was about, attached to its unknown outcome.
pub(crate) trait Attach {
    /// Attaches the payment's merchant transaction id to an unknown outcome.
    fn with_merchant_transaction_id(self, id: Option<MerchantTransactionId>) -> Self;

    /// Attaches the id of the payment a lost move was about to an unknown outcome.
    fn about_payment(self, id: PaymentId) -> Self;
}

impl Attach for Error {
    fn with_merchant_transaction_id(self, id: Option<MerchantTransactionId>) -> Self {
        match self {
            Self::OutcomeUnknown {
                operation,
                payment_id,
                cause,
                ..
            } => Self::OutcomeUnknown {
                operation,
                merchant_transaction_id: id,
                payment_id,
                cause,
            },
            other => other,
        }
    }

    fn about_payment(self, id: PaymentId) -> Self {
        match self {
            Self::OutcomeUnknown {
                operation,
                merchant_transaction_id,
                cause,
                ..
            } => Self::OutcomeUnknown {
                operation,
                merchant_transaction_id,
                payment_id: Some(id),
                cause,
            },
            other => other,
        }
    }
}
