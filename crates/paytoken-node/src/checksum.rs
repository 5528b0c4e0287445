//! The checksum rules on their own: `sign(rule, credentials, values)` is the protocol
//! crate's `checksum_by_rule`, its values read by their wire names.

use napi::bindgen_prelude::{ClassInstance, Env, Object};
use napi_derive::napi;
use paytoken_protocol::recorded::checksum_by_rule;

use crate::args::{self, Given};
use crate::credentials::Credentials;
use crate::errors::thrown;

/// The checksum of `rule` (`payment`, `token_payment`, `inquiry_by_payment_id`, ... as
/// the conformance kit's `checksum-rules.json` names them) for `credentials`, its other
/// parts from `values` by their wire names (`merchantTransactionId`, `amount`, ...): 32
/// lowercase hexadecimal digits.
///
/// Throws `PAYTOKEN_INVALID_INPUT` for an unknown rule, or a part missing or of the wrong
/// form.
///
/// ```js
/// const credentials = paytoken.Credentials.merchant('11344', new paytoken.SecureKey('key'))
/// paytoken.sign('payment', credentials, { merchantTransactionId: 'order-7', amount: '50.00' })
/// // '0aa6dbcdec108ad588ecd5259430c2d1'
/// ```
#[napi]
pub fn sign(
    env: &Env,
    #[napi(ts_arg_type = "string")] rule: Given<'_, String>,
    #[napi(ts_arg_type = "Credentials")] credentials: Given<'_, ClassInstance<'_, Credentials>>,
    #[napi(ts_arg_type = "Record<string, string>")] values: Given<'_, Object<'_>>,
) -> napi::Result<String> {
    let rule = args::text(env, rule, "rule")?;
    let credentials = args::instance(env, credentials, "credentials", "expected Credentials")?;
    let values = args::record(env, values, "values")?;
    let value = |name: &str| values.get(name).map(String::as_str);
    let checksum =
        checksum_by_rule(&rule, &credentials.0, value).map_err(|error| thrown(env, &error))?;
    Ok(checksum.to_hex().as_str().to_owned())
}
