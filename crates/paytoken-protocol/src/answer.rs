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
//! - `wire_object!` declares an answer's object, or reads into a public type: keys matched
//!   after trimming, the last of repeated keys wins, unknown keys skipped. Each field reads
//!   any JSON value by its type: `Option<Field<T>>` or `Option<String>` a scalar (`null`,
//!   blank text, `[]` and objects of blank values are absence; a one-element list is its
//!   element; anything else is kept as text, a structure as its JSON text), `String` the
//!   same with absence as empty; `Option<T>` a nested object, or the one object of a list
//!   (anything else is absence); `Vec<T>` a list, a single object as a list of one,
//!   anything else as empty.
//!
//! So decoding an answer fails only when the body is not JSON at all; which fields then
//! decide the verdict, and how, is each operation's business (`crate::outcome`).
//!
//! The JSON is read by serde_json, through visitors written here rather than derived (a
//! derive refuses a repeated key, and `flatten` or `untagged` would buffer). Each member's
//! value is first taken as a `RawValue`, its text as it lies in the body, and read by the
//! rules above from there: a number keeps the digits it was written with (never a float:
//! money is never one), and a structure where a scalar belongs is kept as its JSON text.
//! Strings are decoded as bytes, so half a surrogate pair (`\ud800`), which a `str` cannot
//! hold, reads as U+FFFD instead of failing the answer. Structures are looked into at most
//! 128 levels deep, serde_json's own recursion limit; deeper, a structure is kept
//! as its text.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

pub(crate) use paytoken_types::trimmed;
use paytoken_types::{ResultCode, Tolerant};
use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess};
use serde_json::value::RawValue;

/// How many levels of lists and objects the rules look into: serde_json's own recursion
/// limit.
pub(crate) const MAX_DEPTH: usize = 128;

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

/// Whether a text is blank: empty, or white space only.
pub(crate) fn is_blank_text(text: &str) -> bool {
    trimmed(text).is_empty()
}

/// A key of an object, or a string's decoded bytes: borrowed from the body when it holds no
/// escape, decoded otherwise; never refused (see [`lossy`]).
pub(crate) struct Decoded<'de>(Cow<'de, str>);

impl Decoded<'_> {
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for Decoded<'de> {
    fn deserialize<D: Deserializer<'de>>(input: D) -> Result<Self, D::Error> {
        struct Bytes;
        impl<'de> de::Visitor<'de> for Bytes {
            type Value = Decoded<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_bytes<E>(self, bytes: &'de [u8]) -> Result<Self::Value, E> {
                Ok(Decoded(lossy(bytes)))
            }
            fn visit_bytes<E>(self, bytes: &[u8]) -> Result<Self::Value, E> {
                Ok(Decoded(Cow::Owned(lossy(bytes).into_owned())))
            }
            fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Self::Value, E> {
                Ok(Decoded(Cow::Borrowed(text)))
            }
            fn visit_str<E>(self, text: &str) -> Result<Self::Value, E> {
                Ok(Decoded(Cow::Owned(text.into())))
            }
        }
        // As bytes: serde_json then decodes escapes without refusing half a surrogate pair.
        input.deserialize_bytes(Bytes)
    }
}

/// The bytes of a decoded JSON string as text. serde_json writes half a surrogate pair as
/// its three WTF-8 bytes; each such, like any other byte that is not UTF-8, becomes one
/// U+FFFD.
fn lossy(bytes: &[u8]) -> Cow<'_, str> {
    match core::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(replaced(bytes)),
    }
}

fn replaced(mut bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    loop {
        match core::str::from_utf8(bytes) {
            Ok(valid) => {
                text.push_str(valid);
                return text;
            }
            Err(error) => {
                let (valid, rest) = bytes.split_at(error.valid_up_to());
                // `valid_up_to` ends the part that is UTF-8, so this is never the default.
                text.push_str(core::str::from_utf8(valid).unwrap_or_default());
                text.push('\u{fffd}');
                let skip = match rest {
                    [0xED, 0xA0..=0xBF, 0x80..=0xBF, ..] => 3,
                    _ => error.error_len().unwrap_or(rest.len()),
                };
                bytes = rest.get(skip..).unwrap_or_default();
            }
        }
    }
}

