//! A JSON answer of the sandbox's read back as a tree it can reshape and write again
//! ([`Node`]), and what each of its fields is to a client ([`kind`]): what
//! `--vary-answers` (`vary.rs`) and `--answers-like` (`like.rs`) change, and what they
//! never touch.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::json::write_string;

/// A JSON value as the sandbox writes them, read back in order, repeated keys kept.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Text(String),
    /// A value written as it is: a number, `null`.
    Raw(String),
    Object(Vec<(String, Node)>),
    List(Vec<Node>),
}

impl Node {
    pub(crate) fn write(&self, out: &mut String) {
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

/// What a field is to a client, by its name, which decides how its form may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Deciding, or not named here: never changed.
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
    match key {
        "amount" | "tmpl_amount" => Kind::Money,
        "currency" | "tmpl_currency" | "paymentType" | "paymentBrand" | "paymentMode"
        | "status" | "registrationStatus" => Kind::Code,
        "expiryMonth" => Kind::Month,
        "expiryYear" => Kind::Year,
        "timestamp" | "createdDate" => Kind::Time,
        "memberId" | "partnerId" => Kind::Id,
        "descriptor" | "remark" | "holder" | "LoginName" | "cardType" | "invoiceStatus"
        | "expirationPeriod" | "systemInvoiceId" | "transactionUrl" | "raiseby"
        | "orderDescription" | "trackingid" | "dtstamp" | "customername" | "customeraddress"
        | "customermobileno" | "customeremail" => Kind::Informational,
        "card" => Kind::Card,
        "cards" | "bankaccounts" | "invoiceList" | "customerDetails" | "invoiceDetails" => {
            Kind::Container
        }
        // `bankaccount` and `card` entries of the lists are containers too, reached through
        // their list's key; everything not named is left as it is.
        _ if key.trim().bytes().all(|b| b.is_ascii_digit()) => Kind::Container,
        "bankaccount" => Kind::Container,
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
    /// The answer `body` read back, or `None` when it is not JSON.
    pub(crate) fn parse(body: &str) -> Option<Self> {
        serde_json::from_str(body).ok()
    }

    /// The tree written as JSON.
    pub(crate) fn to_json(&self, capacity: usize) -> String {
        let mut out = String::with_capacity(capacity);
        self.write(&mut out);
        out
    }

    /// The text of a scalar: a string's, or a number's, `true`'s, `null`'s as written.
    pub(crate) fn scalar(&self) -> Option<&str> {
        match self {
            Self::Text(text) | Self::Raw(text) => Some(text),
            Self::Object(_) | Self::List(_) => None,
        }
    }

    /// The last member named `key`, in an object.
    pub(crate) fn member(&self, key: &str) -> Option<&Self> {
        let Self::Object(fields) = self else {
            return None;
        };
        fields.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}
