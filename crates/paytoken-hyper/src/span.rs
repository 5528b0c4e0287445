//! What a call tells its subscriber, by OpenTelemetry's conventions for HTTP clients:
//!
//! - a `paytoken.call` span per operation (`paytoken.operation`, the order and payment ids,
//!   `paytoken.attempts`, `paytoken.result_code`, `paytoken.outcome`, `error.type`), and one
//!   `debug` event when it ends, which names the order and the payment so that a log line
//!   can be matched to them;
//! - inside it, a `paytoken.attempt` span of kind client per request sent
//!   (`http.request.method`, `url.template`, `url.full` built from the base URL and the
//!   template, `server.address`, `server.port`, `http.request.resend_count`,
//!   `http.response.status_code`, `error.type`, `paytoken.attempt`);
//! - a `paytoken.settle` span around a settlement, whose inquiry is a call inside it; a
//!   token renewal is a call of its own (`auth_token`, `regenerate_auth_token`) inside the
//!   call that needed it.
//!
//! No field ever holds a secret, an id of the path (`url.template` and `url.full` name it
//! instead), nor a card number an order id carries (the field table masks it).

use std::borrow::Cow;
use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

use paytoken_protocol::{BaseUrl, OperationKind, PathTemplate, Request};
use paytoken_types::internal::sensitive;
use paytoken_types::{MerchantTransactionId, PaymentId};
use tracing::Instrument as _;
use tracing::field::Empty;

use crate::{Error, TransportError, TransportResponse};

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
            otel.name = operation.name(),
            paytoken.operation = operation.name(),
            paytoken.merchant_transaction_id = ids.merchant_transaction_id.map(shown).as_deref(),
            paytoken.payment_id = Empty,
            paytoken.attempts = Empty,
            paytoken.result_code = Empty,
            paytoken.outcome = Empty,
            error.type = Empty,
            otel.status_code = Empty,
        );
        if let Some(payment_id) = ids.payment_id {
            span.record("paytoken.payment_id", shown_payment(payment_id).as_ref());
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

    /// Opens the span of the next sending of `request` to `base_url`: numbered from 1 over
    /// the whole call, so a request sent again with a renewed token counts on.
    pub(crate) fn attempt(&self, request: &Request, base_url: &BaseUrl) -> Attempt {
        let number = self
            .attempts
            .fetch_add(1, Ordering::Relaxed)
            .saturating_add(1);
        self.span.record("paytoken.attempts", number);
        let template = request.path_template();
        let method = request.method().as_str();
        let host = base_url.host();
        let span = tracing::info_span!(
            target: "paytoken",
            parent: &self.span,
            "paytoken.attempt",
            otel.name = %format_args!("{method} {template}"),
            otel.kind = "client",
            http.request.method = method,
            url.template = %template,
            url.full = %UrlFull(base_url, template),
            server.address = host.trim_start_matches('[').trim_end_matches(']'),
            server.port = base_url.port(),
            http.request.resend_count = number.checked_sub(1).filter(|&resent| resent > 0),
            paytoken.attempt = number,
            http.response.status_code = Empty,
            error.type = Empty,
            otel.status_code = Empty,
        );
        Attempt { span }
    }

    /// Ends the call: its outcome and result code on the span, and the closing `debug`
    /// event, with the payment id the answer gave (`None` when it gave none).
    pub(crate) fn finish<R>(
        &self,
        result: &Result<R, Error>,
        answered_payment_id: Option<PaymentId>,
        result_code: Option<&str>,
    ) {
        let outcome = record_outcome(&self.span, result);
        if let Some(code) = result_code {
            self.span.record("paytoken.result_code", code);
        }
        if let Some(payment_id) = answered_payment_id {
            self.span
                .record("paytoken.payment_id", shown_payment(payment_id).as_ref());
        }
        let elapsed_us = self
            .started
            .map(|started| u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX));
        let _inside = self.span.enter();
        let attempts = self.attempts.load(Ordering::Relaxed);
        let operation = self.operation.name();
        let merchant_transaction_id = self.merchant_transaction_id.as_ref().map(shown);
        let merchant_transaction_id = merchant_transaction_id.as_deref();
        let payment_id = answered_payment_id.or(self.payment_id).map(shown_payment);
        let payment_id = payment_id.as_deref();
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

/// One attempt's span: the request on the wire.
#[derive(Debug)]
pub(crate) struct Attempt {
    span: tracing::Span,
}

impl Attempt {
    /// The span, to instrument the attempt's future with.
    pub(crate) fn span(&self) -> &tracing::Span {
        &self.span
    }

    /// What came back: the status, or the transport's error. A status of 400 or more is an
    /// error by the HTTP conventions, named by its number.
    pub(crate) fn finish(&self, result: &Result<TransportResponse, TransportError>) {
        match result {
            Ok(answer) => {
                self.span.record("http.response.status_code", answer.status);
                if answer.status >= 400 {
                    self.span
                        .record("error.type", answer.status.to_string().as_str());
                    self.span.record("otel.status_code", "ERROR");
                }
            }
            Err(error) => {
                self.span.record("error.type", error.kind().name());
                self.span.record("otel.status_code", "ERROR");
            }
        }
    }
}

/// Opens the span of a settlement of a lost call of `operation` (when known) about `ids`.
pub(crate) fn settle(operation: Option<OperationKind>, ids: CallIds<'_>) -> tracing::Span {
    tracing::info_span!(
        target: "paytoken",
        "paytoken.settle",
        paytoken.settles = operation.map(OperationKind::name),
        paytoken.merchant_transaction_id = ids.merchant_transaction_id.map(shown).as_deref(),
        paytoken.payment_id = ids.payment_id.map(shown_payment).as_deref(),
        paytoken.outcome = Empty,
        error.type = Empty,
        otel.status_code = Empty,
    )
}

/// Runs `work` inside the settlement's `span`, and ends the span with its outcome.
pub(crate) async fn settling<R>(
    span: tracing::Span,
    work: impl Future<Output = Result<R, Error>>,
) -> Result<R, Error> {
    let result = work.instrument(span.clone()).await;
    record_outcome(&span, &result);
    result
}

/// Records `paytoken.outcome` (`ok`, or the error's kind), and on an error `error.type`
/// and the span's error status; the outcome's name.
fn record_outcome<R>(span: &tracing::Span, result: &Result<R, Error>) -> &'static str {
    let outcome = match result {
        Ok(_) => "ok",
        Err(error) => error.kind().name(),
    };
    span.record("paytoken.outcome", outcome);
    if result.is_err() {
        span.record("error.type", outcome);
        span.record("otel.status_code", "ERROR");
    }
    outcome
}

/// `url.full`: the base URL followed by the path's template, so no id is in it.
struct UrlFull<'a>(&'a BaseUrl, PathTemplate);

impl fmt::Display for UrlFull<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.0, self.1)
    }
}

/// An order id as a trace shows it: a card number a merchant put in it masked, as the
/// table of fields masks one anywhere.
fn shown(id: &MerchantTransactionId) -> Cow<'_, str> {
    sensitive::id_shown(id.as_str())
}

/// A payment id as a trace shows it, masked by the same table (a gateway's ids are its
/// own, and a long one must not pass for a card number in a trace).
fn shown_payment(id: PaymentId) -> Cow<'static, str> {
    Cow::Owned(sensitive::id_shown(id.as_str()).into_owned())
}
