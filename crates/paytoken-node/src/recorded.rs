//! Answers recorded off the wire (a cassette, a proxy's log, the conformance kit's
//! vectors) read by their operation's parser, as the live `parse` reads them; and requests
//! recorded off the wire read back into their operation.

use std::collections::HashMap;

use napi::bindgen_prelude::{Either, Either8, Env, Uint8Array};
use napi_derive::napi;
use paytoken_protocol::OperationKind;
use paytoken_protocol::recorded::{self, SentFields};

use crate::answer::{
    self, AuthTokenGrant, Deleted, InstallmentCounts, InvoicePage, Registered, SignedUp,
    StoredRegistrations, Transaction,
};
use crate::errors::{invalid_field, thrown};
use crate::operation::Operation;
use crate::values::bytes_of;

/// The answer `status` and `body` to a request of `operation` (`pay`, `inquiry`, ... as
/// `Operation.name` says) that sent `sent`, its fields by wire name
/// (`merchantTransactionId`, `amount`, `currency`, and the path's id as `paymentId` or
/// `registrationId`): what `parse` of that operation gives, or throws.
#[napi]
#[allow(
    clippy::type_complexity,
    reason = "napi-rs writes the TypeScript union from the type spelled out here"
)]
pub fn read_answer(
    env: &Env,
    operation: String,
    sent: HashMap<String, String>,
    status: u16,
    body: Either<String, Uint8Array>,
) -> napi::Result<
    Either8<
        Transaction,
        AuthTokenGrant,
        Registered,
        SignedUp,
        Deleted,
        InstallmentCounts,
        StoredRegistrations,
        InvoicePage,
    >,
> {
    let kind = kind(env, &operation)?;
    let path_id = (sent.get("paymentId"))
        .or_else(|| sent.get("registrationId"))
        .map(String::as_str);
    let fields = (sent.iter()).map(|(name, value)| (name.as_str(), value.as_str()));
    let sent = SentFields::from_wire(path_id, fields);
    let reading = recorded::read(kind, &sent, status, bytes_of(&body))
        .map_err(|error| thrown(env, &error))?;
    answer::reading(env, reading)
}

/// The operation a recorded request is: its form's fields as sent (`[name, value]` pairs;
/// the caller's own and the checksum are the context's), and the id its path ends with.
/// Its `request(context)` sends that form again, signed.
///
/// Throws `PAYTOKEN_INVALID_INPUT` for a field of the wrong form, a field the operation
/// never sends, or a path id missing.
#[napi]
pub fn asked(
    env: &Env,
    operation: String,
    fields: Vec<(String, String)>,
    path_id: Option<String>,
) -> napi::Result<Operation> {
    let fields = (fields.iter()).map(|(name, value)| (name.as_str(), value.as_str()));
    recorded::asked(kind(env, &operation)?, path_id.as_deref(), fields)
        .map(Operation)
        .map_err(|error| thrown(env, &error))
}

/// The operation named `name`, as `Operation.name` says it.
fn kind(env: &Env, name: &str) -> napi::Result<OperationKind> {
    OperationKind::from_name(name)
        .ok_or_else(|| invalid_field(env, "operation", "is not an operation of the interface"))
}
