//! The transaction a payment, a token payment or an inquiry answers with, and its status.
//!
//! The verdict rests on the deciding fields and the result codes of docs/WIRE.md
//! ("Answers").

use paytoken_types::{
    Amount, CodeFamily, Currency, ExpiryMonth, ExpiryYear, GatewayResult, MerchantTransactionId,
    PaymentBrand, PaymentId, PaymentMode, PaymentType, RegistrationId, Timestamp, Tolerant,
    TransactionState, TransactionStatus,
};

use crate::answer::{Field, List, Loose, Object, Text, wire_object};
use crate::echo::{Echoed, Sent};
use crate::wire::{self, WireResult};
use crate::{Error, OperationKind};

/// A transaction the gateway created: it has a real `paymentId`, whatever its status.
///
/// A declined payment is a `Transaction` too (the gateway recorded it); a request refused
/// before anything was created is an [`Error::Refused`] instead.
///
/// The first fields are what the answer decides on, and what the client reads of every
/// answer; the rest (its descriptor, card, brand, timestamp, ...) are kept as the gateway
/// sent them, read once with the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Transaction {
    /// `paymentId`.
    pub payment_id: PaymentId,
    /// What became of it: decided by `transactionStatus`, else by the result code.
    pub status: PaymentStatus,
    /// `result`: the code and description (several, joined, on some declines).
    pub result: GatewayResult,
    /// `transactionStatus`, the short status, read ignoring case.
    pub transaction_status: Option<TransactionStatus>,
    /// `merchantTransactionId`: the one the request sent (checked against the answer's
    /// echo), or the answer's own when the request sent none (an inquiry by payment id).
    pub merchant_transaction_id: Option<MerchantTransactionId>,
    /// `registrationId`: the stored card's token, when the payment stored one.
    pub registration_id: Option<Field<RegistrationId>>,
    /// `status`, the long status an inquiry's answer carries (`authsuccessful`,
    /// `capturesuccess`, `reversed`, `chargeback`, ...): refunds, cancels and chargebacks
    /// show here. Not used for [`status`](Self::status).
    pub state: Option<Field<TransactionState>>,
    /// `amount` (checked against the amount sent, when one was).
    pub amount: Option<Field<Amount>>,
    /// `currency` (checked against the currency sent, when one was).
    pub currency: Option<Field<Currency>>,
    /// `paymentType`.
    pub payment_type: Option<Field<PaymentType>>,
    /// `paymentBrand`.
    pub payment_brand: Option<Field<PaymentBrand>>,
    /// `paymentMode`.
    pub payment_mode: Option<Field<PaymentMode>>,
    /// `descriptor`: the text on the cardholder's statement.
    pub descriptor: Option<String>,
    /// `remark`.
    pub remark: Option<String>,
    /// `card`: what the gateway tells of the card (never the whole number).
    pub card: Option<CardSummary>,
    /// `tmpl_amount`.
    pub tmpl_amount: Option<Field<Amount>>,
    /// `tmpl_currency`.
    pub tmpl_currency: Option<Field<Currency>>,
    /// `timestamp`, in the gateway's local time.
    pub timestamp: Option<Field<Timestamp>>,
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
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Redirect {
    /// `url`.
    pub url: String,
    /// `method`: `GET` or `POST`.
    pub method: String,
    /// `target`, such as `_self`.
    pub target: Option<String>,
    /// `parameters`: the fields to send along, in order.
    pub parameters: Vec<RedirectParameter>,
}

/// One field of a 3-D Secure redirect.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct RedirectParameter {
    /// `name`.
    pub name: String,
    /// `value`.
    pub value: String,
}

wire_object! {
    struct WireRedirect {
        url: Text = "url",
        method: Text = "method",
        target: Text = "target",
        parameters: List<WireParameter> = "parameters",
    }
}

wire_object! {
    struct WireParameter {
        name: Text = "name",
        value: Text = "value",
    }
}

impl WireRedirect {
    fn into_redirect(self) -> Redirect {
        Redirect {
            url: self.url.0.unwrap_or_default(),
            method: self.method.0.unwrap_or_default(),
            target: self.target.0,
            parameters: self
                .parameters
                .0
                .into_iter()
                .map(|parameter| RedirectParameter {
                    name: parameter.name.0.unwrap_or_default(),
                    value: parameter.value.0.unwrap_or_default(),
                })
                .collect(),
        }
    }
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
    pub expiry_month: Option<Field<ExpiryMonth>>,
    /// `expiryYear`.
    pub expiry_year: Option<Field<ExpiryYear>>,
}

wire_object! {
    /// The card object of a response as it comes.
    pub(crate) struct WireCard {
        bin: Text = "bin",
        last4_digits: Text = "last4Digits",
        last_four_digits: Text = "lastFourDigits",
        holder: Text = "holder",
        expiry_month: Loose<ExpiryMonth> = "expiryMonth",
        expiry_year: Loose<ExpiryYear> = "expiryYear",
    }
}

