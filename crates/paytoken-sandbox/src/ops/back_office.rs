//! `payments/{id}` with `paymentType` `CP` (capture), `RF` (refund) or `RV` (cancel): the
//! back office's moves on one payment, by the state machine of `state::Moves`.
//!
//! | move | allowed on | refused with |
//! |---|---|---|
//! | capture, at most the authorised amount | an approved `PA`, not captured, not cancelled | `90032` (`30021` above the amount) |
//! | cancel | an approved `PA`, not captured, not cancelled | `90031` |
//! | refund, in parts | what was taken (a `DB`, a captured `PA`), while the parts sum to at most it | `90033` (nothing left or taken), `90030` (more than is left) |
//!
//! Every move checks the currency (`30020`) and finds only the caller's own payments
//! (`30040` for another merchant's, as for an unknown one). The whole move runs under the
//! state's one lock, so concurrent refunds never sum above what was taken.

use paytoken_protocol::OperationKind;
use paytoken_types::{Amount, Currency};

use super::payment::{parse_amount, read_currency};
use crate::codes::{self, Code};
use crate::exchange::{Answer, Call};
use crate::form::Form;
use crate::gateway::{Caller, Gateway};
use crate::json;
use crate::problem::Problems;
use crate::state::{Payment, State};

/// A move the back office makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Move {
    Capture,
    Refund,
    Cancel,
}

impl Move {
    /// The move a `paymentType` asks for.
    pub(super) fn of(payment_type: &str) -> Option<Self> {
        match payment_type {
            "CP" => Some(Self::Capture),
            "RF" => Some(Self::Refund),
            "RV" => Some(Self::Cancel),
            _ => None,
        }
    }

    /// The operation the move is.
    pub(super) const fn kind(self) -> OperationKind {
        match self {
            Self::Capture => OperationKind::Capture,
            Self::Refund => OperationKind::Refund,
            Self::Cancel => OperationKind::Cancel,
        }
    }

    /// The checksum rule of the move.
    const fn rule(self) -> &'static str {
        match self {
            Self::Capture => "capture",
            Self::Refund => "refund",
            Self::Cancel => "cancel",
        }
    }

    const fn payment_type(self) -> &'static str {
        match self {
            Self::Capture => "CP",
            Self::Refund => "RF",
            Self::Cancel => "RV",
        }
    }
}

/// Reads the move, applies it to the caller's payment and answers it.
pub(super) fn handle(
    gateway: &Gateway,
    state: &mut State,
    call: &Call<'_, '_>,
    movement: Move,
) -> Result<Answer, Problems> {
    let caller = gateway.authenticate(state, call)?;
    let id = call.path_id.unwrap_or_default();
    let amount = read(gateway, &caller, call.form, movement, id)?;
    let index = state
        .payment_index(id)
        .filter(|&index| {
            state
                .payments()
                .get(index)
                .is_some_and(|payment| caller.principal.can_see(payment.owner))
        })
        .ok_or(codes::NO_RECORD)?;
    let payment = state.payment_mut(index).ok_or(codes::NO_RECORD)?;
    if let Some((_, currency)) = amount
        && !currency
            .as_str()
            .eq_ignore_ascii_case(payment.currency.as_str())
    {
        return Err(codes::CURRENCY_MISMATCH.into());
    }
    let moved = amount.map(|(amount, _)| amount);
    let code = apply(payment, movement, moved, gateway.refund_check_is_stale())?;
    Ok(Answer::json(render(
        &caller,
        payment,
        movement,
        moved,
        code,
        &gateway.now_text(),
    )))
}

/// Checks the checksum, and the amount and currency of the moves that carry them (before
/// the payment is looked at; the checksum signs the amount as it was sent).
fn read(
    gateway: &Gateway,
    caller: &Caller<'_>,
    form: &Form<'_>,
    movement: Move,
    id: &str,
) -> Result<Option<(Amount, Currency)>, Problems> {
    if movement == Move::Cancel {
        gateway.verify_checksum(caller, form, movement.rule(), &[("paymentId", id)])?;
        return Ok(None);
    }
    let [amount_text] = form.required_all(["amount"])?;
    gateway.verify_checksum(
        caller,
        form,
        movement.rule(),
        &[("paymentId", id), ("amount", amount_text)],
    )?;
    let mut problems = Problems::default();
    let amount = parse_amount(amount_text, &mut problems);
    let currency = read_currency(form, &mut problems);
    problems.or_values(amount.zip(currency)).map(Some)
}

/// Applies `movement` of `amount` to `payment`, or says why not; the code of success.
/// `stale_refund_check` is a planted defect (a simulation's): the refund's check reads
/// what was refunded before as nothing.
fn apply(
    payment: &mut Payment,
    movement: Move,
    amount: Option<Amount>,
    stale_refund_check: bool,
) -> Result<Code, Problems> {
    let open_authorisation =
        payment.is_authorisation() && payment.moves.captured.is_none() && !payment.moves.cancelled;
    match (movement, amount) {
        (Move::Capture, Some(amount)) => {
            if !open_authorisation {
                return Err(codes::CANNOT_CAPTURE.into());
            }
            if amount > payment.amount {
                return Err(codes::ABOVE_AUTHORISED.into());
            }
            payment.moves.captured = Some(amount);
            Ok(codes::CAPTURE_SUCCESSFUL)
        }
        (Move::Cancel, _) => {
            if !open_authorisation {
                return Err(codes::CANNOT_CANCEL.into());
            }
            payment.moves.cancelled = true;
            Ok(codes::CANCEL_SUCCESSFUL)
        }
        (Move::Refund, Some(amount)) => {
            let taken = payment.taken();
            if taken == Amount::ZERO || payment.moves.refunded >= taken {
                return Err(codes::CANNOT_REFUND.into());
            }
            let before = if stale_refund_check {
                Amount::ZERO
            } else {
                payment.moves.refunded
            };
            before
                .checked_add(amount)
                .filter(|sum| *sum <= taken)
                .ok_or(codes::REFUND_EXCEEDS)?;
            payment.moves.refunded = payment
                .moves
                .refunded
                .checked_add(amount)
                .ok_or(codes::REFUND_EXCEEDS)?;
            Ok(codes::REFUND_SUCCESSFUL)
        }
        // A capture or refund always carries an amount (read above).
        (Move::Capture | Move::Refund, None) => Err(codes::MALFORMED_BODY.into()),
    }
}

/// The move's answer: the payment's id (the sandbox answers with the payment's own id,
/// not one of the move's), the move's type and amount, and the payment's status after it.
fn render(
    caller: &Caller<'_>,
    payment: &Payment,
    movement: Move,
    amount: Option<Amount>,
    code: Code,
    now: &str,
) -> String {
    let amount = amount.map(Amount::to_wire);
    json::object(|answer| {
        answer
            .field("paymentId", payment.payment_id)
            .field(caller.id_key, caller.id)
            .field("paymentType", movement.payment_type())
            .optional("amount", amount.as_ref().map(|amount| amount.as_str()))
            .field("currency", payment.currency)
            .code(code)
            .field("timestamp", now)
            .optional(
                "merchantTransactionId",
                payment.merchant_transaction_id.as_ref(),
            )
            .field(
                "transactionStatus",
                if movement == Move::Cancel { "C" } else { "Y" },
            )
            .field("status", payment.long_status().as_str());
    })
}
