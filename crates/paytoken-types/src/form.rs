//! `application/x-www-form-urlencoded`: the encoder every request uses, and a decoder.
//!
//! The encoder writes `name=value` pairs joined by `&` into a caller's `Vec<u8>`, in the
//! order they are written, so a request's bytes are stable. A space becomes `+`; the bytes
//! `A-Z a-z 0-9 * - . _` stay as they are; every other byte of the UTF-8 text becomes `%XX`
//! (upper-case hex), which is what HTML forms and `serde_urlencoded` do.
//!
//! ```
//! use paytoken_types::form::{FormWriter, decode};
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

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write as _};
use core::net::IpAddr;

use crate::digits::Digits;

use crate::Error;
use crate::text_rule::{TextRule, class_of};
use zeroize::Zeroize;

/// A field's name, as the interface spells it (`amount`, `customer.givenName`).
///
/// Made by [`field_name!`](crate::field_name), as every name of this crate is, it carries
/// its whole wire form, `&name=` percent-encoded, worked out when the program is compiled:
/// writing the name is then one copy of a constant. A name made at run time
/// ([`FieldName::new`], or from a `&'static str`) is encoded as it is written: slower, the
/// same bytes.
///
/// ```
/// use paytoken_types::form::FieldName;
/// use paytoken_types::field_name;
///
/// const AMOUNT: FieldName = field_name!("amount");
/// assert_eq!(AMOUNT.as_str(), "amount");
/// assert!(AMOUNT.is_plain());
/// assert!(!FieldName::new("a b").is_plain());
/// assert_eq!(AMOUNT, FieldName::new("amount"));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct FieldName {
    text: &'static str,
    /// `&{text}=`, percent-encoded, when made by [`field_name!`](crate::field_name); empty
    /// otherwise.
    wire: &'static [u8],
    plain: bool,
}

/// Names are equal when their text is, however they were made.
impl PartialEq for FieldName {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for FieldName {}

impl core::hash::Hash for FieldName {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.text.hash(state);
    }
}

impl FieldName {
    /// The name `text`, encoded when it is written; [`field_name!`](crate::field_name)
    /// makes the same name with its wire form worked out when compiled.
    #[must_use]
    pub const fn new(text: &'static str) -> Self {
        let bytes = text.as_bytes();
        let mut plain = true;
        let mut index = 0;
        while index < bytes.len() {
            #[expect(clippy::indexing_slicing, reason = "index < bytes.len()")]
            let byte = bytes[index];
            plain &= stays(byte);
            index += 1;
        }
        Self {
            text,
            wire: &[],
            plain,
        }
    }

    /// The name with `wire`, its [`wire_form`](Self::wire_form). For
    /// [`field_name!`](crate::field_name).
    ///
    /// # Panics
    /// When `wire` is not the name's wire form: when compiled, in `field_name!`. A name
    /// whose bytes on the wire are not its text's could not be signed right.
    #[doc(hidden)]
    #[must_use]
    pub const fn with_wire(self, wire: &'static [u8]) -> Self {
        assert!(
            is_wire_form(self.text, wire),
            "a name's wire form is `&name=`, percent-encoded"
        );
        Self { wire, ..self }
    }

    /// How many bytes `&{text}=` takes, percent-encoded. For
    /// [`field_name!`](crate::field_name).
    #[doc(hidden)]
    #[must_use]
    pub const fn wire_len(text: &str) -> usize {
        let bytes = text.as_bytes();
        let mut len = 2;
        let mut index = 0;
        while index < bytes.len() {
            #[expect(clippy::indexing_slicing, reason = "index < bytes.len()")]
            let (_, count) = encoded(bytes[index]);
            len += count;
            index += 1;
        }
        len
    }

