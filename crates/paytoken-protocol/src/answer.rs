//! The one way answers are read: a reader that cannot fail on an incidental field.
//!
//! Forty-odd deployments answer this interface, and their incidental fields come in more
//! shapes than any sample shows (docs/WIRE.md, "Answers"): JSON numbers where samples have
//! strings, `null` or `""` for absent values, one object where a list is expected and the
//! reverse, objects of empty strings, repeated keys. Every answer of this crate is read
//! through the types here, and none of them fails on a value:
//!
//! - [`Field<T>`] (public) keeps a scalar exactly as it came (a string's text, a number's
//!   digits as written, `true`) beside a typed view that may fail on its own.
//! - `Loose<T>` reads a `Field<T>` from any JSON value: `null`, blank text, `[]` and objects
//!   of blank values are absence; a one-element list is its element; anything else is kept
//!   as text (a structure as its JSON text).
//! - `Text` is the same for plain text.
//! - `Object<T>` reads a nested object, or the one object of a list; anything else is
//!   absence.
//! - `List<T>` reads a list, a single object as a list of one, anything else as empty.
//! - `Kept` reads a member past and notes where it lies, for an answer that keeps a copy
//!   of its text and reads the member later, when asked, by the types above.
//! - `wire_object!` declares an answer's object: keys matched after trimming, the last of
//!   repeated keys wins, unknown keys skipped.
//!
//! So decoding an answer fails only when the body is not JSON at all; which fields then
//! decide the verdict, and how, is each operation's business (`crate::outcome`). The JSON
//! itself is read in one pass by the crate's own reader (`crate::json`), which hands these
//! types keys and strings as slices of the body.

use alloc::borrow::Cow;
use core::fmt;

use paytoken_types::Tolerant;
pub(crate) use paytoken_types::trimmed;

use crate::json::{JsonError, Kind, Reader, is_blank_text};

/// A field of an answer that does not decide its verdict, kept as the gateway sent it,
/// with a typed view that may fail without failing the answer.
///
/// ```
/// use paytoken_protocol::Field;
/// use paytoken_types::Amount;
///
/// let amount: Field<Amount> = Field::read("50");
/// assert_eq!(amount.raw(), "50");
/// assert_eq!(amount.value(), Some(&Amount::from_minor_units(5000)));
/// let odd: Field<Amount> = Field::read("fifty");
/// assert_eq!((odd.raw(), odd.value()), ("fifty", None));
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Field<T> {
    raw: RawText,
    value: Option<T>,
}

impl<T: Tolerant> Field<T> {
    /// Keeps `raw` and reads its typed view with [`Tolerant`].
    pub fn read(raw: impl Into<String>) -> Self {
        Self::of_text(&raw.into())
    }

    /// As [`read`](Self::read), from borrowed text: a short text is kept without an
    /// allocation.
    pub(crate) fn of_text(raw: &str) -> Self {
        Self {
            value: T::read_tolerant(raw),
            raw: RawText::new(raw),
        }
    }
}

/// Texts up to this many bytes are kept inline: codes, amounts, currencies, timestamps,
/// names, and ids up to the 32 hexadecimal digits of a registration id.
const INLINE_TEXT: usize = 32;

/// A field's text as the gateway sent it: inline when short (no allocation per field of
/// an answer), on the heap otherwise.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) enum RawText {
    /// The first `len` bytes of `bytes`, the rest zero.
    Inline {
        len: u8,
        bytes: [u8; INLINE_TEXT],
    },
    Heap(Box<str>),
}

impl RawText {
    pub(crate) fn new(text: &str) -> Self {
        let mut bytes = [0; INLINE_TEXT];
        match (bytes.get_mut(..text.len()), u8::try_from(text.len())) {
            (Some(head), Ok(len)) => {
                head.copy_from_slice(text.as_bytes());
                Self::Inline { len, bytes }
            }
            _ => Self::Heap(text.into()),
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        match self {
            // Invariant: the bytes are a whole `&str`, copied, so they are UTF-8 and the
            // fallback is never taken.
            Self::Inline { len, bytes } => bytes
                .get(..usize::from(*len))
                .and_then(|text| core::str::from_utf8(text).ok())
                .unwrap_or_default(),
            Self::Heap(text) => text,
        }
    }
}

impl<T> Field<T> {
    /// The text as the gateway sent it: a string's contents, a number's digits, or the
    /// JSON text of a structure where a scalar belongs.
    #[must_use]
    pub fn raw(&self) -> &str {
        self.raw.as_str()
    }

