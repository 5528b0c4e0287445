//! What an inquiry's long `status` says of a lost capture, refund or cancel: the table
//! [`Client::settle`](crate::Client::settle) and
//! [`Client::reconcile_move`](crate::Client::reconcile_move) read, and nothing else.
//!
//! | lost call | took effect | did not | cannot tell |
//! |---|---|---|---|
//! | capture | `capturesuccess`, `settled`, `markedforreversal` | `authsuccessful` | any other |
//! | cancel | `cancelled`, `authcancelled` | `authsuccessful` | any other |
//! | refund | (never from the status alone) | `authsuccessful`, `capturesuccess`, `settled` | any other |
//!
//! A refund leaves `markedforreversal` (part) or `reversed` (all), the same after this
//! refund as after an earlier one, so the status alone never shows that this one took
//! effect; a caller who knows the status before it and the one it would have led to says
//! so with `reconcile_move` (which still cannot tell when the two are the same: a second
//! partial refund).

use paytoken_protocol::{FieldValue, OperationKind, Transaction};
use paytoken_types::{PaymentId, TransactionState};

use crate::Error;

/// What the status says of the lost call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// It took effect.
    Applied,
    /// The payment is as it was before it: it did not.
    NotApplied,
    /// The status does not tell.
    CannotTell,
}

/// Reads `state` for a lost call of kind `operation`.
pub(crate) fn read(operation: OperationKind, state: Option<&TransactionState>) -> Reading {
    use TransactionState as S;
    match (operation, state) {
        (OperationKind::Capture, Some(S::CaptureSuccess | S::Settled | S::MarkedForReversal))
        | (OperationKind::Cancel, Some(S::Cancelled | S::AuthCancelled)) => Reading::Applied,
        (OperationKind::Capture | OperationKind::Cancel, Some(S::AuthSuccessful))
        | (OperationKind::Refund, Some(S::AuthSuccessful | S::CaptureSuccess | S::Settled)) => {
            Reading::NotApplied
        }
        _ => Reading::CannotTell,
    }
}

/// Whether `operation` is a back-office move settled by the payment's status.
pub(crate) const fn is_move(operation: OperationKind) -> bool {
    matches!(
        operation,
        OperationKind::Capture | OperationKind::Refund | OperationKind::Cancel
    )
}

/// What a caller knows of a lost move: the payment's long status before it, and the one
/// it would have led to.
pub(crate) type Known<'a> = (&'a TransactionState, &'a TransactionState);

/// The verdict on a lost move from the payment's transaction as inquired: the transaction
/// when the move took effect (by the table, or by what the caller knows), or the error that
/// says it did not, or that the status cannot tell.
pub(crate) fn verdict(
    operation: OperationKind,
    payment_id: PaymentId,
    known: Option<Known<'_>>,
    inquired: Transaction,
    unknown: Option<Error>,
) -> Result<Transaction, Error> {
    let state = inquired.state.value().cloned();
    let by_table = read(operation, state.as_ref());
    let reading = match (known, &state) {
        // A move that leaves the status as it was (a second partial refund) cannot be
        // told from the status, whatever the caller knows.
        (Some((before, after)), _) if before == after => match by_table {
            Reading::NotApplied => Reading::NotApplied,
            Reading::Applied | Reading::CannotTell => Reading::CannotTell,
        },
        (Some((_, after)), Some(state)) if after == state => Reading::Applied,
        (Some((before, _)), Some(state)) if before == state => Reading::NotApplied,
        (Some(_), _) => match by_table {
            Reading::NotApplied => Reading::NotApplied,
            Reading::Applied | Reading::CannotTell => Reading::CannotTell,
        },
        (None, _) => by_table,
    };
    match (reading, state) {
        (Reading::Applied, _) => Ok(inquired),
        (Reading::NotApplied, Some(state)) => Err(Error::NotApplied {
            operation,
            payment_id,
            state,
        }),
        (_, state) => Err(Error::Unsettled {
            operation,
            payment_id,
            state,
            cause: unknown.map(Box::new),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refund_is_never_confirmed_by_the_status_alone() {
        for state in [S::MarkedForReversal, S::Reversed] {
            assert_eq!(
                read(OperationKind::Refund, Some(&state)),
                Reading::CannotTell
            );
        }
        assert_eq!(
            read(OperationKind::Refund, Some(&S::CaptureSuccess)),
            Reading::NotApplied
        );
    }

    #[test]
    fn captures_and_cancels_read_their_own_statuses() {
        assert_eq!(
            read(OperationKind::Capture, Some(&S::CaptureSuccess)),
            Reading::Applied
        );
        assert_eq!(
            read(OperationKind::Cancel, Some(&S::Cancelled)),
            Reading::Applied
        );
        for operation in [OperationKind::Capture, OperationKind::Cancel] {
            assert_eq!(
                read(operation, Some(&S::AuthSuccessful)),
                Reading::NotApplied
            );
            assert_eq!(read(operation, None), Reading::CannotTell);
            assert_eq!(
                read(operation, Some(&S::Other("chargeback2".into()))),
                Reading::CannotTell
            );
        }
        // A capture's payment that was voided instead: not this capture's doing.
        assert_eq!(
            read(OperationKind::Capture, Some(&S::Reversed)),
            Reading::CannotTell
        );
    }

    use TransactionState as S;
}
