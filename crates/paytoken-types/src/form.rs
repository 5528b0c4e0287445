//! `application/x-www-form-urlencoded`: the writer every request body is built by, and a
//! reader. paytoken's crates share them through [`internal`](crate::internal); they are not
//! part of the API.
//!
//! The writer appends `name=value` pairs joined by `&` to a caller's `Vec<u8>`, in the order
//! they are written, so a request's bytes are stable. A space becomes `+`; the bytes
//! `A-Z a-z 0-9 * - . _` stay as they are; every other byte of the UTF-8 text becomes `%XX`
//! (upper-case hex), which is what HTML forms and `serde_urlencoded` do.
//!
//! ```
//! use paytoken_types::internal::{FormWriter, decode};
//!
//! let mut body = Vec::new();
//! let mut form = FormWriter::new(&mut body);
//! form.field("customer.givenName", "Zoë Anne");
//! form.optional("customer.phone", None::<&str>);
//! assert_eq!(body, b"customer.givenName=Zo%C3%AB+Anne");
//!
//! let pairs: Vec<_> = decode(&body).collect::<Result<_, _>>()?;
//! assert_eq!(pairs[0], ("customer.givenName".into(), "Zoë Anne".into()));
//! # Ok::<(), paytoken_types::Error>(())
//! ```

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write as _};
use core::net::IpAddr;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, PercentEncode, utf8_percent_encode};
use zeroize::Zeroize;

use crate::Error;
use crate::digits::Digits;
use crate::text_rule::{TextRule, classes_of};

mod decode;

pub use decode::{Decode, decode};

/// Keeps [`FormValue`] to this crate's types: a value that says it is plain is copied
/// unescaped, so only types whose own checks make that true may say so.
pub(crate) mod sealed {
    pub trait Sealed {}
}

/// A field's value: text, or one of this crate's checked values (codes, ids, amounts,
/// digits). Sealed: implemented by this crate's types only.
pub trait FormValue: sealed::Sealed {
    /// The bytes to encode.
    fn form_bytes(&self) -> &[u8];

    /// The same bytes as text, for a checksum that signs the value.
    fn form_text(&self) -> &str;

    /// Whether the type's own checks make every value plain (`A-Z a-z 0-9 * - . _` only):
    /// its bytes are then copied with no look at them.
    fn is_plain(&self) -> bool {
        false
    }
}

impl sealed::Sealed for str {}
impl sealed::Sealed for String {}

impl FormValue for str {
    fn form_bytes(&self) -> &[u8] {
        self.as_bytes()
    }

    fn form_text(&self) -> &str {
        self
    }
}

impl FormValue for String {
    fn form_bytes(&self) -> &[u8] {
        self.as_bytes()
    }

    fn form_text(&self) -> &str {
        self
    }
}

impl<const N: usize> sealed::Sealed for Digits<N> {}

impl<const N: usize> FormValue for Digits<N> {
    fn form_bytes(&self) -> &[u8] {
        self.as_bytes()
    }

    fn form_text(&self) -> &str {
        self.as_str()
    }

    /// Digits only (`Digits::new`).
    fn is_plain(&self) -> bool {
        true
    }
}

/// A block of request fields (customer, shipping, card, ...) that writes its present
/// fields, each under the block's prefix (`customer.givenName`).
pub trait FormFields {
    /// Writes the block's present fields in a fixed order. Its free text is checked as it
    /// is written ([`FormWriter::optional_text`]).
    fn write_fields(&self, form: &mut FormWriter<'_>);
}

/// Watches the fields a form writes for the ones a checksum signs, and takes their values
/// as they are written: what is signed is then what is sent, by construction.
pub trait Signer {
    /// The name of the field the checksum signs next (`amount`, `card.number`); `None`
    /// when it signs no more fields of the form. Asked when writing starts and again after
    /// each field it signs.
    fn next_field(&self) -> Option<&'static str>;

