//! Answers recorded off the wire (a cassette, a proxy's log, the conformance kit's
//! vectors) read by their operation's parser, as the live `parse` reads them.

use std::collections::HashMap;

use paytoken_protocol::OperationKind;
use paytoken_protocol::recorded::{self, SentFields};
use pyo3::prelude::*;

use crate::answer;
use crate::errors::{invalid_field, raised};
use crate::operation::Operation;

/// The answer `status` and `body` to a request of `operation` (`pay`, `inquiry`, ... as
/// `Operation.name` says) that sent `sent`, its fields by wire name (`merchantTransactionId`,
/// `amount`, `currency`, and the path's id as `paymentId` or `registrationId`): what
/// `parse` of that operation gives, or raises.
#[pyfunction]
pub(crate) fn read_answer(
    py: Python<'_>,
    operation: &str,
    sent: HashMap<String, String>,
    status: u16,
    body: &[u8],
) -> PyResult<Py<PyAny>> {
    let kind = kind(operation)?;
    let path_id = sent
        .get("paymentId")
        .or_else(|| sent.get("registrationId"))
        .map(String::as_str);
    let fields = sent
        .iter()
        .map(|(name, value)| (name.as_str(), value.as_str()));
    let sent = SentFields::from_wire(path_id, fields);
    let reading = recorded::read(kind, &sent, status, body).map_err(|error| raised(&error))?;
    answer::reading(py, reading, None)
}

/// The operation a recorded request is: its form's fields as sent (`[(name, value), ...]`;
/// the caller's own and the checksum are the context's), and the id its path ends with.
/// Its `request(context)` sends that form again, signed.
///
/// Raises `InvalidInput` for a field of the wrong form, a field the operation never sends,
/// or a path id missing.
#[pyfunction]
#[pyo3(signature = (operation, fields, *, path_id=None))]
pub(crate) fn asked(
    operation: &str,
    fields: Vec<(String, String)>,
    path_id: Option<&str>,
) -> PyResult<Operation> {
    let fields = fields
        .iter()
        .map(|(name, value)| (name.as_str(), value.as_str()));
    recorded::asked(kind(operation)?, path_id, fields)
        .map(Operation::of)
        .map_err(|error| raised(&error))
}

/// The operation named `name`, as `Operation.name` says it.
fn kind(name: &str) -> PyResult<OperationKind> {
    OperationKind::from_name(name)
        .ok_or_else(|| invalid_field("operation", "is not an operation of the interface"))
}
