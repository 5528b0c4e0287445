//! The merchant's own id for a transaction: free text, as merchants have order ids.

use alloc::sync::Arc;
use core::fmt;

use crate::Error;
use crate::error::check_len;
use crate::text_traits::text_traits;

/// The most characters a [`MerchantTransactionId`] may have.
///
/// The interface states no bound. 255 holds every order-id scheme merchants use (a dashed
/// UUID is 36, a prefixed one about 50) with room to spare, matches the 255-character
/// reference fields of comparable gateways, and keeps what the sandbox stores per payment
/// bounded. A merchant with longer ids is refused here, with a clear error, rather than by
/// a gateway in production.
pub const MAX_MERCHANT_TRANSACTION_ID_CHARS: usize = 255;

/// The merchant's own unique id for a transaction (`merchantTransactionId`): free text such
/// as `Rest Transaction 01`, `10thOct2016-029751`, `order_17`, `ORD/2026:0001` or a dashed
/// UUID.
///
/// Kept, signed and sent exactly as given: no trimming, no case change. One to
/// [`MAX_MERCHANT_TRANSACTION_ID_CHARS`] characters; control characters (which no order id
/// holds and which would reach logs and terminals) and `|` (which would make the
/// checksum's joined text ambiguous) are refused, as is text of blanks only.
///
/// ```
/// use paytoken_types::MerchantTransactionId;
///
/// let id = MerchantTransactionId::new("Rest Transaction 01")?;
/// assert_eq!(id.as_str(), "Rest Transaction 01");
/// assert!(MerchantTransactionId::new("a|b").is_err());
/// assert!(MerchantTransactionId::new("line\nbreak").is_err());
/// # Ok::<(), paytoken_types::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MerchantTransactionId(Arc<str>);

impl MerchantTransactionId {
    /// The field's wire name, used in errors.
    pub const FIELD: &'static str = "merchantTransactionId";

    /// Checks `value` and keeps it exactly.
    ///
    /// # Errors
    /// [`Error::Empty`] for empty or blank text, [`Error::Length`] beyond
    /// [`MAX_MERCHANT_TRANSACTION_ID_CHARS`] characters, [`Error::InvalidCharacter`] for a
    /// control character or `|`.
    pub fn new(value: &str) -> Result<Self, Error> {
        if crate::trimmed(value).is_empty() {
            return Err(Error::Empty { field: Self::FIELD });
        }
        check_len(
            Self::FIELD,
            value.chars().count(),
            1,
            MAX_MERCHANT_TRANSACTION_ID_CHARS,
        )?;
        if let Some(index) = value.chars().position(|c| c.is_control() || c == '|') {
            return Err(Error::InvalidCharacter {
                field: Self::FIELD,
                position: index + 1,
                expected: "text without control characters or |",
            });
        }
        Ok(Self(Arc::from(value)))
    }

    /// The id as it goes on the wire and into the checksum.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for MerchantTransactionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("MerchantTransactionId")
            .field(&self.as_str())
            .finish()
    }
}

text_traits!(MerchantTransactionId(
    Display,
    FromStr,
    TryFrom,
    AsRef,
    Deserialize
));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_prelude::*;

    #[test]
    fn accepts_the_ids_merchants_have() {
        for id in [
            "Rest Transaction 01",
            "Test Transaction01",
            "10thOct2016-029751",
            "27thOct002",
            "Payout-JPY-1",
            "order_17",
            "ORD-2026-0001",
            "shop.example/orders:17",
            "3f2b8c1e-5d4a-4e7b-9a6c-0d1e2f3a4b5c",
            "Bestellung für Zoë",
            " padded ",
        ] {
            assert_eq!(MerchantTransactionId::new(id).unwrap().as_str(), id);
        }
        let longest = "x".repeat(MAX_MERCHANT_TRANSACTION_ID_CHARS);
        assert!(MerchantTransactionId::new(&longest).is_ok());
    }

    #[test]
    fn refuses_blank_long_control_and_separator() {
        let field = MerchantTransactionId::FIELD;
        assert_eq!(MerchantTransactionId::new(""), Err(Error::Empty { field }));
        assert_eq!(
            MerchantTransactionId::new("   "),
            Err(Error::Empty { field })
        );
        assert!(matches!(
            MerchantTransactionId::new(&"x".repeat(MAX_MERCHANT_TRANSACTION_ID_CHARS + 1)),
            Err(Error::Length { len: 256, .. })
        ));
        for (bad, position) in [
            ("tx|1", 3),
            ("a\tb", 2),
            ("a\u{7f}", 2),
            ("\u{9b}2J", 1),
            ("ok\u{1b}[2J", 3),
        ] {
            assert!(
                matches!(
                    MerchantTransactionId::new(bad),
                    Err(Error::InvalidCharacter { position: p, .. }) if p == position
                ),
                "{bad:?}"
            );
        }
        // The error names the field, never the value.
        let message = MerchantTransactionId::new("secret|x")
            .unwrap_err()
            .to_string();
        assert!(!message.contains("secret"), "{message}");
        assert_eq!(
            format!("{:?}", MerchantTransactionId::new("a b").unwrap()),
            "MerchantTransactionId(\"a b\")"
        );
    }
}