impl WireCard {
    pub(crate) fn into_summary(self) -> CardSummary {
        CardSummary {
            bin: self.bin.0,
            last_four: self.last4_digits.0.or(self.last_four_digits.0),
            holder: self.holder.0,
            expiry_month: self.expiry_month.0,
            expiry_year: self.expiry_year.0,
        }
    }
}

wire_object! {
    /// A payment response as it comes (payments, token payments, inquiry).
    struct WireTransaction {
        payment_id: Text = "paymentId",
        registration_id: Loose<RegistrationId> = "registrationId",
        merchant_transaction_id: Text = "merchantTransactionId",
        amount: Loose<Amount> = "amount",
        currency: Loose<Currency> = "currency",
        payment_type: Loose<PaymentType> = "paymentType",
        payment_brand: Loose<PaymentBrand> = "paymentBrand",
        payment_mode: Loose<PaymentMode> = "paymentMode",
        transaction_status: Text = "transactionStatus",
        state: Loose<TransactionState> = "status",
        descriptor: Text = "descriptor",
        remark: Text = "remark",
        card: Object<WireCard> = "card",
        tmpl_amount: Loose<Amount> = "tmpl_amount",
        tmpl_currency: Loose<Currency> = "tmpl_currency",
        timestamp: Loose<Timestamp> = "timestamp",
        result: Object<WireResult> = "result" | "statusInvoiceResult",
        redirect: Object<WireRedirect> = "redirect",
    }
}

/// Parses a payment-shaped answer: a [`Transaction`] when the gateway created one, an
/// [`Error::Refused`] when it refused before, an [`Error::Contradiction`] when the answer
/// is about another transaction than `sent`.
///
/// The verdict rests on `paymentId`, the result code and `transactionStatus` alone; every
/// other field is kept as it came.
pub(crate) fn parse_transaction(
    operation: OperationKind,
    status: u16,
    body: &[u8],
    sent: &Sent<'_>,
) -> Result<Transaction, Error> {
    let wire: WireTransaction = wire::decode(operation, status, body)?;
    let result = wire::result_of(wire.result);
    let payment_id = wire::deciding_id::<PaymentId>(
        operation,
        PaymentId::FIELD,
        wire.payment_id.0.as_deref(),
        body,
    )?;
    let Some(payment_id) = payment_id else {
        // No transaction exists. A success code without a paymentId would be a gateway
        // bug: it cannot be called a refusal, and must not be called a success.
        let result =
            result.ok_or_else(|| wire::missing(operation, "paymentId or result object", body))?;
        if result.code.is_success() {
            return Err(wire::missing(operation, "paymentId", body));
        }
        return Err(wire::refused(operation, result));
    };
    let echoed_id = match sent.id {
        Some((field, _)) if field == PaymentId::FIELD => Some(payment_id.as_str()),
        Some((field, _)) if field == RegistrationId::FIELD => {
            wire.registration_id.0.as_ref().map(Field::raw)
        }
        _ => None,
    };
    sent.check(
        operation,
        &Echoed {
            merchant_transaction_id: wire.merchant_transaction_id.0.as_deref(),
            amount: wire.amount.0.as_ref(),
            currency: wire.currency.0.as_ref(),
            id: echoed_id,
        },
    )?;
    let result = result.unwrap_or_default();
    let transaction_status = wire
        .transaction_status
        .0
        .as_deref()
        .and_then(TransactionStatus::read_tolerant);
    // An inquiry's code (`00026`, record found) says the record exists, not how the
    // payment went: there only `transactionStatus` tells.
    let code_tells = operation != OperationKind::Inquiry;
    let status = status_of(
        transaction_status.as_ref(),
        &result,
        wire.redirect.0.map(WireRedirect::into_redirect),
        code_tells,
    );
    let merchant_transaction_id = sent.merchant_transaction_id.cloned().or_else(|| {
        wire.merchant_transaction_id
            .0
            .as_deref()
            .and_then(MerchantTransactionId::read_tolerant)
    });
    Ok(Transaction {
        payment_id,
        status,
        result,
        transaction_status,
        merchant_transaction_id,
        registration_id: wire.registration_id.0,
        state: wire.state.0,
        amount: wire.amount.0,
        currency: wire.currency.0,
        payment_type: wire.payment_type.0,
        payment_brand: wire.payment_brand.0,
        payment_mode: wire.payment_mode.0,
        descriptor: wire.descriptor.0,
        remark: wire.remark.0,
        card: wire.card.0.map(WireCard::into_summary),
        tmpl_amount: wire.tmpl_amount.0,
        tmpl_currency: wire.tmpl_currency.0,
        timestamp: wire.timestamp.0,
    })
}

/// The status: `transactionStatus` decides when it is known, the result family otherwise.
pub(crate) fn status_of(
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
        parse_transaction(
            OperationKind::Payment,
            200,
            body.as_bytes(),
            &Sent::default(),
        )
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
        let unreadable = parse(r#"{"paymentId":"5 4","result":{"code":"00001"}}"#).unwrap_err();
        assert!(unreadable.may_have_been_processed(), "{unreadable:?}");
    }
}