/// The items of a JSON list's text; `None` when it is not one.
fn items(json: &str) -> Option<Vec<&RawValue>> {
    serde_json::from_str(json).ok()
}

/// A JSON string's text (`json` starts and ends with its quotes), decoded.
fn string_text(json: &str) -> Cow<'_, str> {
    let inner = json
        .get(1..json.len().saturating_sub(1))
        .unwrap_or_default();
    if !inner.contains('\\') {
        return Cow::Borrowed(inner);
    }
    serde_json::from_str::<Decoded<'_>>(json).map_or(Cow::Borrowed(inner), |decoded| decoded.0)
}

/// The text of any JSON value, as a scalar field reads it; `None` for absence.
fn text_of(raw: &RawValue) -> Option<Cow<'_, str>> {
    text_at(raw, 0)
}

/// [`text_of`] a value `depth` lists deep.
fn text_at(raw: &RawValue, depth: usize) -> Option<Cow<'_, str>> {
    let json = raw.get();
    let text = match json.as_bytes().first()? {
        b'"' => string_text(json),
        b'n' => return None,
        b'[' => return one_or_many(json, depth),
        b'{' => return (!is_blank(raw, 0)).then_some(Cow::Borrowed(json)),
        _ => Cow::Borrowed(json),
    };
    (!is_blank_text(&text)).then_some(text)
}

/// A list where a scalar belongs: none is absence, one is its element, more are kept as
/// their JSON text (as is a list past [`MAX_DEPTH`]).
fn one_or_many(json: &str, depth: usize) -> Option<Cow<'_, str>> {
    if depth >= MAX_DEPTH {
        return Some(Cow::Borrowed(json));
    }
    match items(json)?.as_slice() {
        [] => None,
        [one] => text_at(one, depth + 1),
        _ => Some(Cow::Borrowed(json)),
    }
}

/// Whether a value is blank: `null`, blank text, or a list or object of nothing but blank
/// values (every member counted, a repeated key's too). Past [`MAX_DEPTH`], a structure is
/// not blank.
fn is_blank(raw: &RawValue, depth: usize) -> bool {
    let json = raw.get();
    match json.as_bytes().first() {
        Some(b'n') => true,
        Some(b'"') => is_blank_text(&string_text(json)),
        Some(b'[') if depth < MAX_DEPTH => {
            items(json).is_some_and(|items| items.iter().all(|item| is_blank(item, depth + 1)))
        }
        Some(b'{') if depth < MAX_DEPTH => serde_json::from_str::<Members<'_>>(json)
            .is_ok_and(|members| members.0.iter().all(|value| is_blank(value, depth + 1))),
        _ => false,
    }
}

/// An object's member values in order, a repeated key's included.
struct Members<'de>(Vec<&'de RawValue>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(input: D) -> Result<Self, D::Error> {
        struct Values;
        impl<'de> de::Visitor<'de> for Values {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members<'de>, A::Error> {
                let mut values = Vec::new();
                while map.next_key::<IgnoredAny>()?.is_some() {
                    values.push(map.next_value()?);
                }
                Ok(Members(values))
            }
        }
        input.deserialize_map(Values)
    }
}

/// An object of an answer, as `wire_object!` declares one: its members read by their keys.
pub(crate) trait WireObject: Blank + Sized {
    /// The object before any member is read: every field absent.
    fn empty() -> Self;

    /// Reads the value of `key`, the next of `map`, into its field; an unknown key's value
    /// is skipped.
    fn read_member<'de, A: MapAccess<'de>>(
        &mut self,
        key: &str,
        map: &mut A,
    ) -> Result<(), A::Error>;
}

/// A [`WireObject`] read from a JSON object, every member in the gateway's order.
struct Whole<T>(T);