    /// `&{text}=`, percent-encoded, which is `N` bytes ([`wire_len`](Self::wire_len)).
    /// For [`field_name!`](crate::field_name).
    ///
    /// # Panics
    /// When `N` is not `wire_len(text)`: in `field_name!`, it fails to compile.
    #[doc(hidden)]
    #[must_use]
    #[expect(
        clippy::indexing_slicing,
        reason = "const code: every index is below N, which is checked first"
    )]
    pub const fn wire_form<const N: usize>(text: &str) -> [u8; N] {
        assert!(N == Self::wire_len(text), "N is wire_len(text)");
        let bytes = text.as_bytes();
        let mut wire = [0; N];
        wire[0] = b'&';
        wire[N - 1] = b'=';
        let mut at = 1;
        let mut index = 0;
        while index < bytes.len() {
            let (encoded, count) = encoded(bytes[index]);
            let mut byte = 0;
            while byte < count {
                wire[at + byte] = encoded[byte];
                byte += 1;
            }
            at += count;
            index += 1;
        }
        wire
    }

    /// The name as text.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        self.text
    }

    /// Whether it goes on the wire as it is, without escapes.
    #[must_use]
    pub const fn is_plain(self) -> bool {
        self.plain
    }
}

impl From<&'static str> for FieldName {
    fn from(text: &'static str) -> Self {
        Self::new(text)
    }
}

impl fmt::Display for FieldName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)
    }
}

/// A [`FieldName`] with its wire form (`&name=`) worked out when the program is compiled,
/// so that writing it costs one copy of a constant. `name` is any constant `&str`
/// expression.
///
/// ```
/// use paytoken_types::field_name;
/// use paytoken_types::form::FormWriter;
///
/// let mut body = b"amount=1.00".to_vec();
/// FormWriter::new(&mut body).field(field_name!("customer.givenName"), "Jo");
/// assert_eq!(body, b"amount=1.00&customer.givenName=Jo");
/// ```
#[macro_export]
macro_rules! field_name {
    ($name:expr) => {{
        const TEXT: &str = $name;
        const WIRE: [u8; $crate::form::FieldName::wire_len(TEXT)] =
            $crate::form::FieldName::wire_form(TEXT);
        const { $crate::form::FieldName::new(TEXT).with_wire(&WIRE) }
    }};
}

/// A field's value: text, or one of this crate's ASCII values (codes, ids, amounts, padded
/// digits), whose bytes go on the wire without the UTF-8 check that reading them as text
/// costs.
pub trait FormValue {
    /// The bytes to encode.
    fn form_bytes(&self) -> &[u8];

    /// The same bytes as text, for a checksum that signs the value.
    fn form_text(&self) -> &str;

    /// Whether this value is known to be plain (`A-Z a-z 0-9 * - . _` only) without
    /// looking at its bytes: then they are copied as they are, with no check (a tenth of
    /// building a payment, where most values are ids, codes and digits). `false` unless
    /// the type's own checks make it so; a type that says `true` of a value that is not
    /// plain sends it unescaped, so the form writer holds every claim to the rule in debug
    /// builds.
    fn is_plain(&self) -> bool {
        false
    }
}

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

impl<const N: usize> FormValue for Digits<N> {
    fn form_bytes(&self) -> &[u8] {
        self.as_bytes()
    }

    fn form_text(&self) -> &str {
        self.as_str()
    }

    fn is_plain(&self) -> bool {
        true
    }
}

/// A block of request fields (customer, shipping, card, ...) that writes its present
/// fields, each under the block's prefix (`customer.givenName`).
pub trait FormFields {
    /// Writes the block's present fields in a fixed order. Its free text is checked as it
    /// is written ([`FormWriter::optional_text`]).
    ///
    /// The crate's blocks inline theirs (`#[inline(always)]`) into the operation that
    /// writes them: a block's fields then go into the body in one function with the rest
    /// of the form, with no call per block.
    fn write_fields(&self, form: &mut FormWriter<'_>);
}

/// Watches the fields a form writes for the ones a checksum signs, and takes their values
/// as they are written: what is signed is then what is sent, by construction.
pub trait Signer {
    /// The name of the field the checksum signs next (`amount`, `card.number`); `None`
    /// when it signs no more fields of the form. Asked once when writing starts and again
    /// after each field it signs, so the writer compares each field it writes with an
    /// answer it holds, with no call per field.
    fn next_field(&self) -> Option<&'static str>;

    /// Takes the value of the field [`next_field`](Self::next_field) named, as it is
    /// before percent-encoding.
    fn sign(&mut self, value: &str);
}

/// Appends form fields to a buffer. Reuse the buffer (`clear()` it) and nothing allocates
/// once it has grown to the size of a request.
///
/// Free text and URLs are written by [`optional_text`](Self::optional_text), which checks
/// them by a [`TextRule`] in the same pass; [`finish`](Self::finish) says whether one was
/// refused.
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