    /// The typed view, when the text reads as `T`.
    #[must_use]
    pub const fn value(&self) -> Option<&T> {
        self.value.as_ref()
    }

    /// The typed view, by value.
    #[must_use]
    pub fn into_value(self) -> Option<T> {
        self.value
    }
}

impl<T: fmt::Debug> fmt::Debug for Field<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.value {
            Some(value) => value.fmt(f),
            None => f.debug_tuple("Unreadable").field(&self.raw()).finish(),
        }
    }
}

/// Shows the text as the gateway sent it.
impl<T> fmt::Display for Field<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.raw())
    }
}

/// The typed view of an optional field: `answer.amount.value()` reads as the gateway's
/// own `amount`, or `None` when it is absent or unreadable.
pub trait FieldValue<T> {
    /// The typed view, when the field is present and readable.
    fn value(&self) -> Option<&T>;
    /// The text as it came, when the field is present.
    fn raw(&self) -> Option<&str>;
}

impl<T> FieldValue<T> for Option<Field<T>> {
    fn value(&self) -> Option<&T> {
        self.as_ref().and_then(Field::value)
    }

    fn raw(&self) -> Option<&str> {
        self.as_ref().map(Field::raw)
    }
}

/// Whether a value read from an answer carries nothing (absent, or all its fields absent).
pub(crate) trait Blank {
    fn is_blank(&self) -> bool;
}

/// How a value of an answer is read from the JSON at the reader; never fails on a value
/// of the wrong shape, only on text that is not JSON.
pub(crate) trait FromJson: Sized {
    fn from_json(reader: &mut Reader<'_>) -> Result<Self, JsonError>;
}

/// How an object of an answer is read, the reader standing at its `{`: what
/// `wire_object!` writes. The fields are read into an object in place (an answer's object
/// is large, and moving it costs a copy each time).
pub(crate) trait ReadObject: Default {
    fn read_fields(&mut self, reader: &mut Reader<'_>) -> Result<(), JsonError>;
}

/// The text of any JSON value, as [`Loose`] and [`Text`] read it; `None` for absence.
fn text_of<'a>(reader: &mut Reader<'a>) -> Result<Option<Cow<'a, str>>, JsonError> {
    let text = match reader.kind()? {
        Kind::String => reader.string_here()?,
        Kind::Scalar => Cow::Borrowed(reader.scalar()?),
        Kind::Null => {
            reader.scalar()?;
            return Ok(None);
        }
        Kind::Array => return one_or_many(reader),
        Kind::Object => {
            let start = reader.position();
            let blank = reader.skip_noting_blank(true)?;
            return Ok((!blank)
                .then(|| reader.since(start))
                .transpose()?
                .map(Cow::Borrowed));
        }
    };
    Ok((!is_blank_text(&text)).then_some(text))
}

/// A list where a scalar belongs: none is absence, one is its element, more are kept as
/// their JSON text.
fn one_or_many<'a>(reader: &mut Reader<'a>) -> Result<Option<Cow<'a, str>>, JsonError> {
    let start = reader.position();
    let mut first = None;
    let mut count = 0_usize;
    reader.array(|reader| {
        count += 1;
        if count == 1 {
            first = text_of(reader)?;
            Ok(())
        } else {
            reader.skip()
        }
    })?;
    match count {
        0 => Ok(None),
        1 => Ok(first),
        _ => reader.since(start).map(|json| Some(Cow::Borrowed(json))),
    }
}

/// A scalar field read from any JSON value (see the module docs).
pub(crate) struct Loose<T>(pub(crate) Option<Field<T>>);

impl<T> Default for Loose<T> {
    fn default() -> Self {
        Self(None)
    }
}

