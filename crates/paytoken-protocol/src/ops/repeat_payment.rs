//! A `REPEATED` recurring payment by the first payment's id
//! (`POST /transactionServices/REST/v1/payments/{paymentId}` with `recurringType=REPEATED`),
//! where [`TokenPayment`](super::token_payment::TokenPayment) names the stored token
//! instead. It makes a new payment: success is `00001`, with the new `paymentId`.
//!
//! It moves money: a client never sends it twice, and settles a lost answer by inquiring
//! its `merchantTransactionId`, so it should always carry one (the client makes one up when
//! none is given).

use paytoken_types::{
    Amount, Currency, MerchantTransactionId, PaymentId, PaymentType, RecurringType,
};

use super::{Operation, SMALL_BODY, check_charge, inquiry};
use crate::echo::Sent;
use crate::outcome::{Transaction, parse_transaction};
use crate::signed::{AuthFields, Signed, SignedRequest};
use crate::{Context, Error, OperationKind, Request, fields};

/// Charges `amount` again on the card or account of the series' first payment.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RepeatPayment {
    /// The series' first payment's `paymentId`, in the path and the checksum.
    pub first_payment_id: PaymentId,
    /// `amount`, also hashed into the checksum.
    pub amount: Amount,
    /// `currency`.
    pub currency: Currency,
    /// `paymentType`: [`PaymentType::Debit`] (the default) or
    /// [`PaymentType::PreAuthorization`].
    pub payment_type: PaymentType,
    /// `merchantTransactionId`: what finds the new payment by inquiry when its answer is
    /// lost.
    pub merchant_transaction_id: Option<MerchantTransactionId>,
}

impl RepeatPayment {
    /// A debit of `amount` repeating the series of `first_payment_id`.
    #[must_use]
    pub const fn new(first_payment_id: PaymentId, amount: Amount, currency: Currency) -> Self {
        Self {
            first_payment_id,
            amount,
            currency,
            payment_type: PaymentType::Debit,
            merchant_transaction_id: None,
        }
    }

    paytoken_types::setters! {
        /// A pre-authorisation (`PA`) instead of a debit.
        pub fn preauthorization() => payment_type = PaymentType::PreAuthorization;

        /// Sets `merchantTransactionId`.
        pub fn merchant_transaction_id(id: MerchantTransactionId) => merchant_transaction_id = Some(id);
    }

    fn validate(&self) -> Result<(), Error> {
        check_charge(
            self.amount,
            &self.payment_type,
            "a repeated payment is DB or PA",
        )?;
        Ok(())
    }
}

/// `id|key|paymentId|amount`, the first payment's id being the one the path ends with.
const SIGNED: &[Signed] = &[
    Signed::PathSegment {
        field: PaymentId::FIELD,
    },
    Signed::field(fields::AMOUNT),
];

impl Operation for RepeatPayment {
    type Response = Transaction;
    const KIND: OperationKind = OperationKind::RepeatPayment;

    fn request(&self, context: &Context) -> Result<Request, Error> {
        self.validate()?;
        SignedRequest::new(
            Self::KIND,
            context,
            SIGNED,
            inquiry::PATH_PREFIX,
            SMALL_BODY,
            AuthFields::TERMINAL,
        )
        .path_segment(self.first_payment_id.as_str())
        .form(|form| {
            form.optional(
                fields::MERCHANT_TRANSACTION_ID,
                self.merchant_transaction_id
                    .as_ref()
                    .map(MerchantTransactionId::as_str),
            );
            form.field(fields::AMOUNT, &self.amount.to_wire());
            form.field(fields::CURRENCY, &self.currency);
            form.field(fields::PAYMENT_TYPE, &self.payment_type);
            form.field(fields::RECURRING_TYPE, &RecurringType::Repeated);
        })
        .finish()
    }

    /// Checks the echoed `merchantTransactionId` (when one was sent), `amount` and
    /// `currency`; the answer's `paymentId` is the new payment's.
    fn parse(&self, status: u16, body: &[u8]) -> Result<Transaction, Error> {
        let sent = Sent {
            merchant_transaction_id: self.merchant_transaction_id.as_ref(),
            amount: Some(self.amount),
            currency: Some(self.currency),
            id: None,
        };
        parse_transaction(Self::KIND, status, body, &sent)
    }
}
