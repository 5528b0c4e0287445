//! The exceptions: one base class, and a subclass for each way an operation ends without
//! its answer, as the protocol crate's `Error` tells them apart.

use paytoken_protocol::call;
use paytoken_protocol::{Error, ShownError};
use paytoken_types::CodeFamily;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyCFunction;

create_exception!(
    paytoken,
    PaytokenError,
    PyException,
    "Every error of paytoken. Its text never holds a secure key, an auth token, a card number or a CVV."
);
create_exception!(
    paytoken,
    InvalidInput,
    PaytokenError,
    "A value refused before anything was sent; `field` names it, never its value."
);
create_exception!(
    paytoken,
    Refused,
    PaytokenError,
    "The gateway refused the request before it created anything: fix the cause (`code`, `description`) before sending again; `token_refused` (a 2xxxx code): fetch a new auth token and send once more."
);
create_exception!(
    paytoken,
    OutcomeUnknown,
    PaytokenError,
    "The request may have been processed: settle it by inquiry, never by sending it again."
);
create_exception!(
    paytoken,
    Unreadable,
    OutcomeUnknown,
    "An answer that is not the one the operation expects (an HTTP status other than 200, a body that is not its JSON): the request may have been processed."
);
create_exception!(
    paytoken,
    Contradiction,
    OutcomeUnknown,
    "An answer about another transaction than the request's: the request may have been processed."
);
create_exception!(
    paytoken,
    TransportFailed,
    PaytokenError,
    "The exchange with the gateway failed below HTTP (no connection, a timeout, a broken one) for a read, after its retries, or for a call whose connection never opened: `may_have_been_processed` says whether it may have reached the gateway. A `Client`'s."
);
create_exception!(
    paytoken,
    NotApplied,
    PaytokenError,
    "A lost capture, refund or cancel that an inquiry showed did not take effect: nothing moved, and it may be sent again. A `Client`'s."
);
create_exception!(
    paytoken,
    NotificationRejected,
    PaytokenError,
    "A notification that did not verify: nothing in it may be trusted."
);

/// The exception for `error`, its text the error's own (which holds no secret), with the
/// facts a handler decides on as attributes: `may_have_been_processed` (inquire before
/// sending again), `field` (the input at fault, or `None`), for a refusal `code`,
/// `description` (redacted) and `token_refused` (a system check's code, after which the
/// Rust client fetches a new auth token and sends once more), with the description as the
/// gateway sent it behind the method `raw_description()`; for a rejected notification
/// `reason` (its failed check's name).
pub(crate) fn raised(error: &Error) -> PyErr {
    raised_holding(error.clone(), None)
}

/// [`raised`], with the secure key and auth token of `context`, the request's, masked in
/// every text of the gateway the error carries.
pub(crate) fn raised_holding(error: Error, context: Option<&paytoken_protocol::Context>) -> PyErr {
    let ShownError {
        error,
        description,
        raw_description,
        ..
    } = error.shown(context);
    let text = error.to_string();
    let raised = match &error {
        Error::Refused(_) => Refused::new_err(text),
        Error::UnexpectedStatus { .. } | Error::Undecodable { .. } => Unreadable::new_err(text),
        Error::Contradiction { .. } => Contradiction::new_err(text),
        Error::Unverified { .. } => NotificationRejected::new_err(text),
        _ if error.is_invalid_input() => InvalidInput::new_err(text),
        _ => PaytokenError::new_err(text),
    };
    Python::attach(|py| {
        let value = raised.value(py);
        let facts = || -> PyResult<()> {
            value.setattr("may_have_been_processed", error.may_have_been_processed())?;
            value.setattr("field", error.field())?;
            if let Error::Unverified { check } = &error {
                value.setattr("reason", check.name())?;
            }
            if let Some(refusal) = error.refusal() {
                value.setattr("code", refusal.result.code.as_str())?;
                value.setattr("description", description)?;
                let token_refused = refusal.family() == CodeFamily::SystemCheck;
                value.setattr("token_refused", token_refused)?;
            }
            if let Some(raw) = raw_description {
                // A method, called to read it: no repr, traceback or attribute walk shows it.
                let method = PyCFunction::new_closure(
                    py,
                    Some(c"raw_description"),
                    Some(c"The refusal's description as the gateway sent it."),
                    move |_, _| -> PyResult<String> { Ok(raw.clone()) },
                )?;
                value.setattr("raw_description", method)?;
            }
            Ok(())
        };
        match facts() {
            Ok(()) => raised,
            Err(failed) => failed,
        }
    })
}

/// A value of the caller's that no type of paytoken takes: `InvalidInput`, with its
/// `field` as every exception has it.
pub(crate) fn invalid(error: impl Into<Error>) -> PyErr {
    raised(&error.into())
}

/// `InvalidInput` for `field`, saying `reason`.
pub(crate) fn invalid_field(field: &'static str, reason: &'static str) -> PyErr {
    invalid(Error::Invalid { field, reason })
}

/// The exception for `error`, a `Client`'s call's: a protocol error as [`raised`] makes it;
/// an unknown outcome (`OutcomeUnknown`, or `Unreadable` and `Contradiction` by what lost
/// the answer) with the ids to settle it by (`merchant_transaction_id`, `payment_id`) and,
/// after an inquiry that could not settle it, its `finding` (`no_such_payment`,
/// `under_way`, `cannot_tell`); `NotApplied`, `TransportFailed`, and `InvalidInput` for a
/// setting (its `field`). The client has masked its own secrets in the gateway's text.
pub(crate) fn raised_call(error: call::Error) -> PyErr {
    let error = match error {
        call::Error::Protocol(error) => return raised_holding(error, None),
        other => other,
    };
    let text = error.to_string();
    let raised = match (&error, error.root()) {
        (call::Error::Config { .. }, _) => InvalidInput::new_err(text),
        (call::Error::Transport { .. }, _) => TransportFailed::new_err(text),
        (call::Error::NotApplied { .. }, _) => NotApplied::new_err(text),
        (_, call::Error::Protocol(Error::Contradiction { .. })) => Contradiction::new_err(text),
        (_, call::Error::Protocol(Error::UnexpectedStatus { .. } | Error::Undecodable { .. })) => {
            Unreadable::new_err(text)
        }
        _ if error.is_outcome_unknown() => OutcomeUnknown::new_err(text),
        _ => PaytokenError::new_err(text),
    };
    let field = match &error {
        call::Error::Config { setting, .. } => Some(*setting),
        _ => None,
    };
    let finding = match &error {
        call::Error::StillUnknown { finding, .. } => Some(finding.name()),
        _ => None,
    };
    Python::attach(|py| {
        let value = raised.value(py);
        let facts = || -> PyResult<()> {
            value.setattr("may_have_been_processed", error.may_have_been_processed())?;
            value.setattr("field", field)?;
            let order = error.merchant_transaction_id().map(ToString::to_string);
            value.setattr("merchant_transaction_id", order)?;
            value.setattr("payment_id", error.payment_id().map(ToString::to_string))?;
            value.setattr("finding", finding)?;
            Ok(())
        };
        match facts() {
            Ok(()) => raised,
            Err(failed) => failed,
        }
    })
}