impl<T> Blank for Loose<T> {
    fn is_blank(&self) -> bool {
        self.0.is_none()
    }
}

impl<T: Tolerant> FromJson for Loose<T> {
    fn from_json(reader: &mut Reader<'_>) -> Result<Self, JsonError> {
        Ok(Self(text_of(reader)?.map(|text| Field::of_text(&text))))
    }
}

/// A text field read from any JSON value: the text, or `None` for absence.
#[derive(Default)]
pub(crate) struct Text(pub(crate) Option<String>);

impl Blank for Text {
    fn is_blank(&self) -> bool {
        self.0.is_none()
    }
}

impl FromJson for Text {
    fn from_json(reader: &mut Reader<'_>) -> Result<Self, JsonError> {
        Ok(Self(text_of(reader)?.map(Cow::into_owned)))
    }
}

/// A deciding text field, read from any JSON value without a copy when it can be: for the
/// fields that are read, judged and dropped (`paymentId`, `transactionStatus`, ...), so that
/// reading them allocates and copies nothing in the common case.
///
/// A string without escapes, what these fields almost always are, is noted by where its
/// text lies in the body, and read from the body when asked ([`text`](Self::text)); any
/// other value (an escaped string, a number, a list of one) is kept as read, inline when
/// short.
#[derive(Default)]
pub(crate) enum Short {
    #[default]
    Absent,
    /// A string that holds no escape: its text is the body's there.
    Lies(Span),
    /// Any other value's text, as read.
    Read(RawText),
}

impl Short {
    /// The text, from `body`, the body it was read from.
    pub(crate) fn text<'a>(&'a self, body: &'a str) -> Option<&'a str> {
        match self {
            Self::Absent => None,
            Self::Lies(span) => span.text(body),
            Self::Read(text) => Some(text.as_str()),
        }
    }
}

impl Blank for Short {
    fn is_blank(&self) -> bool {
        matches!(self, Self::Absent)
    }
}

impl FromJson for Short {
    fn from_json(reader: &mut Reader<'_>) -> Result<Self, JsonError> {
        if reader.kind()? != Kind::String {
            return Ok(
                text_of(reader)?.map_or(Self::Absent, |text| Self::Read(RawText::new(&text)))
            );
        }
        let start = reader.position() + 1;
        let text = reader.string_here()?;
        if is_blank_text(&text) {
            return Ok(Self::Absent);
        }
        let end = start + text.len();
        Ok(match (text, Span::new(start, end)) {
            (Cow::Borrowed(_), Some(span)) => Self::Lies(span),
            // Escaped (or, past 4 GiB, where no offset reaches): kept as read.
            (text, _) => Self::Read(RawText::new(&text)),
        })
    }
}

/// Where a value's text lies in the body it was read from, as two `u32` offsets (a
/// `Kept` member and a deciding field noted rather than copied are small this way).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Span {
    start: u32,
    end: u32,
}

impl Span {
    /// The span from `start` to `end`; `None` past 4 GiB, where no offset reaches (a body
    /// that long is refused long before, by the client's bound).
    fn new(start: usize, end: usize) -> Option<Self> {
        Some(Self {
            start: u32::try_from(start).ok()?,
            end: u32::try_from(end).ok()?,
        })
    }

    /// Its text in `body`; `None` when it is empty.
    fn text(self, body: &str) -> Option<&str> {
        let start = usize::try_from(self.start).ok()?;
        let end = usize::try_from(self.end).ok()?;
        (end > start).then(|| body.get(start..end)).flatten()
    }

    const fn is_empty(self) -> bool {
        self.end == self.start
    }
}

/// A member kept as it came, to be read when asked for: where its value lies in the body,
/// and whether it is blank (`null`, blank text, or lists and objects of nothing else: what
/// `Blank` asks). Reading it past checks it, so reading it again later cannot fail.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Kept {
    span: Span,
    blank: bool,
}

impl Kept {
    /// Its value read as `T`, from its text in `body`: by the same reader as a member read
    /// at once, so blank text, `null` and the rest are absence exactly as they are there.
    pub(crate) fn read<T: FromJson + Default>(self, body: &str) -> T {
        self.span
            .text(body)
            .and_then(|text| T::from_json(&mut Reader::new(text)).ok())
            .unwrap_or_default()
    }
}

