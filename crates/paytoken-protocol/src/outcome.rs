//! The transaction a payment, a token payment or an inquiry answers with, and its status.
//!
//! The verdict rests on the deciding fields and the result codes of docs/WIRE.md
//! ("Answers").

use paytoken_types::{
    Amount, CodeFamily, Currency, ExpiryMonth, ExpiryYear, GatewayResult, MerchantTransactionId,
    PaymentBrand, PaymentId, PaymentMode, PaymentType, RegistrationId, Timestamp, Tolerant,
    TransactionState, TransactionStatus,
};

use crate::answer::{Field, wire_object};
use crate::echo::{Echoed, Sent};
use crate::wire;
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
    /// show here. An inquiry's [`status`](Self::status) is decided by it too; a payment's
    /// own answer keeps it as it came.
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
    /// Whether the money moved (or is reserved, for a pre-authorisation) and stays with
    /// the merchant: the one ship / don't-ship decision. For an inquiry it holds only
    /// when the long status agrees too (see [`PaymentStatus`]): a payment cancelled,
    /// refunded or charged back since its approval is not approved.
    #[must_use]
    pub fn is_approved(&self) -> bool {
        matches!(self.status, PaymentStatus::Approved)
    }
}

/// What became of a transaction.
///
/// A payment's own answer is decided by `transactionStatus`, else by the result code. An
/// inquiry's answer is decided by `transactionStatus` and the long status (`status`)
/// together, as the payment may have moved on since its approval:
///
/// | `transactionStatus` | long status | status |
/// |---|---|---|
/// | `Y`, or absent | `authsuccessful`, `capturesuccess`, `settled` | `Approved` |
/// | `Y`, or absent | `begun`, `authstarted`, `capturestarted` | `Pending` |
/// | `Y`, or absent | `authfailed`, `capturefailed`, `failed` | `Declined` |
/// | `Y`, or absent | `authcancelled`, `cancelstarted`, `cancelled` | `Cancelled` |
/// | `Y`, or absent | `markedforreversal`, `reversed` | `Refunded` |
/// | `Y`, or absent | `chargeback` | `ChargedBack` |
/// | `Y`, or absent | any other, or not text | `Unknown` |
/// | `Y` | absent | `Approved` |
/// | absent | absent | `Unknown` (the inquiry's code tells only that the record exists) |
/// | `N`, `P`, `3D`, `C` | any | as the short status says |
/// | another | any | `Unknown` |
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PaymentStatus {
    /// Approved (`transactionStatus` `Y`, or a success code), and for an inquiry still
    /// standing by its long status.
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
    /// Cancelled (`C`; for an inquiry, also a long status `cancelled`, `authcancelled` or
    /// `cancelstarted`).
    Cancelled,
    /// Approved once, then refunded in whole or in part (an inquiry's long status
    /// `reversed` or `markedforreversal`).
    Refunded,
    /// Approved once, then charged back (an inquiry's long status `chargeback`).
    ChargedBack,
    /// A status this version cannot classify (an unknown `transactionStatus` or result
    /// family). The transaction exists: inquire, and never assume it failed.
    Unknown,
}

impl PaymentStatus {
    /// Its name, in snake case: `approved`, `pending`, `three_d_secure`, `declined`,
    /// `cancelled`, `refunded`, `charged_back`, `unknown`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::Approved => "approved",
            Self::Pending => "pending",
            Self::ThreeDSecure { .. } => "three_d_secure",
            Self::Declined => "declined",
            Self::Cancelled => "cancelled",
            Self::Refunded => "refunded",
            Self::ChargedBack => "charged_back",
            Self::Unknown => "unknown",
        }
    }
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

wire_object!(impl Redirect {
    url = "url",
    method = "method",
    target = "target",
    parameters = "parameters",
});

wire_object!(impl RedirectParameter {
    name = "name",
    value = "value",
});

/// What a response tells of a card: never the whole number.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct CardSummary {
    /// `bin`: the first six digits.
    pub bin: Option<String>,
    /// `last4Digits` (or `lastFourDigits`, the later of the two when both come).
    pub last_four: Option<String>,
    /// `holder`.
    pub holder: Option<String>,
    /// `expiryMonth`.
    pub expiry_month: Option<Field<ExpiryMonth>>,
    /// `expiryYear`.
    pub expiry_year: Option<Field<ExpiryYear>>,
}

