//! What every answer shares: the status check, JSON decoding with a located error, the
//! result object, deciding ids, and the owner of a response.

use paytoken_types::{GatewayResult, MemberId, PartnerId, Tolerant};

use serde_json::value::RawValue;

use crate::answer::{
    Field, WireObject, is_object_text, object_in, read_object, trimmed, wire_object,
};
use crate::redact::excerpt;
use crate::{Error, OperationKind, Refusal};

/// Checks the status and reads the JSON body into `T`, an object declared with
/// `wire_object!` (or the one object of a list): only a body that is not a JSON object
/// fails here, never a field (see [`crate::answer`]).
pub(crate) fn decode<T: WireObject>(
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
    let text = core::str::from_utf8(body).map_err(|error| {
        malformed(
            operation,
            format!("not utf-8 at byte {}", error.valid_up_to()),
            body,
        )
    })?;
    let not_an_object = || {
        malformed(
            operation,
            "the answer is not a json object".to_owned(),
            body,
        )
    };
    // An object, what answers are, is read in one pass; anything else is first checked as
    // JSON, then a list's first object read as any nested object is.
    let object = if is_object_text(text) {
        Some(read_object::<T>(text).map_err(|error| undecodable(operation, &error, body))?)
            .filter(|object| !object.is_blank())
    } else {
        let raw: &RawValue =
            serde_json::from_str(text).map_err(|error| undecodable(operation, &error, body))?;
        object_in(raw, 0)
    };
    object.ok_or_else(not_an_object)
}

/// An [`Error::Undecodable`] for a body that is not JSON, with where it broke. The detail
/// names the problem only, never the text found there (serde_json's syntax errors name
/// none; its position, which its message ends with, goes to the line and column).
pub(crate) fn undecodable(
    operation: OperationKind,
    error: &serde_json::Error,
    body: &[u8],
) -> Error {
    let message = error.to_string();
    let detail = message
        .rsplit_once(" at line ")
        .map_or(message.as_str(), |(problem, _)| problem);
    Error::Undecodable {
        operation,
        detail: detail.to_owned(),
        line: error.line(),
        column: error.column(),
        excerpt: excerpt(body),
    }
}

/// An [`Error::Undecodable`] for an answer that decoded but lacks what it must have.
pub(crate) fn missing(operation: OperationKind, what: &str, body: &[u8]) -> Error {
    malformed(operation, format!("the answer has no {what}"), body)
}

/// An [`Error::Undecodable`] for an answer that is JSON but not what it must be, so with no
/// line or column.
pub(crate) fn malformed(operation: OperationKind, detail: String, body: &[u8]) -> Error {
    Error::Undecodable {
        operation,
        detail,
        line: 0,
        column: 0,
        excerpt: excerpt(body),
    }
}

// The result object (`result`, or `statusInvoiceResult` on some endpoints): a result
// without a code is still read, and has no family.
wire_object!(impl GatewayResult {
    code = "code",
    description = "description",
});

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

/// An id that decides an answer (`paymentId`, the id an operation exists to return): absent
/// when the gateway left it out or filled it with `"-"`; an error when it holds text that
/// no id of its kind could be, since the verdict cannot be read past it.
pub(crate) fn deciding_id<T: Tolerant>(
    operation: OperationKind,
    field: &'static str,
    text: Option<&str>,
    body: &[u8],
) -> Result<Option<T>, Error> {
    let Some(text) = text.filter(|text| trimmed(text) != "-") else {
        return Ok(None);
    };
    T::read_tolerant(text)
        .map(Some)
        .ok_or_else(|| malformed(operation, format!("{field} is not an id"), body))
}

/// Who a response belongs to: the merchant (`memberId`) or the partner (`partnerId`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Owner {
    /// A merchant (`memberId`).
    Member(Field<MemberId>),
    /// A partner (`partnerId`).
    Partner(Field<PartnerId>),
}

impl Owner {
    /// The owner from the two fields a response may carry; the merchant wins when both are
    /// there, since a partner acting for a merchant gets the merchant's data.
    pub(crate) fn from_fields(
        member: Option<Field<MemberId>>,
        partner: Option<Field<PartnerId>>,
    ) -> Option<Self> {
        member.map(Self::Member).or(partner.map(Self::Partner))
    }

    /// The id as the gateway sent it, whichever kind it is.
    #[must_use]
    pub fn id(&self) -> &str {
        match self {
            Self::Member(id) => id.raw(),
            Self::Partner(id) => id.raw(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    wire_object! {
        struct Holder {
            result: Option<GatewayResult> = "result" | "statusInvoiceResult",
        }
    }

    #[test]
    fn a_dash_or_nothing_means_no_id_and_numbers_are_ids() {
        use paytoken_types::PaymentId;
        let read = |text: Option<&str>| {
            deciding_id::<PaymentId>(OperationKind::Payment, "paymentId", text, b"")
        };
        assert_eq!(read(Some("-")).unwrap(), None);
        assert_eq!(read(None).unwrap(), None);
        assert_eq!(read(Some("54279")).unwrap().unwrap().as_str(), "54279");
        assert!(read(Some("54 279")).is_err());
    }

    #[test]
    fn a_result_is_read_in_either_name_and_without_a_code() {
        let holder: Holder = decode(
            OperationKind::Payment,
            200,
            br#"{"statusInvoiceResult":{"code":20,"description":"ok"}}"#,
        )
        .unwrap();
        let result = holder.result.unwrap();
        assert_eq!(result.code.as_str(), "20");
        let holder: Holder = decode(
            OperationKind::Payment,
            200,
            br#"{"result":{"description":"no code"}}"#,
        )
        .unwrap();
        assert_eq!(holder.result.unwrap().code.as_str(), "");
    }

    #[test]
    fn statuses_other_than_200_are_errors_with_an_excerpt() {
        let error = decode::<Holder>(OperationKind::Payment, 502, b"<html>Bad Gateway</html>")
            .err()
            .unwrap();
        assert!(
            matches!(error, Error::UnexpectedStatus { status: 502, ref excerpt, .. } if excerpt.contains("Bad Gateway"))
        );
        assert!(error.may_have_been_processed());
        let error = decode::<Holder>(OperationKind::Payment, 200, b"{\"items\": [")
            .err()
            .unwrap();
        let Error::Undecodable { line, column, .. } = error else {
            panic!("{error:?}")
        };
        assert_eq!((line, column), (1, 11));
        let error = decode::<Holder>(OperationKind::Payment, 200, b"\"text\"")
            .err()
            .unwrap();
        assert!(matches!(error, Error::Undecodable { .. }));
    }
}
