//! Settling unknown outcomes: [`Client::reconcile`], [`Client::settle`] and
//! [`Client::reconcile_move`], and what an inquiry's long `status` says of a lost capture,
//! refund or cancel: the table `settle` and `reconcile_move` read, and nothing else.
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

use paytoken_protocol::ops::inquiry::Inquiry;
use paytoken_protocol::{FieldValue, OperationKind, PaymentStatus, Transaction};
use paytoken_types::{CodeFamily, MerchantTransactionId, PaymentId, TransactionState};

use crate::span::{self, CallIds};
use crate::{Client, Error, Finding, Transport};

impl<T: Transport> Client<T> {
    /// Settles an [unknown outcome](Error::OutcomeUnknown): asks the gateway what became of
    /// the payment sent with `merchant_transaction_id`.
    ///
    /// ```no_run
    /// # async fn run(client: paytoken_hyper::Client, payment: paytoken_protocol::ops::payment::Payment)
    /// # -> Result<(), paytoken_hyper::Error> {
    /// let transaction = match client.pay(&payment).await {
    ///     Ok(transaction) => transaction,
    ///     Err(error) if error.is_outcome_unknown() => {
    ///         // Never send the payment again before the gateway has said what it did.
    ///         client.reconcile(&payment.merchant_transaction_id).await?
    ///     }
    ///     Err(error) => return Err(error),
    /// };
    /// println!("{:?}", transaction.status);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error`] of the inquiry. For a card payment, a refusal means the gateway holds no
    /// payment with that id: it never arrived, and the payment may be sent again. For a
    /// token payment it may not (see [`settle`](Self::settle)).
    pub async fn reconcile(
        &self,
        merchant_transaction_id: &MerchantTransactionId,
    ) -> Result<Transaction, Error> {
        let ids = CallIds {
            merchant_transaction_id: Some(merchant_transaction_id),
            payment_id: None,
        };
        span::settling(
            span::settle(None, ids),
            self.inquire_order(merchant_transaction_id),
        )
        .await
    }

    /// The inquiry by the order's id.
    async fn inquire_order(&self, id: &MerchantTransactionId) -> Result<Transaction, Error> {
        self.inquiry(&Inquiry::ByMerchantTransactionId(id.clone()))
            .await
    }

    /// Settles an [unknown outcome](Error::OutcomeUnknown) by inquiry, and never guesses.
    ///
    /// The transaction when the gateway holds one under the error's merchant transaction
    /// id. When it holds none: for a card payment, the refusal (the payment never arrived,
    /// it may be sent again); for a token payment, the unknown outcome itself, since the
    /// published token-payment samples do not show `merchantTransactionId` and a gateway
    /// that ignores it would find nothing even for a payment it made. When the inquiry
    /// itself fails (its retries spent, its answer lost) or is refused by a system check,
    /// the unknown outcome itself: an inquiry that did not get through says nothing of the
    /// payment.
    ///
    /// ```no_run
    /// # async fn run(client: paytoken_hyper::Client, payment: paytoken_protocol::ops::token_payment::TokenPayment)
    /// # -> Result<(), paytoken_hyper::Error> {
    /// let transaction = match client.pay_with_token(&payment).await {
    ///     Err(error) if error.is_outcome_unknown() => client.settle(error).await?,
    ///     other => other?,
    /// };
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// `unknown` itself when it is not an unknown outcome with a merchant transaction id, or
    /// when the inquiry cannot tell; a card payment's inquiry's refusal when the gateway
    /// holds no such payment.
    pub async fn settle(&self, unknown: Error) -> Result<Transaction, Error> {
        span::settling(settle_span(&unknown), self.settle_unknown(unknown)).await
    }

    /// What a money-moving call returns: its `result`, or, for a client that settles lost
    /// answers ([`ClientBuilder::settle_lost_answers`](crate::ClientBuilder::settle_lost_answers)),
    /// its unknown outcome settled by inquiry. A capture, refund or cancel is settled as
    /// [`settle`](Self::settle) settles it. A payment is the transaction the gateway holds
    /// under its order's id when that tells how it went; [`Error::StillUnknown`] when the
    /// gateway holds none (never a resend), holds it still under way, or cannot tell; the
    /// unknown outcome itself when the inquiry did not get through.
    pub(crate) async fn settled(
        &self,
        result: Result<Transaction, Error>,
    ) -> Result<Transaction, Error> {
        match result {
            Err(unknown @ Error::OutcomeUnknown { .. }) if self.inner.settles => {
                let span = settle_span(&unknown);
                span::settling(span, self.settle_for_caller(unknown)).await
            }
            other => other,
        }
    }

