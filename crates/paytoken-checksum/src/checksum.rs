//! A computed checksum: 16 bytes that print as 32 lowercase hex digits.

use core::fmt;

use crate::Error;

/// An MD5 checksum. `Display` prints the 32 lowercase hex digits the gateway expects in
/// `authentication.checksum`, without allocating.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Checksum([u8; 16]);

impl Checksum {
    /// The field that carries it.
    pub const FIELD: &'static str = "authentication.checksum";

    /// Wraps a digest.
    #[must_use]
    pub const fn from_bytes(bytes: [u8; 16]) -> Self {
        Self(bytes)
    }

    /// The digest's bytes.
    #[must_use]
    pub const fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }

    /// Reads 32 hex digits, such as the `authentication.checksum` of a request.
    ///
    /// # Errors
    /// [`Error::MalformedChecksum`] unless exactly 32 lowercase hex digits.
    pub fn from_hex(text: &str) -> Result<Self, Error> {
        if text.bytes().any(|b| b.is_ascii_uppercase()) {
            return Err(Error::MalformedChecksum);
        }
        let mut bytes = [0; 16];
        hex::decode_to_slice(text, &mut bytes).map_err(|_| Error::MalformedChecksum)?;
        Ok(Self(bytes))
    }

    /// The 32 lowercase hex digits, on the stack.
    #[must_use]
    pub fn to_hex(&self) -> HexChecksum {
        let mut digits = [0; 32];
        // Invariant: 16 bytes always fit 32 digits, so this cannot fail.
        let _ = hex::encode_to_slice(self.0, &mut digits);
        HexChecksum(digits)
    }
}

impl fmt::Display for Checksum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.to_hex().as_str())
    }
}

impl fmt::Debug for Checksum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Checksum({self})")
    }
}

/// A checksum's 32 lowercase hex digits, on the stack (see [`Checksum::to_hex`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct HexChecksum([u8; 32]);

impl HexChecksum {
    /// The digits.
    #[must_use]
    pub fn as_str(&self) -> &str {
        // Invariant: `hex::encode_to_slice` writes only ASCII hex digits.
        core::str::from_utf8(&self.0).unwrap_or_default()
    }

    /// The digits as bytes, without the UTF-8 check of [`as_str`](Self::as_str): what a
    /// form body takes.
    #[must_use]
    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl fmt::Debug for HexChecksum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl AsRef<str> for HexChecksum {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

/// Whether the checksum a request carried (`expected`, as sent) is the one computed here,
/// compared in constant time: the time taken does not tell how many leading digits were
/// right. Only the length (always 32 when it matters) is compared early.
#[must_use]
pub fn verify(expected: &str, computed: &Checksum) -> bool {
    let computed = computed.to_hex();
    let (expected, computed) = (expected.as_bytes(), computed.as_str().as_bytes());
    if expected.len() != computed.len() {
        return false;
    }
    let difference = expected
        .iter()
        .zip(computed)
        .fold(0u8, |acc, (a, b)| acc | (a ^ b));
    core::hint::black_box(difference) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_and_reads_lowercase_hex() {
        let checksum = Checksum::from_bytes([0x0f; 16]);
        assert_eq!(checksum.to_hex().as_str(), "0f".repeat(16));
        assert_eq!(Checksum::from_hex(&"0f".repeat(16)), Ok(checksum));
        assert_eq!(
            Checksum::from_hex(&"0F".repeat(16)),
            Err(Error::MalformedChecksum)
        );
        assert_eq!(Checksum::from_hex("0f"), Err(Error::MalformedChecksum));
        assert_eq!(
            Checksum::from_hex(&"zz".repeat(16)),
            Err(Error::MalformedChecksum)
        );
    }

    #[test]
    fn verify_accepts_only_the_exact_digits() {
        let checksum = Checksum::from_bytes([0xab; 16]);
        assert!(verify(&"ab".repeat(16), &checksum));
        assert!(!verify(&"AB".repeat(16), &checksum));
        assert!(!verify(&"ab".repeat(15), &checksum));
        assert!(!verify(&("ab".repeat(15) + "ac"), &checksum));
        assert!(!verify("", &checksum));
    }
}
