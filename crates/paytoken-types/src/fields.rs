//! The table of the wire's fields: for each name, what it is to a client reading an answer
//! ([`Role`]), how its value is written ([`Form`]), what it is to whoever shows it
//! ([`Sensitivity`]) and how the interface's samples write it ([`Sample`]). The sandbox's
//! varied and learned answers, the command's shapes and every mask ask it; adding a field,
//! or making one secret, is one row.
//!
//! A name is looked up as the gateway's readers read it: its last segment after `.` or
//! inside `[...]` (`card.Number`, `authentication[sKey]`), in any case, `_` and `-`
//! ignored ([`find`]). Who needs the exact spelling (the shapes a deployment uses) compares
//! [`Field::name`].

/// What a field is to a client reading an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Role {
    /// Decides the outcome, or is what the call exists to return (`paymentId`, the result
    /// code, `transactionStatus`, a registration id): never reshaped, never added.
    Deciding,
    /// Echoes the request (`merchantTransactionId`, `amount`, `currency`): kept in an
    /// equivalent form only.
    Echoed,
    /// Shown, never decided on: any form, or absent.
    Informational,
    /// Holds other fields: an object, a list, or a list of one.
    Container,
    /// Kept as sent and never reshaped: a request's own field, or an answer's the reader
    /// looks at (`result.description`).
    Kept,
}

/// How a field's value is written, which decides which other forms are equivalent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Form {
    /// Free text: only itself is equivalent.
    Text,
    /// An amount: `50`, `50.0`, `50.00` and the JSON number `50.00` are one.
    Money,
    /// A code whose case the reader ignores (`EUR`, `eur`).
    Code,
    /// A month: `3` and `03`, text or number.
    Month,
    /// A year: `2030` and `30`, text or number.
    Year,
    /// A date and time, in one of the forms the reader takes.
    Time,
    /// A numeric id, text or number.
    Id,
    /// An object that some answers give as a list of one (`card`).
    OneOrMany,
}

/// What a field's value is to whoever shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Sensitivity {
    /// Never shown: the secure key, a checksum, a CVV, an auth token.
    Secret,
    /// A card number: its first six and last four digits.
    CardNumber,
    /// An IBAN: its country and last four characters.
    Iban,
    /// A person's data: a name, an address, an e-mail, a phone number, an IP address, a
    /// birth date.
    Personal,
    /// Issued or decided by the gateway (ids, result codes, amounts, times): as sent.
    Issued,
    /// Anything else: as sent, but for a card number or an IBAN inside it.
    Plain,
    /// Free text a person or the gateway wrote (a result's description, a remark): as
    /// [`Sensitivity::Plain`], and where a layer shows it, through the one redactor of
    /// free text (`paytoken_protocol::redact`), since it may echo anything it was sent.
    FreeText,
}

/// How the interface's sample answers write a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Sample {
    /// No sample answer holds it (a request's field, or another gateway's name).
    Absent,
    /// As text.
    Text,
    /// As text in upper case.
    UpperCase,
    /// As an object or a list.
    Structured,
}

/// One row of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The name's last segment as the interface spells it.
    pub name: &'static str,
    /// What it is to a client reading an answer.
    pub role: Role,
    /// How its value is written.
    pub form: Form,
    /// What it is to whoever shows it.
    pub sensitivity: Sensitivity,
    /// How the sample answers write it.
    pub sample: Sample,
}

const fn row(
    name: &'static str,
    role: Role,
    form: Form,
    sensitivity: Sensitivity,
    sample: Sample,
) -> Field {
    Field {
        name,
        role,
        form,
        sensitivity,
        sample,
    }
}

use Form::{Code, Id, Money, Month, OneOrMany, Text, Time, Year};
use Role::{Container, Deciding, Echoed, Informational, Kept};
use Sample::{Absent, Structured, UpperCase};
use Sensitivity::{CardNumber, FreeText, Iban, Issued, Personal, Plain, Secret};

