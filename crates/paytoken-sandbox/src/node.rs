//! paytoken's one JSON tree ([`Node`]): a value read in order with repeated keys kept,
//! which the sandbox reshapes and writes again (`--vary-answers`, `--answers-like`), the
//! console shows redacted, and `paytoken record` redacts into a cassette and reads back;
//! and what each field is to a client ([`kind`], from the table of fields): what the
//! reshaping changes, and what it never touches.

use std::borrow::Cow;
use std::fmt;

use paytoken_protocol::redact::Redactor;
use paytoken_types::internal::fields::{self, Form, Role};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::json::write_string;

/// A JSON value read in order, repeated keys kept.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// A string.
    Text(String),
    /// A value written as it is: a number, `true`, `false`, `null`.
    Raw(String),
    /// An object's members, in order, a repeated key as many times as it came.
    Object(Vec<(String, Node)>),
    /// A list's items.
    List(Vec<Node>),
}

impl Node {
    /// The tree written as JSON, as the sandbox writes (`/` escaped too).
    pub fn write(&self, out: &mut String) {
        match self {
            Self::Text(text) => write_string(out, text),
            Self::Raw(raw) => out.push_str(raw),
            Self::Object(fields) => {
                out.push('{');
                for (index, (key, value)) in fields.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    write_string(out, key);
                    out.push(':');
                    value.write(out);
                }
                out.push('}');
            }
            Self::List(items) => {
                out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
        }
    }
}

/// What a field is to a client, by the table of fields, which decides how its form may
/// change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Deciding, echoed as text, or not in the table: never changed.
    Deciding,
    Money,
    Code,
    Month,
    Year,
    Time,
    Id,
    Informational,
    Card,
    Container,
}

pub(crate) fn kind(key: &str) -> Kind {
    // A position map's keys (`"0"`, `" 1"`) hold a list's entries.
    let trimmed = key.trim();
    if !trimmed.is_empty() && trimmed.bytes().all(|b| b.is_ascii_digit()) {
        return Kind::Container;
    }
    let Some(field) = fields::find(key) else {
        return Kind::Deciding;
    };
    match (field.role, field.form) {
        (Role::Container, Form::OneOrMany) => Kind::Card,
        (Role::Container, _) => Kind::Container,
        (_, Form::Money) => Kind::Money,
        (_, Form::Code) => Kind::Code,
        (_, Form::Month) => Kind::Month,
        (_, Form::Year) => Kind::Year,
        (_, Form::Time) => Kind::Time,
        (_, Form::Id) => Kind::Id,
        (Role::Informational, _) => Kind::Informational,
        _ => Kind::Deciding,
    }
}

impl<'de> de::Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NodeVisitor;

        impl<'de> Visitor<'de> for NodeVisitor {
            type Value = Node;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("json")
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<Node, E> {
                Ok(Node::Text(text.to_owned()))
            }

            fn visit_bool<E: de::Error>(self, value: bool) -> Result<Node, E> {
                Ok(Node::Raw(value.to_string()))
            }

            fn visit_u64<E: de::Error>(self, value: u64) -> Result<Node, E> {
                Ok(Node::Raw(value.to_string()))
            }

            fn visit_i64<E: de::Error>(self, value: i64) -> Result<Node, E> {
                Ok(Node::Raw(value.to_string()))
            }

            fn visit_f64<E: de::Error>(self, value: f64) -> Result<Node, E> {
                Ok(Node::Raw(value.to_string()))
            }

            fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
                Ok(Node::Raw("null".into()))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Node::List(items))
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
                let mut fields = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, Node>()? {
                    fields.push((key, value));
                }
                Ok(Node::Object(fields))
            }
        }

        deserializer.deserialize_any(NodeVisitor)
    }
}

impl Node {
    /// The answer `body` read back, or `None` when it is not JSON. A number keeps its
    /// digits as written (`1.50` stays `1.50`).
    #[must_use]
    pub fn parse(body: &str) -> Option<Self> {
        let tree: Self = serde_json::from_str(body).ok()?;
        // A fraction or an exponent was read as a float, whose text may differ from what
        // was written: read again, each value's own text kept (up to a depth, past which
        // the float's text stands).
        if tree.has_a_float() {
            return Some(exact(body, 0).unwrap_or(tree));
        }
        Some(tree)
    }

    /// The answer `body` read back from bytes, as [`Node::parse`] reads it.
    #[must_use]
    pub fn parse_bytes(body: &[u8]) -> Option<Self> {
        Self::parse(std::str::from_utf8(body).ok()?)
    }

    /// Whether a number of the tree has a fraction or an exponent.
    fn has_a_float(&self) -> bool {
        match self {
            Self::Raw(raw) => raw.contains(['.', 'e', 'E']) || raw.contains("inf"),
            Self::Text(_) => false,
            Self::Object(fields) => fields.iter().any(|(_, value)| value.has_a_float()),
            Self::List(items) => items.iter().any(Self::has_a_float),
        }
    }

