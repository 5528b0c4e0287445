//! Short ASCII text kept inline, so identifiers and card data cost no allocation and can be
//! wiped in place.

use zeroize::Zeroize;

/// Up to `N` ASCII bytes stored inline. Only ever built from text that was checked to be
/// ASCII, which is what lets [`InlineAscii::as_str`] hand out a `&str`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct InlineAscii<const N: usize> {
    len: u8,
    bytes: [u8; N],
}

impl<const N: usize> InlineAscii<N> {
    /// Copies `text` in; `None` when it is longer than `N` or not ASCII.
    pub(crate) fn new(text: &str) -> Option<Self> {
        if !text.is_ascii() {
            return None;
        }
        let mut bytes = [0; N];
        bytes
            .get_mut(..text.len())?
            .copy_from_slice(text.as_bytes());
        Some(Self {
            len: u8::try_from(text.len()).ok()?,
            bytes,
        })
    }

    /// Copies ASCII `bytes` in; `None` when longer than `N` or not ASCII.
    pub(crate) fn from_bytes(bytes: &[u8]) -> Option<Self> {
        core::str::from_utf8(bytes).ok().and_then(Self::new)
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..usize::from(self.len)).unwrap_or_default()
    }

    pub(crate) fn as_str(&self) -> &str {
        // Invariant: `new` only accepts ASCII, so these bytes are always UTF-8 and the
        // fallback is never taken.
        core::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }

    /// Overwrites the text with zeros. The secret types call this when dropped.
    pub(crate) fn wipe(&mut self) {
        self.bytes.zeroize();
        self.len.zeroize();
    }
}

/// Shows the text: only the public, non-secret types derive `Debug` through this; the secret
/// ones write their own.
impl<const N: usize> core::fmt::Debug for InlineAscii<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Debug::fmt(self.as_str(), f)
    }
}
