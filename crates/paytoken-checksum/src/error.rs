//! The one error type of this crate.

/// Why a checksum could not be made, or a checksum text could not be read.
///
/// Like every error of paytoken it never repeats a secret. Checksums are computed before a
/// request is built, so none of these errors means a request reached the gateway.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A field holds `|`, the separator of the joined text: `a|b` + `c` and `a` + `b|c`
    /// would hash alike, so the gateway could not tell what was signed.
    #[error("{field}: contains `|`, which would make the checksum ambiguous")]
    Separator {
        /// The field's wire name (`secureKey` for the key).
        field: &'static str,
    },
    /// A secure key that is empty.
    #[error("secureKey: is empty")]
    EmptyKey,
    /// A checksum text that is not 32 hexadecimal digits.
    #[error("authentication.checksum: expected 32 lowercase hexadecimal digits")]
    MalformedChecksum,
}

impl Error {
    /// The wire name of the field at fault.
    #[must_use]
    pub const fn field(&self) -> &'static str {
        match self {
            Self::Separator { field } => field,
            Self::EmptyKey => crate::SecureKey::FIELD,
            Self::MalformedChecksum => crate::Checksum::FIELD,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_names_its_field_and_no_secret() {
        use core::error::Error as _;
        let errors = [
            Error::Separator {
                field: "merchantTransactionId",
            },
            Error::EmptyKey,
            Error::MalformedChecksum,
        ];
        for error in &errors {
            // A new variant fails to compile here until it is in the list above.
            match error {
                Error::Separator { .. } | Error::EmptyKey | Error::MalformedChecksum => {}
            }
            let message = alloc::format!("{error}");
            let (field, words) = message.split_once(": ").unwrap_or_default();
            assert!(!field.is_empty(), "{message}");
            assert_eq!(field, error.field(), "{message}");
            assert_eq!(words, words.to_lowercase(), "{message}");
            assert!(error.source().is_none(), "{message}");
        }
    }
}