wire_object!(impl CardSummary {
    bin = "bin",
    last_four = "last4Digits" | "lastFourDigits",
    holder = "holder",
    expiry_month = "expiryMonth",
    expiry_year = "expiryYear",
});

wire_object! {
    /// A payment response as it comes (payments, token payments, inquiry).
    struct WireTransaction {
        payment_id: Option<String> = "paymentId",
        registration_id: Option<Field<RegistrationId>> = "registrationId",
        merchant_transaction_id: Option<String> = "merchantTransactionId",
        amount: Option<Field<Amount>> = "amount",
        currency: Option<Field<Currency>> = "currency",
        payment_type: Option<Field<PaymentType>> = "paymentType",
        payment_brand: Option<Field<PaymentBrand>> = "paymentBrand",
        payment_mode: Option<Field<PaymentMode>> = "paymentMode",
        transaction_status: Option<String> = "transactionStatus",
        state: Option<Field<TransactionState>> = "status",
        descriptor: Option<String> = "descriptor",
        remark: Option<String> = "remark",
        card: Option<CardSummary> = "card",
        tmpl_amount: Option<Field<Amount>> = "tmpl_amount",
        tmpl_currency: Option<Field<Currency>> = "tmpl_currency",
        timestamp: Option<Field<Timestamp>> = "timestamp",
        result: Option<GatewayResult> = "result" | "statusInvoiceResult",
        redirect: Option<Redirect> = "redirect",
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
    let result = wire.result;
    let payment_id = wire::deciding_id::<PaymentId>(
        operation,
        PaymentId::FIELD,
        wire.payment_id.as_deref(),
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
            wire.registration_id.as_ref().map(Field::raw)
        }
        _ => None,
    };
    sent.check(
        operation,
        &Echoed {
            merchant_transaction_id: wire.merchant_transaction_id.as_deref(),
            amount: wire.amount.as_ref(),
            currency: wire.currency.as_ref(),
            id: echoed_id,
        },
    )?;
    let result = result.unwrap_or_default();
    let transaction_status = wire
        .transaction_status
        .as_deref()
        .and_then(TransactionStatus::read_tolerant);
    // An inquiry's code (`00026`, record found) says the record exists, not how the
    // payment went: there the short and the long status tell.
    let deciding = if operation == OperationKind::Inquiry {
        Deciding::LongStatus(wire.state.as_ref())
    } else {
        Deciding::Code(&result)
    };
    let status = status_of(transaction_status.as_ref(), wire.redirect, deciding);
    let merchant_transaction_id = sent.merchant_transaction_id.cloned().or_else(|| {
        wire.merchant_transaction_id
            .as_deref()
            .and_then(MerchantTransactionId::read_tolerant)
    });
    Ok(Transaction {
        payment_id,
        status,
        result,
        transaction_status,
        merchant_transaction_id,
        registration_id: wire.registration_id,
        state: wire.state,
        amount: wire.amount,
        currency: wire.currency,
        payment_type: wire.payment_type,
        payment_brand: wire.payment_brand,
        payment_mode: wire.payment_mode,
        descriptor: wire.descriptor,
        remark: wire.remark,
        card: wire.card,
        tmpl_amount: wire.tmpl_amount,
        tmpl_currency: wire.tmpl_currency,
        timestamp: wire.timestamp,
    })
}

