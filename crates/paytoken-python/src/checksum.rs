//! The checksum rules on their own: `sign(rule, credentials, values)` is the protocol
//! crate's `checksum_by_rule`, its values read by their wire names.

use std::collections::HashMap;

use paytoken_protocol::recorded::checksum_by_rule;
use pyo3::prelude::*;

use crate::credentials::Credentials;
use crate::errors::raised;

/// The checksum of `rule` (`payment`, `token_payment`, `inquiry_by_payment_id`, ... as
/// the conformance kit's `checksum-rules.json` names them) for `credentials`, its other
/// parts from `values` by their wire names (`merchantTransactionId`, `amount`, ...): 32
/// lowercase hexadecimal digits.
///
/// Raises `InvalidInput` for an unknown rule, or a part missing or of the wrong form.
///
/// >>> credentials = paytoken.Credentials.merchant("11344", paytoken.SecureKey("key"))
/// >>> paytoken.sign("payment", credentials, {"merchantTransactionId": "order-7", "amount": "50.00"})
/// '0aa6dbcdec108ad588ecd5259430c2d1'
#[pyfunction]
pub(crate) fn sign(
    rule: &str,
    credentials: &Credentials,
    values: HashMap<String, String>,
) -> PyResult<String> {
    let value = |name: &str| values.get(name).map(String::as_str);
    let checksum = checksum_by_rule(rule, &credentials.0, value).map_err(|error| raised(&error))?;
    Ok(checksum.to_hex().as_str().to_owned())
}
