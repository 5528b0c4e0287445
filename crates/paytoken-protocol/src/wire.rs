//! What every answer shares: the status check, JSON decoding with a located error, lists
//! that come as one object or many, the result object, and the owner of a response.

use core::fmt;
use core::marker::PhantomData;

use paytoken_types::{GatewayResult, MemberId, PartnerId};
use serde::de::{self, DeserializeOwned, IntoDeserializer};
use serde::{Deserialize, Deserializer};

use crate::excerpt::excerpt;
use crate::{Error, OperationKind, Refusal};

/// Checks the status and decodes the JSON body into `T`.
pub(crate) fn decode<T: DeserializeOwned>(
    operation: OperationKind,
    status: u16,
    body: &[u8],
) -> Result<T, Error> {
    if status != 200 {
        return Err(Error::UnexpectedStatus {
            operation,
            status,
            excerpt: excerpt(body),
        });
    }
    // One UTF-8 check of the whole body, so serde_json reads it as `str` and does not check
    // every string again (measured: about a tenth of a payment's parse).
    let text = core::str::from_utf8(body).map_err(|error| {
        malformed(
            operation,
            format!("not utf-8 at byte {}", error.valid_up_to()),
            body,
        )
    })?;
    serde_json::from_str(text).map_err(|error| {
        refusal_in(operation, body).unwrap_or_else(|| undecodable(operation, &error, body))
    })
}

/// The refusal in an answer that did not decode as a whole (a refusal may fill fields with
/// placeholders that no typed field accepts). Only when nothing was created: an answer
/// with a real `paymentId` stays undecodable, since a transaction may exist.
fn refusal_in(operation: OperationKind, body: &[u8]) -> Option<Error> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Envelope {
        payment_id: Option<String>,
        #[serde(alias = "statusInvoiceResult")]
        result: Option<GatewayResult>,
    }
    let envelope: Envelope = serde_json::from_slice(body).ok()?;
    let created = envelope
        .payment_id
        .is_some_and(|id| !matches!(id.trim(), "-" | ""));
    let result = envelope.result.filter(|result| !result.code.is_success())?;
    (!created).then(|| refused(operation, result))
}

/// An [`Error::Undecodable`] from a serde_json error, with where it broke.
pub(crate) fn undecodable(
    operation: OperationKind,
    error: &serde_json::Error,
    body: &[u8],
) -> Error {
    // serde_json's message names the field and the expected form, never a value it
    // refused, except for unknown enum variants, which our types do not have; the
    // location is kept apart, so it is cut off the message.
    let message = error.to_string();
    let detail = message
        .split(" at line ")
        .next()
        .unwrap_or(&message)
        .to_owned();
    Error::Undecodable {
        operation,
        detail: crate::excerpt::redact(&detail, 200),
        line: error.line(),
        column: error.column(),
        excerpt: excerpt(body),
    }
}

/// An [`Error::Undecodable`] for an answer that decoded but lacks what it must have.
pub(crate) fn missing(operation: OperationKind, what: &str, body: &[u8]) -> Error {
    malformed(operation, format!("the answer has no {what}"), body)
}

/// An [`Error::Undecodable`] found outside serde_json, so with no line or column.
pub(crate) fn malformed(operation: OperationKind, detail: String, body: &[u8]) -> Error {
    Error::Undecodable {
        operation,
        detail,
        line: 0,
        column: 0,
        excerpt: excerpt(body),
    }
}

/// Passes a successful result, turns any other into a refusal.
pub(crate) fn require_success(
    operation: OperationKind,
    result: Option<GatewayResult>,
    body: &[u8],
) -> Result<GatewayResult, Error> {
    let result = result.ok_or_else(|| missing(operation, "result object", body))?;
    if result.code.is_success() {
        Ok(result)
    } else {
        Err(refused(operation, result))
    }
}

pub(crate) fn refused(operation: OperationKind, result: GatewayResult) -> Error {
    Error::Refused(Refusal { operation, result })
}

/// A list that the gateway renders as an array, as a single object when it has one
/// element, and leaves out when it is empty (`#[serde(default)]` covers that).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OneOrMany<T>(pub(crate) Vec<T>);

impl<T> Default for OneOrMany<T> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for OneOrMany<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>> de::Visitor<'de> for Visitor<T> {
            type Value = OneOrMany<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object or an array of objects")
            }

            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(256));
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(OneOrMany(items))
            }

            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(|item| OneOrMany(vec![item]))
            }

            // An empty string stands for an empty list on some gateways.
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
                if text.trim().is_empty() {
                    Ok(OneOrMany(Vec::new()))
                } else {
                    Err(E::invalid_type(de::Unexpected::Str("text"), &self))
                }
            }

            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(OneOrMany(Vec::new()))
            }
        }

        deserializer.deserialize_any(Visitor(PhantomData))
    }
}

/// An identifier field that the gateway fills with `"-"` (or leaves empty) when there is
/// nothing to identify: `paymentId` and `registrationId` on refusals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MaybeId<T>(pub(crate) Option<T>);

