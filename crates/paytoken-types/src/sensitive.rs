//! How a field of the wire is shown: one mask per kind of value, which every layer that
//! logs, records or displays a request or an answer asks (the sandbox's request log and
//! console, `paytoken record`, error excerpts). What a field is comes from
//! [the table of fields](crate::internal::fields): adding a secret field is one row there.
//!
//! A value is looked at too: a card number (a Luhn-valid run of 12 to 19 digits, spaces or
//! dashes between them allowed, letters around it or not) or an IBAN (its mod-97 check
//! holding) inside any text is masked, whatever its field is called, but for the fields
//! the gateway issues or decides on ([`Sensitivity::Issued`]), which are never rewritten.

use alloc::borrow::Cow;
use alloc::string::String;

use crate::fields;

/// What replaces a secret: the secure key, a checksum, a CVV, an auth token.
pub const REDACTED: &str = "[redacted]";

/// What replaces a personal value (a name, an address, an e-mail, a phone number, an IP
/// address, a birth date) where it is not kept.
pub const PERSONAL: &str = "[personal]";

pub use crate::fields::{Sensitivity, WIRE_SECRETS};

/// What the field `name` holds, as [the table](crate::internal::fields) says.
#[must_use]
pub fn of(name: &str) -> Sensitivity {
    fields::sensitivity(name)
}

/// Whether the field or header `name` holds a secret (`authentication.sKey`, `cvv2`,
/// `AuthToken`, `X-Api-Key`, `Authorization`, `Cookie`): its value is never shown or kept.
/// The one question every layer asks of a name.
#[must_use]
pub fn is_secret(name: &str) -> bool {
    of(name) == Sensitivity::Secret
}

/// Whether the field `name` holds free text a person or the gateway wrote (a result's
/// description, a remark), which a layer that shows it passes through the one redactor of
/// free text.
#[must_use]
pub fn is_free_text(name: &str) -> bool {
    of(name) == Sensitivity::FreeText
}

/// What replaces a structure (an object or a list) found under `name` where a single
/// value belongs: a secret, a card number or an IBAN is [`REDACTED`] whole, a personal
/// value [`PERSONAL`] unless `keep_personal`; `None` when its members are shown one by one.
/// What a structure's members are called says nothing of what they hold
/// (`{"holder": {"value": "Ada"}}`, as deployments nest text).
#[must_use]
pub fn structure_shown(name: &str, keep_personal: bool) -> Option<&'static str> {
    match of(name) {
        Sensitivity::Secret | Sensitivity::CardNumber | Sensitivity::Iban => Some(REDACTED),
        Sensitivity::Personal if !keep_personal => Some(PERSONAL),
        _ => None,
    }
}

/// An id as every display shows it (an order id, a path's id, an id a caller sent as a
/// payment's): a card number or an IBAN a caller put in it masked, as
/// [`mask_in_text`] masks one anywhere. Display only: whoever keeps or finds by an id
/// keeps it as it was sent.
#[must_use]
pub fn id_shown(id: &str) -> Cow<'_, str> {
    mask_in_text(id)
}

/// The value of the field `name` as it may be shown: a secret redacted, a card number or
/// an IBAN masked, a personal value replaced unless `keep_personal`, an issued value as it
/// is, and any other with the card numbers and IBANs inside it masked.
#[must_use]
pub fn shown<'v>(name: &str, value: &'v str, keep_personal: bool) -> Cow<'v, str> {
    match of(name) {
        Sensitivity::Secret => Cow::Borrowed(REDACTED),
        Sensitivity::CardNumber => Cow::Owned(mask_card_number(value)),
        Sensitivity::Iban => Cow::Owned(mask_iban(value)),
        Sensitivity::Personal if !keep_personal => Cow::Borrowed(PERSONAL),
        Sensitivity::Issued => Cow::Borrowed(value),
        Sensitivity::Personal | Sensitivity::Plain | Sensitivity::FreeText => mask_in_url(value),
    }
}

