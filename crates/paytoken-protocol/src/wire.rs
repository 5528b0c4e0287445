//! What every answer shares: the status check, JSON decoding with a located error, the
//! result object, deciding ids, and the owner of a response.

use paytoken_types::{GatewayResult, MemberId, PartnerId, ResultCode, Tolerant};

use crate::answer::{
    Blank, Field, FromJson, Loose, Object, ReadObject, Text, trimmed, wire_object,
};
use crate::excerpt::excerpt;
use crate::json::{JsonError, Kind, Reader, line_and_column};
use crate::{Error, OperationKind, Refusal};

/// Checks the status and reads the JSON body into `T`, an object declared with
/// `wire_object!` (or the one object of a list): only a body that is not a JSON object
/// fails here, never a field (see [`crate::answer`]).
pub(crate) fn decode<T: ReadObject + Blank>(
    operation: OperationKind,
    status: u16,
    body: &[u8],
) -> Result<T, Error> {
    let mut object = T::default();
    decode_into(&mut object, operation, status, body)?;
    Ok(object)
}

/// [`decode`] into `object`, which the caller made with `T::default()`, and the body as
/// text, for an answer that keeps members to read later (`crate::answer::Kept`). A payment
/// answer's object is large: read where the caller holds it, it is never moved.
pub(crate) fn decode_into<'b, T: ReadObject + Blank>(
    object: &mut T,
    operation: OperationKind,
    status: u16,
    body: &'b [u8],
) -> Result<&'b str, Error> {
    if status != 200 {
        return Err(Error::UnexpectedStatus {
            operation,
            status,
            excerpt: excerpt(body),
        });
    }
    // One UTF-8 check of the whole body, so the reader slices it as `str` and no string is
    // checked again.
    let text = core::str::from_utf8(body).map_err(|error| {
        malformed(
            operation,
            format!("not utf-8 at byte {}", error.valid_up_to()),
            body,
        )
    })?;
    // A list's first object is read as any nested object is.
    let mut reader = Reader::new(text);
    let read = match reader.kind() {
        Ok(Kind::Object) => object.read_fields(&mut reader).map(|()| true),
        Ok(_) => Object::<T>::from_json(&mut reader).map(|Object(first)| match first {
            Some(first) => {
                *object = first;
                true
            }
            None => false,
        }),
        Err(error) => Err(error),
    }
    .and_then(|found| reader.finish().map(|()| found));
    match read {
        Ok(true) if !object.is_blank() => Ok(text),
        Ok(_) => Err(malformed(
            operation,
            "the answer is not a json object".to_owned(),
            body,
        )),
        Err(error) => Err(undecodable(operation, &error, body)),
    }
}

/// An [`Error::Undecodable`] for a body that is not JSON, with where it broke. The detail
/// names the problem only, never the text found there.
pub(crate) fn undecodable(operation: OperationKind, error: &JsonError, body: &[u8]) -> Error {
    let (line, column) = line_and_column(body, error.at);
    Error::Undecodable {
        operation,
        detail: error.problem.to_string(),
        line,
        column,
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

wire_object! {
    /// The result object as it comes (`result`, or `statusInvoiceResult` on some
    /// endpoints): a result without a code is still read, and has no family.
    pub(crate) struct WireResult {
        code: Text = "code",
        description: Text = "description",
    }
}

impl WireResult {
    pub(crate) fn into_result(self) -> GatewayResult {
        GatewayResult {
            code: ResultCode::new(self.code.0.unwrap_or_default()),
            description: self.description.0.unwrap_or_default(),
        }
    }
}

/// The result of an answer: absent, or read whatever its shape.
pub(crate) fn result_of(result: Object<WireResult>) -> Option<GatewayResult> {
    result.0.map(WireResult::into_result)
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
    pub(crate) fn from_fields(member: Loose<MemberId>, partner: Loose<PartnerId>) -> Option<Self> {
        member.0.map(Self::Member).or(partner.0.map(Self::Partner))
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
            result: Object<WireResult> = "result" | "statusInvoiceResult",
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
        let result = result_of(holder.result).unwrap();
        assert_eq!(result.code.as_str(), "20");
        let holder: Holder = decode(
            OperationKind::Payment,
            200,
            br#"{"result":{"description":"no code"}}"#,
        )
        .unwrap();
        assert_eq!(result_of(holder.result).unwrap().code.as_str(), "");
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