    /// Takes the value of the field [`next_field`](Self::next_field) named, as it is
    /// before percent-encoding.
    fn sign(&mut self, value: &str);
}

/// Appends form fields to a buffer. Reuse the buffer (`clear()` it) and nothing allocates
/// once it has grown to the size of a request.
///
/// Free text and URLs are written by [`optional_text`](Self::optional_text), which checks
/// them by a [`TextRule`]; [`finish`](Self::finish) says whether one was refused.
pub struct FormWriter<'a> {
    out: &'a mut Vec<u8>,
    signer: Option<&'a mut dyn Signer>,
    /// What `signer` signs next, asked of it once per field it signs.
    next_signed: Option<&'static str>,
    /// The first text a rule refused.
    refused: Option<Error>,
}

impl fmt::Debug for FormWriter<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FormWriter")
            .field("written", &self.out.len())
            .field("signing", &self.signer.is_some())
            .field("refused", &self.refused)
            .finish()
    }
}

impl<'a> FormWriter<'a> {
    /// Writes into `out`. A body already in `out` is continued: the first field written
    /// is joined to it with `&`.
    pub fn new(out: &'a mut Vec<u8>) -> Self {
        Self {
            out,
            signer: None,
            next_signed: None,
            refused: None,
        }
    }

    /// Writes into `out`, handing `signer` the value of every field it signs
    /// ([`Signer::next_field`]) as the field is written.
    pub fn signing(out: &'a mut Vec<u8>, signer: &'a mut dyn Signer) -> Self {
        Self {
            out,
            next_signed: signer.next_field(),
            signer: Some(signer),
            refused: None,
        }
    }

    /// Writes `name=value`.
    pub fn field<V: FormValue + ?Sized>(&mut self, name: &'static str, value: &V) {
        let bytes = value.form_bytes();
        // Room for the value at its longest (every byte escaped), so no write below grows
        // the buffer.
        self.name(name, bytes.len().saturating_mul(3));
        if value.is_plain() {
            debug_assert!(all_stay(bytes), "a value said to be plain is not");
            self.out.extend_from_slice(bytes);
        } else {
            encode_in_room(self.out, bytes);
        }
        self.sign_if_next(name, value);
    }

    /// Writes `name=value` when there is a value; an absent field is left out.
    pub fn optional<V: FormValue + ?Sized>(&mut self, name: &'static str, value: Option<&V>) {
        if let Some(value) = value {
            self.field(name, value);
        }
    }

    /// Writes `name=text` when there is text, and checks the text by `rule`. A refusal
    /// names the field and is kept for [`finish`](Self::finish), the first one only; the
    /// text is written either way, and a form that `finish` refuses must not be sent.
    ///
    /// ```
    /// use paytoken_types::TextRule;
    /// use paytoken_types::internal::FormWriter;
    ///
    /// let mut body = Vec::new();
    /// let mut form = FormWriter::new(&mut body);
    /// form.optional_text("orderDescriptor", Some("2× coffee"), TextRule::FreeTextUpTo(127));
    /// form.optional_text("notificationUrl", Some("shop.example/hook"), TextRule::Url);
    /// let refused = form.finish().unwrap_err();
    /// assert_eq!(refused.field(), Some("notificationUrl"));
    /// ```
    pub fn optional_text(&mut self, name: &'static str, text: Option<&str>, rule: TextRule) {
        let Some(text) = text else {
            return;
        };
        let bytes = text.as_bytes();
        self.name(name, bytes.len().saturating_mul(3));
        // Text that needs no escape has none of the bytes a rule looks for.
        let seen = if all_stay(bytes) {
            self.out.extend_from_slice(bytes);
            0
        } else {
            encode_escaped(self.out, bytes);
            classes_of(bytes)
        };
        if let Err(refusal) = rule.check(name, text, seen) {
            self.refused.get_or_insert(refusal);
        }
        self.sign_if_next(name, text);
    }

    /// Ends the form.
    ///
    /// # Errors
    /// The first text a rule refused ([`optional_text`](Self::optional_text)): the form is
    /// not to be sent.
    pub fn finish(self) -> Result<(), Error> {
        self.refused.map_or(Ok(()), Err)
    }

