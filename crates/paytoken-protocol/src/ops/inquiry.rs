//! Inquiry (`POST /transactionServices/REST/v1/payments/{id}` with `paymentType=IN`): the
//! stored state of one transaction, found by the gateway's payment id (`idType=PID`) or by
//! the merchant's transaction id (`idType=MID`).
//!
//! This is how the outcome of a payment whose answer was lost (a timeout, a dropped
//! connection) is learnt: never send the payment again, inquire by its
//! `merchantTransactionId`.

use paytoken_types::{MerchantTransactionId, PaymentId, PaymentType};

use super::{Operation, SMALL_BODY};
use crate::echo::Sent;
use crate::outcome::{Transaction, parse_transaction};
use crate::signed::{AuthFields, Signed, SignedRequest};
use crate::{Context, Error, OperationKind, Request, fields};

/// The path, without the id.
pub const PATH_PREFIX: &str = "/transactionServices/REST/v1/payments/";

/// Asks for one transaction's stored state. The answer's status comes from its
/// `transactionStatus` (the result code, `00026`, only says the record was found).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Inquiry {
    /// By the gateway's `paymentId` (`idType=PID`).
    ByPaymentId(PaymentId),
    /// By the merchant's `merchantTransactionId` (`idType=MID`).
    ByMerchantTransactionId(MerchantTransactionId),
}

/// The checksum rule of an inquiry by payment id: `id|key|paymentId`, the id the path
/// ends with.
const BY_PAYMENT_ID: &[Signed] = &[Signed::PathSegment {
    field: PaymentId::FIELD,
}];

/// The checksum rule of an inquiry by merchant transaction id: `id|key|merchantTransactionId`,
/// the id the path ends with.
const BY_MERCHANT_TRANSACTION_ID: &[Signed] = &[Signed::PathSegment {
    field: MerchantTransactionId::FIELD,
}];

impl Operation for Inquiry {
    type Response = Transaction;
    const KIND: OperationKind = OperationKind::Inquiry;

    fn request(&self, context: &Context) -> Result<Request, Error> {
        // The checksum signs the id as it is; the path carries it percent-encoded, since a
        // merchant transaction id is free text (`Rest Transaction 01`, `a/b`).
        let (id, id_type, rule) = match self {
            Self::ByPaymentId(id) => (id.as_str(), "PID", BY_PAYMENT_ID),
            Self::ByMerchantTransactionId(id) => (id.as_str(), "MID", BY_MERCHANT_TRANSACTION_ID),
        };
        SignedRequest::new(
            Self::KIND,
            context,
            rule,
            PATH_PREFIX,
            SMALL_BODY,
            AuthFields::TERMINAL,
        )
        .path_segment(id)
        .form(|form| {
            form.field(fields::PAYMENT_TYPE, &PaymentType::Inquiry);
            form.field(fields::ID_TYPE, id_type);
        })
        .finish()
    }

    /// Checks the echoed `paymentId` or `merchantTransactionId`, whichever found it.
    fn parse(&self, status: u16, body: &[u8]) -> Result<Transaction, Error> {
        let sent = match self {
            Self::ByPaymentId(id) => Sent {
                id: Some((PaymentId::FIELD, id.as_str())),
                ..Sent::default()
            },
            Self::ByMerchantTransactionId(id) => Sent {
                merchant_transaction_id: Some(id),
                ..Sent::default()
            },
        };
        parse_transaction(Self::KIND, status, body, &sent)
    }
}
