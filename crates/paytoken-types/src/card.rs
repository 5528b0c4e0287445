//! Card data. The number and the CVV are secrets: they redact themselves in `Debug`, have
//! no `Display` or `Serialize`, and are wiped from memory when dropped.

use core::fmt;
use core::str::FromStr;

use crate::digits::Digits;
use crate::error::{check_chars, check_len};
use crate::inline::InlineAscii;
use crate::sensitive::luhn_valid;
use crate::text_traits::{deserialize_from_str, text_traits};
use crate::{Error, PaymentBrand};

/// A primary account number: 12 to 19 digits that pass the Luhn check.
///
/// Spaces around the number are trimmed, since published samples send
/// `" 4000000000000051"`; spaces inside it are refused. `Debug` shows at most the first six
/// and last four digits (only the last four for numbers shorter than 16 digits, where six
/// and four would leave too little hidden); the digits themselves are reachable only
/// through [`CardNumber::expose_digits`], whose name marks every place that needs them.
///
/// ```
/// use paytoken_types::CardNumber;
///
/// let number = CardNumber::new(" 4000000000000051")?;
/// assert_eq!(format!("{number:?}"), "CardNumber(400000******0051)");
/// assert_eq!(number.last_four(), "0051");
/// assert!(CardNumber::new("4000000000000052").is_err()); // Luhn
/// # Ok::<(), paytoken_types::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct CardNumber(InlineAscii<19>);

impl CardNumber {
    /// The field's wire name.
    pub const FIELD: &'static str = "card.number";

    /// The brand whose range holds this number, by its leading digits (the one table of
    /// ranges, [`PaymentBrand::of_digits`]); `None` for a range of no brand.
    ///
    /// ```
    /// use paytoken_types::{CardNumber, PaymentBrand};
    ///
    /// let number = CardNumber::new("5101080000000009")?;
    /// assert_eq!(number.brand(), Some(PaymentBrand::Mastercard));
    /// assert_eq!(PaymentBrand::Mastercard.as_str(), "MC");
    /// # Ok::<(), paytoken_types::Error>(())
    /// ```
    #[must_use]
    pub fn brand(&self) -> Option<PaymentBrand> {
        // On the bytes: the brand is read on every payment, and the text of them would be
        // checked for UTF-8 first.
        PaymentBrand::of_digit_bytes(self.0.as_bytes())
    }

    /// Checks and wraps a card number.
    ///
    /// # Errors
    /// [`Error::Empty`], [`Error::InvalidCharacter`] for anything but digits,
    /// [`Error::Length`] outside 12 to 19 digits, [`Error::CheckDigits`] when the Luhn check
    /// fails. The error never repeats the number.
    pub fn new(text: &str) -> Result<Self, Error> {
        let digits = text.trim_matches(' ');
        check_chars(Self::FIELD, digits, "digits", |c| c.is_ascii_digit())?;
        check_len(Self::FIELD, digits.len(), 12, 19)?;
        if !luhn_valid(digits.as_bytes()) {
            return Err(Error::CheckDigits { field: Self::FIELD });
        }
        InlineAscii::new(digits)
            .map(Self)
            .ok_or(Error::Overflow { field: Self::FIELD })
    }

    /// The full number, for the form body and the checksum only.
    #[must_use]
    pub fn expose_digits(&self) -> &str {
        self.0.as_str()
    }

    /// How many digits the number has.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.as_bytes().len()
    }

    /// Never true: a card number has at least 12 digits.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The first six digits (the bank identification number).
    #[must_use]
    pub fn bin(&self) -> &str {
        self.expose_digits().get(..6).unwrap_or_default()
    }

    /// The last four digits.
    #[must_use]
    pub fn last_four(&self) -> &str {
        let digits = self.expose_digits();
        digits
            .get(digits.len().saturating_sub(4)..)
            .unwrap_or_default()
    }

    /// The number as it may be shown: `400000******0051`.
    #[must_use]
    pub fn masked(&self) -> MaskedCardNumber<'_> {
        MaskedCardNumber(self)
    }
}

impl Drop for CardNumber {
    fn drop(&mut self) {
        self.0.wipe();
    }
}

impl fmt::Debug for CardNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CardNumber({})", self.masked())
    }
}

/// A card number shown the way receipts show it (see [`CardNumber::masked`]).
#[derive(Debug, Clone, Copy)]
pub struct MaskedCardNumber<'a>(&'a CardNumber);

impl fmt::Display for MaskedCardNumber<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::sensitive::mask_card_number(self.0.expose_digits()))
    }
}

/// The card verification value: 3 or 4 digits. A secret like the card number.
#[derive(Clone, PartialEq, Eq)]
pub struct Cvv(InlineAscii<4>);

impl Cvv {
    /// The field's wire name.
    pub const FIELD: &'static str = "card.cvv";