    /// [`settled`](Self::settled)'s unknown outcome, inside its span.
    async fn settle_for_caller(&self, unknown: Error) -> Result<Transaction, Error> {
        let Error::OutcomeUnknown {
            operation,
            merchant_transaction_id: Some(id),
            payment_id: None,
            ..
        } = &unknown
        else {
            return self.settle_unknown(unknown).await;
        };
        let (operation, id) = (*operation, id.clone());
        let still = |finding, unknown| Error::StillUnknown {
            operation,
            merchant_transaction_id: Some(id.clone()),
            finding,
            cause: Box::new(unknown),
        };
        match self.inquire_order(&id).await {
            Ok(transaction) => match transaction.status {
                PaymentStatus::Pending | PaymentStatus::ThreeDSecure { .. } => {
                    Err(still(Finding::UnderWay, unknown))
                }
                PaymentStatus::Unknown => Err(still(Finding::CannotTell, unknown)),
                _ => Ok(transaction),
            },
            // The gateway looked and holds no such payment.
            Err(error)
                if error
                    .refusal()
                    .is_some_and(|refusal| refusal.family() != CodeFamily::SystemCheck) =>
            {
                Err(still(Finding::NoSuchPayment, unknown))
            }
            // The inquiry did not get through: it says nothing of the payment.
            Err(_) => Err(unknown),
        }
    }

    /// [`settle`](Self::settle), inside its span.
    async fn settle_unknown(&self, unknown: Error) -> Result<Transaction, Error> {
        if let Error::OutcomeUnknown {
            operation,
            payment_id: Some(payment_id),
            ..
        } = &unknown
            && is_move(*operation)
        {
            let (operation, payment_id) = (*operation, *payment_id);
            return self.settle_move(operation, payment_id, unknown).await;
        }
        let Error::OutcomeUnknown {
            operation,
            merchant_transaction_id: Some(id),
            ..
        } = &unknown
        else {
            return Err(unknown);
        };
        match self.inquire_order(id).await {
            Ok(transaction) => Ok(transaction),
            // The gateway looked and found no such card payment: it never arrived.
            Err(error)
                if *operation == OperationKind::Payment
                    && error
                        .refusal()
                        .is_some_and(|refusal| refusal.family() != CodeFamily::SystemCheck) =>
            {
                Err(error)
            }
            Err(_) => Err(unknown),
        }
    }

    /// Settles a lost capture, refund or cancel when you know the payment's long status
    /// before it and the one it would have led to (a first partial refund:
    /// `capturesuccess` to `markedforreversal`; the refund of the rest: `markedforreversal`
    /// to `reversed`). Inquires the payment: its transaction when the status is `after`.
    ///
    /// # Errors
    /// The inquiry's error; [`Error::NotApplied`] when the status is still `before` (or
    /// the table of [`settle`](Self::settle) says so); [`Error::Unsettled`] otherwise, and
    /// always when `before` and `after` are the same status (a second partial refund
    /// cannot be told from the status).
    pub async fn reconcile_move(
        &self,
        operation: OperationKind,
        payment_id: &PaymentId,
        before: &TransactionState,
        after: &TransactionState,
    ) -> Result<Transaction, Error> {
        let ids = CallIds {
            merchant_transaction_id: None,
            payment_id: Some(*payment_id),
        };
        let settling = async {
            let inquired = self.inquiry(&Inquiry::ByPaymentId(*payment_id)).await?;
            verdict(
                operation,
                *payment_id,
                Some((before, after)),
                inquired,
                None,
            )
        };
        span::settling(span::settle(Some(operation), ids), settling).await
    }

    /// Inquires the payment a lost move was about and reads its status (`settlement`).
    async fn settle_move(
        &self,
        operation: OperationKind,
        payment_id: PaymentId,
        unknown: Error,
    ) -> Result<Transaction, Error> {
        match self.inquiry(&Inquiry::ByPaymentId(payment_id)).await {
            Ok(inquired) => verdict(operation, payment_id, None, inquired, Some(unknown)),
            // The payment cannot be found or read: the move stays as unknown as it was.
            Err(_) => Err(unknown),
        }
    }
}

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

/// The span of settling `unknown`: its operation and ids, when it is an unknown outcome.
fn settle_span(unknown: &Error) -> tracing::Span {
    match unknown {
        Error::OutcomeUnknown {
            operation,
            merchant_transaction_id,
            payment_id,
            ..
        } => span::settle(
            Some(*operation),
            CallIds {
                merchant_transaction_id: merchant_transaction_id.as_ref(),
                payment_id: *payment_id,
            },
        ),
        _ => span::settle(None, CallIds::default()),
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
