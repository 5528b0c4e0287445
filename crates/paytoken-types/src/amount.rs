//! Money: an amount in minor units, never a float.

use core::fmt;
use core::str::FromStr;

use crate::Error;
use crate::text_traits::{deserialize_from_str, text_traits};

const FIELD: &str = "amount";

/// An amount of money in minor units (cents): `Amount::from_minor_units(5000)` is `50.00`.
///
/// On the wire an amount is decimal text with exactly two fraction digits and no sign, and
/// that text is also what the checksum hashes, so there is exactly one text per value:
/// [`Amount::to_wire`] (and `Display`) print it, [`FromStr`] accepts only it.
///
/// ```
/// use paytoken_types::Amount;
///
/// let amount: Amount = "50.00".parse()?;
/// assert_eq!(amount.minor_units(), 5000);
/// assert_eq!(amount.to_wire().as_str(), "50.00");
/// assert!("50.0".parse::<Amount>().is_err());
/// assert!("-1.00".parse::<Amount>().is_err());
/// # Ok::<(), paytoken_types::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Amount(u64);

impl Amount {
    /// Nothing.
    pub const ZERO: Self = Self(0);

    /// The amount of `minor_units` hundredths.
    #[must_use]
    pub const fn from_minor_units(minor_units: u64) -> Self {
        Self(minor_units)
    }

    /// The amount in hundredths.
    #[must_use]
    pub const fn minor_units(self) -> u64 {
        self.0
    }

    /// `major` units and `minor` hundredths: `Amount::new(50, 0)` is `50.00`.
    ///
    /// # Errors
    /// [`Error::Malformed`] when `minor` is 100 or more, [`Error::Overflow`] when the total
    /// does not fit in `u64` minor units.
    pub fn new(major: u64, minor: u8) -> Result<Self, Error> {
        if minor >= 100 {
            return Err(Error::Malformed {
                field: FIELD,
                reason: "minor units must be below 100",
            });
        }
        match major.checked_mul(100) {
            Some(hundreds) => match hundreds.checked_add(u64::from(minor)) {
                Some(total) => Ok(Self(total)),
                None => Err(Error::Overflow { field: FIELD }),
            },
            None => Err(Error::Overflow { field: FIELD }),
        }
    }

    /// The sum, or `None` on overflow.
    #[must_use]
    pub const fn checked_add(self, other: Self) -> Option<Self> {
        match self.0.checked_add(other.0) {
            Some(sum) => Some(Self(sum)),
            None => None,
        }
    }

    /// The difference, or `None` below zero.
    #[must_use]
    pub const fn checked_sub(self, other: Self) -> Option<Self> {
        match self.0.checked_sub(other.0) {
            Some(difference) => Some(Self(difference)),
            None => None,
        }
    }

    /// The wire text, written on the stack: what goes into the `amount` field and into the
    /// checksum.
    #[must_use]
    pub fn to_wire(self) -> AmountText {
        let mut buf = [0u8; AMOUNT_TEXT_MAX];
        let mut start = AMOUNT_TEXT_MAX;
        let mut rest = self.0;
        // Fill from the right: two fraction digits, the point, then at least one whole digit.
        // `AMOUNT_TEXT_MAX` bytes hold `u64::MAX`, so every digit finds a slot.
        for (from_right, slot) in buf.iter_mut().rev().enumerate() {
            if from_right > 3 && rest == 0 {
                break;
            }
            *slot = if from_right == 2 {
                b'.'
            } else {
                let byte = b'0' + last_digit(rest);
                rest /= 10;
                byte
            };
            start -= 1;
        }
        AmountText { buf, start }
    }
}

/// The last decimal digit of `value`.
const fn last_digit(value: u64) -> u8 {
    #[expect(clippy::as_conversions, reason = "a remainder below 10 fits in u8")]
    let digit = (value % 10) as u8;
    digit
}

/// `u64::MAX` has 20 digits; with the point that is 21 bytes.
const AMOUNT_TEXT_MAX: usize = 21;

/// An amount's wire text, kept on the stack (see [`Amount::to_wire`]).
#[derive(Clone, Copy)]
pub struct AmountText {
    buf: [u8; AMOUNT_TEXT_MAX],
    start: usize,
}

impl AmountText {
    /// The text, such as `"50.00"`.
    #[must_use]
    pub fn as_str(&self) -> &str {
        // Invariant: `to_wire` writes only ASCII digits and one point from `start` on.
        self.buf
            .get(self.start..)
            .and_then(|bytes| core::str::from_utf8(bytes).ok())
            .unwrap_or_default()
    }
}

impl crate::form::sealed::Sealed for AmountText {}

impl crate::form::FormValue for AmountText {
    fn form_bytes(&self) -> &[u8] {
        self.buf.get(self.start..).unwrap_or_default()
    }

    fn form_text(&self) -> &str {
        self.as_str()
    }

    /// Digits and one point.
    fn is_plain(&self) -> bool {
        true
    }
}

impl fmt::Debug for AmountText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