    /// Writes into `out`, handing `signer` the value of every text field it signs
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
    // Inlined where a field is written, where its name is a constant: the name's copy
    // becomes a few moves instead of a call to `memcpy` (4 % of a payment's round trip,
    // measured), and a value plain by its type is copied with no look at its bytes.
    #[inline(always)]
    pub fn field<V: FormValue + ?Sized>(&mut self, name: impl Into<FieldName>, value: &V) {
        let name = name.into();
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
    // Inlined for the same reason as `field`, which it calls: out of line, its names were
    // copied by `memcpy` calls again (22 per payment).
    #[inline(always)]
    pub fn optional<V: FormValue + ?Sized>(
        &mut self,
        name: impl Into<FieldName>,
        value: Option<&V>,
    ) {
        if let Some(value) = value {
            self.field(name, value);
        }
    }

    /// Hands the signer the value's text when `name` is the field it signs next. (The
    /// text is asked for only then: for digits it is a UTF-8 check.)
    #[inline(always)]
    fn sign_if_next<V: FormValue + ?Sized>(&mut self, name: FieldName, value: &V) {
        if self.next_signed == Some(name.as_str())
            && let Some(signer) = self.signer.as_deref_mut()
        {
            signer.sign(value.form_text());
            self.next_signed = signer.next_field();
        }
    }

    /// Writes `name=text` when there is text, and checks the text by `rule` in the same
    /// pass over its bytes. A refusal names the field and is kept for
    /// [`finish`](Self::finish), the first one only; the text is written either way, and a
    /// form that `finish` refuses must not be sent.
    ///
    /// ```
    /// use paytoken_types::form::FormWriter;
    /// use paytoken_types::{TextRule, field_name};
    ///
    /// let mut body = Vec::new();
    /// let mut form = FormWriter::new(&mut body);
    /// form.optional_text("orderDescriptor", Some("2× coffee"), TextRule::FreeTextUpTo(127));
    /// let url = field_name!("notificationUrl");
    /// form.optional_text(url, Some("shop.example/hook"), TextRule::Url);
    /// let refused = form.finish().unwrap_err();
    /// assert_eq!(refused.field(), Some("notificationUrl"));
    /// ```
    // Inlined for the reason `field` is; the rule is then a constant, and only its own
    // check is left where it is written.
    #[inline(always)]
    pub fn optional_text(
        &mut self,
        name: impl Into<FieldName>,
        text: Option<&str>,
        rule: TextRule,
    ) {
        let Some(text) = text else {
            return;
        };
        let name = name.into();
        let bytes = text.as_bytes();
        self.name(name, bytes.len().saturating_mul(3));
        // Text that needs no escape has none of the bytes a rule looks for.
        let seen = if all_stay(bytes) {
            self.out.extend_from_slice(bytes);
            0
        } else {
            encode_escaped::<true>(self.out, bytes)
        };
        if let Err(refusal) = rule.check(name.as_str(), text, seen) {
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

    /// Writes `name=` and the value's `Display` text, formatted straight into the buffer
    /// without an intermediate `String`.
    pub fn display(&mut self, name: impl Into<FieldName>, value: &dyn fmt::Display) {
        self.name(name.into(), 0);
        // Writing into a `Vec` cannot fail; a `Display` that reports an error leaves its
        // text so far, which is all there is to send.
        let _ = write!(Encoding(self.out), "{value}");
    }

    /// Writes `name=` and an IP address. IPv4, the common case, is written digit by digit
    /// on the stack and copied once; IPv6 goes through its `Display`.
    pub fn ip(&mut self, name: impl Into<FieldName>, ip: IpAddr) {
        let name = name.into();
        match ip {
            IpAddr::V4(v4) => {
                let text = Ipv4Text::new(v4.octets());
                self.name(name, text.len);
                self.out.extend_from_slice(text.as_bytes());
            }
            IpAddr::V6(v6) => self.display(name, &v6),
        }
    }

    /// Writes `name=` (after a `&` when the body is not empty), with room for
    /// `value_room` more bytes after it. Never signed: a signer sees text fields only.
    /// Inlined: called once per field, its call cost was a fifth of its work. A name with
    /// its wire form is one copy of it; any other goes out of line.
    #[inline(always)]
    fn name(&mut self, name: FieldName, value_room: usize) {
        if name.wire.is_empty() {
            name_encoded(self.out, name, value_room);
            return;
        }
        make_room(self.out, name.wire.len().saturating_add(value_room));
        if self.out.is_empty() {
            first_name(self.out, name.wire);
        } else {
            self.out.extend_from_slice(name.wire);
        }
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
}

/// [`FormWriter::name`] for a name without its wire form ([`FieldName::new`]): `&`
/// when the body is not empty, the name percent-encoded, `=`.
#[inline(never)]
fn name_encoded(out: &mut Vec<u8>, name: FieldName, value_room: usize) {
    let text = name.as_str().as_bytes();
    make_room(
        out,
        text.len()
            .saturating_mul(3)
            .saturating_add(value_room)
            .saturating_add(2),
    );
    if !out.is_empty() {
        out.push(b'&');
    }
    if name.is_plain() {
        out.extend_from_slice(text);
    } else {
        encode_in_room(out, text);
    }
    out.push(b'=');
}

/// Writes a body's first name: its wire form without the `&`.
#[cold]
#[inline(never)]
fn first_name(out: &mut Vec<u8>, wire: &[u8]) {
    out.extend_from_slice(wire.get(1..).unwrap_or_default());
}

/// An IPv4 address's dotted text (at most `255.255.255.255`, 15 bytes), on the stack.
struct Ipv4Text {
    bytes: [u8; 15],
    len: usize,
}

impl Ipv4Text {
    fn new(octets: [u8; 4]) -> Self {
        let mut text = Self {
            bytes: [0; 15],
            len: 0,
        };
        for (index, octet) in octets.into_iter().enumerate() {
            if index > 0 {
                text.push(b'.');
            }
            if octet >= 100 {
                text.push(b'0' + octet / 100);
            }
            if octet >= 10 {
                text.push(b'0' + octet / 10 % 10);
            }
            text.push(b'0' + octet % 10);
        }
        text
    }

    /// Appends a byte; four octets of at most three digits and three dots fill the 15
    /// bytes at most, so none is ever dropped.
    fn push(&mut self, byte: u8) {
        if let Some(slot) = self.bytes.get_mut(self.len) {
            *slot = byte;
            self.len += 1;
        }
    }

    fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or_default()
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

/// Makes room for `needed` more bytes without leaving a copy behind: when `out` must grow,
/// its bytes move to a new buffer and the old one is wiped before it is freed (a plain
/// `Vec` growth would free the old bytes, card numbers included, as they are).
#[inline(always)]
fn make_room(out: &mut Vec<u8>, needed: usize) {
    if out.capacity() - out.len() < needed {
        grow_wiping(out, needed);
    }
}

/// The rare half of [`make_room`], out of line so the check stays small where it is inlined.
#[cold]
#[inline(never)]
fn grow_wiping(out: &mut Vec<u8>, needed: usize) {
    let wanted = out
        .len()
        .saturating_add(needed)
        .max(out.capacity().saturating_mul(2));
    let mut bigger = Vec::with_capacity(wanted);
    bigger.extend_from_slice(out);
    // As one slice each, not zeroize's element-by-element `Vec` wipe.
    out.as_mut_slice().zeroize();
    out.spare_capacity_mut().zeroize();
    *out = bigger;
}

/// Whether `wire` is `&{text}=` percent-encoded, byte for byte (for
/// [`FieldName::with_wire`], when compiled).
#[expect(
    clippy::indexing_slicing,
    reason = "const code: `at + count < wire.len()` is checked before the reads"
)]
const fn is_wire_form(text: &str, wire: &[u8]) -> bool {
    let bytes = text.as_bytes();
    if wire.len() < 2 || wire[0] != b'&' || wire[wire.len() - 1] != b'=' {
        return false;
    }
    let mut at = 1;
    let mut index = 0;
    while index < bytes.len() {
        let (encoded, count) = encoded(bytes[index]);
        // The encoded byte, and the `=` after it, must fit.
        if at + count >= wire.len() {
            return false;
        }
        let mut byte = 0;
        while byte < count {
            if wire[at + byte] != encoded[byte] {
                return false;
            }
            byte += 1;
        }
        at += count;
        index += 1;
    }
    at == wire.len() - 1
}

/// Whether every byte of `text` stays as it is, for the plain values of
/// [`FormValue::is_plain`] that are known when compiled.
pub(crate) const fn is_plain(text: &'static str) -> bool {
    FieldName::new(text).is_plain()
}

/// Whether a byte stays as it is: `A-Z a-z 0-9 * - . _`.
const fn stays(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'*' | b'-' | b'.' | b'_')
}

/// [`stays`] for every byte.
const STAYS: [bool; 256] = byte_table!([bool; 256], false, |b| stays(b));

fn stays_fast(byte: u8) -> bool {
    STAYS.get(usize::from(byte)).copied().unwrap_or(false)
}

/// Whether every byte stays as it is: a table lookup per byte; no branch per byte for
/// long text (the compiler makes it block-wise), an early stop for short text, where the
/// block-wise setup costs more than the bytes.
fn all_stay(bytes: &[u8]) -> bool {
    if bytes.len() < 32 {
        bytes.iter().all(|&b| stays_fast(b))
    } else {
        bytes.iter().fold(true, |all, &b| all & stays_fast(b))
    }
}

const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// Percent-encodes `bytes` onto `out`. When `out` must grow, its old buffer is wiped
/// before it is freed.
pub fn encode_into(out: &mut Vec<u8>, bytes: &[u8]) {
    make_room(out, bytes.len().saturating_mul(3));
    encode_in_room(out, bytes);
}

/// [`encode_into`] where room for `bytes` at their longest has been made.
///
/// Names, ids, amounts and codes need no escape, so the common case is one branch-free
/// check and one copy, inlined where a field is written. Text with escapes is written byte
/// by byte, out of line.
#[inline(always)]
fn encode_in_room(out: &mut Vec<u8>, bytes: &[u8]) {
    if all_stay(bytes) {
        out.extend_from_slice(bytes);
    } else {
        encode_escaped::<false>(out, bytes);
    }
}

/// What each byte becomes: up to three bytes, and how many of them count.
const ENCODED: [[u8; 4]; 256] = byte_table!([[u8; 4]; 256], [0; 4], |b| {
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

/// What `byte` becomes, as [`ENCODED`] has it: the bytes, and how many of them count (1
/// or 3). For the names worked out when compiled.
const fn encoded(byte: u8) -> ([u8; 3], usize) {
    #[expect(
        clippy::as_conversions,
        clippy::indexing_slicing,
        reason = "a u8 fits in usize (`From` is not const), and is below 256"
    )]
    let [first, high, low, count] = ENCODED[byte as usize];
    #[expect(clippy::as_conversions, reason = "a count of 1 or 3")]
    let count = count as usize;
    ([first, high, low], count)
}

/// [`encode_in_room`] for text with at least one escape, written straight into `out`:
/// no copy of the text is left anywhere else (a card holder's name is written here too).
/// Each byte's encoding comes from a table and is stored whole, four bytes every time, the
/// count deciding where the next one starts: no branch on the text, whose escapes come at
/// no predictable place. What lies past the end once done (the table's padding and counts,
/// the zeros the room was made of) is cut off by the final `truncate`.
///
/// The text is taken [`ESCAPE_CHUNK`] bytes at a time, each written into a window of
/// [`ESCAPE_WINDOW`] bytes of the room: an offset inside the window is provably in bounds
/// (it is masked below 64, and a store is 4 bytes), so the loop over the bytes checks
/// nothing per byte.
///
/// With `NOTE_CLASSES`, the classes of the bytes a [`TextRule`] looks for are noted on the
/// way and returned (see `text_rule`); without, it returns 0 and notes nothing.
#[inline(never)]
fn encode_escaped<const NOTE_CLASSES: bool>(out: &mut Vec<u8>, bytes: &[u8]) -> u8 {
    let start = out.len();
    // Three bytes per byte at worst, and a whole window past that for the last chunk's
    // stores: room made the wiping way (callers have made most of it already), then
    // filled with zeros.
    let room = bytes.len().saturating_mul(3).saturating_add(ESCAPE_WINDOW);
    make_room(out, room);
    out.resize(start + room, 0);
    let mut len = start;
    let mut seen = 0;
    for chunk in bytes.chunks(ESCAPE_CHUNK) {
        // Invariant: `len` is at most three bytes per byte before this chunk past `start`,
        // so a whole window fits in the room and this is never `None`.
        let Some(window) = out
            .get_mut(len..)
            .and_then(<[u8]>::first_chunk_mut::<ESCAPE_WINDOW>)
        else {
            break;
        };
        let mut written = 0;
        for &byte in chunk {
            let entry = ENCODED.get(usize::from(byte)).copied().unwrap_or_default();
            // `written` is at most 45 here (15 bytes of 3), so the mask changes nothing;
            // it lets the compiler see the store lands inside the window.
            let at = written & (ESCAPE_WINDOW - 5);
            if let Some(slot) = window.get_mut(at..at + 4) {
                slot.copy_from_slice(&entry);
            }
            let [.., count] = entry;
            written = at + usize::from(count);
            if NOTE_CLASSES {
                seen |= class_of(byte);
            }
        }
        len += written;
    }
    out.truncate(len);
    seen
}

/// How many bytes of text [`encode_escaped`] writes per window: 48 encoded at most.
const ESCAPE_CHUNK: usize = 16;

/// The window a chunk is written into: 64 offsets (a power of two, for the mask) and the
/// 4 bytes of the last store.
const ESCAPE_WINDOW: usize = 68;

/// Decodes a form body into its `(name, value)` pairs, in order.
///
/// Empty pieces (`a=1&&b=2`) are skipped and a piece without `=` is a name with an empty
/// value, as browsers do. Unlike browsers it refuses what it cannot read: a `%` without two
/// hex digits after it is [`Error::MalformedEscape`], text that is not UTF-8 once decoded
/// is [`Error::InvalidUtf8`]. The iterator ends after the first error. It never panics.
pub fn decode(body: &[u8]) -> Decode<'_> {
    Decode {
        body,
        offset: 0,
        failed: false,
    }
}

/// The iterator of [`decode`].
#[derive(Debug, Clone)]
pub struct Decode<'a> {
    body: &'a [u8],
    offset: usize,
    failed: bool,
}

