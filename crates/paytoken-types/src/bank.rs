//! Bank accounts: IBAN and BIC, for SEPA direct-debit registrations.

use alloc::string::String;
use core::fmt;

use crate::Error;
use crate::error::{check_chars, check_len};
use crate::inline::InlineAscii;
use crate::text_traits::text_traits;

/// An International Bank Account Number, checked with ISO 7064 mod 97-10.
///
/// Spaces are removed and letters upper-cased, so `"de89 3704 0044 0532 0130 00"` is
/// accepted and sent as `DE89370400440532013000`. Like a card number it is a secret:
/// `Debug` shows the country and the last four characters, it has no `Display` or
/// `Serialize`, and it is wiped when dropped.
///
/// ```
/// use paytoken_types::Iban;
///
/// let iban = Iban::new("DE89 3704 0044 0532 0130 00")?;
/// assert_eq!(format!("{iban:?}"), "Iban(DE****************3000)");
/// assert!(Iban::new("DE89370400440532013001").is_err());
/// # Ok::<(), paytoken_types::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Iban(InlineAscii<34>);

impl Iban {
    /// The field's wire name.
    pub const FIELD: &'static str = "bankAccount.iban";

    /// Normalises and checks an IBAN.
    ///
    /// # Errors
    /// [`Error::InvalidCharacter`] for anything but letters, digits and spaces,
    /// [`Error::Length`] outside 15 to 34 characters, [`Error::Malformed`] when it does not
    /// open with a country code and two check digits, [`Error::CheckDigits`] when the
    /// check fails. The error never repeats the IBAN.
    pub fn new(text: &str) -> Result<Self, Error> {
        check_chars(Self::FIELD, text, "letters, digits and spaces", |c| {
            c.is_ascii_alphanumeric() || c == ' '
        })?;
        let mut compact = [0u8; 34];
        let mut len = 0;
        for byte in text.bytes().filter(|&b| b != b' ') {
            if let Some(slot) = compact.get_mut(len) {
                *slot = byte.to_ascii_uppercase();
            }
            len += 1;
        }
        check_len(Self::FIELD, len, 15, 34)?;
        let compact = compact.get(..len).unwrap_or_default();
        let opens_well = matches!(compact, [c1, c2, d1, d2, ..]
            if c1.is_ascii_uppercase() && c2.is_ascii_uppercase()
                && d1.is_ascii_digit() && d2.is_ascii_digit());
        if !opens_well {
            return Err(Error::Malformed {
                field: Self::FIELD,
                reason: "must open with a country code and two check digits",
            });
        }
        if !crate::sensitive::iban_check_holds(compact) {
            return Err(Error::CheckDigits { field: Self::FIELD });
        }
        InlineAscii::from_bytes(compact)
            .map(Self)
            .ok_or(Error::Overflow { field: Self::FIELD })
    }

    /// The compact IBAN, for the form body only.
    #[must_use]
    pub(crate) fn expose_str(&self) -> &str {
        self.0.as_str()
    }

    /// The two-letter country code that opens it.
    #[must_use]
    pub fn country(&self) -> &str {
        self.expose_str().get(..2).unwrap_or_default()
    }

    /// The IBAN as it may be shown: its country and last four characters,
    /// `DE****************3000`.
    #[must_use]
    pub fn masked(&self) -> String {
        crate::sensitive::mask_iban(self.expose_str())
    }

    /// The last four characters, as gateways show a stored account.
    #[must_use]
    pub fn last_four(&self) -> &str {
        let text = self.expose_str();
        text.get(text.len().saturating_sub(4)..).unwrap_or_default()
    }
}

impl Drop for Iban {
    fn drop(&mut self) {
        self.0.wipe();
    }
}

impl fmt::Debug for Iban {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Iban(")?;
        f.write_str(&crate::sensitive::mask_iban(self.expose_str()))?;
        f.write_str(")")
    }
}

/// A Business Identifier Code (SWIFT code): 8 or 11 letters and digits, upper-cased.
///
/// Not a secret: a stand-alone bank-account registration hashes it in place of the card
/// number.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bic(InlineAscii<11>);