impl Blank for Kept {
    fn is_blank(&self) -> bool {
        self.span.is_empty() || self.blank
    }
}

impl FromJson for Kept {
    fn from_json(reader: &mut Reader<'_>) -> Result<Self, JsonError> {
        let start = reader.position();
        let blank = reader.skip_noting_blank(true)?;
        // Past 4 GiB (see `Span::new`) a member is kept as absent rather than cut.
        Ok(Span::new(start, reader.position())
            .map_or_else(Self::default, |span| Self { span, blank }))
    }
}

/// A nested object: the object, the first such object of a list, or `None` for anything
/// else or an object whose fields are all blank.
pub(crate) struct Object<T>(pub(crate) Option<T>);

impl<T> Default for Object<T> {
    fn default() -> Self {
        Self(None)
    }
}

impl<T> Blank for Object<T> {
    fn is_blank(&self) -> bool {
        self.0.is_none()
    }
}

impl<T: ReadObject + Blank> FromJson for Object<T> {
    fn from_json(reader: &mut Reader<'_>) -> Result<Self, JsonError> {
        match reader.kind()? {
            Kind::Object => {
                let mut object = T::default();
                object.read_fields(reader)?;
                Ok(Self((!object.is_blank()).then_some(object)))
            }
            Kind::Array => {
                // The first object of the list; the rest is read past.
                let mut first = None;
                reader.array(|reader| {
                    if first.is_some() {
                        return reader.skip();
                    }
                    first = Self::from_json(reader)?.0;
                    Ok(())
                })?;
                Ok(Self(first))
            }
            // Anything else is absence. A number is read past as text and dropped, never
            // made a float (money is never a float).
            Kind::String | Kind::Null | Kind::Scalar => reader.skip().map(|()| Self(None)),
        }
    }
}

/// A list: an array (its objects, in order; other items skipped), a single object as a
/// list of one, and anything else as empty.
pub(crate) struct List<T>(pub(crate) Vec<T>);

impl<T> Default for List<T> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<T> Blank for List<T> {
    fn is_blank(&self) -> bool {
        self.0.is_empty()
    }
}

impl<T: ReadObject + Blank> FromJson for List<T> {
    fn from_json(reader: &mut Reader<'_>) -> Result<Self, JsonError> {
        match reader.kind()? {
            Kind::Object => Ok(Self(
                Object::<T>::from_json(reader)?.0.into_iter().collect(),
            )),
            Kind::Array => {
                let mut items = Vec::new();
                reader.array(|reader| {
                    items.extend(Object::<T>::from_json(reader)?.0);
                    Ok(())
                })?;
                Ok(Self(items))
            }
            Kind::String | Kind::Null | Kind::Scalar => reader.skip().map(|()| Self::default()),
        }
    }
}

/// Declares an object of an answer: its fields, each with its key and aliases. Every field
/// type reads any JSON value (see the module docs), so reading the object fails only on
/// JSON that is not well formed.
macro_rules! wire_object {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($field:ident: $ty:ty = $key:literal $(| $alias:literal)*,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Default)]
        $vis struct $name {
            $(pub(crate) $field: $ty,)+
        }

        impl $crate::answer::ReadObject for $name {
            fn read_fields(
                &mut self,
                reader: &mut $crate::json::Reader<'_>,
            ) -> Result<(), $crate::json::JsonError> {
                reader.object(|reader, key| {
                    match $crate::answer::trimmed(key) {
                        $($key $(| $alias)* => {
                            self.$field = $crate::answer::FromJson::from_json(reader)?;
                        })+
                        _ => reader.skip()?,
                    }
                    Ok(())
                })
            }
        }

        impl $crate::answer::Blank for $name {
            fn is_blank(&self) -> bool {
                true $(&& $crate::answer::Blank::is_blank(&self.$field))+
            }
        }
    };
}

pub(crate) use wire_object;