    /// Checks and wraps a CVV.
    ///
    /// # Errors
    /// [`Error::InvalidCharacter`] for anything but digits, [`Error::Length`] unless 3 or 4.
    pub fn new(text: &str) -> Result<Self, Error> {
        check_chars(Self::FIELD, text, "digits", |c| c.is_ascii_digit())?;
        check_len(Self::FIELD, text.len(), 3, 4)?;
        InlineAscii::new(text)
            .map(Self)
            .ok_or(Error::Overflow { field: Self::FIELD })
    }

    /// The digits, for the form body only.
    #[must_use]
    pub fn expose_digits(&self) -> &str {
        self.0.as_str()
    }
}

/// The digits go on the wire as bytes; a checksum never signs a card number, so the text
/// is for completeness.
impl crate::form::sealed::Sealed for CardNumber {}

impl crate::form::FormValue for CardNumber {
    fn form_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }

    fn form_text(&self) -> &str {
        self.expose_digits()
    }

    /// Digits only.
    fn is_plain(&self) -> bool {
        true
    }
}

impl crate::form::sealed::Sealed for Cvv {}

impl crate::form::FormValue for Cvv {
    fn form_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }

    fn form_text(&self) -> &str {
        self.expose_digits()
    }

    /// Digits only.
    fn is_plain(&self) -> bool {
        true
    }
}

impl Drop for Cvv {
    fn drop(&mut self) {
        self.0.wipe();
    }
}

impl fmt::Debug for Cvv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Cvv(***)")
    }
}

/// The expiry month, `01` to `12` on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ExpiryMonth(u8);

impl ExpiryMonth {
    /// The field's wire name.
    pub const FIELD: &'static str = "card.expiryMonth";

    /// The month `1..=12`.
    ///
    /// # Errors
    /// [`Error::Malformed`] outside 1 to 12.
    pub const fn new(month: u8) -> Result<Self, Error> {
        if month >= 1 && month <= 12 {
            Ok(Self(month))
        } else {
            Err(Error::Malformed {
                field: Self::FIELD,
                reason: "month must be 01 to 12",
            })
        }
    }

    /// The month as a number.
    #[must_use]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The wire text, `01` to `12`, on the stack.
    #[must_use]
    pub fn to_wire(self) -> Digits<2> {
        Digits::new(u32::from(self.0))
    }
}

impl fmt::Display for ExpiryMonth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.to_wire().as_str())
    }
}

impl FromStr for ExpiryMonth {
    type Err = Error;
    /// Exactly two digits, `01` to `12`.
    fn from_str(text: &str) -> Result<Self, Error> {
        check_chars(Self::FIELD, text, "digits", |c| c.is_ascii_digit())?;
        check_len(Self::FIELD, text.len(), 2, 2)?;
        Self::new(parse_digits(text))
    }
}

/// The expiry year, four digits on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ExpiryYear(u16);

impl ExpiryYear {
    /// The field's wire name.
    pub const FIELD: &'static str = "card.expiryYear";

    /// A year from 1000 to 9999.
    ///
    /// # Errors
    /// [`Error::Malformed`] for a year without four digits.
    pub const fn new(year: u16) -> Result<Self, Error> {
        if year >= 1000 && year <= 9999 {
            Ok(Self(year))
        } else {
            Err(Error::Malformed {
                field: Self::FIELD,
                reason: "year must have four digits",
            })
        }
    }

    /// The year as a number.
    #[must_use]
    pub const fn get(self) -> u16 {
        self.0
    }

    /// The wire text, four digits, on the stack.
    #[must_use]
    pub fn to_wire(self) -> Digits<4> {
        Digits::new(u32::from(self.0))
    }
}

impl fmt::Display for ExpiryYear {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.to_wire().as_str())
    }
}

impl FromStr for ExpiryYear {
    type Err = Error;
    /// Exactly four digits.
    fn from_str(text: &str) -> Result<Self, Error> {
        check_chars(Self::FIELD, text, "digits", |c| c.is_ascii_digit())?;
        check_len(Self::FIELD, text.len(), 4, 4)?;
        Self::new(parse_digits(text))
    }
}

/// The value of a short run of ASCII digits that was already checked.
pub(crate) fn parse_digits<
    T: From<u8> + core::ops::Mul<Output = T> + core::ops::Add<Output = T>,
>(
    digits: &str,
) -> T {
    digits
        .bytes()
        .fold(T::from(0), |acc, b| acc * T::from(10) + T::from(b - b'0'))
}

deserialize_from_str!(ExpiryMonth, ExpiryYear);
text_traits!(CardNumber(FromStr), Cvv(FromStr));

