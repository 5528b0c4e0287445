//! The transaction a payment, a token payment or an inquiry answers with, and its status.

use paytoken_types::{
    Amount, CodeFamily, Currency, ExpiryMonth, ExpiryYear, GatewayResult, MerchantTransactionId,
    PaymentBrand, PaymentId, PaymentMode, PaymentType, RegistrationId, Timestamp,
    TransactionStatus,
};
use serde::Deserialize;

use crate::wire::{self, MaybeId, OneOrMany};
use crate::{Error, OperationKind};

/// A transaction the gateway created: it has a real `paymentId`, whatever its status.
///
/// A declined payment is a `Transaction` too (the gateway recorded it); a request refused
/// before anything was created is an [`Error::Refused`] instead.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Transaction {
    /// `paymentId`.
    pub payment_id: PaymentId,
    /// What became of it.
    pub status: PaymentStatus,
    /// `result`: the code and description (several, joined, on some declines).
    pub result: GatewayResult,
    /// `registrationId`: the stored card's token, when the payment stored one.
    pub registration_id: Option<RegistrationId>,
    /// `merchantTransactionId`, as the merchant sent it.
    pub merchant_transaction_id: Option<MerchantTransactionId>,
    /// `amount`.
    pub amount: Option<Amount>,
    /// `currency`.
    pub currency: Option<Currency>,
    /// `paymentType`.
    pub payment_type: Option<PaymentType>,
    /// `paymentBrand`.
    pub payment_brand: Option<PaymentBrand>,
    /// `paymentMode`.
    pub payment_mode: Option<PaymentMode>,
    /// `transactionStatus`, as the gateway sent it.
    pub transaction_status: Option<TransactionStatus>,
    /// `descriptor`: the text on the cardholder's statement.
    pub descriptor: Option<String>,
    /// `remark`.
    pub remark: Option<String>,
    /// `card`: what the gateway tells of the card (never the whole number).
    pub card: Option<CardSummary>,
    /// `tmpl_amount`.
    pub tmpl_amount: Option<Amount>,
    /// `tmpl_currency`.
    pub tmpl_currency: Option<Currency>,
    /// `timestamp`, in the gateway's local time.
    pub timestamp: Option<Timestamp>,
}

impl Transaction {
    /// Whether the money moved (or is reserved, for a pre-authorisation).
    #[must_use]
    pub fn is_approved(&self) -> bool {
        matches!(self.status, PaymentStatus::Approved)
    }
}

/// What became of a transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PaymentStatus {
    /// Approved (`transactionStatus` `Y`, or a success code).
    Approved,
    /// Pending (`P`, or `10004`): the outcome comes later; inquire to learn it.
    Pending,
    /// Waiting for the cardholder's 3-D Secure authentication (`3D`, or `90026`): send the
    /// cardholder's browser to the redirect.
    ThreeDSecure {
        /// Where to send the browser, when the gateway gave it.
        redirect: Option<Redirect>,
    },
    /// Declined or failed (`N`, `10001`, a rejection): the result holds the codes.
    Declined,
    /// Cancelled (`C`).
    Cancelled,
    /// A status this version cannot classify (an unknown `transactionStatus` or result
    /// family). The transaction exists: inquire, and never assume it failed.
    Unknown,
}

/// Where a 3-D Secure payment sends the cardholder's browser.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[non_exhaustive]
pub struct Redirect {
    /// `url`.
    #[serde(default)]
    pub url: String,
    /// `method`: `GET` or `POST`.
    #[serde(default)]
    pub method: String,
    /// `target`, such as `_self`.
    #[serde(default)]
    pub target: Option<String>,
    /// `parameters`: the fields to send along, in order.
    #[serde(default, deserialize_with = "parameters")]
    pub parameters: Vec<RedirectParameter>,
}

/// One field of a 3-D Secure redirect.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[non_exhaustive]
pub struct RedirectParameter {
    /// `name`.
    #[serde(default)]
    pub name: String,
    /// `value`.
    #[serde(default)]
    pub value: String,
}

fn parameters<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<RedirectParameter>, D::Error> {
    OneOrMany::deserialize(deserializer).map(|list| list.0)
}

/// What a response tells of a card: never the whole number.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct CardSummary {
    /// `bin`: the first six digits.
    pub bin: Option<String>,
    /// `last4Digits` (or `lastFourDigits`).
    pub last_four: Option<String>,
    /// `holder`.
    pub holder: Option<String>,
    /// `expiryMonth`.
    pub expiry_month: Option<ExpiryMonth>,
    /// `expiryYear`.
    pub expiry_year: Option<ExpiryYear>,
}

/// The card object of a response as it comes.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WireCard {
    bin: Option<String>,
    #[serde(rename = "last4Digits")]
    last4_digits: Option<String>,
    last_four_digits: Option<String>,
    holder: Option<String>,
    expiry_month: Option<ExpiryMonth>,
    expiry_year: Option<ExpiryYear>,
}

impl From<WireCard> for CardSummary {
    fn from(card: WireCard) -> Self {
        Self {
            bin: card.bin,
            last_four: card.last4_digits.or(card.last_four_digits),
            holder: card.holder,
            expiry_month: card.expiry_month,
            expiry_year: card.expiry_year,
        }
    }
}

