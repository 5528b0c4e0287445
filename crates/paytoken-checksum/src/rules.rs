//! One function per checksum rule: which fields are joined, in which order (docs/WIRE.md,
//! "Checksums", has the same table for readers outside Rust).
//!
//! Every rule opens with the member (or partner) id and the secure key, then its own
//! fields, all joined with `|` and hashed with MD5 as UTF-8 (the interface does not name an
//! encoding; UTF-8 is what every public client sends). A rule returns a [`ChecksumInput`]:
//! [`compute`](ChecksumInput::compute) streams the parts and separators straight into MD5,
//! never building the joined text, and [`masked`](ChecksumInput::masked) shows that text
//! with the key (and a card number) masked, to compare with a gateway's documentation.
//!
//! | rule | joined fields |
//! |---|---|
//! | [`payment`] | id, key, merchantTransactionId, amount |
//! | [`card_registration`] | id, key, card number |
//! | [`bank_account_registration`] | id, key, bic |
//! | [`token_payment`] | id, key, registrationId, amount |
//! | [`delete_token`] | id, key, registrationId |
//! | [`customer_signup`] | id, key, givenName, surname, email |
//! | [`cards_and_accounts`] | id, key |
//! | [`installments`] | id, key, registrationId |
//! | [`invoice_list`] | id, key |
//! | [`inquiry_by_payment_id`] | id, key, paymentId |
//! | [`inquiry_by_merchant_transaction_id`] | id, key, merchantTransactionId |
//! | [`capture`] | id, key, paymentId, amount |
//! | [`refund`] | id, key, paymentId, amount |
//! | [`cancel`] | id, key, paymentId |
//! | [`repeat_payment`] | id, key, paymentId (of the first payment), amount |
//! | [`notification`] | paymentId, merchantTransactionId, amount, transactionStatus, key |
//!
//! The notification's rule is the odd one: no id first, the key **last**, and the short
//! `transactionStatus` (`Y`, `N`, `P`, `3D`, `C`), never the long `status`. Its fields are
//! signed as the gateway sent them, so it takes their text, not typed values.

use core::fmt;

use paytoken_types::{
    Amount, AmountText, Bic, CardNumber, Email, MerchantTransactionId, PaymentId, RegistrationId,
};

use md5::{Digest, Md5};

use crate::{Checksum, ChecksumWriter, Credentials, Error, SecureKey};

/// One field of the joined text after the id and the key.
#[derive(Clone, Copy)]
enum Part<'a> {
    Text(&'a str),
    Amount(AmountText),
    CardNumber(&'a CardNumber),
}

impl Part<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            Self::Text(text) => text.as_bytes(),
            Self::Amount(amount) => amount.as_str().as_bytes(),
            Self::CardNumber(number) => number.expose_digits().as_bytes(),
        }
    }
}

/// The fields of one checksum, ready to hash (see the [module docs](self)).
#[derive(Clone, Copy)]
pub struct ChecksumInput<'a> {
    credentials: &'a Credentials,
    parts: [Option<Part<'a>>; 3],
}

impl<'a> ChecksumInput<'a> {
    /// The id, the key and `parts` (three at the most: no rule signs more).
    fn new<const N: usize>(credentials: &'a Credentials, parts: [Part<'a>; N]) -> Self {
        const { assert!(N <= 3, "no rule signs more than three fields") };
        let mut slots = [None; 3];
        for (slot, part) in slots.iter_mut().zip(parts) {
            *slot = Some(part);
        }
        Self {
            credentials,
            parts: slots,
        }
    }

    fn parts(&self) -> impl Iterator<Item = &Part<'a>> {
        self.parts.iter().flatten()
    }

    /// Hashes `id|key|field|...` without building the joined text.
    #[must_use]
    pub fn compute(&self) -> Checksum {
        let mut writer = ChecksumWriter::new(self.credentials);
        for part in self.parts() {
            writer.append(part.bytes());
        }
        writer.finish()
    }

    /// The joined text with the key shown as `***` and a card number masked:
    /// `11344|***|RestTransaction01|50.00`.
    #[must_use]
    pub fn masked(&self) -> MaskedInput<'_> {
        MaskedInput(self)
    }
}