impl<'a> Iterator for Decode<'a> {
    type Item = Result<(Cow<'a, str>, Cow<'a, str>), Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.failed {
                return None;
            }
            let rest = self.body.get(self.offset..)?;
            if rest.is_empty() {
                return None;
            }
            let start = self.offset;
            let piece_len = rest.iter().position(|&b| b == b'&').unwrap_or(rest.len());
            let piece = rest.get(..piece_len).unwrap_or_default();
            self.offset = start + piece_len + 1;
            if piece.is_empty() {
                continue;
            }
            let (name, value, value_offset) = match piece.iter().position(|&b| b == b'=') {
                Some(eq) => (
                    piece.get(..eq).unwrap_or_default(),
                    piece.get(eq + 1..).unwrap_or_default(),
                    start + eq + 1,
                ),
                None => (piece, &[][..], start + piece_len),
            };
            let pair = decode_component(name, start)
                .and_then(|name| Ok((name, decode_component(value, value_offset)?)));
            if pair.is_err() {
                self.failed = true;
            }
            return Some(pair.map_err(|error| match error {
                Error::InvalidUtf8 { .. } => Error::InvalidUtf8 { offset: start },
                other => other,
            }));
        }
    }
}

/// Decodes one name or value that starts at `offset` in the body.
fn decode_component(bytes: &[u8], offset: usize) -> Result<Cow<'_, str>, Error> {
    if !bytes.iter().any(|&b| b == b'%' || b == b'+') {
        return core::str::from_utf8(bytes)
            .map(Cow::Borrowed)
            .map_err(|_| Error::InvalidUtf8 { offset });
    }
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        match byte {
            b'+' => decoded.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(index + 1)
                    .and_then(|&high| Some((hex_value(high)?, hex_value(*bytes.get(index + 2)?)?)));
                let Some((high, low)) = hex else {
                    return Err(Error::MalformedEscape {
                        offset: offset + index,
                    });
                };
                decoded.push(high << 4 | low);
                index += 2;
            }
            other => decoded.push(other),
        }
        index += 1;
    }
    String::from_utf8(decoded)
        .map(Cow::Owned)
        .map_err(|_| Error::InvalidUtf8 { offset })
}

fn hex_value(byte: u8) -> Option<u8> {
    char::from(byte)
        .to_digit(16)
        .and_then(|digit| u8::try_from(digit).ok())
}

#[cfg(test)]
mod tests;
