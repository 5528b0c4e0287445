//! What capture, refund and cancel share: the inquiry's path with the payment's id, a
//! `paymentType` saying the move, and an answer read as a [`Transaction`].
//!
//! Which transaction the answer's `paymentId` names is not settled across deployments (the
//! move's own, or the payment it moved), nor whether its `amount` is the move's or the
//! payment's: so the verdict rests on the result code and `transactionStatus`, and of the
//! echoes only the currency is compared (docs/WIRE.md, "Back office").

use paytoken_types::{Amount, Currency, PaymentId, PaymentType};

use super::{SMALL_BODY, check_positive, inquiry};
use crate::echo::Sent;
use crate::outcome::{Transaction, parse_transaction};
use crate::signed::{AuthFields, Signed, SignedRequest};
use crate::{Context, Error, OperationKind, Request, fields};

/// `id|key|paymentId|amount`, the payment's id being the one the path ends with.
pub(crate) const WITH_AMOUNT: &[Signed] = &[
    Signed::PathSegment {
        field: PaymentId::FIELD,
    },
    Signed::field(fields::AMOUNT),
];

/// `id|key|paymentId`, the payment's id being the one the path ends with.
pub(crate) const WITHOUT_AMOUNT: &[Signed] = &[Signed::PathSegment {
    field: PaymentId::FIELD,
}];

/// A move of `amount` on `payment_id`: `amount`, `currency`, `paymentType`.
pub(crate) fn with_amount(
    kind: OperationKind,
    payment_type: &PaymentType,
    context: &Context,
    (payment_id, amount, currency): (&PaymentId, Amount, &Currency),
) -> Result<Request, Error> {
    check_positive("amount", amount)?;
    SignedRequest::new(
        kind,
        context,
        WITH_AMOUNT,
        inquiry::PATH_PREFIX,
        SMALL_BODY,
        AuthFields::TERMINAL,
    )
    .path_segment(payment_id.as_str())
    .form(|form| {
        form.field(fields::AMOUNT, &amount.to_wire());
        form.field(fields::CURRENCY, currency);
        form.field(fields::PAYMENT_TYPE, payment_type);
    })
    .finish()
}

/// A move on `payment_id` without an amount: `paymentType` only.
pub(crate) fn without_amount(
    kind: OperationKind,
    payment_type: &PaymentType,
    context: &Context,
    payment_id: &PaymentId,
) -> Result<Request, Error> {
    SignedRequest::new(
        kind,
        context,
        WITHOUT_AMOUNT,
        inquiry::PATH_PREFIX,
        SMALL_BODY,
        AuthFields::TERMINAL,
    )
    .path_segment(payment_id.as_str())
    .form(|form| form.field(fields::PAYMENT_TYPE, payment_type))
    .finish()
}

/// The answer to a move: a transaction, whose echoed currency (if any) must be the one
/// sent.
pub(crate) fn parse(
    kind: OperationKind,
    status: u16,
    body: &[u8],
    currency: Option<Currency>,
) -> Result<Transaction, Error> {
    let sent = Sent {
        currency,
        ..Sent::default()
    };
    parse_transaction(kind, status, body, &sent)
}