impl fmt::Debug for ChecksumInput<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ChecksumInput({})", self.masked())
    }
}

/// The masked joined text of a [`ChecksumInput`].
#[derive(Debug, Clone, Copy)]
pub struct MaskedInput<'a>(&'a ChecksumInput<'a>);

impl fmt::Display for MaskedInput<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}|***", self.0.credentials.id())?;
        for part in self.0.parts() {
            match part {
                Part::Text(text) => write!(f, "|{text}")?,
                Part::Amount(amount) => write!(f, "|{}", amount.as_str())?,
                Part::CardNumber(number) => write!(f, "|{}", number.masked())?,
            }
        }
        Ok(())
    }
}

/// Refuses free text that holds the separator.
fn text<'a>(field: &'static str, value: &'a str) -> Result<Part<'a>, Error> {
    if value.contains('|') {
        return Err(Error::Separator { field });
    }
    Ok(Part::Text(value))
}

/// `id|key|text|amount`: the rule of every charge, and of the back-office moves that carry
/// an amount.
fn text_and_amount<'a>(
    credentials: &'a Credentials,
    text: &'a str,
    amount: Amount,
) -> ChecksumInput<'a> {
    ChecksumInput::new(
        credentials,
        [Part::Text(text), Part::Amount(amount.to_wire())],
    )
}

/// A payment, storing the card or not: `id|key|merchantTransactionId|amount`.
#[must_use]
pub fn payment<'a>(
    credentials: &'a Credentials,
    merchant_transaction_id: &'a MerchantTransactionId,
    amount: Amount,
) -> ChecksumInput<'a> {
    text_and_amount(credentials, merchant_transaction_id.as_str(), amount)
}

/// A stand-alone card registration: `id|key|cardNumber`.
#[must_use]
pub fn card_registration<'a>(
    credentials: &'a Credentials,
    card_number: &'a CardNumber,
) -> ChecksumInput<'a> {
    ChecksumInput::new(credentials, [Part::CardNumber(card_number)])
}

/// A stand-alone bank-account registration, which hashes the BIC where a card
/// registration hashes the number: `id|key|bic`.
#[must_use]
pub fn bank_account_registration<'a>(
    credentials: &'a Credentials,
    bic: &'a Bic,
) -> ChecksumInput<'a> {
    ChecksumInput::new(credentials, [Part::Text(bic.as_str())])
}

/// A payment with a stored token: `id|key|registrationId|amount`.
#[must_use]
pub fn token_payment<'a>(
    credentials: &'a Credentials,
    registration_id: &'a RegistrationId,
    amount: Amount,
) -> ChecksumInput<'a> {
    text_and_amount(credentials, registration_id.as_str(), amount)
}

/// Deleting a stored token: `id|key|registrationId`.
#[must_use]
pub fn delete_token<'a>(
    credentials: &'a Credentials,
    registration_id: &'a RegistrationId,
) -> ChecksumInput<'a> {
    ChecksumInput::new(credentials, [Part::Text(registration_id.as_str())])
}

/// Customer sign-up by a merchant or a partner: `id|key|givenName|surname|email`.
///
/// # Errors
/// [`Error::Separator`] when a name or the address holds `|`.
pub fn customer_signup<'a>(
    credentials: &'a Credentials,
    given_name: &'a str,
    surname: &'a str,
    email: &'a Email,
) -> Result<ChecksumInput<'a>, Error> {
    Ok(ChecksumInput::new(
        credentials,
        [
            text("customer.givenName", given_name)?,
            text("customer.surname", surname)?,
            text("customer.email", email.as_str())?,
        ],
    ))
}

/// The cards-and-accounts list of a merchant or a partner: `id|key`.
#[must_use]
pub fn cards_and_accounts(credentials: &Credentials) -> ChecksumInput<'_> {
    ChecksumInput::new(credentials, [])
}

/// The installment plans of a token: `id|key|registrationId`.
#[must_use]
pub fn installments<'a>(
    credentials: &'a Credentials,
    registration_id: &'a RegistrationId,
) -> ChecksumInput<'a> {
    ChecksumInput::new(credentials, [Part::Text(registration_id.as_str())])
}