impl<T> MaybeId<T> {
    pub(crate) fn into_inner(this: Option<Self>) -> Option<T> {
        this.and_then(|id| id.0)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for MaybeId<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = CowStr::deserialize(deserializer)?;
        match text.0.trim() {
            "-" | "" => Ok(Self(None)),
            id => T::deserialize(id.into_deserializer()).map(|id| Self(Some(id))),
        }
    }
}

/// Who a response belongs to: the merchant (`memberId`) or the partner (`partnerId`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Owner {
    /// A merchant.
    Member(MemberId),
    /// A partner.
    Partner(PartnerId),
}

impl Owner {
    /// The owner from the two fields a response may carry; the merchant wins when both are
    /// there, since a partner acting for a merchant gets the merchant's data.
    pub(crate) fn from_fields(
        member: Option<MemberId>,
        partner: Option<PartnerId>,
    ) -> Option<Self> {
        member.map(Self::Member).or(partner.map(Self::Partner))
    }

    /// The id, whichever kind it is.
    #[must_use]
    pub fn id(&self) -> &str {
        match self {
            Self::Member(id) => id.as_str(),
            Self::Partner(id) => id.as_str(),
        }
    }
}

/// A string that borrows from the input when it can (no escapes) and owns it otherwise.
mod alloc_str {
    use alloc::borrow::Cow;

    use serde::{Deserialize, Deserializer};

    pub(crate) struct CowStr<'a>(pub(crate) Cow<'a, str>);

    impl<'de> Deserialize<'de> for CowStr<'de> {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            struct Visitor;

            impl<'de> serde::de::Visitor<'de> for Visitor {
                type Value = CowStr<'de>;

                fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    f.write_str("a string")
                }

                fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Self::Value, E> {
                    Ok(CowStr(Cow::Borrowed(text)))
                }

                fn visit_str<E>(self, text: &str) -> Result<Self::Value, E> {
                    Ok(CowStr(Cow::Owned(text.to_owned())))
                }

                fn visit_string<E>(self, text: String) -> Result<Self::Value, E> {
                    Ok(CowStr(Cow::Owned(text)))
                }
            }

            deserializer.deserialize_str(Visitor)
        }
    }
}

pub(crate) use alloc_str::CowStr;

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Item {
        id: String,
    }

    #[derive(Debug, Deserialize)]
    struct Holder {
        #[serde(default)]
        items: OneOrMany<Item>,
    }

    #[test]
    fn one_or_many_or_none() {
        let many: Holder = serde_json::from_str(r#"{"items":[{"id":"a"},{"id":"b"}]}"#).unwrap();
        assert_eq!(many.items.0.len(), 2);
        let one: Holder = serde_json::from_str(r#"{"items":{"id":"a"}}"#).unwrap();
        assert_eq!(one.items.0, vec![Item { id: "a".into() }]);
        let none: Holder = serde_json::from_str("{}").unwrap();
        assert!(none.items.0.is_empty());
        let blank: Holder = serde_json::from_str(r#"{"items":""}"#).unwrap();
        assert!(blank.items.0.is_empty());
        assert!(serde_json::from_str::<Holder>(r#"{"items":"x"}"#).is_err());
    }

    #[test]
    fn a_dash_means_no_id() {
        use paytoken_types::PaymentId;
        let none: MaybeId<PaymentId> = serde_json::from_str(r#""-""#).unwrap();
        assert_eq!(none, MaybeId(None));
        let id: MaybeId<PaymentId> = serde_json::from_str(r#""54279""#).unwrap();
        assert_eq!(id, MaybeId(Some(PaymentId::new("54279").unwrap())));
        assert!(serde_json::from_str::<MaybeId<PaymentId>>(r#""54 279""#).is_err());
    }

    #[test]
    fn a_refusal_is_found_in_an_answer_that_does_not_decode() {
        #[derive(Debug, Deserialize)]
        struct Strict {
            #[allow(dead_code)]
            timestamp: paytoken_types::Timestamp,
        }
        let refusal = br#"{"timestamp":"","result":{"code":"30001","description":"bad"}}"#;
        let error = decode::<Strict>(OperationKind::Registration, 200, refusal).unwrap_err();
        assert!(error.refusal().is_some(), "{error:?}");
        // With a real paymentId a transaction may exist: no refusal is made up.
        let created = br#"{"paymentId":"1","timestamp":"","result":{"code":"10001"}}"#;
        let error = decode::<Strict>(OperationKind::Payment, 200, created).unwrap_err();
        assert!(matches!(error, Error::Undecodable { .. }), "{error:?}");
    }

    #[test]
    fn statuses_other_than_200_are_errors_with_an_excerpt() {
        let error =
            decode::<Holder>(OperationKind::Payment, 502, b"<html>Bad Gateway</html>").unwrap_err();
        assert!(
            matches!(error, Error::UnexpectedStatus { status: 502, ref excerpt, .. } if excerpt.contains("Bad Gateway"))
        );
        assert!(error.may_have_been_processed());
        let error = decode::<Holder>(OperationKind::Payment, 200, b"{\"items\": [").unwrap_err();
        let Error::Undecodable { line, column, .. } = error else {
            panic!("{error:?}")
        };
        assert_eq!((line, column), (1, 11));
    }
}
