//! Inquiry (`POST /transactionServices/REST/v1/payments/{id}` with `paymentType=IN`): the
//! stored state of one transaction, found by the gateway's payment id (`idType=PID`) or by
//! the merchant's transaction id (`idType=MID`).
//!
//! This is how the outcome of a payment whose answer was lost (a timeout, a dropped
//! connection) is learnt: never send the payment again, inquire by its
//! `merchantTransactionId`.

use paytoken_checksum::rules;
use paytoken_types::{MerchantTransactionId, PaymentId, PaymentType};

use super::{AuthFields, Operation, SMALL_BODY, push_path_segment, write_authentication};
use crate::echo::Sent;
use crate::outcome::{Transaction, parse_transaction};
use crate::{Context, Error, OperationKind, Request, request};

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

impl Operation for Inquiry {
    type Response = Transaction;
    const KIND: OperationKind = OperationKind::Inquiry;

    fn request(&self, context: &Context) -> Result<Request, Error> {
        let credentials = &context.credentials;
        let (id, id_type, input) = match self {
            Self::ByPaymentId(id) => (
                id.as_str(),
                "PID",
                rules::inquiry_by_payment_id(credentials, id),
            ),
            Self::ByMerchantTransactionId(id) => (
                id.as_str(),
                "MID",
                rules::inquiry_by_merchant_transaction_id(credentials, id),
            ),
        };
        let checksum = input.compute().to_hex();
        // The checksum signs the id as it is; the path carries it percent-encoded, since a
        // merchant transaction id is free text (`Rest Transaction 01`, `a/b`).
        let mut path = String::with_capacity(PATH_PREFIX.len() + id.len() * 3);
        path.push_str(PATH_PREFIX);
        push_path_segment(&mut path, id);
        Ok(request::build(
            Self::KIND,
            path,
            context,
            SMALL_BODY,
            |form| {
                write_authentication(form, context, &checksum, AuthFields::TERMINAL);
                form.field("paymentType", PaymentType::Inquiry.as_str());
                form.field("idType", id_type);
            },
        ))
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
