//! A JSON answer as it was sent: members in their order, and a key named twice kept
//! twice. `serde_json::Value` keeps neither, and the invoice list's map of positions needs
//! both: its `customerDetails`, `orderId`, ... follow each position, repeated, and belong
//! to the invoice before them. The cassette redacts this tree (`redact.rs`) and writes it
//! as text wherever a key repeats.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap as _, SerializeSeq as _, Serializer};
use serde_json::{Map, Value};

/// A JSON value with its objects' members in order, repeated keys kept.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Ordered {
    /// A string, a number, `true`, `false` or `null`.
    Scalar(Value),
    /// An object's members as they came.
    Object(Vec<(String, Ordered)>),
    /// A list.
    List(Vec<Ordered>),
}

impl Ordered {
    /// `bytes` read as JSON (serde_json's reading, its depth limit too); `None` when they
    /// are not JSON.
    pub(crate) fn parse(bytes: &[u8]) -> Option<Self> {
        serde_json::from_slice(bytes).ok()
    }

    /// As a `serde_json` value: a repeated key keeps its last value.
    pub(crate) fn to_value(&self) -> Value {
        match self {
            Self::Scalar(value) => value.clone(),
            Self::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(key, member)| (key.clone(), member.to_value()))
                    .collect::<Map<String, Value>>(),
            ),
            Self::List(items) => Value::Array(items.iter().map(Self::to_value).collect()),
        }
    }

    /// Whether an object anywhere in it names a key twice.
    pub(crate) fn repeats_a_key(&self) -> bool {
        match self {
            Self::Scalar(_) => false,
            Self::Object(members) => {
                members.iter().enumerate().any(|(at, (key, _))| {
                    members.iter().skip(at + 1).any(|(other, _)| other == key)
                }) || members.iter().any(|(_, member)| member.repeats_a_key())
            }
            Self::List(items) => items.iter().any(Self::repeats_a_key),
        }
    }
}

impl Serialize for Ordered {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Scalar(value) => value.serialize(serializer),
            Self::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (key, member) in members {
                    map.serialize_entry(key, member)?;
                }
                map.end()
            }
            Self::List(items) => {
                let mut list = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    list.serialize_element(item)?;
                }
                list.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(OrderedVisitor)
    }
}

struct OrderedVisitor;

impl<'de> Visitor<'de> for OrderedVisitor {
    type Value = Ordered;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(Value::Bool(value)))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(Value::from(value)))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(Value::from(value)))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Ordered, E> {
        // JSON has no NaN nor infinity: every number serde_json reads has a value.
        Ok(Ordered::Scalar(Value::from(value)))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(Value::String(value.to_owned())))
    }

    fn visit_string<E: de::Error>(self, value: String) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(Value::String(value)))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(Value::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Ordered, A::Error> {
        let mut list = Vec::new();
        while let Some(item) = items.next_element()? {
            list.push(item);
        }
        Ok(Ordered::List(list))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Ordered, A::Error> {
        let mut members = Vec::new();
        while let Some(entry) = entries.next_entry()? {
            members.push(entry);
        }
        Ok(Ordered::Object(members))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_map_of_positions_keeps_its_order_and_repeated_keys() {
        let text = r#"{"invoiceList":{"0":{"id":1},"orderId":"a","1":{"id":2},"orderId":"b"},"n":1.50,"ok":[true,null]}"#;
        let tree = Ordered::parse(text.as_bytes()).unwrap();
        assert!(tree.repeats_a_key());
        assert_eq!(
            serde_json::to_string(&tree).unwrap(),
            r#"{"invoiceList":{"0":{"id":1},"orderId":"a","1":{"id":2},"orderId":"b"},"n":1.5,"ok":[true,null]}"#
        );
        // The value keeps the last of a repeated key, as serde_json reads it.
        assert_eq!(
            tree.to_value(),
            serde_json::from_str::<Value>(text).unwrap()
        );
        assert!(
            !Ordered::parse(br#"{"a":{"b":1},"c":[{"b":2}]}"#)
                .unwrap()
                .repeats_a_key()
        );
        assert_eq!(Ordered::parse(b"{\"a\":"), None);
    }
}
