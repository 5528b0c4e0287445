//! The one error type of this crate: a value that does not fit its field.

/// Why a value was refused.
///
/// Every variant names the field (its wire name, such as `card.number`) and never carries
/// the value itself: a refused card number or CVV must not reach a log line through its
/// error. Values are checked before anything is built, so none of these errors means a
/// request reached the gateway (which is why, unlike the client's errors, it has no
/// `may_have_reached_gateway`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The value is empty, or only blanks.
    #[error("{field}: is empty")]
    Empty {
        /// The field's wire name.
        field: &'static str,
    },
    /// The value is shorter or longer than the field allows.
    #[error("{field}: has {len} characters, expected {min} to {max}")]
    Length {
        /// The field's wire name.
        field: &'static str,
        /// The length that was given, in characters.
        len: usize,
        /// The fewest characters allowed.
        min: usize,
        /// The most characters allowed.
        max: usize,
    },
    /// A character that the field does not allow.
    #[error("{field}: character {position} is not allowed, expected {expected}")]
    InvalidCharacter {
        /// The field's wire name.
        field: &'static str,
        /// Where the character stands, counting characters from 1.
        position: usize,
        /// What the field allows, in words.
        expected: &'static str,
    },
    /// The value has the right characters but not the right form (a month of `13`, a date
    /// that is not in the calendar, an amount with one fraction digit).
    #[error("{field}: {reason}")]
    Malformed {
        /// The field's wire name.
        field: &'static str,
        /// What is wrong, in lowercase words.
        reason: &'static str,
    },
    /// The value's check digits do not match (Luhn for card numbers, ISO 7064 for IBANs).
    #[error("{field}: check digits do not match")]
    CheckDigits {
        /// The field's wire name.
        field: &'static str,
    },
    /// A number too large for the field (an amount beyond `u64` minor units).
    #[error("{field}: too large")]
    Overflow {
        /// The field's wire name.
        field: &'static str,
    },
    /// A form body with a `%` that is not followed by two hexadecimal digits.
    #[error("form body: malformed percent escape at byte {offset}")]
    MalformedEscape {
        /// The byte offset of the `%` in the body.
        offset: usize,
    },
    /// A form body whose decoded name or value is not UTF-8.
    #[error("form body: not utf-8 in the pair starting at byte {offset}")]
    InvalidUtf8 {
        /// The byte offset of the pair in the body.
        offset: usize,
    },
}

impl Error {
    /// The wire name of the field at fault, where there is one.
    #[must_use]
    pub const fn field(&self) -> Option<&'static str> {
        match self {
            Self::Empty { field }
            | Self::Length { field, .. }
            | Self::InvalidCharacter { field, .. }
            | Self::Malformed { field, .. }
            | Self::CheckDigits { field }
            | Self::Overflow { field } => Some(field),
            Self::MalformedEscape { .. } | Self::InvalidUtf8 { .. } => None,
        }
    }
}

/// Checks a length in characters against `min..=max`.
pub(crate) const fn check_len(
    field: &'static str,
    len: usize,
    min: usize,
    max: usize,
) -> Result<(), Error> {
    if len == 0 {
        return Err(Error::Empty { field });
    }
    if len < min || len > max {
        return Err(Error::Length {
            field,
            len,
            min,
            max,
        });
    }
    Ok(())
}

/// Checks a code of exactly `N` upper-case ASCII letters (a currency, a country).
pub(crate) fn upper_letters<const N: usize>(
    field: &'static str,
    text: &str,
) -> Result<[u8; N], Error> {
    check_chars(field, text, "upper-case letters a to z", |c| {
        c.is_ascii_uppercase()
    })?;
    check_len(field, text.len(), N, N)?;
    let mut code = [0; N];
    code.iter_mut()
        .zip(text.bytes())
        .for_each(|(slot, b)| *slot = b);
    Ok(code)
}

/// Finds the first character that `allowed` refuses, as an [`Error::InvalidCharacter`].
pub(crate) fn check_chars(
    field: &'static str,
    value: &str,
    expected: &'static str,
    allowed: impl Fn(char) -> bool,
) -> Result<(), Error> {
    // The common case first: ASCII text whose every byte is allowed, checked by a fold with
    // no early exit (which the compiler can do many bytes at a time); only a text that
    // fails it is walked by character, to say where.
    let all_allowed = value
        .bytes()
        .fold(true, |ok, b| ok & b.is_ascii() & allowed(char::from(b)));
    if all_allowed {
        return Ok(());
    }
    match value.chars().position(|c| !allowed(c)) {
        Some(index) => Err(Error::InvalidCharacter {
            field,
            position: index + 1,
            expected,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The check as it was before its fast path: a walk by character.
    fn by_character(value: &str, allowed: impl Fn(char) -> bool) -> Option<usize> {
        value
            .chars()
            .position(|c| !allowed(c))
            .map(|index| index + 1)
    }

    fn position_of(result: Result<(), Error>) -> Option<usize> {
        match result {
            Ok(()) => None,
            Err(Error::InvalidCharacter { position, .. }) => Some(position),
            Err(other) => panic!("unexpected {other:?}"),
        }
    }

    /// One of each variant; the match makes a new variant fail to compile until it is here.
    fn one_of_each() -> [Error; 8] {
        let errors = [
            Error::Empty { field: "card.cvv" },
            Error::Length {
                field: "card.number",
                len: 3,
                min: 12,
                max: 19,
            },
            Error::InvalidCharacter {
                field: "card.number",
                position: 5,
                expected: "digits",
            },
            Error::Malformed {
                field: "card.expiryMonth",
                reason: "not a month",
            },
            Error::CheckDigits {
                field: "card.number",
            },
            Error::Overflow { field: "amount" },
            Error::MalformedEscape { offset: 7 },
            Error::InvalidUtf8 { offset: 9 },
        ];
        for error in &errors {
            match error {
                Error::Empty { .. }
                | Error::Length { .. }
                | Error::InvalidCharacter { .. }
                | Error::Malformed { .. }
                | Error::CheckDigits { .. }
                | Error::Overflow { .. }
                | Error::MalformedEscape { .. }
                | Error::InvalidUtf8 { .. } => {}
            }
        }
        errors
    }

    #[test]
    fn every_error_names_its_field_first_and_has_no_source() {
        use core::error::Error as _;
        for error in one_of_each() {
            let message = alloc::format!("{error}");
            let place = error.field().unwrap_or("form body");
            assert!(
                message.starts_with(&alloc::format!("{place}: ")),
                "{message}"
            );
            let words = message.trim_start_matches(place);
            assert_eq!(words, words.to_lowercase(), "{message}");
            assert!(error.source().is_none(), "{message}");
        }
    }

    proptest::proptest! {
        #[test]
        fn the_fast_path_agrees_with_a_walk_by_character(
            value in "[a-zA-Z0-9 ]{0,40}|\\PC{0,12}|[a-z\u{0}-\u{1f}\u{7f}\u{80}-\u{9f}é€]{0,12}"
        ) {
            let alphanumeric = |c: char| c.is_ascii_alphanumeric();
            let not_control = |c: char| !c.is_control();
            proptest::prop_assert_eq!(
                position_of(check_chars("f", &value, "x", alphanumeric)),
                by_character(&value, alphanumeric)
            );
            proptest::prop_assert_eq!(
                position_of(check_chars("f", &value, "x", not_control)),
                by_character(&value, not_control)
            );
        }
    }
}