impl<'de, T: WireObject> Deserialize<'de> for Whole<T> {
    fn deserialize<D: Deserializer<'de>>(input: D) -> Result<Self, D::Error> {
        struct Fields<T>(core::marker::PhantomData<T>);
        impl<'de, T: WireObject> de::Visitor<'de> for Fields<T> {
            type Value = Whole<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Whole<T>, A::Error> {
                let mut object = T::empty();
                while let Some(key) = map.next_key::<Decoded<'de>>()? {
                    object.read_member(key.as_str(), &mut map)?;
                }
                Ok(Whole(object))
            }
        }
        input.deserialize_map(Fields(core::marker::PhantomData))
    }
}

/// Whether `text` holds a JSON object: its first byte past white space is `{`.
pub(crate) fn is_object_text(text: &str) -> bool {
    text.trim_start_matches([' ', '\t', '\n', '\r'])
        .starts_with('{')
}

/// Reads `json`, a JSON object's text, as `T`, blank or not.
pub(crate) fn read_object<T: WireObject>(json: &str) -> Result<T, serde_json::Error> {
    serde_json::from_str::<Whole<T>>(json).map(|whole| whole.0)
}

/// The object a value is, or the first such object of a list (a list in a list too);
/// `None` for anything else, and for an object whose fields are all blank.
pub(crate) fn object_in<T: WireObject>(raw: &RawValue, depth: usize) -> Option<T> {
    let json = raw.get();
    match json.as_bytes().first()? {
        b'{' => read_object::<T>(json)
            .ok()
            .filter(|object| !object.is_blank()),
        b'[' if depth < MAX_DEPTH => items(json)?
            .into_iter()
            .find_map(|item| object_in(item, depth + 1)),
        // Anything else is absence. A number is read past as text and dropped, never made a
        // float (money is never a float).
        _ => None,
    }
}

/// A field of a `wire_object!`: read from any JSON value by its type's rule (see the module
/// docs), never failing on one.
pub(crate) trait Member: Blank + Default {
    /// Reads the value of the member whose key `map` just gave.
    fn read<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error>;
}

impl<T: Tolerant> Member for Option<Field<T>> {
    fn read<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error> {
        Ok(text_of(map.next_value()?).map(|text| Field::of_text(&text)))
    }
}

impl Member for Option<String> {
    fn read<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error> {
        Ok(text_of(map.next_value()?).map(Cow::into_owned))
    }
}

/// Text that is never absent: absence reads as empty.
impl Member for String {
    fn read<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error> {
        Option::<Self>::read(map).map(Option::unwrap_or_default)
    }
}

/// A result code: its text as it came, empty when absent.
impl Member for ResultCode {
    fn read<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error> {
        String::read(map).map(Self::new)
    }
}

impl<T: WireObject> Member for Option<T> {
    fn read<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error> {
        Ok(object_in(map.next_value()?, 0))
    }
}

/// A list: an array (its objects, in order; other items skipped), a single object as a
/// list of one, and anything else as empty.
impl<T: WireObject> Member for Vec<T> {
    fn read<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error> {
        let raw: &RawValue = map.next_value()?;
        let json = raw.get();
        Ok(match json.as_bytes().first() {
            Some(b'{') => object_in(raw, 0).into_iter().collect(),
            Some(b'[') => items(json)
                .unwrap_or_default()
                .into_iter()
                .filter_map(|item| object_in(item, 1))
                .collect(),
            _ => Self::new(),
        })
    }
}

impl<T> Blank for Option<T> {
    fn is_blank(&self) -> bool {
        self.is_none()
    }
}

impl<T> Blank for Vec<T> {
    fn is_blank(&self) -> bool {
        self.is_empty()
    }
}

impl Blank for String {
    fn is_blank(&self) -> bool {
        self.is_empty()
    }
}

impl Blank for ResultCode {
    fn is_blank(&self) -> bool {
        self.as_str().is_empty()
    }
}

