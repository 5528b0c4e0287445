//! Answers recorded off the wire (a cassette of `paytoken record`, a proxy's log) read by
//! their operation's parser exactly as the client reads them live: the same verdict from
//! the same deciding fields, the same checks of what the answer echoes of the request.
//! What the request sent is given as the wire had it ([`SentFields::from_wire`]).
//!
//! ```
//! use paytoken_protocol::OperationKind;
//! use paytoken_protocol::recorded::{Reading, SentFields, read};
//!
//! let sent = SentFields::from_wire(
//!     None,
//!     [("merchantTransactionId", "order-7"), ("amount", "50.00"), ("currency", "EUR")],
//! );
//! let body = br#"{"paymentId":"60001","result":{"code":"00001","description":"ok"},
//!     "transactionStatus":"Y","merchantTransactionId":"order-7","amount":"50","currency":"eur"}"#;
//! let Ok(Reading::Transaction(transaction)) = read(OperationKind::Payment, &sent, 200, body)
//! else {
//!     panic!("a payment's answer");
//! };
//! assert!(transaction.is_approved());
//! ```

use alloc::boxed::Box;
use alloc::string::{String, ToString};

use paytoken_types::{
    Amount, Currency, CustomerId, MerchantTransactionId, PaymentId, RegistrationId,
};

mod asked;
mod by_rule;

pub use asked::{AnyOperation, asked};
pub use by_rule::checksum_by_rule;

use crate::echo::Sent;
use crate::ops::auth_token::{AuthTokenGrant, parse_grant};
use crate::ops::cards_and_accounts::{StoredRegistrations, parse_list};
use crate::ops::customer_signup::{SignedUp, parse_signed_up};
use crate::ops::delete_token::{Deleted, parse_deleted};
use crate::ops::installments::{InstallmentPlans, parse_plans};
use crate::ops::invoice_list::{InvoicePage, parse_page};
use crate::ops::registration::{Registered, parse_registered};
use crate::outcome::parse_transaction;
use crate::{Error, OperationKind, Transaction};

/// What a recorded request sent that its answer is checked against: as the wire had it,
/// each value that does not read as its type left out (its check then cannot fail).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SentFields {
    /// `merchantTransactionId`, or the id of an inquiry by it (`idType=MID`).
    pub merchant_transaction_id: Option<MerchantTransactionId>,
    /// `amount`.
    pub amount: Option<Amount>,
    /// `currency`.
    pub currency: Option<Currency>,
    /// The id the path ends with (a payment id, a registration id), decoded.
    pub path_id: Option<String>,
    /// `customer.customerId`, for a customer's cards and accounts.
    pub customer_id: Option<CustomerId>,
}

impl SentFields {
    /// From a recorded request: the id its path ends with (percent-decoded) and its form's
    /// fields as they were sent.
    pub fn from_wire<'a>(
        path_id: Option<&str>,
        fields: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Self {
        let mut sent = Self {
            path_id: path_id.map(ToString::to_string),
            ..Self::default()
        };
        let mut by_merchant_transaction_id = false;
        for (name, value) in fields {
            match name {
                "merchantTransactionId" => {
                    sent.merchant_transaction_id = MerchantTransactionId::new(value).ok();
                }
                "amount" => sent.amount = value.parse().ok(),
                "currency" => sent.currency = value.parse().ok(),
                "customer.customerId" => sent.customer_id = value.parse().ok(),
                "idType" => by_merchant_transaction_id = value == "MID",
                _ => {}
            }
        }
        if by_merchant_transaction_id {
            sent.merchant_transaction_id = sent
                .path_id
                .as_deref()
                .and_then(|id| MerchantTransactionId::new(id).ok());
        }
        sent
    }
}

/// A recorded answer, read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reading {
    /// A payment, a token payment, a repeated payment, a capture, refund or cancel, or an
    /// inquiry.
    Transaction(Box<Transaction>),
    /// An auth token fetched or regenerated.
    AuthToken(AuthTokenGrant),
    /// A card or account stored.
    Registered(Registered),
    /// A customer signed up.
    SignedUp(SignedUp),
    /// A token deleted.
    Deleted(Deleted),
    /// A token's installment counts.
    Installments(InstallmentPlans),
    /// The stored cards and accounts.
    CardsAndAccounts(StoredRegistrations),
    /// A page of invoices.
    Invoices(InvoicePage),
}