/// Reads a whole text as `T`, for tests: nothing but white space may follow.
#[cfg(test)]
pub(crate) fn read_all<T: FromJson>(json: &str) -> Result<T, JsonError> {
    let mut reader = Reader::new(json);
    let value = T::from_json(&mut reader)?;
    reader.finish()?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use paytoken_types::Amount;

    wire_object! {
        struct Sample {
            amount: Loose<Amount> = "amount",
            note: Text = "note" | "remark",
            short: Short = "short",
            inner: Object<Inner> = "inner",
            items: List<Inner> = "items",
        }
    }

    wire_object! {
        struct Inner {
            name: Text = "name",
        }
    }

    fn read(json: &str) -> Sample {
        read_all::<Object<Sample>>(json)
            .unwrap()
            .0
            .unwrap_or_default()
    }

    #[test]
    fn scalars_come_in_any_form() {
        for (json, raw, minor) in [
            (r#"{"amount":"50.00"}"#, Some("50.00"), Some(5000)),
            (r#"{"amount":50}"#, Some("50"), Some(5000)),
            (r#"{"amount":50.10}"#, Some("50.10"), Some(5010)),
            (r#"{"amount":["7"]}"#, Some("7"), Some(700)),
            (r#"{"amount":true}"#, Some("true"), None),
            (
                r#"{"amount":{"value":"5"}}"#,
                Some(r#"{"value":"5"}"#),
                None,
            ),
            (r#"{"amount":"fünf \u00e9"}"#, Some("fünf é"), None),
            (r#"{"amount":null}"#, None, None),
            (r#"{"amount":" "}"#, None, None),
            (r#"{"amount":[]}"#, None, None),
            (r#"{"amount":{"a":"","b":null}}"#, None, None),
        ] {
            let sample = read(json);
            assert_eq!(sample.amount.0.raw(), raw, "{json}");
            assert_eq!(
                sample.amount.0.value().map(|a| a.minor_units()),
                minor,
                "{json}"
            );
        }
    }

    #[test]
    fn objects_and_lists_in_any_form() {
        let sample = read(r#"{"inner":[{"name":"a"}],"items":{"name":"b"},"remark":7}"#);
        assert_eq!(sample.inner.0.unwrap().name.0.as_deref(), Some("a"));
        assert_eq!(sample.items.0.len(), 1);
        assert_eq!(sample.note.0.as_deref(), Some("7"));
        let blank = read(r#"{"inner":{"name":""},"items":"","amount":{"x":[null]}}"#);
        assert!(blank.inner.0.is_none() && blank.items.0.is_empty() && blank.amount.0.is_none());
        let odd = read(r#"{"inner":5,"items":[1,{"name":"c"},"x",{"name":""}]}"#);
        assert!(odd.inner.0.is_none());
        assert_eq!(odd.items.0.len(), 1);
    }

    #[test]
    fn what_serde_json_refused_is_read_now() {
        // A number no float holds, where an object belongs, failed the whole answer; half a
        // surrogate pair made the text absent.
        let sample = read(r#"{"inner":1e400,"items":-1e999,"note":"a\ud800b","amount":1e400}"#);
        assert!(sample.inner.0.is_none() && sample.items.0.is_empty());
        assert_eq!(sample.note.0.as_deref(), Some("a\u{fffd}b"));
        assert_eq!(sample.amount.0.raw(), Some("1e400"));
    }

    #[test]
    fn a_short_field_lies_in_the_body_unless_it_was_read_out_of_it() {
        let json = r#"{"short":"54279","note":"x"}"#;
        let sample = read(json);
        assert!(matches!(sample.short, Short::Lies(_)));
        assert_eq!(sample.short.text(json), Some("54279"));
        for (json, text) in [
            (r#"{"short":"54\u0032"}"#, "542"),
            (r#"{"short":54279}"#, "54279"),
            (r#"{"short":["7"]}"#, "7"),
        ] {
            let sample = read(json);
            assert!(matches!(sample.short, Short::Read(_)), "{json}");
            assert_eq!(sample.short.text(json), Some(text), "{json}");
        }
        assert!(read(r#"{"short":" "}"#).short.text("").is_none());
    }

    #[test]
    fn repeated_keys_the_last_wins_and_keys_are_trimmed() {
        let sample = read(r#"{"note":"a"," note ":"b","unknown":{"deep":[1,2]}}"#);
        assert_eq!(sample.note.0.as_deref(), Some("b"));
    }

    #[test]
    fn an_object_with_a_value_is_kept_even_when_a_repeated_key_is_blank() {
        // Found by the property test: `true` was sent, so the text is not absent.
        let sample = read(r#"{"note":{"":true,"":null}}"#);
        assert_eq!(sample.note.0.as_deref(), Some(r#"{"":true,"":null}"#));
    }

    mod properties {
        use super::*;
        use crate::json::arbitrary::json_text;
        use proptest::prelude::*;
        use serde_json::value::RawValue;

        /// An object's member values in order, a repeated key's included: serde_json's
        /// map keeps only the last, which would call `{"a":true,"a":null}` blank and drop
        /// the `true` the gateway sent.
        struct Members(Vec<Box<RawValue>>);

        impl<'de> serde::Deserialize<'de> for Members {
            fn deserialize<D: serde::Deserializer<'de>>(input: D) -> Result<Self, D::Error> {
                struct Visit;
                impl<'de> serde::de::Visitor<'de> for Visit {
                    type Value = Members;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("an object")
                    }
                    fn visit_map<A: serde::de::MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> Result<Members, A::Error> {
                        let mut values = Vec::new();
                        while let Some((_, value)) = map.next_entry::<String, Box<RawValue>>()? {
                            values.push(value);
                        }
                        Ok(Members(values))
                    }
                }
                input.deserialize_map(Visit)
            }
        }

        /// Blank as the module docs say: `null`, blank text, and lists or objects of
        /// nothing but blank values, every member counted.
        fn blank(raw: &RawValue) -> bool {
            let json = raw.get();
            match json.as_bytes().first() {
                Some(b'n') => true,
                Some(b'"') => {
                    serde_json::from_str::<String>(json).is_ok_and(|t| t.trim().is_empty())
                }
                Some(b'[') => serde_json::from_str::<Vec<Box<RawValue>>>(json)
                    .is_ok_and(|items| items.iter().all(|item| blank(item))),
                Some(b'{') => serde_json::from_str::<Members>(json)
                    .is_ok_and(|members| members.0.iter().all(|value| blank(value))),
                _ => false,
            }
        }

        /// The rules of the module docs, written over serde_json's raw values: how answers
        /// were read before the reader, kept as the oracle.
        fn oracle(raw: &RawValue) -> Option<String> {
            let json = raw.get();
            let text = match json.as_bytes().first()? {
                b'"' => serde_json::from_str::<String>(json).ok()?,
                b'n' => return None,
                b'[' => {
                    let items: Vec<&RawValue> = serde_json::from_str(json).ok()?;
                    return match items.as_slice() {
                        [] => None,
                        [one] => oracle(one),
                        _ => Some(json.to_owned()),
                    };
                }
                b'{' if blank(raw) => return None,
                _ => json.to_owned(),
            };
            (!text.trim().is_empty()).then_some(text)
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(1024))]

            #[test]
            fn any_value_reads_as_the_rules_say(value in json_text(false)) {
                let json = format!(r#"{{"note": {value} }}"#);
                let raw: Box<RawValue> = serde_json::from_str(&value).unwrap();
                let read = read_all::<Object<Sample>>(&json).unwrap().0.unwrap_or_default();
                prop_assert_eq!(read.note.0, oracle(&raw));
            }

            /// A deciding field reads as any text field does, whether its text lies in the
            /// body or was read out of it.
            #[test]
            fn a_short_field_reads_as_a_text_field(value in json_text(false)) {
                let json = format!(r#"{{"short": {value} }}"#);
                let raw: Box<RawValue> = serde_json::from_str(&value).unwrap();
                let read = read_all::<Object<Sample>>(&json).unwrap().0.unwrap_or_default();
                let expected = oracle(&raw);
                prop_assert_eq!(read.short.text(&json), expected.as_deref());
            }
        }
    }
}