    /// The tree written as JSON.
    #[must_use]
    pub fn to_json(&self, capacity: usize) -> String {
        let mut out = String::with_capacity(capacity);
        self.write(&mut out);
        out
    }

    /// The text of a scalar: a string's, or a number's, `true`'s, `null`'s as written.
    #[must_use]
    pub fn scalar(&self) -> Option<&str> {
        match self {
            Self::Text(text) | Self::Raw(text) => Some(text),
            Self::Object(_) | Self::List(_) => None,
        }
    }

    /// The last member named `key`, in an object.
    #[must_use]
    pub fn member(&self, key: &str) -> Option<&Self> {
        let Self::Object(fields) = self else {
            return None;
        };
        fields.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The tree as a `serde_json` value (a repeated key's last value kept).
    #[must_use]
    pub fn to_value(&self) -> serde_json::Value {
        use serde_json::Value;
        match self {
            Self::Text(text) => Value::String(text.clone()),
            Self::Raw(raw) => serde_json::from_str(raw).unwrap_or(Value::Null),
            Self::Object(fields) => Value::Object(
                fields
                    .iter()
                    .map(|(key, value)| (key.clone(), value.to_value()))
                    .collect(),
            ),
            Self::List(items) => Value::Array(items.iter().map(Self::to_value).collect()),
        }
    }

    /// Whether [`Node::to_value`] loses something of the tree but its keys' order: a
    /// repeated key's earlier values, or a number's digits as written (`1.50`).
    #[must_use]
    pub fn value_form_loses(&self) -> bool {
        match self {
            Self::Text(_) => false,
            Self::Raw(raw) => match serde_json::from_str::<serde_json::Value>(raw) {
                Ok(value) => {
                    let reprinted = value.to_string();
                    reprinted.as_str() != raw.as_str()
                }
                Err(_) => true,
            },
            Self::Object(fields) => {
                let mut keys = std::collections::HashSet::with_capacity(fields.len());
                fields.iter().any(|(key, _)| !keys.insert(key.as_str()))
                    || fields.iter().any(|(_, value)| value.value_form_loses())
            }
            Self::List(items) => items.iter().any(Self::value_form_loses),
        }
    }

    /// Calls `each` with every text in the tree and the name it stands under: a member's
    /// key, or the `name` of a `{"name": ..., "value": ...}` pair for its value.
    pub fn each_text(&self, each: &mut impl FnMut(&str, &str)) {
        self.each_text_as("", each);
    }

    fn each_text_as(&self, name: &str, each: &mut impl FnMut(&str, &str)) {
        match self {
            Self::Object(fields) => {
                let pair_name = match (self.member("name"), self.member("value")) {
                    (Some(Self::Text(named)), Some(_)) => Some(named.as_str()),
                    _ => None,
                };
                for (key, value) in fields {
                    match (pair_name, key.as_str()) {
                        (Some(named), "value") => value.each_text_as(named, each),
                        _ => value.each_text_as(key, each),
                    }
                }
            }
            Self::List(items) => items.iter().for_each(|item| item.each_text_as(name, each)),
            Self::Text(text) => each(name, text),
            Self::Raw(_) => {}
        }
    }

    /// The tree with every value as the table of fields (`paytoken_types::internal::
    /// sensitive`) says it may be shown, by its key: secrets redacted, card numbers and
    /// IBANs masked wherever they are, personal values replaced unless `keep_personal`;
    /// order and repeated keys as they came.
    #[must_use]
    pub fn redacted(&self, keep_personal: bool) -> Self {
        self.redacted_holding(keep_personal, &Redactor::new())
    }

    /// [`Node::redacted`], and every value with the secrets `redactor` holds masked; free
    /// text (a description, a remark) through the redactor whole, knowing the ids the tree
    /// carries as its own (`paymentId`, `registrationId`).
    #[must_use]
    pub fn redacted_holding(&self, keep_personal: bool, redactor: &Redactor) -> Self {
        let mut redactor = redactor.clone();
        for id in ["paymentId", "registrationId"] {
            if let Some(Self::Text(own)) = self.member(id) {
                redactor = redactor.knowing(own);
            }
        }
        self.redacted_as("", keep_personal, &redactor)
    }

    fn redacted_as(&self, name: &str, keep_personal: bool, redactor: &Redactor) -> Self {
        use paytoken_types::internal::sensitive;
        // A structure where a secret, a card number or a personal value belongs is
        // replaced whole, as the table says.
        if matches!(self, Self::Object(_) | Self::List(_))
            && let Some(marker) = sensitive::structure_shown(name, keep_personal)
        {
            return Self::Text(marker.to_owned());
        }
        match self {
            Self::Object(fields) => {
                // A pair `{"name": "checksum", "value": ...}` names its value's field.
                let pair_name = match (self.member("name"), self.member("value")) {
                    (Some(Self::Text(named)), Some(_)) => Some(named.as_str()),
                    _ => None,
                };
                Self::Object(
                    fields
                        .iter()
                        .map(|(key, value)| {
                            let shown = match (pair_name, key.as_str()) {
                                (Some(_), "name") => value.clone(),
                                (Some(named), "value") => {
                                    value.redacted_as(named, keep_personal, redactor)
                                }
                                _ => value.redacted_as(key, keep_personal, redactor),
                            };
                            (key.clone(), shown)
                        })
                        .collect(),
                )
            }
            Self::List(items) => Self::List(
                items
                    .iter()
                    .map(|item| item.redacted_as(name, keep_personal, redactor))
                    .collect(),
            ),
            Self::Text(text) => Self::Text(shown(name, text, keep_personal, redactor).into_owned()),
            Self::Raw(raw) if matches!(raw.as_str(), "null" | "true" | "false") => self.clone(),
            Self::Raw(raw) => match shown(name, raw, keep_personal, redactor) {
                Cow::Borrowed(_) => self.clone(),
                Cow::Owned(shown) => Self::Text(shown),
            },
        }
    }
}

/// A scalar's text as the table says it may be shown, the secrets `redactor` holds
/// masked, and free text through the redactor whole.
fn shown<'t>(name: &str, text: &'t str, keep_personal: bool, redactor: &Redactor) -> Cow<'t, str> {
    use paytoken_types::internal::sensitive;
    let shown = sensitive::shown(name, text, keep_personal);
    if sensitive::is_free_text(name) {
        return Cow::Owned(redactor.redact(&shown, usize::MAX));
    }
    match redactor.mask_held(&shown) {
        Cow::Borrowed(_) => shown,
        Cow::Owned(masked) => Cow::Owned(masked),
    }
}

