//! Answers recorded off the wire (a cassette, a proxy's log, the conformance kit's
//! vectors) read by their operation's parser, as the live `parse` reads them.

use std::collections::HashMap;

use paytoken_protocol::OperationKind;
use paytoken_protocol::recorded::{self, Reading, SentFields};
use pyo3::prelude::*;

use crate::answer;
use crate::errors::{invalid, raised};

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
    let kind = OperationKind::ALL
        .into_iter()
        .find(|kind| kind.name() == operation)
        .ok_or_else(|| invalid(format!("{operation}: is not an operation")))?;
    let path_id = sent
        .get("paymentId")
        .or_else(|| sent.get("registrationId"))
        .map(String::as_str);
    let fields = sent
        .iter()
        .map(|(name, value)| (name.as_str(), value.as_str()));
    let sent = SentFields::from_wire(path_id, fields);
    match recorded::read(kind, &sent, status, body).map_err(|error| raised(&error))? {
        Reading::Transaction(paid) => answer::transaction(py, *paid),
        Reading::AuthToken(grant) => answer::grant(py, grant),
        Reading::Registered(stored) => answer::registered(py, stored),
        Reading::SignedUp(created) => answer::signed_up(py, created),
        Reading::Deleted(gone) => answer::deleted(py, gone),
        Reading::Installments(plans) => answer::installments(py, plans),
        Reading::CardsAndAccounts(listed) => answer::stored(py, listed),
        Reading::Invoices(page) => answer::invoices(py, page),
        _ => Err(invalid(format!(
            "{operation}: has no reading in this version"
        ))),
    }
}