impl Bic {
    /// The field's wire name.
    pub const FIELD: &'static str = "bankAccount.bic";

    /// Normalises (upper case) and checks a BIC.
    ///
    /// # Errors
    /// [`Error::InvalidCharacter`] for anything but letters and digits, [`Error::Length`]
    /// unless 8 or 11 characters, [`Error::Malformed`] when characters 5 and 6 are not a
    /// country code.
    pub fn new(text: &str) -> Result<Self, Error> {
        check_chars(Self::FIELD, text, "letters and digits", |c| {
            c.is_ascii_alphanumeric()
        })?;
        check_len(Self::FIELD, text.len(), 8, 11)?;
        if text.len() != 8 && text.len() != 11 {
            return Err(Error::Length {
                field: Self::FIELD,
                len: text.len(),
                min: 8,
                max: 11,
            });
        }
        let mut upper = [0u8; 11];
        for (slot, byte) in upper.iter_mut().zip(text.bytes()) {
            *slot = byte.to_ascii_uppercase();
        }
        let upper = upper.get(..text.len()).unwrap_or_default();
        if !upper
            .get(4..6)
            .is_some_and(|country| country.iter().all(u8::is_ascii_uppercase))
        {
            return Err(Error::Malformed {
                field: Self::FIELD,
                reason: "characters 5 and 6 must be a country code",
            });
        }
        InlineAscii::from_bytes(upper)
            .map(Self)
            .ok_or(Error::Overflow { field: Self::FIELD })
    }

    /// The BIC as it is sent and hashed.
    #[must_use]
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl fmt::Debug for Bic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bic({})", self.as_str())
    }
}

text_traits!(Iban(FromStr), Bic(Display, FromStr, Deserialize));

/// A bank account as a stand-alone registration sends it (`bankAccount.*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BankAccount {
    /// `bankAccount.iban`.
    pub iban: Iban,
    /// `bankAccount.bic`, also hashed by the registration's checksum.
    pub bic: Bic,
    /// `bankAccount.holder`, sent only when given.
    pub holder: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_prelude::*;

    #[test]
    fn ibans_are_normalised_and_checked() {
        for good in [
            "DE89370400440532013000",
            "de89 3704 0044 0532 0130 00",
            "GB82WEST12345698765432",
            "NL91ABNA0417164300",
            "NO9386011117947",
        ] {
            assert!(Iban::new(good).is_ok(), "{good}");
        }
        let iban = Iban::new("gb82 west 1234 5698 7654 32").unwrap();
        assert_eq!(iban.expose_str(), "GB82WEST12345698765432");
        assert_eq!(
            Iban::new("GB82WEST12345698765433"),
            Err(Error::CheckDigits {
                field: "bankAccount.iban"
            })
        );
        assert!(matches!(
            Iban::new("DE89-3704"),
            Err(Error::InvalidCharacter { .. })
        ));
        assert!(matches!(Iban::new("DE8937"), Err(Error::Length { .. })));
        assert!(matches!(
            Iban::new("1289370400440532013000"),
            Err(Error::Malformed { .. })
        ));
    }

    #[test]
    fn iban_debug_shows_country_and_last_four_only() {
        let iban = Iban::new("GB82WEST12345698765432").unwrap();
        let debug = format!("{iban:?}");
        assert_eq!(debug, "Iban(GB****************5432)");
        assert!(!debug.contains("WEST"));
    }

    #[test]
    fn bics_have_8_or_11_characters() {
        assert_eq!(Bic::new("deutdeff").unwrap().as_str(), "DEUTDEFF");
        assert_eq!(Bic::new("DEUTDEFF500").unwrap().to_string(), "DEUTDEFF500");
        assert!(matches!(
            Bic::new("DEUTDEFF5"),
            Err(Error::Length { len: 9, .. })
        ));
        assert!(matches!(Bic::new("DEUT12FF"), Err(Error::Malformed { .. })));
        assert!(matches!(
            Bic::new("DEUT|EFF"),
            Err(Error::InvalidCharacter { .. })
        ));
    }
}
