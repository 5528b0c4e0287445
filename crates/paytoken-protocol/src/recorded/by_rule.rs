//! A checksum rule by its name in the conformance kit (`payment`, `card_registration`,
//! `inquiry_by_payment_id`, ..., `notification`), its parts read by their wire names: what
//! a binding's `sign` computes, and what an SDK author checks theirs against.

use paytoken_checksum::{Checksum, Credentials, rules};
use paytoken_types::{
    Amount, Bic, CardNumber, Customer, Email, MerchantTransactionId, PaymentId, RegistrationId,
};

use crate::notification::names;
use crate::{Error, fields};

/// The checksum of the rule named `rule` for `credentials`, each other part what `value`
/// gives for its wire name (`merchantTransactionId`, `amount`, `card.number`, ...).
///
/// ```
/// use paytoken_checksum::{Credentials, SecureKey};
/// use paytoken_protocol::recorded::checksum_by_rule;
///
/// let credentials = Credentials::merchant("11344".parse()?, SecureKey::new("key")?);
/// let values = [("merchantTransactionId", "order-7"), ("amount", "50.00")];
/// let value = |name: &str| values.iter().find(|(given, _)| *given == name).map(|(_, v)| *v);
/// let checksum = checksum_by_rule("payment", &credentials, value)?;
/// assert_eq!(checksum.to_hex().as_str(), "0aa6dbcdec108ad588ecd5259430c2d1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`Error::Invalid`] for a rule of no such name or a part `value` does not give,
/// [`Error::Value`] for a part of the wrong form, [`Error::Checksum`] for a part holding
/// the checksum's separator.
pub fn checksum_by_rule<'v>(
    rule: &str,
    credentials: &Credentials,
    value: impl Fn(&'static str) -> Option<&'v str>,
) -> Result<Checksum, Error> {
    let part = |name: &'static str| {
        value(name).ok_or(Error::Invalid {
            field: name,
            reason: "is missing",
        })
    };
    let amount = || Ok::<_, Error>(part(fields::AMOUNT)?.parse::<Amount>()?);
    let payment_id = || Ok::<_, Error>(PaymentId::new(part(PaymentId::FIELD)?)?);
    let registration_id = || Ok::<_, Error>(RegistrationId::new(part(RegistrationId::FIELD)?)?);
    let order_id = || {
        Ok::<_, Error>(MerchantTransactionId::new(part(
            MerchantTransactionId::FIELD,
        )?)?)
    };
    let checksum = match rule {
        "payment" => rules::payment(credentials, &order_id()?, amount()?).compute(),
        "card_registration" => {
            let number = CardNumber::new(part(CardNumber::FIELD)?)?;
            rules::card_registration(credentials, &number).compute()
        }
        "bank_account_registration" => {
            let bic = Bic::new(part(Bic::FIELD)?)?;
            rules::bank_account_registration(credentials, &bic).compute()
        }
        "token_payment" => {
            rules::token_payment(credentials, &registration_id()?, amount()?).compute()
        }
        "delete_token" => rules::delete_token(credentials, &registration_id()?).compute(),
        "installments" => rules::installments(credentials, &registration_id()?).compute(),
        "customer_signup" => {
            let email = Email::new(part(Customer::EMAIL)?)?;
            let given_name = part(Customer::GIVEN_NAME)?;
            let surname = part(Customer::SURNAME)?;
            rules::customer_signup(credentials, given_name, surname, &email)?.compute()
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
            part(names::PAYMENT_ID)?,
            part(names::MERCHANT_TRANSACTION_ID)?,
            part(names::AMOUNT)?,
            part(names::TRANSACTION_STATUS)?,
        )?,
        _ => {
            return Err(Error::Invalid {
                field: "rule",
                reason: "is not a checksum rule",
            });
        }
    };
    Ok(checksum)
}