    /// Writes `name=` and the value's `Display` text, formatted straight into the buffer.
    /// Never signed: a signer sees text values only.
    pub fn display(&mut self, name: &'static str, value: &dyn fmt::Display) {
        self.name(name, 0);
        // Writing into a `Vec` cannot fail; a `Display` that reports an error leaves its
        // text so far, which is all there is to send.
        let _ = write!(Encoding(self.out), "{value}");
    }

    /// Writes `name=` and an IP address, as its `Display` text.
    pub fn ip(&mut self, name: &'static str, ip: IpAddr) {
        self.display(name, &ip);
    }

    /// Writes a whole block.
    pub fn block<B: FormFields>(&mut self, block: &B) {
        block.write_fields(self);
    }

    /// Writes a block, when there is one.
    pub fn optional_block<B: FormFields>(&mut self, block: Option<&B>) {
        if let Some(block) = block {
            self.block(block);
        }
    }

    /// Hands the signer the value's text when `name` is the field it signs next.
    fn sign_if_next<V: FormValue + ?Sized>(&mut self, name: &'static str, value: &V) {
        if self.next_signed == Some(name)
            && let Some(signer) = self.signer.as_deref_mut()
        {
            signer.sign(value.form_text());
            self.next_signed = signer.next_field();
        }
    }

    /// Writes `name=` (after a `&` when the body is not empty), with room for
    /// `value_room` more bytes after it.
    #[inline]
    fn name(&mut self, name: &'static str, value_room: usize) {
        let name = name.as_bytes();
        make_room(
            self.out,
            name.len()
                .saturating_mul(3)
                .saturating_add(value_room)
                .saturating_add(2),
        );
        if !self.out.is_empty() {
            self.out.push(b'&');
        }
        encode_in_room(self.out, name);
        self.out.push(b'=');
    }
}

/// Percent-encodes what is formatted into it.
struct Encoding<'a>(&'a mut Vec<u8>);

impl fmt::Write for Encoding<'_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        encode_into(self.0, text.as_bytes());
        Ok(())
    }
}

/// Percent-encodes `bytes` onto `out`. When `out` must grow, its old buffer is wiped
/// before it is freed.
pub fn encode_into(out: &mut Vec<u8>, bytes: &[u8]) {
    make_room(out, bytes.len().saturating_mul(3));
    encode_in_room(out, bytes);
}

/// Makes room for `needed` more bytes without leaving a copy behind: when `out` must grow,
/// its bytes move to a new buffer and the old one is wiped before it is freed (a plain
/// `Vec` growth would free the old bytes, card numbers included, as they are).
#[inline]
fn make_room(out: &mut Vec<u8>, needed: usize) {
    if out.capacity() - out.len() < needed {
        grow_wiping(out, needed);
    }
}

/// The rare half of [`make_room`].
#[cold]
fn grow_wiping(out: &mut Vec<u8>, needed: usize) {
    let wanted = out
        .len()
        .saturating_add(needed)
        .max(out.capacity().saturating_mul(2));
    let mut bigger = Vec::with_capacity(wanted);
    bigger.extend_from_slice(out);
    out.as_mut_slice().zeroize();
    out.spare_capacity_mut().zeroize();
    *out = bigger;
}

/// [`encode_into`] where room for `bytes` at their longest has been made. Names, ids,
/// amounts and codes need no escape: one check and one copy.
#[inline]
fn encode_in_room(out: &mut Vec<u8>, bytes: &[u8]) {
    if all_stay(bytes) {
        out.extend_from_slice(bytes);
    } else {
        encode_escaped(out, bytes);
    }
}

