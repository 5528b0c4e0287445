//! Answers recorded off the wire (a cassette, a proxy's log, the conformance kit's
//! vectors) read by their operation's parser, as the live `parse` reads them; and requests
//! recorded off the wire read back into their operation.

use napi::bindgen_prelude::{Array, Env, Object};
use napi_derive::napi;
use paytoken_protocol::OperationKind;
use paytoken_protocol::recorded::{self, SentFields};

use crate::answer;
use crate::args::{self, Given, GivenBody};
use crate::errors::{invalid_field, thrown};
use crate::operation::Operation;

/// The answer `status` and `body` to a request of `operation` (`pay`, `inquiry`, ... as
/// `Operation.name` says) that sent `sent`, its fields by wire name
/// (`merchantTransactionId`, `amount`, `currency`, and the path's id as `paymentId` or
/// `registrationId`): what `parse` of that operation gives, or throws.
#[napi(
    ts_return_type = "Transaction | AuthTokenGrant | Registered | SignedUp | Deleted | InstallmentCounts | StoredRegistrations | InvoicePage"
)]
pub fn read_answer<'env>(
    env: &'env Env,
    #[napi(ts_arg_type = "string")] operation: Given<'_, String>,
    #[napi(ts_arg_type = "Record<string, string>")] sent: Given<'_, Object<'_>>,
    #[napi(ts_arg_type = "number")] status: Given<'_, f64>,
    #[napi(ts_arg_type = "string | Uint8Array")] body: GivenBody<'_>,
) -> napi::Result<Object<'env>> {
    let kind = kind(env, operation)?;
    let sent = args::record(env, sent, "sent")?;
    let status = args::status(env, status)?;
    let body = args::body(env, body, "body")?;
    let path_id = (sent.get("paymentId"))
        .or_else(|| sent.get("registrationId"))
        .map(String::as_str);
    let fields = (sent.iter()).map(|(name, value)| (name.as_str(), value.as_str()));
    let sent = SentFields::from_wire(path_id, fields);
    let reading =
        recorded::read(kind, &sent, status, body.bytes()).map_err(|error| thrown(env, &error))?;
    answer::reading(env, reading, None)
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
    #[napi(ts_arg_type = "string")] operation: Given<'_, String>,
    #[napi(ts_arg_type = "Array<[string, string]>")] fields: Given<'_, Array<'_>>,
    #[napi(ts_arg_type = "string | undefined | null")] path_id: Option<Given<'_, String>>,
) -> napi::Result<Operation> {
    let kind = kind(env, operation)?;
    let fields = args::pairs(env, fields, "fields")?;
    let path_id = args::optional_text(env, path_id, "pathId")?;
    let fields = (fields.iter()).map(|(name, value)| (name.as_str(), value.as_str()));
    recorded::asked(kind, path_id.as_deref(), fields)
        .map(Operation::of)
        .map_err(|error| thrown(env, &error))
}

/// The operation named `name`, as `Operation.name` says it.
fn kind(env: &Env, name: Given<'_, String>) -> napi::Result<OperationKind> {
    let name = args::text(env, name, "operation")?;
    OperationKind::from_name(&name)
        .ok_or_else(|| invalid_field(env, "operation", "is not an operation of the interface"))
}