/// Declares an object of an answer, `struct Name { field: Type = "key" | "alias", .. }`,
/// or reads a type declared elsewhere, `impl Name { field = "key" | "alias", .. }` (every
/// field named). Every field type reads any JSON value (see the module docs), so reading
/// the object fails only on JSON that is not well formed.
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

        $crate::answer::wire_object!(impl $name { $($field = $key $(| $alias)*,)+ });
    };
    (impl $name:ident { $($field:ident = $key:literal $(| $alias:literal)*,)+ }) => {
        impl $crate::answer::WireObject for $name {
            fn empty() -> Self {
                Self { $($field: Default::default(),)+ }
            }

            fn read_member<'de, A: serde::de::MapAccess<'de>>(
                &mut self,
                key: &str,
                map: &mut A,
            ) -> Result<(), A::Error> {
                match $crate::answer::trimmed(key) {
                    $($key $(| $alias)* => self.$field = $crate::answer::Member::read(map)?,)+
                    _ => {
                        map.next_value::<serde::de::IgnoredAny>()?;
                    }
                }
                Ok(())
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

/// Reads a whole text as `T`, for tests.
#[cfg(test)]
pub(crate) fn read_all<T: de::DeserializeOwned>(json: &str) -> Result<T, serde_json::Error> {
    serde_json::from_str(json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use paytoken_types::Amount;

    /// A nested object: the object, the first such object of a list, or `None` for anything
    /// else or an object whose fields are all blank.
    struct Object<T>(Option<T>);

    impl<'de, T: WireObject> Deserialize<'de> for Object<T> {
        fn deserialize<D: Deserializer<'de>>(input: D) -> Result<Self, D::Error> {
            Ok(Self(object_in(<&RawValue>::deserialize(input)?, 0)))
        }
    }

    wire_object! {
        struct Sample {
            amount: Option<Field<Amount>> = "amount",
            note: Option<String> = "note" | "remark",
            short: Option<String> = "short",
            inner: Option<Inner> = "inner",
            items: Vec<Inner> = "items",
        }
    }

    wire_object! {
        struct Inner {
            name: Option<String> = "name",
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
            assert_eq!(sample.amount.raw(), raw, "{json}");
            assert_eq!(
                sample.amount.value().map(|a| a.minor_units()),
                minor,
                "{json}"
            );
        }
    }

    #[test]
    fn objects_and_lists_in_any_form() {
        let sample = read(r#"{"inner":[{"name":"a"}],"items":{"name":"b"},"remark":7}"#);
        assert_eq!(sample.inner.unwrap().name.as_deref(), Some("a"));
        assert_eq!(sample.items.len(), 1);
        assert_eq!(sample.note.as_deref(), Some("7"));
        let blank = read(r#"{"inner":{"name":""},"items":"","amount":{"x":[null]}}"#);
        assert!(blank.inner.is_none() && blank.items.is_empty() && blank.amount.is_none());
        let odd = read(r#"{"inner":5,"items":[1,{"name":"c"},"x",{"name":""}]}"#);
        assert!(odd.inner.is_none());
        assert_eq!(odd.items.len(), 1);
    }

    #[test]
    fn what_serde_json_refused_is_read_now() {
        // A number no float holds, where an object belongs, failed the whole answer; half a
        // surrogate pair made the text absent.
        let sample = read(r#"{"inner":1e400,"items":-1e999,"note":"a\ud800b","amount":1e400}"#);
        assert!(sample.inner.is_none() && sample.items.is_empty());
        assert_eq!(sample.note.as_deref(), Some("a\u{fffd}b"));
        assert_eq!(sample.amount.raw(), Some("1e400"));
    }

    /// Nothing deeper than serde_json's recursion limit is looked into, so a deep value
    /// costs no stack and little time, wherever it stands.
    #[test]
    fn a_value_nested_thirty_thousand_deep_is_read_without_recursing_into_it() {
        let deep =
            |open: &str, close: &str| format!("{}1{}", open.repeat(30_000), close.repeat(30_000));
        let lists = deep("[", "]");
        let objects = deep("{\"a\":", "}");
        // A list of one is its element, for MAX_DEPTH levels; past them, kept as its text.
        let unwrapped = &lists[MAX_DEPTH..lists.len() - MAX_DEPTH];
        for (value, text) in [(&lists, unwrapped), (&objects, objects.as_str())] {
            let json = format!(
                r#"{{"note":{value},"amount":{value},"inner":{value},"items":{value},"other":{value}}}"#
            );
            let sample = read(&json);
            assert_eq!(sample.note.as_deref(), Some(text));
            assert!(sample.inner.is_none() && sample.items.is_empty());
        }
        let found: Result<Object<Sample>, _> = read_all(&lists);
        assert!(
            found.unwrap().0.is_none(),
            "a list of lists holds no object"
        );
    }

    #[test]
    fn a_deciding_field_reads_its_text_in_any_form() {
        for (json, text) in [
            (r#"{"short":"54279","note":"x"}"#, Some("54279")),
            (r#"{"short":"54\u0032"}"#, Some("542")),
            (r#"{"short":54279}"#, Some("54279")),
            (r#"{"short":["7"]}"#, Some("7")),
            (r#"{"short":" "}"#, None),
        ] {
            assert_eq!(read(json).short.as_deref(), text, "{json}");
        }
    }

    #[test]
    fn repeated_keys_the_last_wins_and_keys_are_trimmed() {
        let sample = read(r#"{"note":"a"," note ":"b","unknown":{"deep":[1,2]}}"#);
        assert_eq!(sample.note.as_deref(), Some("b"));
    }

    #[test]
    fn an_object_with_a_value_is_kept_even_when_a_repeated_key_is_blank() {
        // Found by the property test: `true` was sent, so the text is not absent.
        let sample = read(r#"{"note":{"":true,"":null}}"#);
        assert_eq!(sample.note.as_deref(), Some(r#"{"":true,"":null}"#));
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;
        use serde_json::value::RawValue;

        /// A JSON string's text: plain characters, every escape, surrogate pairs.
        fn string_text() -> impl Strategy<Value = String> {
            r#""([ a-zA-Z0-9é😀]|\\["\\/bfnrt]|\\u00[0-9a-fA-F]{2}|\\ud83d\\ude00)*""#
        }

        /// Any JSON text, with white space between its tokens.
        fn json_text() -> impl Strategy<Value = String> {
            let space = "[ \\t\\r\\n]{0,2}";
            let leaf = prop_oneof![
                Just("null".to_owned()),
                Just("true".to_owned()),
                Just("false".to_owned()),
                "-?(0|[1-9][0-9]{0,4})(\\.[0-9]{1,3})?([eE][+-]?[0-9]{1,2})?",
                string_text(),
            ];
            leaf.prop_recursive(5, 40, 5, move |inner| {
                prop_oneof![
                    (proptest::collection::vec(inner.clone(), 0..5), space)
                        .prop_map(|(items, space)| format!("[{space}{}]", items.join(","))),
                    (
                        proptest::collection::vec((string_text(), inner), 0..5),
                        space
                    )
                        .prop_map(|(pairs, space)| {
                            let pairs: Vec<String> = pairs
                                .into_iter()
                                .map(|(key, value)| format!("{key}{space}:{value}"))
                                .collect();
                            format!("{{{}{space}}}", pairs.join(&format!(",{space}")))
                        }),
                ]
            })
        }

        /// An object's member values in order, a repeated key's included: serde_json's
        /// map keeps only the last, which would call `{"a":true,"a":null}` blank and drop
        /// the `true` the gateway sent.
        struct Members(Vec<Box<RawValue>>);

        impl<'de> Deserialize<'de> for Members {
            fn deserialize<D: Deserializer<'de>>(input: D) -> Result<Self, D::Error> {
                struct Visit;
                impl<'de> de::Visitor<'de> for Visit {
                    type Value = Members;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("an object")
                    }
                    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members, A::Error> {
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
            fn any_value_reads_as_the_rules_say(value in json_text()) {
                let json = format!(r#"{{"note": {value} }}"#);
                let raw: Box<RawValue> = serde_json::from_str(&value).unwrap();
                let read = read_all::<Object<Sample>>(&json).unwrap().0.unwrap_or_default();
                prop_assert_eq!(read.note, oracle(&raw));
            }

            /// A deciding field reads as any text field does.
            #[test]
            fn a_deciding_field_reads_as_a_text_field(value in json_text()) {
                let json = format!(r#"{{"short": {value} }}"#);
                let raw: Box<RawValue> = serde_json::from_str(&value).unwrap();
                let read = read_all::<Object<Sample>>(&json).unwrap().0.unwrap_or_default();
                prop_assert_eq!(read.short, oracle(&raw));
            }

        }
    }
}
