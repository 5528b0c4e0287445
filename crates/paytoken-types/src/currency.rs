//! Currency codes.

use core::fmt;

use crate::Error;
use crate::text_traits::text_traits;

const FIELD: &str = "currency";

/// A three-letter currency code in upper case, such as `EUR` (ISO 4217 alphabetic form).
///
/// Which codes a gateway accepts is its own affair; this type only guarantees the form.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Currency([u8; 3]);

impl Currency {
    /// Euro.
    pub const EUR: Self = Self(*b"EUR");
    /// United States dollar.
    pub const USD: Self = Self(*b"USD");
    /// Pound sterling.
    pub const GBP: Self = Self(*b"GBP");
    /// Indian rupee.
    pub const INR: Self = Self(*b"INR");

    /// Checks the form of `code`.
    ///
    /// # Errors
    /// [`Error::Length`] unless three characters, [`Error::InvalidCharacter`] for anything
    /// but the upper-case letters `A` to `Z`.
    pub fn new(code: &str) -> Result<Self, Error> {
        crate::error::upper_letters(FIELD, code).map(Self)
    }

    /// A code already known to be three upper-case letters `A` to `Z` (the tolerant
    /// reader's, which has just looked at each byte).
    pub(crate) const fn from_upper_letters(code: [u8; 3]) -> Self {
        Self(code)
    }

    /// The code, such as `"EUR"`.
    #[must_use]
    pub fn as_str(&self) -> &str {
        // Invariant: only ASCII upper-case letters are ever stored.
        core::str::from_utf8(&self.0).unwrap_or_default()
    }
}

impl crate::form::sealed::Sealed for Currency {}

impl crate::form::FormValue for Currency {
    fn form_bytes(&self) -> &[u8] {
        &self.0
    }

    fn form_text(&self) -> &str {
        self.as_str()
    }

    /// Three upper-case letters.
    fn is_plain(&self) -> bool {
        true
    }
}

impl fmt::Debug for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Currency({})", self.as_str())
    }
}

text_traits!(Currency(Display, FromStr, AsRef, Deserialize));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_prelude::*;

    #[test]
    fn accepts_three_upper_case_letters() {
        assert_eq!(Currency::new("EUR"), Ok(Currency::EUR));
        assert_eq!(Currency::EUR.to_string(), "EUR");
        assert_eq!(format!("{:?}", Currency::USD), "Currency(USD)");
    }

    #[test]
    fn refuses_other_forms() {
        assert_eq!(Currency::new(""), Err(Error::Empty { field: FIELD }));
        assert!(matches!(Currency::new("EU"), Err(Error::Length { .. })));
        assert!(matches!(Currency::new("EURO"), Err(Error::Length { .. })));
        assert!(matches!(
            Currency::new("eur"),
            Err(Error::InvalidCharacter { position: 1, .. })
        ));
        assert!(matches!(
            Currency::new("E1R"),
            Err(Error::InvalidCharacter { position: 2, .. })
        ));
        assert!(Currency::new("ÉUR").is_err());
    }
}