/// How deep [`exact`] reads: past it, a number's text is the float's. The interface's
/// answers nest a handful of levels; each level read again costs one pass over its text.
const EXACT_DEPTH: usize = 16;

/// `text` read as a tree whose scalars keep their text as written, level by level.
fn exact(text: &str, depth: usize) -> Option<Node> {
    use serde_json::value::RawValue;
    if depth > EXACT_DEPTH {
        return None;
    }
    let text = text.trim();
    match text.as_bytes().first()? {
        b'{' => {
            let Members(members) = serde_json::from_str(text).ok()?;
            let fields = members
                .into_iter()
                .map(|(key, raw)| Some((key, exact(raw.get(), depth + 1)?)))
                .collect::<Option<Vec<_>>>()?;
            Some(Node::Object(fields))
        }
        b'[' => {
            let items: Vec<Box<RawValue>> = serde_json::from_str(text).ok()?;
            let items = items
                .iter()
                .map(|raw| exact(raw.get(), depth + 1))
                .collect::<Option<Vec<_>>>()?;
            Some(Node::List(items))
        }
        b'"' => serde_json::from_str(text).ok().map(Node::Text),
        _ => Some(Node::Raw(text.to_owned())),
    }
}

/// An object's members in order, repeated keys kept, each value's text as written.
struct Members(Vec<(String, Box<serde_json::value::RawValue>)>);

impl<'de> de::Deserialize<'de> for Members {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MembersVisitor;

        impl<'de> Visitor<'de> for MembersVisitor {
            type Value = Members;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a json object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }

        deserializer.deserialize_map(MembersVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_keeps_its_digits_and_an_object_its_order_and_repeats() {
        let body = r#"{"amount":1.50,"b":[2.0,{"c":1e3,"c":-0.10}],"d":"x/y","e":7}"#;
        let tree = Node::parse(body).unwrap();
        assert_eq!(tree.member("amount"), Some(&Node::Raw("1.50".into())));
        assert!(tree.value_form_loses(), "a repeated key and 1.50");
        let repeated = Node::parse(r#"{"a":[{"c":1,"c":2}]}"#).unwrap();
        assert!(repeated.value_form_loses(), "a repeated key, deep down");
        assert!(
            !Node::parse(r#"{"a":[{"c":1,"d":2.5}]}"#)
                .unwrap()
                .value_form_loses()
        );
        let written = tree.to_json(body.len());
        assert_eq!(written, body.replace('/', "\\/"));
        assert_eq!(Node::parse("12").unwrap(), Node::Raw("12".into()));
        assert_eq!(Node::parse("not json"), None);
    }

    #[test]
    fn secrets_in_a_tree_are_redacted_by_the_table() {
        let tree = Node::parse(
            r#"{"checksum":"abc","holder":{"v":"Ada"},"remark":"4000000000000051","amount":1.50,"ok":null}"#,
        )
        .unwrap();
        let shown = tree.redacted(false).to_json(0);
        assert_eq!(
            shown,
            r#"{"checksum":"[redacted]","holder":"[personal]","remark":"400000******0051","amount":1.50,"ok":null}"#
        );
        let pairs =
            Node::parse(r#"[{"name":"checksum","value":"abc"},{"name":"currency","value":"EUR"}]"#)
                .unwrap();
        assert_eq!(
            pairs.redacted(false).to_json(0),
            r#"[{"name":"checksum","value":"[redacted]"},{"name":"currency","value":"EUR"}]"#
        );
    }
}