/// A card as a payment or registration sends it (`card.*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Card {
    /// `card.number`.
    pub number: CardNumber,
    /// `card.expiryMonth`.
    pub expiry_month: ExpiryMonth,
    /// `card.expiryYear`.
    pub expiry_year: ExpiryYear,
    /// `card.cvv`.
    pub cvv: Cvv,
    /// `card.holder`, the name on the card; sent only when given.
    pub holder: Option<alloc::string::String>,
}

impl Card {
    /// A card from its checked parts, without a holder's name.
    ///
    /// ```
    /// use paytoken_types::{Card, CardNumber, Cvv, ExpiryMonth, ExpiryYear};
    ///
    /// let card = Card::new(
    ///     CardNumber::new("4000000000000051")?,
    ///     ExpiryMonth::new(6)?,
    ///     ExpiryYear::new(2030)?,
    ///     Cvv::new("745")?,
    /// )
    /// .holder("Zoë O'Neil");
    /// assert_eq!(card.holder.as_deref(), Some("Zoë O'Neil"));
    /// # Ok::<(), paytoken_types::Error>(())
    /// ```
    #[must_use]
    pub const fn new(
        number: CardNumber,
        expiry_month: ExpiryMonth,
        expiry_year: ExpiryYear,
        cvv: Cvv,
    ) -> Self {
        Self {
            number,
            expiry_month,
            expiry_year,
            cvv,
            holder: None,
        }
    }

    crate::setters! {
        /// The card with the name on it (`card.holder`), checked as free text when the form
        /// is written.
        pub fn holder(holder: impl Into<alloc::string::String>) => holder = Some(holder.into());
    }

    /// Whether the card has expired in the given month: a card is good through the last day
    /// of its expiry month. The caller passes today's date; this crate reads no clock.
    #[must_use]
    pub fn has_expired(&self, year: u16, month: u8) -> bool {
        (self.expiry_year.get(), self.expiry_month.get()) < (year, month)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_prelude::*;

    #[test]
    fn card_numbers_are_checked_and_trimmed() {
        let number = CardNumber::new(" 4000000000000051 ").unwrap();
        assert_eq!(number.expose_digits(), "4000000000000051");
        assert_eq!(number.bin(), "400000");
        assert_eq!(number.len(), 16);
        assert!(CardNumber::new("5101080000000009").is_ok());
        assert_eq!(
            CardNumber::new("4000000000000052"),
            Err(Error::CheckDigits {
                field: "card.number"
            })
        );
        assert!(matches!(
            CardNumber::new("4000 0000 0000 0051"),
            Err(Error::InvalidCharacter { position: 5, .. })
        ));
        assert!(matches!(
            CardNumber::new("42424242424"),
            Err(Error::Length { len: 11, .. })
        ));
        assert!(matches!(
            CardNumber::new("42424242424242424242"),
            Err(Error::Length { len: 20, .. })
        ));
        assert_eq!(
            CardNumber::new("  "),
            Err(Error::Empty {
                field: "card.number"
            })
        );
    }

    #[test]
    fn masking_hides_the_middle_and_short_numbers_show_only_the_tail() {
        let number = CardNumber::new("4000000000000051").unwrap();
        assert_eq!(format!("{}", number.masked()), "400000******0051");
        // 15 digits (American Express): only the last four.
        let amex = CardNumber::new("378282246310005").unwrap();
        assert_eq!(format!("{amex:?}"), "CardNumber(***********0005)");
        let cvv = Cvv::new("745").unwrap();
        assert_eq!(format!("{cvv:?}"), "Cvv(***)");
    }

    #[test]
    fn cvv_expiry_month_and_year() {
        assert!(Cvv::new("1234").is_ok());
        assert!(Cvv::new("12").is_err());
        assert!(Cvv::new("12a").is_err());
        assert_eq!("01".parse::<ExpiryMonth>().unwrap().to_string(), "01");
        assert_eq!("12".parse::<ExpiryMonth>().unwrap().get(), 12);
        for bad in ["1", "00", "13", "1a", "001"] {
            assert!(bad.parse::<ExpiryMonth>().is_err(), "{bad}");
        }
        assert_eq!("2030".parse::<ExpiryYear>().unwrap().get(), 2030);
        for bad in ["30", "0999", "20300", "2O30"] {
            assert!(bad.parse::<ExpiryYear>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_card_is_good_through_its_expiry_month() {
        let card = Card {
            number: CardNumber::new("4000000000000051").unwrap(),
            expiry_month: ExpiryMonth::new(6).unwrap(),
            expiry_year: ExpiryYear::new(2030).unwrap(),
            cvv: Cvv::new("745").unwrap(),
            holder: None,
        };
        assert!(!card.has_expired(2030, 6));
        assert!(card.has_expired(2030, 7));
        assert!(!card.has_expired(2029, 12));
        let debug = format!("{card:?}");
        assert!(!debug.contains("4000000000000051") && !debug.contains("745"));
    }
}
