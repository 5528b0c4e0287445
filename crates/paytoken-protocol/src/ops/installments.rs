//! The installment plans of a stored card
//! (`POST /transactionServices/REST/v1/getInstallmentWithToken/{id}`).
//!
//! The gateway answers success without a `result` object, with the counts in one text
//! (`"installment": "3,4"`); "no installment plan" is an error result instead.

use paytoken_types::{GatewayResult, RegistrationId};

use super::{Operation, SMALL_BODY};
use crate::answer::{Field, wire_object};
use crate::echo::{Echoed, echo_of_registration};
use crate::outcome::CardSummary;
use crate::signed::{AuthFields, Signed, SignedRequest};
use crate::wire;
use crate::{Context, Error, OperationKind, Request};

/// The path, without the id.
pub const PATH_PREFIX: &str = "/transactionServices/REST/v1/getInstallmentWithToken/";

/// Asks which installment counts the stored card `registration_id` allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Installments {
    /// The token, in the path and in the checksum.
    pub registration_id: RegistrationId,
}

impl Installments {
    /// The plans of `registration_id`.
    #[must_use]
    pub const fn new(registration_id: RegistrationId) -> Self {
        Self { registration_id }
    }
}

/// The installment counts a stored card allows.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct InstallmentPlans {
    /// `registrationId` (checked against the one asked about).
    pub registration_id: Option<Field<RegistrationId>>,
    /// `card`: its BIN and last four digits.
    pub card: CardSummary,
    /// `installment`, split: the counts a token payment may send, in the gateway's order.
    pub counts: Vec<u16>,
}

wire_object! {
    struct WirePlans {
        registration_id: Option<Field<RegistrationId>> = "registrationId",
        card: Option<CardSummary> = "card",
        installment: Option<String> = "installment" | "installments",
        result: Option<GatewayResult> = "result",
    }
}

/// The checksum rule of the installment plans: `id|key|registrationId`, the id the path
/// ends with.
const SIGNED: &[Signed] = &[Signed::PathSegment {
    field: RegistrationId::FIELD,
}];

impl Operation for Installments {
    type Response = InstallmentPlans;
    const KIND: OperationKind = OperationKind::Installments;

    fn request(&self, context: &Context) -> Result<Request, Error> {
        SignedRequest::new(
            Self::KIND,
            context,
            SIGNED,
            PATH_PREFIX,
            SMALL_BODY,
            AuthFields::ID_ONLY,
        )
        .path_segment(self.registration_id.as_str())
        .finish()
    }

    /// Decided by the result (when there is one) and the counts; checks the echoed
    /// `registrationId`.
    fn parse(&self, status: u16, body: &[u8]) -> Result<InstallmentPlans, Error> {
        parse_plans(&self.registration_id, status, body)
    }
}

/// Reads the answer to an installment lookup: for [`Operation::parse`], and for a recorded
/// answer (`crate::recorded`).
pub(crate) fn parse_plans(
    registration: &RegistrationId,
    status: u16,
    body: &[u8],
) -> Result<InstallmentPlans, Error> {
    let wire: WirePlans = wire::decode(OperationKind::Installments, status, body)?;
    if let Some(result) = wire.result.filter(|r| !r.code.is_success()) {
        return Err(wire::refused(OperationKind::Installments, result));
    }
    let registration_id = wire.registration_id;
    echo_of_registration(registration).check(
        OperationKind::Installments,
        &Echoed::id(registration_id.as_ref().map(Field::raw)),
    )?;
    let text = wire
        .installment
        .ok_or_else(|| wire::missing(OperationKind::Installments, "installment", body))?;
    let counts = parse_counts(&text).ok_or_else(|| {
        wire::malformed(
            OperationKind::Installments,
            "installment: expected counts separated by commas".to_owned(),
            body,
        )
    })?;
    Ok(InstallmentPlans {
        registration_id,
        card: wire.card.unwrap_or_default(),
        counts,
    })
}

/// `"3,4"` → `[3, 4]`; blanks around counts are allowed, an empty text is no counts, and
/// a JSON list of counts (`[3,4]`, `["3","4"]`) reads the same.
fn parse_counts(text: &str) -> Option<Vec<u16>> {
    let text = text.trim();
    let text = text
        .strip_prefix('[')
        .and_then(|inner| inner.strip_suffix(']'))
        .unwrap_or(text);
    if text.trim().is_empty() {
        return Some(Vec::new());
    }
    text.split(',')
        .map(|count| {
            let count = count.trim().trim_matches('"').trim();
            (!count.is_empty() && count.bytes().all(|b| b.is_ascii_digit()))
                .then(|| count.parse().ok())
                .flatten()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_split() {
        assert_eq!(parse_counts("3,4"), Some(vec![3, 4]));
        assert_eq!(parse_counts(" 3 , 6,12 "), Some(vec![3, 6, 12]));
        assert_eq!(parse_counts(""), Some(vec![]));
        assert_eq!(parse_counts("3,,4"), None);
        assert_eq!(parse_counts("3;4"), None);
        assert_eq!(parse_counts("+3"), None);
        assert_eq!(parse_counts("99999999"), None);
        assert_eq!(parse_counts("[3,4]"), Some(vec![3, 4]));
        assert_eq!(parse_counts(r#"["3", "6"]"#), Some(vec![3, 6]));
    }
}
