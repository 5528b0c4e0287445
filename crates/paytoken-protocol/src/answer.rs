//! The one way answers are read: a reader that cannot fail on an incidental field.
//!
//! Forty-odd deployments answer this interface, and their incidental fields come in more
//! shapes than any sample shows: JSON numbers where samples have strings, `null` or `""`
//! for absent values, one object where a list is expected and the reverse, objects of empty
//! strings, repeated keys. Every answer of this crate is read through the types here, and
//! none of them fails on a value:
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
//! - `wire_object!` declares an answer's object: keys matched after trimming, the last of
//!   repeated keys wins, unknown keys skipped.
//!
//! So decoding an answer fails only when the body is not JSON at all; which fields then
//! decide the verdict, and how, is each operation's business (`crate::outcome`).

use alloc::borrow::Cow;
use core::fmt;
use core::marker::PhantomData;

use paytoken_types::Tolerant;
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;

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
/// ids, names.
const INLINE_TEXT: usize = 30;

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

/// The text of any JSON value, as [`Loose`] and [`Text`] read it; `None` for absence.
fn text_of(raw: &RawValue) -> Option<Cow<'_, str>> {
    let json = raw.get();
    let text = match json.as_bytes().first()? {
        b'"' => {
            let inner = json
                .get(1..json.len().saturating_sub(1))
                .unwrap_or_default();
            if inner.contains('\\') {
                Cow::Owned(serde_json::from_str::<String>(json).ok()?)
            } else {
                Cow::Borrowed(inner)
            }
        }
        b'n' => return None,
        b'[' => {
            let items: Vec<&RawValue> = serde_json::from_str(json).ok()?;
            return match items.as_slice() {
                [] => None,
                [one] => text_of(one).map(|text| Cow::Owned(text.into_owned())),
                _ => Some(Cow::Borrowed(json)),
            };
        }
        b'{' if is_blank_json(json) => return None,
        _ => Cow::Borrowed(json),
    };
    (!is_blank_text(&text)).then_some(text)
}

/// `text.trim()`, with the common case (an ASCII character at each end that is not a
/// space) answered from the two ends alone.
pub(crate) fn trimmed(text: &str) -> &str {
    let plain_end =
        |byte: Option<&u8>| byte.is_some_and(|&b| b.is_ascii() && !b.is_ascii_whitespace());
    let bytes = text.as_bytes();
    if plain_end(bytes.first()) && plain_end(bytes.last()) {
        text
    } else {
        text.trim()
    }
}

/// Whether `text` is empty or white space only, answered from its first byte when that is
/// an ASCII character other than a space.
fn is_blank_text(text: &str) -> bool {
    match text.as_bytes().first() {
        Some(&first) if first.is_ascii() && !first.is_ascii_whitespace() => false,
        _ => text.trim().is_empty(),
    }
}

/// Whether a JSON text is absence in a structure's clothes: `null`, blank text, or an
/// array or object of nothing but those.
fn is_blank_json(json: &str) -> bool {
    fn blank(value: &serde_json::Value) -> bool {
        match value {
            serde_json::Value::Null => true,
            serde_json::Value::String(text) => text.trim().is_empty(),
            serde_json::Value::Array(items) => items.iter().all(blank),
            serde_json::Value::Object(map) => map.values().all(blank),
            _ => false,
        }
    }
    serde_json::from_str(json).is_ok_and(|value| blank(&value))
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

impl<'de, T: Tolerant> Deserialize<'de> for Loose<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = <&RawValue>::deserialize(deserializer)?;
        Ok(Self(text_of(raw).map(|text| Field::of_text(&text))))
    }
}

/// A text field read from any JSON value: the text, or `None` for absence.
#[derive(Default)]
pub(crate) struct Text(pub(crate) Option<String>);

/// A short text field read from any JSON value, kept inline when short: for the deciding
/// fields, which are read, judged and dropped, so that reading them allocates nothing.
#[derive(Default)]
pub(crate) struct Short(pub(crate) Option<RawText>);

impl Short {
    /// The text, borrowed.
    pub(crate) fn as_deref(&self) -> Option<&str> {
        self.0.as_ref().map(RawText::as_str)
    }
}