/// At most `max` characters of `text`, an outside value shown in a message or a log; a
/// longer one is cut there and says its length, so a 100 KB value never makes a 100 KB
/// line.
#[must_use]
pub fn clip(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some((end, _)) => Cow::Owned(alloc::format!(
            "{}... ({} characters)",
            text.get(..end).unwrap_or_default(),
            text.chars().count()
        )),
    }
}

/// `text` as [`mask_in_text`] shows it, and where it holds a URL's query (`?a=1&sKey=k`),
/// each parameter's value as the table says of its name (`sKey=[redacted]`): a redirect,
/// a `Location` header or a path that carries credentials shows none.
#[must_use]
pub fn mask_in_url(text: &str) -> Cow<'_, str> {
    let Some((head, rest)) = text.split_once('?') else {
        return mask_in_text(text);
    };
    let (query, fragment) = match rest.split_once('#') {
        Some((query, fragment)) => (query, Some(fragment)),
        None => (rest, None),
    };
    let mut shown = String::with_capacity(text.len());
    shown.push_str(head);
    shown.push('?');
    for (index, pair) in query.split('&').enumerate() {
        if index > 0 {
            shown.push('&');
        }
        match pair.split_once('=') {
            Some((name, value)) => {
                shown.push_str(name);
                shown.push('=');
                shown.push_str(&parameter(name, value));
            }
            None => shown.push_str(pair),
        }
    }
    if let Some(fragment) = fragment {
        shown.push('#');
        shown.push_str(fragment);
    }
    match mask_in_text(&shown) {
        Cow::Owned(masked) => Cow::Owned(masked),
        Cow::Borrowed(_) if shown == text => Cow::Borrowed(text),
        Cow::Borrowed(_) => Cow::Owned(shown),
    }
}

/// A query parameter's value as the table says of its name, the name's `[`, `]` and `.`
/// read through their percent escapes.
fn parameter<'v>(name: &str, value: &'v str) -> Cow<'v, str> {
    let mut read = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(at) = rest.find('%') {
        read.push_str(rest.get(..at).unwrap_or_default());
        let escaped = match rest
            .get(at + 1..at + 3)
            .map(str::to_ascii_uppercase)
            .as_deref()
        {
            Some("5B") => Some('['),
            Some("5D") => Some(']'),
            Some("2E") => Some('.'),
            _ => None,
        };
        // An escape read is three bytes; any other `%` stays as it is.
        let (shown, length) = escaped.map_or(('%', 1), |c| (c, 3));
        read.push(shown);
        rest = rest.get(at + length..).unwrap_or_default();
    }
    read.push_str(rest);
    shown(&read, value, false)
}

/// A card number as it may be shown, `400000******0051` (the first six digits only of a
/// number of 16 or more), from its digits; spaces and dashes are dropped, and a value of
/// fewer than 12 digits is [`REDACTED`] whole.
#[must_use]
pub fn mask_card_number(text: &str) -> String {
    let digits: String = text.chars().filter(char::is_ascii_digit).collect();
    if digits.len() < 12 {
        return REDACTED.into();
    }
    let mut shown = String::with_capacity(digits.len());
    let head = if digits.len() >= 16 { 6 } else { 0 };
    let tail = digits.len() - 4;
    for (index, digit) in digits.chars().enumerate() {
        shown.push(if index < head || index >= tail {
            digit
        } else {
            '*'
        });
    }
    shown
}

/// A card number kept as its first six and last four digits (a gateway's `bin` and
/// `last4Digits`) in the form [`mask_card_number`] gives a 16-digit one.
#[must_use]
pub fn card_from_parts(bin: &str, last_four: &str) -> String {
    let mut shown = String::with_capacity(bin.len() + 6 + last_four.len());
    shown.push_str(bin);
    shown.push_str("******");
    shown.push_str(last_four);
    shown
}

/// An IBAN as it may be shown, `DE****************3000`: its country and last four
/// characters; whitespace dropped, and a value of fewer than 8 characters [`REDACTED`]
/// whole.
#[must_use]
pub(crate) fn mask_iban(text: &str) -> String {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let count = compact.chars().count();
    if count < 8 {
        return REDACTED.into();
    }
    compact
        .chars()
        .enumerate()
        .map(|(index, c)| {
            if index < 2 || index >= count - 4 {
                c
            } else {
                '*'
            }
        })
        .collect()
}

