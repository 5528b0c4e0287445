//! The tracing span of a call: one `paytoken.call` span per operation sent, its fields
//! filled in as the call goes (attempts, status, result code, outcome, elapsed time). No
//! field ever holds a secret.

use std::time::Instant;

use paytoken_protocol::OperationKind;
use tracing::field::Empty;

use crate::Error;

/// The span of one call: its fields are filled in as the call goes.
pub(crate) fn call_span(operation: OperationKind) -> tracing::Span {
    tracing::info_span!(
        target: "paytoken",
        "paytoken.call",
        operation = operation.name(),
        attempts = Empty,
        http.status = Empty,
        result.code = Empty,
        outcome = Empty,
        elapsed_us = Empty,
    )
}

/// When the call started, for its span; `None` when no subscriber listens.
pub(crate) fn start_clock(span: &tracing::Span) -> Option<Instant> {
    (!span.is_disabled()).then(Instant::now)
}

pub(crate) fn record_elapsed(span: &tracing::Span, started: Option<Instant>) {
    if let Some(started) = started {
        let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        span.record("elapsed_us", micros);
    }
}

pub(crate) fn record_outcome<R>(span: &tracing::Span, result: &Result<R, Error>) {
    let outcome = match result {
        Ok(_) => "ok",
        Err(error) if error.is_outcome_unknown() => "outcome_unknown",
        Err(error) if error.refusal().is_some() => "refused",
        Err(error) if error.is_invalid_input() => "invalid_input",
        Err(_) => "failed",
    };
    span.record("outcome", outcome);
    if let Err(error) = result {
        // The message holds no secret (see `Error`) and no path; of an answer that was not
        // the gateway's, only the protocol crate's short redacted excerpt.
        tracing::debug!(target: "paytoken", error = %error, "call failed");
    }
}