impl Blank for Short {
    fn is_blank(&self) -> bool {
        self.0.is_none()
    }
}

impl<'de> Deserialize<'de> for Short {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = <&RawValue>::deserialize(deserializer)?;
        Ok(Self(text_of(raw).map(|text| RawText::new(&text))))
    }
}

impl Blank for Text {
    fn is_blank(&self) -> bool {
        self.0.is_none()
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = <&RawValue>::deserialize(deserializer)?;
        Ok(Self(text_of(raw).map(Cow::into_owned)))
    }
}

/// A nested object: the object, the one object of a list, or `None` for anything else or
/// an object whose fields are all blank.
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

impl<'de, T: Deserialize<'de> + Blank> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ObjectVisitor(PhantomData))
    }
}

struct ObjectVisitor<T>(PhantomData<T>);

/// Anything but an object or a list is absence, for both visitors below. A JSON float is
/// read past and dropped, never kept as an `f64` (money is never a float); a float in a
/// scalar field is kept as its text by `Loose` instead.
macro_rules! absent_scalars {
    ($value:expr) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($value)
        }
    };
}

impl<'de, T: Deserialize<'de> + Blank> de::Visitor<'de> for ObjectVisitor<T> {
    type Value = Object<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any json value")
    }

    absent_scalars!(Object(None));

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let object = T::deserialize(de::value::MapAccessDeserializer::new(map))?;
        Ok(Object((!object.is_blank()).then_some(object)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        // The first object of the list; the rest is read past.
        let mut first = None;
        while let Some(Object(item)) = seq.next_element::<Object<T>>()? {
            if first.is_none() {
                first = item;
            }
        }
        Ok(Object(first))
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

impl<'de, T: Deserialize<'de> + Blank> Deserialize<'de> for List<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ListVisitor(PhantomData))
    }
}

struct ListVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de> + Blank> de::Visitor<'de> for ListVisitor<T> {
    type Value = List<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any json value")
    }

    absent_scalars!(List(Vec::new()));

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let Object(item) = ObjectVisitor(PhantomData).visit_map(map)?;
        Ok(List(item.into_iter().collect()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(256));
        while let Some(Object(item)) = seq.next_element::<Object<T>>()? {
            items.extend(item);
        }
        Ok(List(items))
    }
}

/// A key of an answer's object, borrowed when it has no escapes.
pub(crate) struct Key<'a>(pub(crate) Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;

        impl<'de> de::Visitor<'de> for Visitor {
            type Value = Key<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }

            fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Borrowed(text)))
            }

            fn visit_str<E>(self, text: &str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Owned(text.to_owned())))
            }

            fn visit_string<E>(self, text: String) -> Result<Self::Value, E> {
                Ok(Key(Cow::Owned(text)))
            }
        }

        deserializer.deserialize_str(Visitor)
    }
}

/// Reads past a value nobody asked for.
pub(crate) fn skip<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    map.next_value::<IgnoredAny>().map(drop)
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

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct Visitor;

                impl<'de> serde::de::Visitor<'de> for Visitor {
                    type Value = $name;

                    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                        f.write_str("an object")
                    }

                    fn visit_map<A: serde::de::MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> Result<$name, A::Error> {
                        let mut object = $name::default();
                        while let Some(key) = map.next_key::<$crate::answer::Key<'de>>()? {
                            match $crate::answer::trimmed(&key.0) {
                                $($key $(| $alias)* => object.$field = map.next_value()?,)+
                                _ => $crate::answer::skip(&mut map)?,
                            }
                        }
                        Ok(object)
                    }
                }

                deserializer.deserialize_map(Visitor)
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

#[cfg(test)]
mod tests {
    use super::*;
    use paytoken_types::Amount;

    wire_object! {
        struct Sample {
            amount: Loose<Amount> = "amount",
            note: Text = "note" | "remark",
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
        serde_json::from_str(json).unwrap()
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
    fn repeated_keys_the_last_wins_and_keys_are_trimmed() {
        let sample = read(r#"{"note":"a"," note ":"b","unknown":{"deep":[1,2]}}"#);
        assert_eq!(sample.note.0.as_deref(), Some("b"));
    }
}