/// `text` with every card number (a Luhn-valid run of 12 to 19 digits, single spaces,
/// dashes, `+` or `%20` between them allowed, as a form or a path writes a space) and every
/// IBAN (mod-97 valid) inside it masked; borrowed when there is none. Linear in the text.
#[must_use]
pub fn mask_in_text(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut at = 0;
    while at < bytes.len() {
        let found = match card_number_at(bytes, at) {
            Some((end, digits)) => Some((end, mask_card_number(digits.as_str()))),
            None => iban_at(bytes, at).and_then(|end| Some((end, mask_iban(text.get(at..end)?)))),
        };
        let Some((end, masked)) = found else {
            at += 1;
            continue;
        };
        let Some(before) = text.get(copied..at) else {
            at += 1;
            continue;
        };
        let out = out.get_or_insert_with(|| String::with_capacity(text.len()));
        out.push_str(before);
        out.push_str(&masked);
        copied = end;
        at = end;
    }
    match out {
        None => Cow::Borrowed(text),
        Some(mut out) => {
            out.push_str(text.get(copied..).unwrap_or_default());
            Cow::Owned(out)
        }
    }
}

/// The digits of a card number found in text, at most 19.
struct FoundDigits {
    digits: [u8; 19],
    count: usize,
}

impl FoundDigits {
    fn as_str(&self) -> &str {
        self.digits
            .get(..self.count)
            .and_then(|digits| core::str::from_utf8(digits).ok())
            .unwrap_or_default()
    }
}

/// How long the separator at `at` between two groups of a card number's digits is: a
/// space, a dash, a `+` or a `%20`; 0 when there is none.
fn separator_at(bytes: &[u8], at: usize) -> usize {
    match bytes.get(at) {
        Some(b' ' | b'-' | b'+') => 1,
        Some(b'%') if bytes.get(at + 1..at + 3) == Some(b"20") => 3,
        _ => 0,
    }
}

/// Where a card number that starts at `start` ends, and its digits: digits not preceded by
/// a digit, 12 to 19 of them with single separators ([`separator_at`]) between, the Luhn
/// check holding, and no digit right after (letters may touch it:
/// `order-4000000000000051x` holds one).
fn card_number_at(bytes: &[u8], start: usize) -> Option<(usize, FoundDigits)> {
    // The `0` that ends a `%20` is no digit of a number.
    let after_escape = start >= 3 && bytes.get(start - 3..start) == Some(b"%20");
    if start > 0 && bytes.get(start - 1).is_some_and(u8::is_ascii_digit) && !after_escape {
        return None;
    }
    let mut found = FoundDigits {
        digits: [0; 19],
        count: 0,
    };
    let mut at = start;
    let mut end = None;
    // A separator counts only between digits.
    let digit_after_separator = |at: usize| {
        let length = separator_at(bytes, at);
        (length > 0 && bytes.get(at + length).is_some_and(u8::is_ascii_digit)).then_some(length)
    };
    while let Some(&byte) = bytes.get(at) {
        if byte.is_ascii_digit() {
            *found.digits.get_mut(found.count)? = byte;
            found.count += 1;
            at += 1;
            if (12..=19).contains(&found.count)
                && !bytes.get(at).is_some_and(u8::is_ascii_digit)
                && digit_after_separator(at).is_none()
            {
                end = Some(at);
                break;
            }
        } else if let Some(length) = digit_after_separator(at).filter(|_| found.count > 0) {
            at += length;
        } else {
            break;
        }
    }
    let end = end?;
    luhn_valid(found.digits.get(..found.count)?).then_some((end, found))
}

