//! Refund (`POST /transactionServices/REST/v1/payments/{paymentId}` with
//! `paymentType=RF`): gives back money a captured payment or a debit (`DB`) took, all of it
//! or in parts. Success is `00005`.
//!
//! A refund moves money: a client never sends it twice, and never again blindly after a
//! lost answer: the inquiry of the payment tells a full refund, not always a partial one.

use paytoken_types::{Amount, Currency, PaymentId, PaymentType};

use super::{Operation, back_office};
use crate::outcome::Transaction;
use crate::{Context, Error, OperationKind, Request};

/// Refunds `amount` of the payment `payment_id`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Refund {
    /// The payment's `paymentId`, in the path and the checksum.
    pub payment_id: PaymentId,
    /// `amount`: with earlier refunds, at most what was taken; also hashed into the checksum.
    pub amount: Amount,
    /// `currency`: the payment's.
    pub currency: Currency,
}

impl Refund {
    /// A refund of `amount` in `currency` of the payment `payment_id`.
    #[must_use]
    pub const fn new(payment_id: PaymentId, amount: Amount, currency: Currency) -> Self {
        Self {
            payment_id,
            amount,
            currency,
        }
    }
}

impl Operation for Refund {
    type Response = Transaction;
    const KIND: OperationKind = OperationKind::Refund;

    /// `id|key|paymentId|amount` signs it.
    fn request(&self, context: &Context) -> Result<Request, Error> {
        back_office::with_amount(
            Self::KIND,
            &PaymentType::Refund,
            context,
            (&self.payment_id, self.amount, &self.currency),
        )
    }

    /// Checks the echoed `currency`; the answer's `paymentId` may be the refund's own.
    fn parse(&self, status: u16, body: &[u8]) -> Result<Transaction, Error> {
        back_office::parse(Self::KIND, status, body, Some(self.currency))
    }
}
