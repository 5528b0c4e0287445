//! Fixed-width decimal text on the stack, for the numbers the wire pads with zeros.

use core::fmt;

/// `N` decimal digits, zero-padded, on the stack: the wire text of an expiry month
/// (`Digits<2>`), an expiry year (`Digits<4>`) or a birth date (`Digits<8>`), written
/// without going through `core::fmt`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Digits<const N: usize>([u8; N]);

impl<const N: usize> Digits<N> {
    /// The last `N` decimal digits of `value`, zero-padded.
    pub(crate) fn new(mut value: u32) -> Self {
        let mut digits = [b'0'; N];
        for slot in digits.iter_mut().rev() {
            // A remainder of ten is below 10 and always fits a `u8`.
            *slot = b'0' + u8::try_from(value % 10).unwrap_or(0);
            value /= 10;
        }
        Self(digits)
    }

    /// The digits as bytes, without the UTF-8 check of [`as_str`](Self::as_str).
    pub(crate) const fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The digits.
    #[must_use]
    pub fn as_str(&self) -> &str {
        // Invariant: only ASCII digits are ever stored.
        core::str::from_utf8(&self.0).unwrap_or_default()
    }
}

impl<const N: usize> fmt::Debug for Digits<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<const N: usize> fmt::Display for Digits<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