/// What an answer's status rests on besides `transactionStatus`.
pub(crate) enum Deciding<'a> {
    /// The result code's family (a payment's own answer).
    Code(&'a GatewayResult),
    /// The long status, when the answer carries one (an inquiry's answer).
    LongStatus(Option<&'a Field<TransactionState>>),
    /// Nothing else (a notification: its signed short status alone).
    ShortAlone,
}

/// The status, by the table of [`PaymentStatus`].
pub(crate) fn status_of(
    transaction_status: Option<&TransactionStatus>,
    redirect: Option<Redirect>,
    deciding: Deciding<'_>,
) -> PaymentStatus {
    match (transaction_status, deciding) {
        (Some(TransactionStatus::Approved) | None, Deciding::LongStatus(Some(long))) => {
            long.value().map_or(PaymentStatus::Unknown, standing)
        }
        (Some(TransactionStatus::Approved), _) => PaymentStatus::Approved,
        (Some(TransactionStatus::Declined), _) => PaymentStatus::Declined,
        (Some(TransactionStatus::Pending), _) => PaymentStatus::Pending,
        (Some(TransactionStatus::ThreeDSecure), _) => PaymentStatus::ThreeDSecure { redirect },
        (Some(TransactionStatus::Cancelled), _) => PaymentStatus::Cancelled,
        (_, Deciding::Code(result)) => match result.code.family() {
            CodeFamily::Success => PaymentStatus::Approved,
            CodeFamily::Pending => PaymentStatus::Pending,
            CodeFamily::ThreeDSecurePending => PaymentStatus::ThreeDSecure { redirect },
            CodeFamily::Failed | CodeFamily::Rejection | CodeFamily::Validation => {
                PaymentStatus::Declined
            }
            _ => PaymentStatus::Unknown,
        },
        _ => PaymentStatus::Unknown,
    }
}

/// Where a payment the short status approved stands by its long status: approved only
/// while the money is reserved or taken and stays so.
fn standing(long: &TransactionState) -> PaymentStatus {
    use TransactionState as S;
    match long {
        S::AuthSuccessful | S::CaptureSuccess | S::Settled => PaymentStatus::Approved,
        S::Begun | S::AuthStarted | S::CaptureStarted => PaymentStatus::Pending,
        S::AuthFailed | S::CaptureFailed | S::Failed => PaymentStatus::Declined,
        S::AuthCancelled | S::CancelStarted | S::Cancelled => PaymentStatus::Cancelled,
        S::MarkedForReversal | S::Reversed => PaymentStatus::Refunded,
        S::Chargeback => PaymentStatus::ChargedBack,
        _ => PaymentStatus::Unknown,
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

    fn inquired(fields: &str) -> Transaction {
        let body = format!(r#"{{"paymentId":"7","result":{{"code":"00026"}}{fields}}}"#);
        parse_transaction(
            OperationKind::Inquiry,
            200,
            body.as_bytes(),
            &Sent::default(),
        )
        .unwrap()
    }

    /// Every long status docs/WIRE.md lists, and one this version does not
    /// know: what an inquiry of a payment approved by its short status decides.
    const STANDING: &[(&str, PaymentStatus)] = &[
        ("begun", PaymentStatus::Pending),
        ("authstarted", PaymentStatus::Pending),
        ("authsuccessful", PaymentStatus::Approved),
        ("authfailed", PaymentStatus::Declined),
        ("authcancelled", PaymentStatus::Cancelled),
        ("cancelstarted", PaymentStatus::Cancelled),
        ("cancelled", PaymentStatus::Cancelled),
        ("capturestarted", PaymentStatus::Pending),
        ("capturesuccess", PaymentStatus::Approved),
        ("capturefailed", PaymentStatus::Declined),
        ("markedforreversal", PaymentStatus::Refunded),
        ("reversed", PaymentStatus::Refunded),
        ("chargeback", PaymentStatus::ChargedBack),
        ("failed", PaymentStatus::Declined),
        ("settled", PaymentStatus::Approved),
        ("payoutsuccess", PaymentStatus::Unknown),
    ];

    #[test]
    fn an_inquiry_is_approved_only_while_its_long_status_stands() {
        for (long, expected) in STANDING {
            for short in [r#","transactionStatus":"Y""#, ""] {
                let found = inquired(&format!(r#"{short},"status":"{long}""#));
                assert_eq!(&found.status, expected, "{long} {short}");
                assert_eq!(
                    found.is_approved(),
                    *expected == PaymentStatus::Approved,
                    "{long} {short}"
                );
            }
            // Case and blanks do not matter; the short status's own refusal stays.
            let upper = inquired(&format!(r#","status":" {} ""#, long.to_uppercase()));
            assert_eq!(&upper.status, expected, "{long} in upper case");
            let declined = inquired(&format!(r#","transactionStatus":"N","status":"{long}""#));
            assert_eq!(declined.status, PaymentStatus::Declined, "N with {long}");
        }
        // No long status: the short one decides, as for a payment's own answer.
        assert_eq!(
            inquired(r#","transactionStatus":"Y""#).status,
            PaymentStatus::Approved
        );
        assert_eq!(inquired("").status, PaymentStatus::Unknown);
        // A long status that is not text is no reason to ship.
        let odd = inquired(r#","transactionStatus":"Y","status":{"a":1}"#);
        assert_eq!(odd.status, PaymentStatus::Unknown);
        // A payment's own answer keeps a `status` as it came, undecided by it.
        let paid =
            parse(r#"{"paymentId":"1","transactionStatus":"Y","status":"reversed"}"#).unwrap();
        assert_eq!(paid.status, PaymentStatus::Approved);
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