/// Every field the table knows, by name. Names that hold a secret part (`token`,
/// `checksum`, ...) need no row.
pub const TABLE: &[Field] = &[
    // What decides an answer.
    row("paymentId", Deciding, Text, Issued, Sample::Text),
    row("result", Deciding, Text, Plain, Structured),
    row("statusInvoiceResult", Deciding, Text, Plain, Structured),
    row("code", Deciding, Text, Issued, Sample::Text),
    row("transactionStatus", Deciding, Text, Plain, Sample::Text),
    row("status", Deciding, Code, Plain, Sample::Text),
    row("registrationId", Deciding, Text, Issued, Sample::Text),
    row("customerId", Deciding, Text, Issued, Sample::Text),
    row("installment", Deciding, Text, Plain, Sample::Text),
    row("installments", Deciding, Text, Plain, Absent),
    row("redirect", Deciding, Text, Plain, Structured),
    // What echoes the request.
    row("merchantTransactionId", Echoed, Text, Plain, Sample::Text),
    row("orderId", Echoed, Text, Plain, Sample::Text),
    row("amount", Echoed, Money, Issued, Sample::Text),
    row("currency", Echoed, Code, Plain, UpperCase),
    row("paymentType", Echoed, Code, Plain, UpperCase),
    row("memberId", Echoed, Id, Plain, Sample::Text),
    row("partnerId", Echoed, Id, Plain, Sample::Text),
    // What is shown and never decided on.
    row("tmpl_amount", Informational, Money, Issued, Sample::Text),
    row("tmpl_currency", Informational, Code, Plain, UpperCase),
    row("paymentBrand", Informational, Code, Plain, UpperCase),
    row("paymentMode", Informational, Code, Plain, UpperCase),
    row("registrationStatus", Informational, Code, Plain, UpperCase),
    row("expiryMonth", Informational, Month, Plain, Sample::Text),
    row("expiryYear", Informational, Year, Plain, Sample::Text),
    row("timestamp", Informational, Time, Issued, Sample::Text),
    row("createdDate", Informational, Time, Issued, Sample::Text),
    row("descriptor", Informational, Text, FreeText, Sample::Text),
    row("remark", Informational, Text, FreeText, Sample::Text),
    row("holder", Informational, Text, Personal, Sample::Text),
    row("LoginName", Informational, Text, Plain, Sample::Text),
    row("cardType", Informational, Text, Plain, Sample::Text),
    row("invoiceStatus", Informational, Text, Plain, Sample::Text),
    row("expirationPeriod", Informational, Text, Plain, Sample::Text),
    row("systemInvoiceId", Informational, Text, Issued, Sample::Text),
    row("transactionUrl", Informational, Text, Plain, Sample::Text),
    row("raiseby", Informational, Text, Plain, Sample::Text),
    row(
        "orderDescription",
        Informational,
        Text,
        FreeText,
        Sample::Text,
    ),
    row("trackingid", Informational, Text, Plain, Sample::Text),
    row("dtstamp", Informational, Text, Plain, Sample::Text),
    row("customername", Informational, Text, Personal, Sample::Text),
    row(
        "customeraddress",
        Informational,
        Text,
        Personal,
        Sample::Text,
    ),
    row(
        "customermobileno",
        Informational,
        Text,
        Personal,
        Sample::Text,
    ),
    row("customeremail", Informational, Text, Personal, Sample::Text),
    // What holds other fields.
    row("card", Container, OneOrMany, Plain, Structured),
    row("cards", Container, Text, Plain, Structured),
    row("bankaccount", Container, Text, Plain, Structured),
    row("bankaccounts", Container, Text, Plain, Structured),
    row("invoiceList", Container, Text, Plain, Structured),
    row("customerDetails", Container, Text, Plain, Structured),
    row("invoiceDetails", Container, Text, Plain, Structured),
    // Kept as sent: the rest of the samples' fields.
    row("customer", Kept, Text, Plain, Structured),
    row("parameters", Kept, Text, Plain, Structured),
    row("description", Kept, Text, FreeText, Sample::Text),
    row("bic", Kept, Text, Plain, Sample::Text),
    row("bin", Kept, Text, Plain, Sample::Text),
    row("iban", Kept, Text, Iban, Sample::Text),
    row("last4Digits", Kept, Text, Plain, Sample::Text),
    row("lastFourDigits", Kept, Text, Plain, Sample::Text),
    row("eci", Kept, Text, Plain, Sample::Text),
    row("method", Kept, Text, Plain, Sample::Text),
    row("target", Kept, Text, Plain, Sample::Text),
    row("terminalId", Kept, Text, Plain, Sample::Text),
    row("recurringType", Kept, Text, Plain, Sample::Text),
    row("url", Kept, Text, Plain, Sample::Text),
    row("value", Kept, Text, Plain, Sample::Text),
    row("name", Kept, Text, Personal, Sample::Text),
    row("AuthToken", Kept, Text, Secret, Sample::Text),
    // Kept as sent: what requests carry, and other gateways' names for it.
    row("cvv", Kept, Text, Secret, Absent),
    row("cvv2", Kept, Text, Secret, Absent),
    row("cvc", Kept, Text, Secret, Absent),
    row("cvc2", Kept, Text, Secret, Absent),
    row("sKey", Kept, Text, Secret, Absent),
    row("secureKey", Kept, Text, Secret, Absent),
    row("cardNumber", Kept, Text, CardNumber, Absent),
    row("pan", Kept, Text, CardNumber, Absent),
    row("accountNumber", Kept, Text, Iban, Absent),
    row("givenName", Kept, Text, Personal, Absent),
    row("surname", Kept, Text, Personal, Absent),
    row("firstName", Kept, Text, Personal, Absent),
    row("lastName", Kept, Text, Personal, Absent),
    row("sex", Kept, Text, Personal, Absent),
    row("email", Kept, Text, Personal, Absent),
    row("emailAddress", Kept, Text, Personal, Absent),
    row("phone", Kept, Text, Personal, Absent),
    row("mobile", Kept, Text, Personal, Absent),
    row("telnocc", Kept, Text, Personal, Absent),
    row("birthDate", Kept, Text, Personal, Absent),
    row("ip", Kept, Text, Personal, Absent),
    row("address", Kept, Text, Personal, Absent),
    row("street", Kept, Text, Personal, Absent),
    row("street1", Kept, Text, Personal, Absent),
    row("street2", Kept, Text, Personal, Absent),
    row("city", Kept, Text, Personal, Absent),
    row("postcode", Kept, Text, Personal, Absent),
    row("zip", Kept, Text, Personal, Absent),
    row("state", Kept, Text, Personal, Absent),
];

