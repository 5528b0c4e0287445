//! Cancel, or void (`POST /transactionServices/REST/v1/payments/{paymentId}` with
//! `paymentType=RV`): releases what a pre-authorisation (`PA`) reserved, before it is
//! captured. Success is `00006`.
//!
//! A cancel changes what the payment can still do: a client never sends it twice, and
//! settles a lost answer by inquiring the pre-authorisation.

use paytoken_types::{PaymentId, PaymentType};

use super::{Operation, back_office};
use crate::outcome::Transaction;
use crate::{Context, Error, OperationKind, Request};

/// Cancels the pre-authorisation `payment_id`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Cancel {
    /// The pre-authorisation's `paymentId`, in the path and the checksum.
    pub payment_id: PaymentId,
}

impl Cancel {
    /// A cancel of the pre-authorisation `payment_id`.
    #[must_use]
    pub const fn new(payment_id: PaymentId) -> Self {
        Self { payment_id }
    }
}

impl Operation for Cancel {
    type Response = Transaction;
    const KIND: OperationKind = OperationKind::Cancel;

    /// `id|key|paymentId` signs it.
    fn request(&self, context: &Context) -> Result<Request, Error> {
        back_office::without_amount(
            Self::KIND,
            &PaymentType::Reversal,
            context,
            &self.payment_id,
        )
    }

    /// Nothing is echoed to compare: the verdict is the result code's and the status's.
    fn parse(&self, status: u16, body: &[u8]) -> Result<Transaction, Error> {
        back_office::parse(Self::KIND, status, body, None)
    }
}