/// The invoice list, where a gateway asks for a checksum: `id|key`.
#[must_use]
pub fn invoice_list(credentials: &Credentials) -> ChecksumInput<'_> {
    ChecksumInput::new(credentials, [])
}

/// An inquiry by payment id (`idType=PID`): `id|key|paymentId`.
#[must_use]
pub fn inquiry_by_payment_id<'a>(
    credentials: &'a Credentials,
    payment_id: &'a PaymentId,
) -> ChecksumInput<'a> {
    ChecksumInput::new(credentials, [Part::Text(payment_id.as_str())])
}

/// An inquiry by merchant transaction id (`idType=MID`): `id|key|merchantTransactionId`.
#[must_use]
pub fn inquiry_by_merchant_transaction_id<'a>(
    credentials: &'a Credentials,
    merchant_transaction_id: &'a MerchantTransactionId,
) -> ChecksumInput<'a> {
    ChecksumInput::new(credentials, [Part::Text(merchant_transaction_id.as_str())])
}

/// A capture of a pre-authorisation (`paymentType=CP`): `id|key|paymentId|amount`.
#[must_use]
pub fn capture<'a>(
    credentials: &'a Credentials,
    payment_id: &'a PaymentId,
    amount: Amount,
) -> ChecksumInput<'a> {
    text_and_amount(credentials, payment_id.as_str(), amount)
}

/// A refund of a captured or debited payment (`paymentType=RF`):
/// `id|key|paymentId|amount`.
#[must_use]
pub fn refund<'a>(
    credentials: &'a Credentials,
    payment_id: &'a PaymentId,
    amount: Amount,
) -> ChecksumInput<'a> {
    text_and_amount(credentials, payment_id.as_str(), amount)
}

/// A cancel (void) of a pre-authorisation not yet captured (`paymentType=RV`):
/// `id|key|paymentId`.
#[must_use]
pub fn cancel<'a>(credentials: &'a Credentials, payment_id: &'a PaymentId) -> ChecksumInput<'a> {
    ChecksumInput::new(credentials, [Part::Text(payment_id.as_str())])
}

/// A `REPEATED` recurring payment by the first payment's id, instead of a token:
/// `id|key|paymentId|amount`.
#[must_use]
pub fn repeat_payment<'a>(
    credentials: &'a Credentials,
    first_payment_id: &'a PaymentId,
    amount: Amount,
) -> ChecksumInput<'a> {
    text_and_amount(credentials, first_payment_id.as_str(), amount)
}

/// A notification (the gateway's call to `notificationUrl`, and the browser's return to
/// `merchantRedirectUrl`): `paymentId|merchantTransactionId|amount|transactionStatus|key`,
/// each field's text exactly as received.
///
/// ```
/// use paytoken_checksum::{SecureKey, rules};
///
/// let key = SecureKey::new("key")?;
/// let checksum = rules::notification(&key, "21565", "testTransaction", "50.00", "Y")?;
/// // MD5 of the documentation's joined text, `21565|testTransaction|50.00|Y|key`.
/// assert_eq!(checksum.to_hex().as_str(), "a85a0d08535985bb1e0a37ff61394f46");
/// # Ok::<(), paytoken_checksum::Error>(())
/// ```
///
/// # Errors
/// [`Error::Separator`] when a field holds `|`: the joined text would be ambiguous.
pub fn notification(
    key: &SecureKey,
    payment_id: &str,
    merchant_transaction_id: &str,
    amount: &str,
    transaction_status: &str,
) -> Result<Checksum, Error> {
    let fields = [
        ("paymentId", payment_id),
        ("merchantTransactionId", merchant_transaction_id),
        ("amount", amount),
        ("transactionStatus", transaction_status),
    ];
    let mut md5 = Md5::new();
    for (field, value) in fields {
        if value.contains('|') {
            return Err(Error::Separator { field });
        }
        md5.update(value.as_bytes());
        md5.update(b"|");
    }
    md5.update(key.expose_secret().as_bytes());
    Ok(Checksum::from_bytes(md5.finalize().into()))
}
