//! Identifiers: validating newtypes over short alphanumeric text.
//!
//! The gateway's identifiers are alphanumeric and at most 32 characters long (registration
//! ids are exactly 32 in every sample). Each is kept inline, so an identifier is `Copy` and
//! costs no allocation. The merchant transaction id is not one of them: it is the
//! merchant's own free text ([`crate::MerchantTransactionId`]).

use core::fmt;

use crate::Error;
use crate::error::{check_chars, check_len};
use crate::inline::InlineAscii;
use crate::text_traits::text_traits;

/// The longest identifier the gateway issues or accepts.
pub(crate) const MAX_ID_LEN: usize = 32;

fn parse_id(field: &'static str, value: &str) -> Result<InlineAscii<MAX_ID_LEN>, Error> {
    // Every id a gateway sends, in one pass with no early exit: 1 to 32 ASCII letters and
    // digits. Anything else is looked at again below, to say what is wrong.
    if (1..=MAX_ID_LEN).contains(&value.len())
        && value
            .bytes()
            .fold(true, |ok, b| ok & b.is_ascii_alphanumeric())
        && let Some(id) = InlineAscii::new(value)
    {
        return Ok(id);
    }
    // Characters, not bytes, in the error; for ASCII text (every valid id) the same.
    let len = if value.is_ascii() {
        value.len()
    } else {
        value.chars().count()
    };
    check_len(field, len, 1, MAX_ID_LEN)?;
    check_chars(field, value, "ascii letters and digits", |c| {
        c.is_ascii_alphanumeric()
    })?;
    InlineAscii::new(value).ok_or(Error::Malformed {
        field,
        reason: "not ascii",
    })
}

macro_rules! identifier {
    ($($(#[$doc:meta])* $name:ident => $field:literal;)+) => {$(
        $(#[$doc])*
        ///
        /// Alphanumeric ASCII, 1 to 32 characters.
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(InlineAscii<MAX_ID_LEN>);

        impl $name {
            /// The field's wire name, used in errors.
            pub const FIELD: &'static str = $field;

            /// Checks `value` and wraps it.
            ///
            /// # Errors
            /// [`Error::Empty`], [`Error::Length`] beyond 32 characters, or
            /// [`Error::InvalidCharacter`] for anything but ASCII letters and digits.
            pub fn new(value: &str) -> Result<Self, Error> {
                parse_id($field, value).map(Self)
            }

            /// The identifier as it goes on the wire.
            #[must_use]
            pub fn as_str(&self) -> &str {
                self.0.as_str()
            }
        }

        impl $crate::form::sealed::Sealed for $name {}

        impl $crate::form::FormValue for $name {
            fn form_bytes(&self) -> &[u8] {
                self.0.as_bytes()
            }

            fn form_text(&self) -> &str {
                self.as_str()
            }

            /// Letters and digits only (`new`).
            fn is_plain(&self) -> bool {
                true
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_tuple(stringify!($name)).field(&self.as_str()).finish()
            }
        }

        text_traits!($name(Display, FromStr, TryFrom, AsRef, Deserialize));
    )+};
}

identifier! {
    /// A merchant's identifier, issued by the gateway (`authentication.memberId`).
    MemberId => "authentication.memberId";
    /// A partner's identifier, issued by the gateway (`authentication.partnerId`).
    PartnerId => "authentication.partnerId";
    /// A merchant's account (`authentication.accountId`).
    AccountId => "authentication.accountId";
    /// A merchant's terminal (`authentication.terminalId`).
    TerminalId => "authentication.terminalId";
    /// A customer, as returned by customer sign-up (`customer.customerId`).
    CustomerId => "customer.customerId";
    /// A transaction the gateway created (`paymentId`).
    PaymentId => "paymentId";
    /// A stored card or bank account: the token (`registrationId`).
    RegistrationId => "registrationId";
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_prelude::*;

    #[test]
    fn accepts_alphanumeric_up_to_32() {
        let id = RegistrationId::new("8a82944a4cc25ebf014cc2c782423202").unwrap();
        assert_eq!(id.as_str(), "8a82944a4cc25ebf014cc2c782423202");
        assert_eq!(id.to_string(), id.as_str());
        assert_eq!(
            format!("{id:?}"),
            "RegistrationId(\"8a82944a4cc25ebf014cc2c782423202\")"
        );
        assert_eq!(MemberId::new("11344").unwrap().as_str(), "11344");
    }

    #[test]
    fn refuses_empty_long_and_foreign_characters() {
        assert_eq!(
            MemberId::new(""),
            Err(Error::Empty {
                field: "authentication.memberId"
            })
        );
        assert_eq!(
            RegistrationId::new(&"a".repeat(33)),
            Err(Error::Length {
                field: "registrationId",
                len: 33,
                min: 1,
                max: 32
            })
        );
        assert_eq!(
            PaymentId::new("-"),
            Err(Error::InvalidCharacter {
                field: "paymentId",
                position: 1,
                expected: "ascii letters and digits"
            })
        );
        assert!(CustomerId::new("ü1").is_err());
        assert!(CustomerId::new(" 1").is_err());
    }

    #[cfg(feature = "serde")]
    #[test]
    fn deserializes_from_a_json_string() {
        let id: PaymentId = serde_json::from_str("\"54279\"").unwrap();
        assert_eq!(id.as_str(), "54279");
        assert!(serde_json::from_str::<PaymentId>("\"-\"").is_err());
        assert!(serde_json::from_str::<PaymentId>("54279").is_err());
    }
}
