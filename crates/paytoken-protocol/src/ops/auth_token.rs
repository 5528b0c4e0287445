//! Auth tokens (the deployments' endpoints, beyond the interface): fetch one for a merchant
//! (`/transactionServices/REST/v1/authToken`) or a partner
//! (`/transactionServices/REST/v1/partnerAuthToken`), or exchange the current one for a fresh
//! one (`/transactionServices/REST/v1/regenerateToken`).
//!
//! A token is valid for an hour; [`crate::AuthTokenLifecycle`] says when to renew it.

use paytoken_types::{GatewayResult, MemberId, PartnerId, Timestamp};

use super::{Operation, SMALL_BODY};

use crate::answer::{Blank, Field, Member, wire_object};
use crate::context::Username;
use crate::wire::{self, require_success};
use crate::{AuthToken, Context, Error, OperationKind, Request, fields, request};

/// The path for a merchant's token.
pub const MERCHANT_PATH: &str = "/transactionServices/REST/v1/authToken";
/// The path for a partner's token.
pub const PARTNER_PATH: &str = "/transactionServices/REST/v1/partnerAuthToken";
/// The path for exchanging a token.
pub const REGENERATE_PATH: &str = "/transactionServices/REST/v1/regenerateToken";

/// Fetches a token with a login name and the secure key of the context's credentials:
/// a merchant's (`merchant.username`) or a partner's (`partner.userName`).
///
/// Unlike every other call, this one sends the secure key itself (`authentication.sKey`):
/// the request body is a secret, as every [`Request`] body is treated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchAuthToken {
    /// `authentication.partnerId`: the partner the merchant belongs to, or the partner
    /// itself.
    pub partner_id: PartnerId,
    /// The login name.
    pub username: Username,
}

impl FetchAuthToken {
    /// A token for `username` under `partner_id`.
    #[must_use]
    pub const fn new(partner_id: PartnerId, username: Username) -> Self {
        Self {
            partner_id,
            username,
        }
    }
}

/// Exchanges a still-valid token for a fresh one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegenerateAuthToken {
    /// `authentication.partnerId`.
    pub partner_id: PartnerId,
    /// `authToken`: the current token.
    pub token: AuthToken,
}

impl RegenerateAuthToken {
    /// A fresh token for `token`, still valid, under `partner_id`.
    #[must_use]
    pub const fn new(partner_id: PartnerId, token: AuthToken) -> Self {
        Self { partner_id, token }
    }
}

/// A token the gateway issued (result `200`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct AuthTokenGrant {
    /// `AuthToken`: the token (a secret).
    pub token: AuthToken,
    /// `partnerId`.
    pub partner_id: Option<PartnerId>,
    /// `memberId`, for a merchant's token.
    pub member_id: Option<MemberId>,
    /// `LoginName`.
    pub login_name: Option<String>,
    /// `result` (or `statusInvoiceResult`: `200` when fetched, `200` or `00020` when
    /// regenerated).
    pub result: GatewayResult,
    /// `timestamp`.
    pub timestamp: Option<Field<Timestamp>>,
}

wire_object! {
    struct WireGrant {
        token: Secret = "AuthToken" | "authToken" | "authtoken",
        partner_id: Option<Field<PartnerId>> = "partnerId",
        member_id: Option<Field<MemberId>> = "memberId",
        login_name: Option<String> = "LoginName" | "loginName",
        result: Option<GatewayResult> = "result" | "statusInvoiceResult",
        timestamp: Option<Field<Timestamp>> = "timestamp",
    }
}

/// The token's text, wiped when dropped; read from a string only.
#[derive(Default)]
struct Secret(Option<zeroize::Zeroizing<String>>);

impl Blank for Secret {
    fn is_blank(&self) -> bool {
        self.0.is_none()
    }
}

impl Member for Secret {
    fn read<'de, A: serde::de::MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error> {
        Ok(Self(
            Option::<String>::read(map)?.map(zeroize::Zeroizing::new),
        ))
    }
}

/// Parses a token answer, for both ways of getting one: decided by the result code and the
/// token.
pub(crate) fn parse_grant(
    operation: OperationKind,
    status: u16,
    body: &[u8],
) -> Result<AuthTokenGrant, Error> {
    let wire: WireGrant = wire::decode(operation, status, body)?;
    let result = require_success(operation, wire.result, body)?;
    let text = wire
        .token
        .0
        .ok_or_else(|| wire::missing(operation, "AuthToken", body))?;
    // The message of `AuthToken::new` never repeats the token.
    let token = AuthToken::new(text.trim())
        .map_err(|error| wire::malformed(operation, format!("AuthToken: {error}"), body))?;
    Ok(AuthTokenGrant {
        token,
        partner_id: wire.partner_id.and_then(Field::into_value),
        member_id: wire.member_id.and_then(Field::into_value),
        login_name: wire.login_name,
        result,
        timestamp: wire.timestamp,
    })
}

impl Operation for FetchAuthToken {
    type Response = AuthTokenGrant;
    const KIND: OperationKind = OperationKind::AuthToken;

    fn request(&self, context: &Context) -> Result<Request, Error> {
        let credentials = &context.credentials;
        let (path, username_field) = if credentials.is_partner() {
            if credentials.id() != self.partner_id.as_str() {
                return Err(Error::Invalid {
                    field: "authentication.partnerId",
                    reason: "differs from the partner id of the credentials",
                });
            }
            (PARTNER_PATH, fields::PARTNER_USERNAME)
        } else {
            (MERCHANT_PATH, fields::MERCHANT_USERNAME)
        };
        Ok(request::build(
            Self::KIND,
            path,
            context,
            SMALL_BODY,
            |form| {
                form.field(fields::PARTNER_ID, self.partner_id.as_str());
                form.field(username_field, self.username.as_str());
                form.field(fields::SECURE_KEY, credentials.secure_key().expose_secret());
            },
        ))
    }

    fn parse(&self, status: u16, body: &[u8]) -> Result<AuthTokenGrant, Error> {
        parse_grant(Self::KIND, status, body)
    }
}

impl Operation for RegenerateAuthToken {
    type Response = AuthTokenGrant;
    const KIND: OperationKind = OperationKind::RegenerateAuthToken;

    fn request(&self, context: &Context) -> Result<Request, Error> {
        Ok(request::build(
            Self::KIND,
            REGENERATE_PATH,
            context,
            SMALL_BODY,
            |form| {
                form.field(fields::PARTNER_ID, self.partner_id.as_str());
                form.field(fields::AUTH_TOKEN, self.token.expose_secret());
            },
        ))
    }

    fn parse(&self, status: u16, body: &[u8]) -> Result<AuthTokenGrant, Error> {
        parse_grant(Self::KIND, status, body)
    }
}