/// The wire's fields that hold a secret, a card number or an IBAN, as the interface
/// spells them: what no module that shows values may name itself (`cargo xtask tidy`
/// holds it), since the table decides for them.
pub const WIRE_SECRETS: &[&str] = &[
    "card.number",
    "card.cvv",
    "authentication.sKey",
    "authentication.checksum",
    "authToken",
    "bankAccount.iban",
    "sKey",
    "secureKey",
    "checksum",
    "cvv",
];

/// Parts of a name that make it a secret wherever they stand in its last segment: a
/// field's (`accessToken`, `apiKey`, `sKey`) or a header's (`X-Api-Key`, `Authorization`,
/// `Cookie`), which the table reads as it reads a field's.
pub(crate) const SECRET_PARTS: &[&str] = &[
    "checksum",
    "token",
    "password",
    "secret",
    "key",
    "authorization",
    "cookie",
    "credential",
];

/// The longest name segment the table is asked about; a longer one is not in it.
const LONGEST_SEGMENT: usize = 64;

/// The row for `name`, read as the gateway reads it: its last segment, any case, `_` and
/// `-` ignored.
#[must_use]
pub fn find(name: &str) -> Option<&'static Field> {
    let mut asked = [0_u8; LONGEST_SEGMENT];
    row_of(normalized(last_segment(name), &mut asked)?)
}

/// The row whose name, read as [`normalized`] reads it, is `segment` (already normalized):
/// each row compared byte by byte, stopping at its first difference.
fn row_of(segment: &str) -> Option<&'static Field> {
    TABLE.iter().find(|field| {
        field
            .name
            .bytes()
            .filter(|byte| !matches!(byte, b'_' | b'-'))
            .map(|byte| byte.to_ascii_lowercase())
            .eq(segment.bytes())
    })
}

/// `name`'s last segment after `.` or inside `[...]`.
fn last_segment(name: &str) -> &str {
    let trimmed = name.trim().trim_end_matches(']');
    let start = trimmed.rfind(['.', '[']).map_or(0, |at| at + 1);
    trimmed.get(start..).unwrap_or_default()
}

/// `segment` in lower case without `_` and `-`, written into `buffer`; `None` when it is
/// empty or longer than the buffer.
fn normalized<'b>(segment: &str, buffer: &'b mut [u8; LONGEST_SEGMENT]) -> Option<&'b str> {
    let mut length = 0;
    for byte in segment.bytes().filter(|byte| !matches!(byte, b'_' | b'-')) {
        *buffer.get_mut(length)? = byte.to_ascii_lowercase();
        length += 1;
    }
    let written = buffer.get(..length).filter(|written| !written.is_empty())?;
    core::str::from_utf8(written).ok()
}

/// What the field `name` holds: its row's sensitivity, a secret when its last segment
/// holds one of `SECRET_PARTS`, a card number when it is a `number` under a card.
#[must_use]
pub fn sensitivity(name: &str) -> Sensitivity {
    let mut buffer = [0_u8; LONGEST_SEGMENT];
    let Some(segment) = normalized(last_segment(name), &mut buffer) else {
        return Plain;
    };
    if SECRET_PARTS.iter().any(|part| segment.contains(part)) {
        return Secret;
    }
    if let Some(field) = row_of(segment) {
        return field.sensitivity;
    }
    // `card.number`: a number under a card.
    if segment == "number" && name.to_ascii_lowercase().contains("card") {
        return CardNumber;
    }
    Plain
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_two_rows_share_a_name_as_the_gateway_reads_it() {
        for (index, field) in TABLE.iter().enumerate() {
            assert_eq!(
                find(field.name).map(|found| found.name),
                Some(field.name),
                "row {index}"
            );
        }
    }

    #[test]
    fn a_name_is_found_by_its_last_segment_in_any_case() {
        for (name, wanted) in [
            ("card.expiryYear", "expiryYear"),
            ("cards.card[0][EXPIRY_YEAR]", "expiryYear"),
            ("tmplAmount", "tmpl_amount"),
            ("authentication[sKey]", "sKey"),
        ] {
            assert_eq!(find(name).map(|field| field.name), Some(wanted), "{name}");
        }
        assert_eq!(find(""), None);
        assert_eq!(find(&"x".repeat(100)), None);
    }
}
