//! What a call tells its subscriber: one `paytoken.call` span per operation sent, its
//! fields filled in as the call goes (attempts, status, result code, outcome, elapsed
//! time), and one `debug` event when it ends, which names the order and the payment so a
//! log line can be matched to them. No field ever holds a secret, nor a card number an
//! order id carries.

use std::borrow::Cow;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

use paytoken_protocol::OperationKind;
use paytoken_types::internal::sensitive;
use paytoken_types::{MerchantTransactionId, PaymentId};
use tracing::field::Empty;

use crate::Error;

/// The ids a call is about, known before it is sent: the order a payment carries, or the
/// payment a capture, refund, cancel or inquiry names.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CallIds<'a> {
    pub(crate) merchant_transaction_id: Option<&'a MerchantTransactionId>,
    pub(crate) payment_id: Option<PaymentId>,
}

/// One call's span, and what its closing event reports.
#[derive(Debug)]
pub(crate) struct CallLog {
    span: tracing::Span,
    operation: OperationKind,
    /// The order the call is about, kept only when a subscriber listens.
    merchant_transaction_id: Option<MerchantTransactionId>,
    /// The payment the call names, or then the one its answer gave.
    payment_id: Option<PaymentId>,
    /// When the call started; `None` when no subscriber listens.
    started: Option<Instant>,
    attempts: AtomicU32,
}

impl CallLog {
    /// Opens the span of a call of `operation` about `ids`.
    pub(crate) fn start(operation: OperationKind, ids: CallIds<'_>) -> Self {
        let span = tracing::info_span!(
            target: "paytoken",
            "paytoken.call",
            operation = operation.name(),
            merchant_transaction_id = ids.merchant_transaction_id.map(shown).as_deref(),
            payment_id = Empty,
            attempts = Empty,
            http.status = Empty,
            result.code = Empty,
            outcome = Empty,
            elapsed_us = Empty,
        );
        if let Some(payment_id) = ids.payment_id {
            span.record("payment_id", payment_id.as_str());
        }
        let listened =
            !span.is_disabled() || tracing::enabled!(target: "paytoken", tracing::Level::DEBUG);
        Self {
            span,
            operation,
            merchant_transaction_id: ids.merchant_transaction_id.filter(|_| listened).cloned(),
            payment_id: ids.payment_id,
            started: listened.then(Instant::now),
            attempts: AtomicU32::new(0),
        }
    }

    /// The span, to instrument the call's future with.
    pub(crate) fn span(&self) -> &tracing::Span {
        &self.span
    }

    /// Notes that attempt `number` was made.
    pub(crate) fn attempt(&self, number: u32) {
        self.attempts.store(number, Ordering::Relaxed);
        self.span.record("attempts", number);
    }

    /// Notes the HTTP status of an answer.
    pub(crate) fn status(&self, status: u16) {
        self.span.record("http.status", status);
    }

    /// Ends the call: its outcome, result code and time on the span, and the closing
    /// `debug` event, with the payment id the answer gave (`None` when it gave none).
    pub(crate) fn finish<R>(
        &self,
        result: &Result<R, Error>,
        answered_payment_id: Option<PaymentId>,
        result_code: Option<&str>,
    ) {
        let outcome = match result {
            Ok(_) => "ok",
            Err(error) if error.is_outcome_unknown() => "outcome_unknown",
            Err(error) if error.refusal().is_some() => "refused",
            Err(error) if error.is_invalid_input() => "invalid_input",
            Err(_) => "failed",
        };
        self.span.record("outcome", outcome);
        if let Some(code) = result_code {
            self.span.record("result.code", code);
        }
        if let Some(payment_id) = answered_payment_id {
            self.span.record("payment_id", payment_id.as_str());
        }
        let elapsed_us = self
            .started
            .map(|started| u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX));
        if let Some(micros) = elapsed_us {
            self.span.record("elapsed_us", micros);
        }
        let _inside = self.span.enter();
        let attempts = self.attempts.load(Ordering::Relaxed);
        let operation = self.operation.name();
        let merchant_transaction_id = self.merchant_transaction_id.as_ref().map(shown);
        let merchant_transaction_id = merchant_transaction_id.as_deref();
        let payment_id = answered_payment_id.or(self.payment_id);
        let payment_id = payment_id.as_ref().map(PaymentId::as_str);
        match result {
            Ok(_) => tracing::debug!(
                target: "paytoken",
                operation,
                merchant_transaction_id,
                payment_id,
                result_code,
                attempts,
                elapsed_us,
                "call answered"
            ),
            // The message holds no secret (see `Error`) and no path; of an answer that was
            // not the gateway's, only the protocol crate's short redacted excerpt.
            Err(error) => tracing::debug!(
                target: "paytoken",
                operation,
                merchant_transaction_id,
                payment_id,
                result_code,
                attempts,
                elapsed_us,
                outcome,
                error = %error,
                "call failed"
            ),
        }
    }
}

/// An order id as a log shows it: a card number a merchant put in it masked, as the
/// table of fields masks one anywhere.
fn shown(id: &MerchantTransactionId) -> Cow<'_, str> {
    sensitive::mask_in_text(id.as_str())
}
