//! Deleting a stored token (`POST /transactionServices/REST/v1/paywithtoken/{id}` with
//! `paymentType=DL`). A deleted registration is never active again.

use paytoken_types::{GatewayResult, PaymentType, RegistrationId, Timestamp};

use super::token_payment::PATH_PREFIX;
use super::{Operation, SMALL_BODY};
use crate::answer::{Field, wire_object};
use crate::echo::{Echoed, echo_of_registration};
use crate::signed::{AuthFields, Signed, SignedRequest};
use crate::wire::{self, require_success};
use crate::{Context, Error, OperationKind, Request, fields};

/// Deletes the stored card or account `registration_id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeleteToken {
    /// The token, in the path and in the checksum.
    pub registration_id: RegistrationId,
}

impl DeleteToken {
    /// Deletes `registration_id`.
    #[must_use]
    pub const fn new(registration_id: RegistrationId) -> Self {
        Self { registration_id }
    }
}

/// The gateway's answer to a delete (`00003`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Deleted {
    /// `registrationId`, when the answer repeats it (checked against the one deleted).
    pub registration_id: Option<Field<RegistrationId>>,
    /// `result`.
    pub result: GatewayResult,
    /// `timestamp`.
    pub timestamp: Option<Field<Timestamp>>,
}

wire_object! {
    struct WireDeleted {
        registration_id: Option<Field<RegistrationId>> = "registrationId",
        result: Option<GatewayResult> = "result",
        timestamp: Option<Field<Timestamp>> = "timestamp",
    }
}

/// The checksum rule of a delete: `id|key|registrationId`, the id the path ends with.
const SIGNED: &[Signed] = &[Signed::PathSegment {
    field: RegistrationId::FIELD,
}];

impl Operation for DeleteToken {
    type Response = Deleted;
    const KIND: OperationKind = OperationKind::DeleteToken;

    fn request(&self, context: &Context) -> Result<Request, Error> {
        SignedRequest::new(
            Self::KIND,
            context,
            SIGNED,
            PATH_PREFIX,
            SMALL_BODY,
            AuthFields::ACCOUNT_AND_TERMINAL,
        )
        .path_segment(self.registration_id.as_str())
        .form(|form| form.field(fields::PAYMENT_TYPE, &PaymentType::Delete))
        .finish()
    }

    /// Decided by the result code; checks the echoed `registrationId`.
    fn parse(&self, status: u16, body: &[u8]) -> Result<Deleted, Error> {
        parse_deleted(&self.registration_id, status, body)
    }
}

/// Reads the answer to a token deletion: for [`Operation::parse`], and for a recorded answer
/// (`crate::recorded`).
pub(crate) fn parse_deleted(
    registration: &RegistrationId,
    status: u16,
    body: &[u8],
) -> Result<Deleted, Error> {
    let wire: WireDeleted = wire::decode(OperationKind::DeleteToken, status, body)?;
    let result = require_success(OperationKind::DeleteToken, wire.result, body)?;
    let registration_id = wire.registration_id.filter(|id| id.raw().trim() != "-");
    echo_of_registration(registration).check(
        OperationKind::DeleteToken,
        &Echoed::id(registration_id.as_ref().map(Field::raw)),
    )?;
    Ok(Deleted {
        registration_id,
        result,
        timestamp: wire.timestamp,
    })
}