text_traits!(AmountText(AsRef));

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.to_wire().as_str())
    }
}

impl FromStr for Amount {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self, Error> {
        if crate::trimmed(text).is_empty() {
            return Err(Error::Empty { field: FIELD });
        }
        let bytes = text.as_bytes();
        if let Some(position) = bytes
            .iter()
            .position(|&b| !(b.is_ascii_digit() || b == b'.'))
        {
            return Err(Error::InvalidCharacter {
                field: FIELD,
                // The text up to here is ASCII, so the byte index is the character index.
                position: position + 1,
                expected: "digits and one decimal point",
            });
        }
        let Some((whole, fraction)) = text.split_once('.') else {
            return Err(two_fraction_digits());
        };
        if fraction.len() != 2 || fraction.contains('.') {
            return Err(two_fraction_digits());
        }
        if whole.is_empty() {
            return Err(Error::Malformed {
                field: FIELD,
                reason: "no digits before the decimal point",
            });
        }
        if whole.len() > 1 && whole.starts_with('0') {
            return Err(Error::Malformed {
                field: FIELD,
                reason: "leading zero",
            });
        }
        let mut total: u64 = 0;
        for b in whole.bytes().chain(fraction.bytes()) {
            total = total
                .checked_mul(10)
                .and_then(|t| t.checked_add(u64::from(b - b'0')))
                .ok_or(Error::Overflow { field: FIELD })?;
        }
        Ok(Self(total))
    }
}

const fn two_fraction_digits() -> Error {
    Error::Malformed {
        field: FIELD,
        // Strict, so that a typo never moves money; the numbers' constructors are named for
        // code that holds an amount as numbers.
        reason: "expected exactly two fraction digits, as in 50.00 (from numbers: Amount::from_minor_units or Amount::new)",
    }
}

deserialize_from_str!(Amount);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_prelude::*;

    /// An amount without its two fraction digits is refused, and the refusal leads to the
    /// constructors that take numbers.
    #[test]
    fn a_refused_amount_names_the_constructors() {
        for text in ["10", "50.5", "1.234"] {
            let message = text.parse::<Amount>().unwrap_err().to_string();
            assert!(message.contains("50.00"), "{message}");
            assert!(message.contains("Amount::from_minor_units"), "{message}");
            assert!(message.contains("Amount::new"), "{message}");
        }
    }

    #[test]
    fn prints_two_fraction_digits() {
        for (minor, text) in [
            (0, "0.00"),
            (5, "0.05"),
            (50, "0.50"),
            (5000, "50.00"),
            (123_456, "1234.56"),
            (u64::MAX, "184467440737095516.15"),
        ] {
            let amount = Amount::from_minor_units(minor);
            assert_eq!(amount.to_wire().as_str(), text);
            assert_eq!(amount.to_string(), text);
            assert_eq!(text.parse::<Amount>(), Ok(amount));
        }
    }

    #[test]
    fn refuses_everything_but_the_one_wire_form() {
        let malformed = |reason| Error::Malformed {
            field: FIELD,
            reason,
        };
        let cases: [(&str, Error); 14] = [
            ("", Error::Empty { field: FIELD }),
            ("   ", Error::Empty { field: FIELD }),
            ("50", two_fraction_digits()),
            ("50.0", two_fraction_digits()),
            ("50.000", two_fraction_digits()),
            ("5.0.0", two_fraction_digits()),
            (".50", malformed("no digits before the decimal point")),
            ("050.00", malformed("leading zero")),
            ("184467440737095516.16", Error::Overflow { field: FIELD }),
            (
                "-1.00",
                Error::InvalidCharacter {
                    field: FIELD,
                    position: 1,
                    expected: "digits and one decimal point",
                },
            ),
            (
                "+1.00",
                Error::InvalidCharacter {
                    field: FIELD,
                    position: 1,
                    expected: "digits and one decimal point",
                },
            ),
            (
                "1e2",
                Error::InvalidCharacter {
                    field: FIELD,
                    position: 2,
                    expected: "digits and one decimal point",
                },
            ),
            (
                " 1.00",
                Error::InvalidCharacter {
                    field: FIELD,
                    position: 1,
                    expected: "digits and one decimal point",
                },
            ),
            (
                "1,00",
                Error::InvalidCharacter {
                    field: FIELD,
                    position: 2,
                    expected: "digits and one decimal point",
                },
            ),
        ];
        for (text, error) in cases {
            assert_eq!(text.parse::<Amount>(), Err(error), "{text:?}");
        }
    }

    #[test]
    fn builds_from_major_and_minor_units() {
        assert_eq!(Amount::new(50, 5), Ok(Amount::from_minor_units(5005)));
        assert!(Amount::new(1, 100).is_err());
        assert_eq!(
            Amount::new(u64::MAX / 100 + 1, 0),
            Err(Error::Overflow { field: FIELD })
        );
        assert_eq!(
            Amount::from_minor_units(1).checked_sub(Amount::from_minor_units(2)),
            None
        );
    }
}
