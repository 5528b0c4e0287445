//! Reading values from a gateway's answers, as liberally as their meaning allows.
//!
//! `FromStr` on these types is strict: it accepts the one text paytoken sends (an amount
//! with exactly two fraction digits, a month of two digits). Answers come from forty-odd
//! deployments of several versions, and their incidental fields arrive in other forms
//! (`50`, `eur`, `7`, `30`, ISO 8601 dates). [`Tolerant`] reads those forms; a text it
//! cannot read is kept by the caller as it came, never a reason to reject the answer.

use alloc::string::String;

use crate::calendar::is_valid_date;
use crate::{
    Amount, Currency, CustomerId, ExpiryMonth, ExpiryYear, MemberId, MerchantTransactionId,
    PartnerId, PaymentId, RegistrationId, Timestamp,
};

/// `text.trim()`, answered from the two ends alone in the common case (a visible ASCII
/// character at each end), where `trim` walks characters from both ends.
///
/// ```
/// use paytoken_types::trimmed;
///
/// assert_eq!(trimmed("EUR"), "EUR");
/// assert_eq!(trimmed(" 50.00\n"), "50.00");
/// assert_eq!(trimmed("\u{a0}x\u{a0}"), "x");
/// assert_eq!(trimmed("x\u{b}"), "x");
/// ```
// Inlined across crates: the protocol crate trims every key of an answer with it, and the
// common case is two byte comparisons.
#[inline]
#[must_use]
pub fn trimmed(text: &str) -> &str {
    // Above the space and ASCII: never white space. (`is_ascii_whitespace` would not do:
    // it leaves out the vertical tab, which `trim` removes.)
    let plain_end = |byte: Option<&u8>| byte.is_some_and(|&b| b > b' ' && b.is_ascii());
    let bytes = text.as_bytes();
    if plain_end(bytes.first()) && plain_end(bytes.last()) {
        text
    } else {
        text.trim()
    }
}

/// A value read from an answer's text in any of the forms gateways are seen to send.
///
/// ```
/// use paytoken_types::{Amount, Currency, ExpiryYear, Timestamp, Tolerant};
///
/// assert_eq!(Amount::read_tolerant("50"), Some(Amount::from_minor_units(5000)));
/// assert_eq!(Amount::read_tolerant("50.5"), Some(Amount::from_minor_units(5050)));
/// assert_eq!(Currency::read_tolerant("eur"), Some(Currency::EUR));
/// assert_eq!(ExpiryYear::read_tolerant("30").map(ExpiryYear::get), Some(2030));
/// assert!(Timestamp::read_tolerant("2026-11-22T10:15:00Z").is_some());
/// assert_eq!(Amount::read_tolerant("fifty"), None);
/// ```
pub trait Tolerant: Sized {
    /// The value `text` stands for, or `None` when it stands for none this type holds.
    fn read_tolerant(text: &str) -> Option<Self>;
}

impl Tolerant for String {
    fn read_tolerant(text: &str) -> Option<Self> {
        Some(Self::from(text))
    }
}

/// Digits with at most one decimal point; fraction digits past the second must be zeros
/// (`50`, `50.0`, `50.00`, `50.000`, `050.00`, `.5`). No sign, no exponent, no grouping.
impl Tolerant for Amount {
    fn read_tolerant(text: &str) -> Option<Self> {
        // One pass: digits before the point, at most two that count after it (more only as
        // zeros), and at least one digit in all.
        let mut total: u64 = 0;
        let mut digits = 0_usize;
        // How many fraction digits have counted; `None` before the point.
        let mut cents: Option<usize> = None;
        for &byte in trimmed(text).as_bytes() {
            match (byte, cents) {
                (b'0'..=b'9', None | Some(0 | 1)) => {
                    total = total.checked_mul(10)?.checked_add(u64::from(byte - b'0'))?;
                    cents = cents.map(|counted| counted + 1);
                }
                (b'0', Some(_)) => {}
                (b'.', None) => {
                    cents = Some(0);
                    continue;
                }
                _ => return None,
            }
            digits += 1;
        }
        if digits == 0 {
            return None;
        }
        let scale = match cents.unwrap_or(0) {
            0 => 100,
            1 => 10,
            _ => 1,
        };
        total.checked_mul(scale).map(Self::from_minor_units)
    }
}

