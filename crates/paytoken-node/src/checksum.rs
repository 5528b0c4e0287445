//! The checksum rules on their own: `sign(rule, credentials, values)` is the checksum
//! crate's function of that name, its values read by their wire names.

use std::collections::HashMap;

use napi::bindgen_prelude::Env;
use napi_derive::napi;
use paytoken_checksum::rules;
use paytoken_types::{Amount, Email, MerchantTransactionId};

use crate::credentials::Credentials;
use crate::errors::{invalid, invalid_field};

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
    rule: String,
    credentials: &Credentials,
    values: HashMap<String, String>,
) -> napi::Result<String> {
    let value = |name: &'static str| {
        (values.get(name).map(String::as_str)).ok_or_else(|| invalid_field(env, name, "is missing"))
    };
    let refused = |error: paytoken_types::Error| invalid(env, error);
    let amount = || value("amount")?.parse::<Amount>().map_err(refused);
    let payment_id = || value("paymentId")?.parse().map_err(refused);
    let registration_id = || value("registrationId")?.parse().map_err(refused);
    let order_id = || MerchantTransactionId::new(value("merchantTransactionId")?).map_err(refused);
    let credentials = &credentials.0;
    let checksum = match rule.as_str() {
        "payment" => rules::payment(credentials, &order_id()?, amount()?).compute(),
        "card_registration" => {
            let number = value("card.number")?.parse().map_err(refused)?;
            rules::card_registration(credentials, &number).compute()
        }
        "bank_account_registration" => {
            let bic = value("bankAccount.bic")?.parse().map_err(refused)?;
            rules::bank_account_registration(credentials, &bic).compute()
        }
        "token_payment" => {
            rules::token_payment(credentials, &registration_id()?, amount()?).compute()
        }
        "delete_token" => rules::delete_token(credentials, &registration_id()?).compute(),
        "installments" => rules::installments(credentials, &registration_id()?).compute(),
        "customer_signup" => {
            let email = Email::new(value("customer.email")?).map_err(refused)?;
            rules::customer_signup(
                credentials,
                value("customer.givenName")?,
                value("customer.surname")?,
                &email,
            )
            .map_err(|error| invalid(env, error))?
            .compute()
        }
        "cards_and_accounts" => rules::cards_and_accounts(credentials).compute(),
        "invoice_list" => rules::invoice_list(credentials).compute(),
        "inquiry_by_payment_id" => {
            rules::inquiry_by_payment_id(credentials, &payment_id()?).compute()
        }
        "inquiry_by_merchant_transaction_id" => {
            rules::inquiry_by_merchant_transaction_id(credentials, &order_id()?).compute()
        }
        "capture" => rules::capture(credentials, &payment_id()?, amount()?).compute(),
        "refund" => rules::refund(credentials, &payment_id()?, amount()?).compute(),
        "cancel" => rules::cancel(credentials, &payment_id()?).compute(),
        "repeat_payment" => rules::repeat_payment(credentials, &payment_id()?, amount()?).compute(),
        "notification" => rules::notification(
            credentials.secure_key(),
            value("paymentId")?,
            value("merchantTransactionId")?,
            value("amount")?,
            value("transactionStatus")?,
        )
        .map_err(|error| invalid(env, error))?,
        _ => return Err(invalid_field(env, "rule", "is not a checksum rule")),
    };
    Ok(checksum.to_hex().as_str().to_owned())
}