/// Writes each byte of `bytes` as the rule says: a chunk at a time through a small buffer
/// on the stack, wiped after (a card holder's name is written here too).
fn encode_escaped(out: &mut Vec<u8>, bytes: &[u8]) {
    const CHUNK: usize = 16;
    make_room(out, bytes.len().saturating_mul(3));
    // Each byte's table entry is stored whole (four bytes, one store), its count saying
    // where the next begins: one byte more than the chunk's longest text.
    let mut encoded = [0_u8; 3 * CHUNK + 1];
    for chunk in bytes.chunks(CHUNK) {
        let mut len = 0;
        for &byte in chunk {
            let entry = ENCODED.get(usize::from(byte)).copied().unwrap_or_default();
            if let Some(slot) = encoded.get_mut(len..len + 4) {
                slot.copy_from_slice(&entry);
            }
            let [.., count] = entry;
            len += usize::from(count);
        }
        out.extend_from_slice(encoded.get(..len).unwrap_or_default());
    }
    encoded.zeroize();
}

/// What each byte becomes: up to three bytes, and how many of them count.
const ENCODED: [[u8; 4]; 256] = byte_table!([[u8; 4]; 256], [0; 4], |b| {
    const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";
    if stays(b) {
        [b, 0, 0, 1]
    } else if b == b' ' {
        [b'+', 0, 0, 1]
    } else {
        #[expect(clippy::indexing_slicing, reason = "a nibble is below 16")]
        #[expect(
            clippy::as_conversions,
            reason = "a u8 fits in usize (`From` is not const)"
        )]
        let (high, low) = (HEX_UPPER[(b >> 4) as usize], HEX_UPPER[(b & 0x0f) as usize]);
        [b'%', high, low, 3]
    }
});

/// What a URL path segment keeps as it is: `A-Z a-z 0-9 - . _ ~`, RFC 3986's unreserved
/// bytes.
const PATH_SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// `segment` percent-encoded for a URL path, every byte but the unreserved ones as `%XX`,
/// so that free text stays one segment: a space is `%20`, a slash `%2F`.
pub fn path_segment(segment: &str) -> PercentEncode<'_> {
    utf8_percent_encode(segment, PATH_SEGMENT)
}

/// Whether `body` reads as a form of the interface: empty, or printable ASCII in which
/// every `&`-separated pair has a `=`. What is not one (JSON, a bare word, bytes) is shown
/// and kept by its kind and length only, since what it holds is not named.
#[must_use]
pub fn is_form(body: &[u8]) -> bool {
    body.iter().all(u8::is_ascii_graphic)
        && (body.is_empty()
            || body
                .split(|byte| *byte == b'&')
                .all(|pair| pair.contains(&b'=')))
}

/// A path segment with its `%XX` escapes decoded (a `+` stays a `+`, as in any path);
/// `None` for a broken escape or bytes that are not UTF-8.
pub fn decode_path_segment(segment: &str) -> Option<alloc::borrow::Cow<'_, str>> {
    let hex = |after: &str| {
        after
            .get(..2)
            .is_some_and(|digits| digits.bytes().all(|b| b.is_ascii_hexdigit()))
    };
    if !segment.split('%').skip(1).all(hex) {
        return None;
    }
    percent_encoding::percent_decode_str(segment)
        .decode_utf8()
        .ok()
}

/// Whether a byte stays as it is: `A-Z a-z 0-9 * - . _`.
const fn stays(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'*' | b'-' | b'.' | b'_')
}

/// [`stays`] for every byte, so that the check is one load a byte.
const STAYS: [bool; 256] = byte_table!([bool; 256], false, |b| stays(b));

/// Whether every byte stays as it is. Every byte is looked at, with no branch on any: the
/// texts are short, and the compiler takes them several bytes at a time.
#[inline]
fn all_stay(bytes: &[u8]) -> bool {
    bytes.iter().fold(true, |all, &byte| {
        all & STAYS.get(usize::from(byte)).copied().unwrap_or(false)
    })
}

/// [`all_stay`] for text known when compiled: for the [`FormValue::is_plain`] of the
/// crate's open enums.
pub(crate) const fn is_plain(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        #[expect(clippy::indexing_slicing, reason = "index < bytes.len()")]
        let byte = bytes[index];
        if !stays(byte) {
            return false;
        }
        index += 1;
    }
    true
}

#[cfg(test)]
mod tests;