/// A payment response as it comes (payments, token payments, inquiry).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireTransaction {
    payment_id: Option<MaybeId<PaymentId>>,
    registration_id: Option<MaybeId<RegistrationId>>,
    merchant_transaction_id: Option<MerchantTransactionId>,
    amount: Option<Amount>,
    currency: Option<Currency>,
    payment_type: Option<PaymentType>,
    payment_brand: Option<PaymentBrand>,
    payment_mode: Option<PaymentMode>,
    transaction_status: Option<TransactionStatus>,
    descriptor: Option<String>,
    remark: Option<String>,
    card: Option<WireCard>,
    #[serde(rename = "tmpl_amount")]
    tmpl_amount: Option<Amount>,
    #[serde(rename = "tmpl_currency")]
    tmpl_currency: Option<Currency>,
    timestamp: Option<Timestamp>,
    result: Option<GatewayResult>,
    redirect: Option<Redirect>,
}

/// Parses a payment-shaped answer: a [`Transaction`] when the gateway created one, an
/// [`Error::Refused`] when it refused before.
pub(crate) fn parse_transaction(
    operation: OperationKind,
    status: u16,
    body: &[u8],
) -> Result<Transaction, Error> {
    let wire: WireTransaction = wire::decode(operation, status, body)?;
    let Some(payment_id) = MaybeId::into_inner(wire.payment_id) else {
        // No transaction exists. A success code without a paymentId would be a gateway
        // bug: it cannot be called a refusal, and must not be called a success.
        let result = wire
            .result
            .ok_or_else(|| wire::missing(operation, "paymentId or result object", body))?;
        if result.code.is_success() {
            return Err(wire::missing(operation, "paymentId", body));
        }
        return Err(wire::refused(operation, result));
    };
    let result = wire.result.unwrap_or_default();
    // An inquiry's code (`00026`, record found) says the record exists, not how the
    // payment went: there only `transactionStatus` tells.
    let code_tells = operation != OperationKind::Inquiry;
    let status = status_of(
        wire.transaction_status.as_ref(),
        &result,
        wire.redirect,
        code_tells,
    );
    Ok(Transaction {
        payment_id,
        status,
        result,
        registration_id: MaybeId::into_inner(wire.registration_id),
        merchant_transaction_id: wire.merchant_transaction_id,
        amount: wire.amount,
        currency: wire.currency,
        payment_type: wire.payment_type,
        payment_brand: wire.payment_brand,
        payment_mode: wire.payment_mode,
        transaction_status: wire.transaction_status,
        descriptor: wire.descriptor,
        remark: wire.remark,
        card: wire.card.map(CardSummary::from),
        tmpl_amount: wire.tmpl_amount,
        tmpl_currency: wire.tmpl_currency,
        timestamp: wire.timestamp,
    })
}

/// The status: `transactionStatus` decides when it is known, the result family otherwise.
fn status_of(
    transaction_status: Option<&TransactionStatus>,
    result: &GatewayResult,
    redirect: Option<Redirect>,
    code_tells: bool,
) -> PaymentStatus {
    match transaction_status {
        Some(TransactionStatus::Approved) => PaymentStatus::Approved,
        Some(TransactionStatus::Declined) => PaymentStatus::Declined,
        Some(TransactionStatus::Pending) => PaymentStatus::Pending,
        Some(TransactionStatus::ThreeDSecure) => PaymentStatus::ThreeDSecure { redirect },
        Some(TransactionStatus::Cancelled) => PaymentStatus::Cancelled,
        _ if !code_tells => PaymentStatus::Unknown,
        _ => match result.code.family() {
            CodeFamily::Success => PaymentStatus::Approved,
            CodeFamily::Pending => PaymentStatus::Pending,
            CodeFamily::ThreeDSecurePending => PaymentStatus::ThreeDSecure { redirect },
            CodeFamily::Failed | CodeFamily::Rejection | CodeFamily::Validation => {
                PaymentStatus::Declined
            }
            _ => PaymentStatus::Unknown,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(body: &str) -> Result<Transaction, Error> {
        parse_transaction(OperationKind::Payment, 200, body.as_bytes())
    }

    #[test]
    fn the_status_follows_transaction_status_then_the_code() {
        let approved =
            parse(r#"{"paymentId":"1","result":{"code":"00001","description":"ok"}}"#).unwrap();
        assert_eq!(approved.status, PaymentStatus::Approved);
        let declined =
            parse(r#"{"paymentId":"1","transactionStatus":"N","result":{"code":"00001"}}"#)
                .unwrap();
        assert_eq!(declined.status, PaymentStatus::Declined);
        let unknown =
            parse(r#"{"paymentId":"1","transactionStatus":"Q","result":{"code":"77777"}}"#)
                .unwrap();
        assert_eq!(unknown.status, PaymentStatus::Unknown);
        let system = parse(r#"{"paymentId":"1","result":{"code":"20001"}}"#).unwrap();
        assert_eq!(system.status, PaymentStatus::Unknown);
    }

    #[test]
    fn no_payment_id_is_a_refusal_or_a_broken_answer() {
        let refused =
            parse(r#"{"paymentId":"-","result":{"code":"30001 | 30002","description":"a | b"}}"#)
                .unwrap_err();
        assert_eq!(refused.refusal().unwrap().entries().count(), 2);
        assert!(!refused.may_have_been_processed());
        let broken = parse(r#"{"paymentId":"-","result":{"code":"00001"}}"#).unwrap_err();
        assert!(broken.may_have_been_processed(), "{broken:?}");
        let empty = parse("{}").unwrap_err();
        assert!(matches!(empty, Error::Undecodable { .. }));
    }
}
