//! The exceptions: one base class, and a subclass for each way an operation ends without
//! its answer, as the protocol crate's `Error` tells them apart.

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