/// Where an IBAN that starts at `start` ends: two capital letters, two digits and 11 to
/// 30 capital letters or digits, written whole or in groups of four with single spaces
/// between (`DE89 3704 0044 0532 0130 00`), not inside a longer word, its mod-97 check
/// holding. Of the spaced forms the longest whose check holds is taken, so a word after
/// the last group is not read as part of it.
fn iban_at(bytes: &[u8], start: usize) -> Option<usize> {
    if start > 0 && bytes.get(start - 1).is_some_and(u8::is_ascii_alphanumeric) {
        return None;
    }
    let head = bytes.get(start..start + 4)?;
    let [a, b, c, d] = [head.first()?, head.get(1)?, head.get(2)?, head.get(3)?];
    if !(a.is_ascii_uppercase()
        && b.is_ascii_uppercase()
        && c.is_ascii_digit()
        && d.is_ascii_digit())
    {
        return None;
    }
    let character = |byte: &u8| byte.is_ascii_uppercase() || byte.is_ascii_digit();
    // The characters read, without spaces, and where each count of them ends in `bytes`.
    let mut compact = [0_u8; 34];
    let mut ends = [0_usize; 35];
    let mut count = 0;
    let mut at = start;
    while count < compact.len() {
        match bytes.get(at) {
            Some(byte) if character(byte) => {
                *compact.get_mut(count)? = *byte;
                count += 1;
                at += 1;
                *ends.get_mut(count)? = at;
            }
            // A single space between groups of four.
            Some(b' ') if count % 4 == 0 && bytes.get(at + 1).is_some_and(character) => at += 1,
            _ => break,
        }
    }
    // A run longer than any IBAN, or run on into a word, is none.
    if bytes.get(ends.get(count).copied()?).is_some_and(character) {
        return None;
    }
    (15..=count.min(34))
        .rev()
        // Written whole, only the whole run is a candidate; spaced, any group's end is.
        .filter(|&length| {
            length == count || ends.get(length).and_then(|&end| bytes.get(end)) == Some(&b' ')
        })
        .find(|&length| compact.get(..length).is_some_and(iban_check_holds))
        .and_then(|length| ends.get(length).copied())
}

/// The IBAN check over capital letters and digits: the first four characters moved to
/// the end, letters as 10 to 35, the number modulo 97 is 1; what an IBAN's is, here and in
/// `Iban::new`.
pub(crate) fn iban_check_holds(iban: &[u8]) -> bool {
    let (head, rest) = iban.split_at(4.min(iban.len()));
    let mut remainder: u32 = 0;
    for &byte in rest.iter().chain(head) {
        let value = if byte.is_ascii_digit() {
            u32::from(byte - b'0')
        } else {
            u32::from(byte.saturating_sub(b'A')) + 10
        };
        remainder = if value >= 10 {
            (remainder * 100 + value) % 97
        } else {
            (remainder * 10 + value) % 97
        };
    }
    remainder == 1
}