/// Three ASCII letters in any case.
impl Tolerant for Currency {
    fn read_tolerant(text: &str) -> Option<Self> {
        // Three ASCII letters in either case, made upper case: built from the bytes at
        // once, with no second check of what was just looked at.
        let code: [u8; 3] = trimmed(text).as_bytes().try_into().ok()?;
        code.iter()
            .all(u8::is_ascii_alphabetic)
            .then(|| Currency::from_upper_letters(code.map(|b| b.to_ascii_uppercase())))
    }
}

/// One or two digits, `1` to `12`.
impl Tolerant for ExpiryMonth {
    fn read_tolerant(text: &str) -> Option<Self> {
        Self::new(small_number(trimmed(text), 2)?.try_into().ok()?).ok()
    }
}

/// Four digits, or two (`30` is 2030).
impl Tolerant for ExpiryYear {
    fn read_tolerant(text: &str) -> Option<Self> {
        let text = trimmed(text);
        let year = small_number(text, 4)?;
        let year = match text.len() {
            2 => 2000 + year,
            4 => year,
            _ => return None,
        };
        Self::new(year).ok()
    }
}

/// The digits of a number of at most `max_digits` digits.
fn small_number(text: &str, max_digits: usize) -> Option<u16> {
    if text.is_empty() || text.len() > max_digits || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The gateway's `yyyy-MM-dd HH:mm:ss[.f]`, ISO 8601 (`T` between date and time, a zone
/// `Z` or `±hh:mm` after it, which is dropped: the gateway's times have no zone), and the
/// day-first `dd-MM-yyyy HH:mm:ss` or `dd/MM/yyyy HH:mm:ss`. A date alone is midnight.
impl Tolerant for Timestamp {
    fn read_tolerant(text: &str) -> Option<Self> {
        let text = trimmed(text);
        if let Ok(timestamp) = text.parse() {
            return Some(timestamp);
        }
        let (date, time) = text
            .split_once(['T', ' '])
            .map_or((text, None), |(date, time)| (date, Some(time)));
        let (year, month, day) = read_date(date)?;
        let (hour, minute, second, fraction) = match time {
            Some(time) => read_time(strip_zone(time))?,
            None => (0, 0, 0, ""),
        };
        if !is_valid_date(year, month, day) {
            return None;
        }
        let whole = Self::new(year, month, day, hour, minute, second).ok()?;
        if fraction.is_empty() {
            return Some(whole);
        }
        whole.with_fraction(fraction)
    }
}

/// `2026-11-22` or `22-11-2026` or `22/11/2026`.
fn read_date(date: &str) -> Option<(u16, u8, u8)> {
    let mut parts = date.split(['-', '/']);
    let (a, b, c) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let (year, month, day) = if a.len() == 4 { (a, b, c) } else { (c, b, a) };
    if year.len() != 4 || !(1..=2).contains(&month.len()) || !(1..=2).contains(&day.len()) {
        return None;
    }
    Some((
        small_number(year, 4)?,
        small_number(month, 2)?.try_into().ok()?,
        small_number(day, 2)?.try_into().ok()?,
    ))
}

/// `10:15`, `10:15:00` or `10:15:00.123`; the fraction's digits are returned as text.
fn read_time(time: &str) -> Option<(u8, u8, u8, &str)> {
    let (clock, fraction) = time.split_once(['.', ',']).unwrap_or((time, ""));
    let mut parts = clock.split(':');
    let hour = small_number(parts.next()?, 2)?.try_into().ok()?;
    let minute = small_number(parts.next()?, 2)?.try_into().ok()?;
    let second = parts.next().map_or(Some(0), |s| small_number(s, 2))?;
    if parts.next().is_some() || fraction.len() > 9 || !fraction.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    Some((hour, minute, second.try_into().ok()?, fraction))
}

/// The time without a trailing `Z` or `±hh:mm` / `±hhmm` zone.
fn strip_zone(time: &str) -> &str {
    if let Some(local) = time.strip_suffix(['Z', 'z']) {
        return local;
    }
    match time.rfind(['+', '-']) {
        Some(at) if at >= 5 => time.get(..at).unwrap_or(time),
        _ => time,
    }
}

macro_rules! tolerant_by_trimmed_parse {
    ($($ty:ty),+) => {$(
        /// The strict form, around blanks.
        impl Tolerant for $ty {
            fn read_tolerant(text: &str) -> Option<Self> {
                trimmed(text).parse().ok()
            }
        }
    )+};
}

tolerant_by_trimmed_parse!(PaymentId, RegistrationId, CustomerId, MemberId, PartnerId);

/// Exactly as it came: an echoed merchant transaction id is compared byte for byte.
impl Tolerant for MerchantTransactionId {
    fn read_tolerant(text: &str) -> Option<Self> {
        Self::new(text).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_prelude::*;

    fn amount(text: &str) -> Option<u64> {
        Amount::read_tolerant(text).map(Amount::minor_units)
    }

    #[test]
    fn amounts_in_every_form() {
        for (text, minor) in [
            ("50", 5000),
            ("50.0", 5000),
            ("50.00", 5000),
            ("50.000", 5000),
            ("050.00", 5000),
            (" 50.5 ", 5050),
            (".5", 50),
            ("5000", 500_000),
            ("0", 0),
        ] {
            assert_eq!(amount(text), Some(minor), "{text}");
        }
        for text in [
            "",
            ".",
            "50.001",
            "-1",
            "+1",
            "1e2",
            "1,00",
            "5 0",
            "50.00.0",
            "184467440737095516.16",
        ] {
            assert_eq!(amount(text), None, "{text}");
        }
    }

    #[test]
    fn currencies_months_and_years() {
        assert_eq!(Currency::read_tolerant(" usd"), Some(Currency::USD));
        assert_eq!(Currency::read_tolerant("EURO"), None);
        assert_eq!(
            ExpiryMonth::read_tolerant("7").map(ExpiryMonth::get),
            Some(7)
        );
        assert_eq!(
            ExpiryMonth::read_tolerant("07").map(ExpiryMonth::get),
            Some(7)
        );
        assert_eq!(ExpiryMonth::read_tolerant("13"), None);
        assert_eq!(ExpiryMonth::read_tolerant("007"), None);
        assert_eq!(
            ExpiryYear::read_tolerant("2030").map(ExpiryYear::get),
            Some(2030)
        );
        assert_eq!(
            ExpiryYear::read_tolerant("30").map(ExpiryYear::get),
            Some(2030)
        );
        assert_eq!(ExpiryYear::read_tolerant("030"), None);
    }

    #[test]
    fn timestamps_in_every_form() {
        let expected: Timestamp = "2026-11-22 10:15:00".parse().unwrap();
        for text in [
            "2026-11-22 10:15:00",
            "2026-11-22T10:15:00",
            "2026-11-22T10:15:00Z",
            "2026-11-22T10:15:00+05:30",
            "2026-11-22T10:15:00-0100",
            "2026-11-22T10:15",
            "22-11-2026 10:15:00",
            "22/11/2026 10:15:00",
        ] {
            assert_eq!(Timestamp::read_tolerant(text), Some(expected), "{text}");
        }
        let fraction = Timestamp::read_tolerant("2018-07-26T17:10:06.5Z").unwrap();
        assert_eq!(fraction.to_string(), "2018-07-26 17:10:06.5");
        assert_eq!(
            Timestamp::read_tolerant("2026-11-22").map(|t| t.to_string()),
            Some("2026-11-22 00:00:00".into())
        );
        for text in [
            "",
            "yesterday",
            "2026-02-30 10:00:00",
            "2026-11-22 25:00:00",
            "1700000000",
        ] {
            assert_eq!(Timestamp::read_tolerant(text), None, "{text}");
        }
    }

    #[test]
    fn enums_ignore_case_and_know_the_other_names() {
        use crate::{PaymentBrand, TransactionState, TransactionStatus};
        assert_eq!(
            PaymentBrand::read_tolerant("mc"),
            Some(PaymentBrand::Mastercard)
        );
        assert_eq!(
            PaymentBrand::read_tolerant("MASTERCARD"),
            Some(PaymentBrand::Mastercard)
        );
        assert_eq!(
            PaymentBrand::read_tolerant("Discover"),
            Some(PaymentBrand::Discover)
        );
        assert_eq!(
            PaymentBrand::read_tolerant("MIR"),
            Some(PaymentBrand::Other("MIR".into()))
        );
        assert_eq!(
            TransactionStatus::read_tolerant(" y"),
            Some(TransactionStatus::Approved)
        );
        assert_eq!(
            TransactionStatus::read_tolerant("3d"),
            Some(TransactionStatus::ThreeDSecure)
        );
        assert_eq!(
            TransactionState::read_tolerant("CaptureSuccess"),
            Some(TransactionState::CaptureSuccess)
        );
        assert_eq!(
            PaymentId::read_tolerant(" 54279 ").map(|id| id.as_str().len()),
            Some(5)
        );
    }
}
