//! Capture (`POST /transactionServices/REST/v1/payments/{paymentId}` with
//! `paymentType=CP`): takes the money a pre-authorisation (`PA`) reserved, all of it or
//! less. Success is `00004`.
//!
//! A capture moves money: a client never sends it twice, and settles a lost answer by
//! inquiring the pre-authorisation.

use paytoken_types::{Amount, Currency, PaymentId, PaymentType};

use super::{Operation, back_office};
use crate::outcome::Transaction;
use crate::{Context, Error, OperationKind, Request};

/// Captures `amount` of the pre-authorisation `payment_id`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Capture {
    /// The pre-authorisation's `paymentId`, in the path and the checksum.
    pub payment_id: PaymentId,
    /// `amount`: at most the authorised one; also hashed into the checksum.
    pub amount: Amount,
    /// `currency`: the pre-authorisation's.
    pub currency: Currency,
}

impl Capture {
    /// A capture of `amount` in `currency` of the pre-authorisation `payment_id`.
    #[must_use]
    pub const fn new(payment_id: PaymentId, amount: Amount, currency: Currency) -> Self {
        Self {
            payment_id,
            amount,
            currency,
        }
    }
}

impl Operation for Capture {
    type Response = Transaction;
    const KIND: OperationKind = OperationKind::Capture;

    /// `id|key|paymentId|amount` signs it.
    fn request(&self, context: &Context) -> Result<Request, Error> {
        back_office::with_amount(
            Self::KIND,
            &PaymentType::Capture,
            context,
            (&self.payment_id, self.amount, &self.currency),
        )
    }

    /// Checks the echoed `currency`; the answer's `paymentId` may be the capture's own.
    fn parse(&self, status: u16, body: &[u8]) -> Result<Transaction, Error> {
        back_office::parse(Self::KIND, status, body, Some(self.currency))
    }
}
