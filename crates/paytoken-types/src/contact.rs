//! The small checked values of the customer, shipping and billing blocks: e-mail, phone,
//! telephone country code, birth date, country and language codes.

use alloc::string::String;
use core::fmt;
use core::str::FromStr;

use crate::Error;
use crate::calendar::is_valid_date;
use crate::card::parse_digits;
use crate::digits::Digits;
use crate::error::{check_chars, check_len};
use crate::inline::InlineAscii;
use crate::text_traits::{deserialize_from_str, text_traits};

/// An e-mail address: one `@` with text on both sides, no blanks or control characters,
/// at most 254 characters. Deliverability is the gateway's affair.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Email(String);

impl Email {
    /// The field's wire name.
    pub const FIELD: &'static str = "customer.email";

    /// Checks the form of an address.
    ///
    /// # Errors
    /// [`Error::Length`] beyond 254 characters, [`Error::InvalidCharacter`] for blanks and
    /// control characters, [`Error::Malformed`] without exactly one `@` between two texts.
    pub fn new(text: &str) -> Result<Self, Error> {
        check_len(Self::FIELD, text.chars().count(), 3, 254)?;
        check_chars(Self::FIELD, text, "no blanks or control characters", |c| {
            !c.is_whitespace() && !c.is_control()
        })?;
        match text.split_once('@') {
            Some((local, domain))
                if !local.is_empty() && !domain.is_empty() && !domain.contains('@') =>
            {
                Ok(Self(String::from(text)))
            }
            _ => Err(Error::Malformed {
                field: Self::FIELD,
                reason: "expected one @ between a local part and a domain",
            }),
        }
    }

    /// The address.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A telephone number without its country code: 4 to 20 digits.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Phone(String);

impl Phone {
    /// The field's wire name.
    pub const FIELD: &'static str = "customer.phone";

    /// Checks a number.
    ///
    /// # Errors
    /// [`Error::InvalidCharacter`] for anything but digits, [`Error::Length`] outside 4 to 20.
    pub fn new(text: &str) -> Result<Self, Error> {
        check_chars(Self::FIELD, text, "digits", |c| c.is_ascii_digit())?;
        check_len(Self::FIELD, text.len(), 4, 20)?;
        Ok(Self(String::from(text)))
    }

    /// The digits.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The telephone country code with its leading plus sign (`customer.telnocc`), such as
/// `+49`. Given without the plus (`49`), the plus is added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TelephoneCountryCode(InlineAscii<4>);

impl TelephoneCountryCode {
    /// The field's wire name.
    pub const FIELD: &'static str = "customer.telnocc";

    /// Checks a code of one to three digits, with or without the leading `+`.
    ///
    /// # Errors
    /// [`Error::InvalidCharacter`] for anything but digits after the plus,
    /// [`Error::Length`] outside one to three digits.
    pub fn new(text: &str) -> Result<Self, Error> {
        let digits = text.strip_prefix('+').unwrap_or(text);
        check_chars(Self::FIELD, digits, "a plus sign and digits", |c| {
            c.is_ascii_digit()
        })?;
        check_len(Self::FIELD, digits.len(), 1, 3)?;
        let mut text = [b'+', 0, 0, 0];
        text.iter_mut()
            .skip(1)
            .zip(digits.bytes())
            .for_each(|(slot, digit)| *slot = digit);
        InlineAscii::from_bytes(text.get(..=digits.len()).unwrap_or_default())
            .map(Self)
            .ok_or(Error::Overflow { field: Self::FIELD })
    }

    /// The code with its plus sign, such as `+49`.
    #[must_use]
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

/// A birth date, `yyyyMMdd` on the wire, checked against the calendar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BirthDate {
    year: u16,
    month: u8,
    day: u8,
}

impl BirthDate {
    /// The field's wire name.
    pub const FIELD: &'static str = "customer.birthDate";

    /// A day of the calendar from the year 1000 on.
    ///
    /// # Errors
    /// [`Error::Malformed`] when the date is not in the calendar.
    pub const fn new(year: u16, month: u8, day: u8) -> Result<Self, Error> {
        if year < 1000 || year > 9999 || !is_valid_date(year, month, day) {
            return Err(Error::Malformed {
                field: Self::FIELD,
                reason: "not a date of the calendar",
            });
        }
        Ok(Self { year, month, day })
    }

    /// The year.
    #[must_use]
    pub const fn year(&self) -> u16 {
        self.year
    }
    /// The month, 1 to 12.
    #[must_use]
    pub const fn month(&self) -> u8 {
        self.month
    }
    /// The day of the month.
    #[must_use]
    pub const fn day(&self) -> u8 {
        self.day
    }

    /// The wire text, `yyyyMMdd`, on the stack.
    #[must_use]
    pub fn to_wire(&self) -> Digits<8> {
        Digits::new(
            u32::from(self.year) * 10_000 + u32::from(self.month) * 100 + u32::from(self.day),
        )
    }
}

impl fmt::Display for BirthDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.to_wire().as_str())
    }
}

impl FromStr for BirthDate {
    type Err = Error;
    /// Exactly eight digits, `yyyyMMdd`.
    fn from_str(text: &str) -> Result<Self, Error> {
        check_chars(Self::FIELD, text, "digits (yyyyMMdd)", |c| {
            c.is_ascii_digit()
        })?;
        check_len(Self::FIELD, text.len(), 8, 8)?;
        let part = |range: core::ops::Range<usize>| text.get(range).unwrap_or_default();
        Self::new(
            parse_digits(part(0..4)),
            parse_digits(part(4..6)),
            parse_digits(part(6..8)),
        )
    }
}

deserialize_from_str!(BirthDate);