/// The Luhn (mod 10) check over ASCII digits: what a card number's is, here and in
/// `CardNumber::new`.
pub(crate) fn luhn_valid(digits: &[u8]) -> bool {
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(index, &digit)| {
            let value = u32::from(digit - b'0');
            if index % 2 == 1 {
                let doubled = value * 2;
                if doubled > 9 { doubled - 9 } else { doubled }
            } else {
                value
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_as_the_gateway_reads_them() {
        for name in [
            "authentication.sKey",
            "authentication[sKey]",
            "AUTHENTICATION.SKEY",
            "authentication.checksum",
            "authToken",
            "accessToken",
            "token",
            "card.cvv",
            "cvv2",
            "card.cvc",
            "x-api-key",
            "X-Auth-Token",
            "Authorization",
            "Cookie",
            "Proxy-Authorization",
            "apiKey",
        ] {
            assert_eq!(of(name), Sensitivity::Secret, "{name}");
        }
        for name in ["card.number", "card.Number", "cardNumber", "card_number"] {
            assert_eq!(of(name), Sensitivity::CardNumber, "{name}");
        }
        for name in ["bankAccount.iban", "accountNumber"] {
            assert_eq!(of(name), Sensitivity::Iban, "{name}");
        }
        for name in [
            "customer.email",
            "emailAddress",
            "name",
            "address",
            "card.holder",
        ] {
            assert_eq!(of(name), Sensitivity::Personal, "{name}");
        }
        for name in ["paymentId", "result.code", "amount", "timestamp"] {
            assert_eq!(of(name), Sensitivity::Issued, "{name}");
        }
        for name in [
            "currency",
            "merchantTransactionId",
            "",
            "x".repeat(100).as_str(),
        ] {
            assert_eq!(of(name), Sensitivity::Plain, "{name}");
        }
    }

    #[test]
    fn every_wire_secret_is_one_the_table_hides() {
        for name in WIRE_SECRETS {
            assert!(
                matches!(
                    of(name),
                    Sensitivity::Secret | Sensitivity::CardNumber | Sensitivity::Iban
                ),
                "{name}"
            );
        }
    }

    #[test]
    fn one_form_for_a_card_number_and_one_for_an_iban() {
        assert_eq!(mask_card_number("4000000000000051"), "400000******0051");
        assert_eq!(mask_card_number("4000 0000 0000 0051"), "400000******0051");
        assert_eq!(mask_card_number("400000000000051"), "***********0051");
        assert_eq!(mask_card_number("1234"), REDACTED);
        assert_eq!(
            card_from_parts("400000", "0051"),
            mask_card_number("4000000000000051")
        );
        assert_eq!(
            mask_iban("DE89370400440532013000"),
            "DE****************3000"
        );
        assert_eq!(mask_iban("DE89 3704"), "DE**3704");
        assert_eq!(mask_iban("DE89"), REDACTED);
        let iban: crate::Iban = "DE89 3704 0044 0532 0130 00".parse().unwrap();
        assert_eq!(iban.masked(), "DE****************3000");
        assert_eq!(alloc::format!("{iban:?}"), "Iban(DE****************3000)");
    }

    #[test]
    fn card_numbers_and_ibans_inside_text_are_masked_and_ids_are_not() {
        assert_eq!(
            mask_in_text("order-4000000000000051-x"),
            "order-400000******0051-x"
        );
        assert_eq!(
            mask_in_text("/payments/4000 0000 0000 0051?x"),
            "/payments/400000******0051?x"
        );
        assert_eq!(
            mask_in_text("card 4000-0000-0000-0051."),
            "card 400000******0051."
        );
        assert_eq!(
            mask_in_text("/by/audit%204000%200000%200000%200051?x=4000+0000+0000+0051"),
            "/by/audit%20400000******0051?x=400000******0051"
        );
        assert_eq!(
            mask_in_text("pay to DE89370400440532013000 now"),
            "pay to DE****************3000 now"
        );
        assert_eq!(mask_in_text("a4000000000000051x"), "a400000******0051x");
        assert_eq!(
            mask_in_text("iban DE89 3704 0044 0532 0130 00; IBAN DE89 3704 0044 0532 0130 00 NOW"),
            "iban DE****************3000; IBAN DE****************3000 NOW"
        );
        // Not Luhn-valid, too short, inside a longer run, or no IBAN's check: as they are.
        for kept in [
            "4000000000000052",
            "12345678901",
            "14000000000000051234567",
            "DE00370400440532013000",
            "8a82944a4cc25ebf014cc2c782423202",
            "2026-11-28 20:00:08",
        ] {
            assert_eq!(mask_in_text(kept), kept);
        }
        assert!(matches!(mask_in_text("no number"), Cow::Borrowed(_)));
        assert_eq!(
            mask_in_url(
                "https://shop.example/back?order=7&sKey=k&authentication%5Bchecksum%5D=c&email=a%40b#top"
            ),
            "https://shop.example/back?order=7&sKey=[redacted]&authentication%5Bchecksum%5D=[redacted]&email=[personal]#top"
        );
        assert_eq!(
            mask_in_url("/back?card=4000000000000051&x=%"),
            "/back?card=400000******0051&x=%"
        );
        assert!(matches!(mask_in_url("/plain?a=1&b"), Cow::Borrowed(_)));
        assert_eq!(
            shown("paymentId", "4000000000000051", false),
            "4000000000000051"
        );
        assert_eq!(
            shown("remark", "4000000000000051", false),
            "400000******0051"
        );
        assert_eq!(shown("card.cvv", "123", true), REDACTED);
        assert_eq!(shown("customer.email", "ada@example.com", false), PERSONAL);
        assert_eq!(
            shown("customer.email", "ada@example.com", true),
            "ada@example.com"
        );
    }
}