/// Reads the answer `status` and `body` to a `kind` request that sent `sent`, as the
/// operation's own parser reads it live.
///
/// # Errors
/// The errors of [`Operation::parse`](crate::Operation::parse): a refusal, an unexpected
/// status, a body that cannot be read, an answer about another transaction; and
/// [`Error::Invalid`] when the operation needs the id of the request's path and `sent`
/// has none that reads as one.
pub fn read(
    kind: OperationKind,
    sent: &SentFields,
    status: u16,
    body: &[u8],
) -> Result<Reading, Error> {
    let echoed = Sent {
        merchant_transaction_id: sent.merchant_transaction_id.as_ref(),
        amount: sent.amount,
        currency: sent.currency,
        id: None,
    };
    let transaction = |echoed: &Sent<'_>| {
        parse_transaction(kind, status, body, echoed)
            .map(|read| Reading::Transaction(Box::new(read)))
    };
    match kind {
        OperationKind::Payment | OperationKind::RepeatPayment => transaction(&echoed),
        OperationKind::TokenPayment => transaction(&Sent {
            id: Some((RegistrationId::FIELD, path_id(sent)?)),
            ..echoed
        }),
        OperationKind::Inquiry => match &sent.merchant_transaction_id {
            Some(_) => transaction(&Sent {
                amount: None,
                currency: None,
                ..echoed
            }),
            None => transaction(&Sent {
                id: Some((PaymentId::FIELD, path_id(sent)?)),
                ..Sent::default()
            }),
        },
        OperationKind::Capture | OperationKind::Refund => {
            crate::ops::back_office::parse(kind, status, body, sent.currency)
                .map(|read| Reading::Transaction(Box::new(read)))
        }
        OperationKind::Cancel => crate::ops::back_office::parse(kind, status, body, None)
            .map(|read| Reading::Transaction(Box::new(read))),
        OperationKind::AuthToken | OperationKind::RegenerateAuthToken => {
            parse_grant(kind, status, body).map(Reading::AuthToken)
        }
        OperationKind::Registration => parse_registered(status, body).map(Reading::Registered),
        OperationKind::CustomerSignup => parse_signed_up(status, body).map(Reading::SignedUp),
        OperationKind::DeleteToken => {
            parse_deleted(&registration(sent)?, status, body).map(Reading::Deleted)
        }
        OperationKind::Installments => {
            parse_plans(&registration(sent)?, status, body).map(Reading::Installments)
        }
        OperationKind::CardsAndAccounts => {
            parse_list(sent.customer_id.as_ref(), status, body).map(Reading::CardsAndAccounts)
        }
        OperationKind::InvoiceList => parse_page(status, body).map(Reading::Invoices),
    }
}

/// The path's id, which the operation's answer is checked against.
fn path_id(sent: &SentFields) -> Result<&str, Error> {
    sent.path_id.as_deref().ok_or(Error::Invalid {
        field: "path",
        reason: "the request's path names no id",
    })
}

fn registration(sent: &SentFields) -> Result<RegistrationId, Error> {
    path_id(sent)?.parse().map_err(|_| Error::Invalid {
        field: "path",
        reason: "the request's path names no registration id",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const APPROVED: &[u8] = br#"{"paymentId":"60001","merchantTransactionId":"order 7/A",
        "result":{"code":"00001","description":"ok"},"transactionStatus":"Y",
        "amount":"50.00","currency":"EUR"}"#;

    #[test]
    fn an_inquiry_by_merchant_transaction_id_is_checked_against_its_path() {
        let sent = SentFields::from_wire(Some("order 7/A"), [("idType", "MID")]);
        assert_eq!(
            sent.merchant_transaction_id.as_ref().unwrap().as_str(),
            "order 7/A"
        );
        assert!(matches!(
            read(OperationKind::Inquiry, &sent, 200, APPROVED),
            Ok(Reading::Transaction(transaction)) if transaction.is_approved()
        ));
        let other = SentFields::from_wire(Some("order 8"), [("idType", "MID")]);
        assert!(matches!(
            read(OperationKind::Inquiry, &other, 200, APPROVED),
            Err(Error::Contradiction { .. })
        ));
    }

    #[test]
    fn an_echo_that_differs_from_what_was_sent_is_a_contradiction() {
        let sent = SentFields::from_wire(
            None,
            [
                ("merchantTransactionId", "order 7/A"),
                ("amount", "51.00"),
                ("currency", "EUR"),
            ],
        );
        assert!(matches!(
            read(OperationKind::Payment, &sent, 200, APPROVED),
            Err(Error::Contradiction { .. })
        ));
        let token = SentFields::from_wire(None, []);
        assert!(matches!(
            read(OperationKind::TokenPayment, &token, 200, APPROVED),
            Err(Error::Invalid { field: "path", .. })
        ));
    }
}