impl crate::form::sealed::Sealed for TelephoneCountryCode {}

impl crate::form::FormValue for TelephoneCountryCode {
    fn form_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }

    fn form_text(&self) -> &str {
        self.as_str()
    }
}

/// A country as a two-letter code in upper case (ISO 3166-1 alpha-2), such as `DE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CountryCode([u8; 2]);

impl CountryCode {
    /// The field's wire name.
    pub const FIELD: &'static str = "shipping.country";

    /// Checks the form of a code.
    ///
    /// # Errors
    /// [`Error::InvalidCharacter`] for anything but `A` to `Z`, [`Error::Length`] unless 2.
    pub fn new(text: &str) -> Result<Self, Error> {
        crate::error::upper_letters(Self::FIELD, text).map(Self)
    }

    /// The code.
    #[must_use]
    pub fn as_str(&self) -> &str {
        // Invariant: only ASCII upper-case letters are stored.
        core::str::from_utf8(&self.0).unwrap_or_default()
    }
}

/// A language as a two- or three-letter code (ISO 639), such as `en`, kept as given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LanguageCode {
    code: [u8; 3],
    len: u8,
}

impl LanguageCode {
    /// The field's wire name.
    pub const FIELD: &'static str = "shipping.language";

    /// Checks the form of a code.
    ///
    /// # Errors
    /// [`Error::InvalidCharacter`] for anything but ASCII letters, [`Error::Length`]
    /// unless 2 or 3.
    pub fn new(text: &str) -> Result<Self, Error> {
        check_chars(Self::FIELD, text, "ascii letters", |c| {
            c.is_ascii_alphabetic()
        })?;
        check_len(Self::FIELD, text.len(), 2, 3)?;
        let mut code = [0; 3];
        code.iter_mut()
            .zip(text.bytes())
            .for_each(|(slot, b)| *slot = b);
        Ok(Self {
            code,
            len: u8::try_from(text.len()).unwrap_or(3),
        })
    }

    /// The code.
    #[must_use]
    pub fn as_str(&self) -> &str {
        // Invariant: only ASCII letters are stored, `len` of them.
        self.code
            .get(..usize::from(self.len))
            .and_then(|code| core::str::from_utf8(code).ok())
            .unwrap_or_default()
    }
}

text_traits! {
    Email(Display, FromStr, AsRef, Deserialize),
    Phone(Display, FromStr, AsRef, Deserialize),
    TelephoneCountryCode(Display, FromStr, Deserialize),
    CountryCode(Display, FromStr, AsRef, Deserialize),
    LanguageCode(Display, FromStr, AsRef, Deserialize),
}

impl crate::form::sealed::Sealed for Phone {}

impl crate::form::FormValue for Phone {
    fn form_bytes(&self) -> &[u8] {
        self.as_str().as_bytes()
    }

    fn form_text(&self) -> &str {
        self.as_str()
    }

    /// Digits only.
    fn is_plain(&self) -> bool {
        true
    }
}

impl crate::form::sealed::Sealed for CountryCode {}

impl crate::form::FormValue for CountryCode {
    fn form_bytes(&self) -> &[u8] {
        &self.0
    }

    fn form_text(&self) -> &str {
        self.as_str()
    }

    /// Two upper-case letters.
    fn is_plain(&self) -> bool {
        true
    }
}

impl crate::form::sealed::Sealed for LanguageCode {}

impl crate::form::FormValue for LanguageCode {
    fn form_bytes(&self) -> &[u8] {
        self.code.get(..usize::from(self.len)).unwrap_or_default()
    }

    fn form_text(&self) -> &str {
        self.as_str()
    }

    /// Two or three letters.
    fn is_plain(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_prelude::*;

    #[test]
    fn emails_phones_and_country_codes() {
        assert_eq!(
            Email::new("jo@example.com").unwrap().as_str(),
            "jo@example.com"
        );
        for bad in ["jo", "@example.com", "jo@", "jo@@x", "j o@x.com", "jo@x\n"] {
            assert!(Email::new(bad).is_err(), "{bad:?}");
        }
        assert!(Phone::new("9876543210").is_ok());
        assert!(Phone::new("+4930").is_err());
        assert_eq!(TelephoneCountryCode::new("+49").unwrap().to_string(), "+49");
        assert_eq!(TelephoneCountryCode::new("91").unwrap().to_string(), "+91");
        assert!(TelephoneCountryCode::new("+").is_err());
        assert!(TelephoneCountryCode::new("+1234").is_err());
        assert_eq!(CountryCode::new("DE").unwrap().as_str(), "DE");
        assert!(CountryCode::new("de").is_err() && CountryCode::new("DEU").is_err());
        assert_eq!(LanguageCode::new("en").unwrap().as_str(), "en");
        assert_eq!(LanguageCode::new("ENG").unwrap().as_str(), "ENG");
        assert!(LanguageCode::new("e1").is_err() && LanguageCode::new("engl").is_err());
    }

    #[test]
    fn birth_dates_are_real_days() {
        assert!("19860229".parse::<BirthDate>().is_err());
        let date: BirthDate = "19840229".parse().unwrap();
        assert_eq!((date.year(), date.month(), date.day()), (1984, 2, 29));
        assert_eq!(date.to_string(), "19840229");
        assert!("19850229".parse::<BirthDate>().is_err());
        assert!("19851301".parse::<BirthDate>().is_err());
        assert!("19850100".parse::<BirthDate>().is_err());
        assert!("1985011".parse::<BirthDate>().is_err());
        assert!("1985-01-01".parse::<BirthDate>().is_err());
        assert!("09850101".parse::<BirthDate>().is_err());
    }
}
