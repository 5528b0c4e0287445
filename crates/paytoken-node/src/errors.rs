//! The errors JavaScript catches: an `Error` whose `code` says which way an operation
//! ended without its answer, as the protocol crate's `Error` tells them apart, with the
//! facts a handler decides on as properties.

use napi::JsValue as _;
use napi::bindgen_prelude::{Env, JsObjectValue as _, Object};
use napi_derive::napi;
use paytoken_protocol::Error;
use paytoken_types::CodeFamily;

use crate::raw;

/// The `code` of every error paytoken throws: which way an operation ended without its
/// answer, as the protocol crate's `Error` tells them apart.
#[napi(string_enum)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// A value refused before anything was sent; `field` names it, never its value.
    #[napi(value = "PAYTOKEN_INVALID_INPUT")]
    InvalidInput,
    /// The gateway refused before it created anything: fix the cause (`resultCode`,
    /// `description`) before sending again; after `tokenRefused`, fetch a new auth token
    /// and send once more.
    #[napi(value = "PAYTOKEN_REFUSED")]
    Refused,
    /// An answer that is not the operation's (an HTTP status other than 200, a body that
    /// is not its JSON): the request may have been processed.
    #[napi(value = "PAYTOKEN_UNREADABLE")]
    Unreadable,
    /// An answer about another transaction than the request's: the request may have been
    /// processed.
    #[napi(value = "PAYTOKEN_CONTRADICTION")]
    Contradiction,
    /// A notification that did not verify: nothing in it may be trusted.
    #[napi(value = "PAYTOKEN_NOTIFICATION_REJECTED")]
    NotificationRejected,
    /// Anything else.
    #[napi(value = "PAYTOKEN_ERROR")]
    Other,
}

/// The `code` of `error`.
fn code(error: &Error) -> ErrorCode {
    match error {
        Error::Refused(_) => ErrorCode::Refused,
        Error::UnexpectedStatus { .. } | Error::Undecodable { .. } => ErrorCode::Unreadable,
        Error::Contradiction { .. } => ErrorCode::Contradiction,
        Error::Unverified { .. } => ErrorCode::NotificationRejected,
        _ if error.is_invalid_input() => ErrorCode::InvalidInput,
        _ => ErrorCode::Other,
    }
}

/// The JavaScript `Error` for `error`, thrown when returned: its message the error's own
/// (which holds no secret), its `code` an [`ErrorCode`]; `mayHaveBeenProcessed` (inquire
/// before sending again) and `field` (the input at fault, or `null`) on every one; for a
/// refusal `resultCode`, `description` (redacted) and `tokenRefused` (a system check's
/// code, after which the Rust client fetches a new auth token and sends once more), with
/// the description as the gateway sent it behind `rawDescription()`; for a rejected
/// notification `reason` (its failed check's name).
pub(crate) fn thrown(env: &Env, error: &Error) -> napi::Error {
    thrown_holding(env, error.clone(), None)
}

/// [`thrown`], with the secure key and auth token of `context`, the request's, masked in
/// every text of the gateway the error carries.
pub(crate) fn thrown_holding(
    env: &Env,
    error: Error,
    context: Option<&paytoken_protocol::Context>,
) -> napi::Error {
    let shown = error.shown(context);
    let error = &shown.error;
    let made = error_object(env, error, error.to_string()).and_then(|mut object| {
        if let Some(description) = shown.description {
            object.set_named_property("description", description)?;
        }
        if let Some(raw) = shown.raw_description {
            raw::attach(env, &mut object, "rawDescription", raw)?;
        }
        Ok(object)
    });
    match made {
        Ok(object) => napi::Error::from(object.to_unknown()),
        Err(failed) => failed,
    }
}

/// [`thrown`], its message `message`: for an error whose words name what the caller
/// passed (an option's key, redacted).
pub(crate) fn thrown_saying(env: &Env, error: &Error, message: String) -> napi::Error {
    match error_object(env, error, message) {
        Ok(object) => napi::Error::from(object.to_unknown()),
        Err(failed) => failed,
    }
}

fn error_object<'env>(
    env: &'env Env,
    error: &Error,
    message: String,
) -> napi::Result<Object<'env>> {
    let plain = napi::Error::new(napi::Status::GenericFailure, message);
    let mut object = env.create_error(plain)?;
    object.set_named_property("code", code(error))?;
    object.set_named_property("mayHaveBeenProcessed", error.may_have_been_processed())?;
    object.set_named_property("field", error.field())?;
    if let Error::Unverified { check } = error {
        object.set_named_property("reason", check.name())?;
    }
    if let Some(refusal) = error.refusal() {
        object.set_named_property("resultCode", refusal.result.code.as_str())?;
        let token_refused = refusal.family() == CodeFamily::SystemCheck;
        object.set_named_property("tokenRefused", token_refused)?;
    }
    Ok(object)
}

/// A value of the caller's that no type of paytoken takes: `PAYTOKEN_INVALID_INPUT`,
/// with its `field` as every error has it.
pub(crate) fn invalid(env: &Env, error: impl Into<Error>) -> napi::Error {
    thrown(env, &error.into())
}

/// `PAYTOKEN_INVALID_INPUT` for `field`, saying `reason`.
pub(crate) fn invalid_field(env: &Env, field: &'static str, reason: &'static str) -> napi::Error {
    invalid(env, Error::Invalid { field, reason })
}
