//! Result codes: the gateway's verdict, kept as it came and classified by family.

use alloc::string::String;
use core::fmt;

/// What a single result code means, by the families the gateway's deployments use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CodeFamily {
    /// `000xx`, `0008` and `200`: the request did what it asked.
    Success,
    /// `10004`: the transaction is pending.
    Pending,
    /// `90026`: waiting for 3-D Secure authentication.
    ThreeDSecurePending,
    /// `10001`: the transaction failed.
    Failed,
    /// `2xxxx`: system checks (login, checksum, auth token, permissions).
    SystemCheck,
    /// `3xxxx`: input validation.
    Validation,
    /// `9xxxx`: rejections (declines, risk, blocked).
    Rejection,
    /// A code of no known family.
    Unknown,
}

impl CodeFamily {
    /// The family of one code, such as `"00001"` or `"30001"`.
    #[must_use]
    pub fn of(code: &str) -> Self {
        let bytes = code.as_bytes();
        if !bytes.iter().all(u8::is_ascii_digit) {
            return Self::Unknown;
        }
        match (code, bytes) {
            ("0008" | "200", _) | (_, [b'0', b'0', b'0', _, _]) => Self::Success,
            ("10004", _) => Self::Pending,
            ("90026", _) => Self::ThreeDSecurePending,
            ("10001", _) => Self::Failed,
            (_, [b'2', _, _, _, _]) => Self::SystemCheck,
            (_, [b'3', _, _, _, _]) => Self::Validation,
            (_, [b'9', _, _, _, _]) => Self::Rejection,
            _ => Self::Unknown,
        }
    }

    /// Whether this family is a success.
    #[must_use]
    pub const fn is_success(self) -> bool {
        matches!(self, Self::Success)
    }
}

/// The `result.code` text: one code, or several joined with `|` (`"30001 | 30002"` or
/// `"30001|30002"`).
///
/// The raw text is kept exactly; [`ResultCode::codes`] splits it.
///
/// ```
/// use paytoken_types::{CodeFamily, ResultCode};
///
/// let code = ResultCode::new("30001 | 30002");
/// assert_eq!(code.codes().collect::<Vec<_>>(), ["30001", "30002"]);
/// assert_eq!(code.family(), CodeFamily::Validation);
/// assert!(ResultCode::new("0008").is_success());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct ResultCode(String);

impl ResultCode {
    /// Keeps `raw` as it came.
    #[must_use]
    pub fn new(raw: impl Into<String>) -> Self {
        Self(raw.into())
    }

    /// The text as it came.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Each code, trimmed, in order; empty pieces are skipped.
    pub fn codes(&self) -> impl Iterator<Item = &str> {
        self.0
            .split('|')
            .map(str::trim)
            .filter(|code| !code.is_empty())
    }

    /// Whether `code` is among the codes.
    #[must_use]
    pub fn contains(&self, code: &str) -> bool {
        self.codes().any(|c| c == code)
    }

    /// The family of the whole result: that of the first code that is not a success,
    /// [`CodeFamily::Success`] when every code is one, [`CodeFamily::Unknown`] when there is
    /// no code at all.
    #[must_use]
    pub fn family(&self) -> CodeFamily {
        let mut families = self.codes().map(CodeFamily::of).peekable();
        if families.peek().is_none() {
            return CodeFamily::Unknown;
        }
        families
            .find(|family| !family.is_success())
            .unwrap_or(CodeFamily::Success)
    }

    /// Whether every code is a success (and there is at least one).
    #[must_use]
    pub fn is_success(&self) -> bool {
        self.family().is_success()
    }
}

impl fmt::Display for ResultCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for ResultCode {
    fn from(raw: &str) -> Self {
        Self::new(raw)
    }
}

/// The `result` object of a response: the code and its description, either of which may
/// join several with `|`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
pub struct GatewayResult {
    /// `result.code`.
    pub code: ResultCode,
    /// `result.description`; empty when the gateway sent none.
    #[cfg_attr(feature = "serde", serde(default))]
    pub description: String,
}

impl GatewayResult {
    /// Each code with its description, in order. When the gateway joined fewer
    /// descriptions than codes, the missing ones are empty.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &str)> {
        let mut descriptions = self.description.split('|').map(str::trim);
        self.code
            .codes()
            .map(move |code| (code, descriptions.next().unwrap_or_default()))
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for ResultCode {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_prelude::*;

    #[test]
    fn classifies_every_family() {
        for (code, family) in [
            ("00001", CodeFamily::Success),
            ("00026", CodeFamily::Success),
            ("0008", CodeFamily::Success),
            ("00008", CodeFamily::Success),
            ("200", CodeFamily::Success),
            ("10004", CodeFamily::Pending),
            ("90026", CodeFamily::ThreeDSecurePending),
            ("10001", CodeFamily::Failed),
            ("20005", CodeFamily::SystemCheck),
            ("30001", CodeFamily::Validation),
            ("90001", CodeFamily::Rejection),
            ("10002", CodeFamily::Unknown),
            ("0009", CodeFamily::Unknown),
            ("300011", CodeFamily::Unknown),
            ("3000a", CodeFamily::Unknown),
            ("", CodeFamily::Unknown),
        ] {
            assert_eq!(CodeFamily::of(code), family, "{code}");
        }
    }

    #[test]
    fn splits_joined_codes_with_or_without_spaces() {
        let spaced = ResultCode::new("30001 | 30002");
        let tight = ResultCode::new("30001|30002");
        for code in [&spaced, &tight] {
            assert_eq!(code.codes().collect::<Vec<_>>(), ["30001", "30002"]);
            assert_eq!(code.family(), CodeFamily::Validation);
            assert!(code.contains("30002"));
        }
        assert_eq!(spaced.as_str(), "30001 | 30002");
        assert_eq!(ResultCode::new("").family(), CodeFamily::Unknown);
        assert_eq!(
            ResultCode::new("00001|20001").family(),
            CodeFamily::SystemCheck
        );
    }

    #[test]
    fn pairs_codes_with_descriptions() {
        let result = GatewayResult {
            code: ResultCode::new("30001 | 30002"),
            description: "text one | text two".into(),
        };
        assert_eq!(
            result.entries().collect::<Vec<_>>(),
            [("30001", "text one"), ("30002", "text two")]
        );
        let short = GatewayResult {
            code: ResultCode::new("30001|30002"),
            description: "only one".into(),
        };
        assert_eq!(
            short.entries().collect::<Vec<_>>(),
            [("30001", "only one"), ("30002", "")]
        );
    }

    #[cfg(feature = "serde")]
    #[test]
    fn deserializes_a_result_object() {
        let result: GatewayResult = serde_json::from_str(
            r#"{"code":"00001","description":"Transaction succeeded","extra":"x"}"#,
        )
        .unwrap();
        assert!(result.code.is_success());
        assert_eq!(result.description, "Transaction succeeded");
    }
}
