//! Auth tokens: a merchant's (`authToken`), a partner's (`partnerAuthToken`) and a fresh one
//! for a valid old one (`regenerateToken`). These are the only calls without `AuthToken`.

use crate::codes;
use crate::exchange::{Answer, Call};
use crate::gateway::Gateway;
use crate::json;
use crate::problem::Problems;
use crate::state::{Principal, State};
use crate::tokens;
use paytoken_types::PartnerId;

/// `authentication.partnerId`, `merchant.username`, `authentication.sKey` (the merchant's key).
pub(super) fn merchant(
    gateway: &Gateway,
    state: &mut State,
    call: &Call<'_, '_>,
) -> Result<Answer, Problems> {
    let [partner_id, username, key] =
        call.form
            .required_all([PartnerId::FIELD, "merchant.username", "authentication.sKey"])?;
    let (partner, partner_config) = gateway.partner(partner_id)?;
    let (merchant, config) = partner_config
        .merchants
        .iter()
        .enumerate()
        .find(|(_, merchant)| merchant.username.as_str() == username)
        .ok_or(codes::INVALID_LOGIN)?;
    if !same_secret(config.secure_key.expose_secret(), key) {
        return Err(codes::INVALID_LOGIN.into());
    }
    let now = gateway.clock.now();
    let principal = Principal::Merchant { partner, merchant };
    gateway.make_room_for_token(state);
    let token = tokens::issue(state, principal, config.member_id.as_str(), now);
    Ok(granted(
        gateway,
        partner_id,
        Some(config.member_id.as_str()),
        Some(config.username.as_str()),
        &token,
    ))
}

/// `authentication.partnerId`, `partner.userName`, `authentication.sKey` (the partner's key).
pub(super) fn partner(
    gateway: &Gateway,
    state: &mut State,
    call: &Call<'_, '_>,
) -> Result<Answer, Problems> {
    let [partner_id, username, key] =
        call.form
            .required_all([PartnerId::FIELD, "partner.userName", "authentication.sKey"])?;
    let (partner, config) = gateway.partner(partner_id)?;
    if config.username.as_str() != username || !same_secret(config.secure_key.expose_secret(), key)
    {
        return Err(codes::INVALID_LOGIN.into());
    }
    let now = gateway.clock.now();
    gateway.make_room_for_token(state);
    let token = tokens::issue(state, Principal::Partner { partner }, partner_id, now);
    Ok(granted(
        gateway,
        partner_id,
        None,
        Some(config.username.as_str()),
        &token,
    ))
}

/// `authentication.partnerId` and `authToken`: a token that is still valid, issued to the
/// partner or one of its merchants, is exchanged for a new one; the old one stops working.
pub(super) fn regenerate(
    gateway: &Gateway,
    state: &mut State,
    call: &Call<'_, '_>,
) -> Result<Answer, Problems> {
    let [partner_id, old] = call.form.required_all([PartnerId::FIELD, "authToken"])?;
    let (partner, config) = gateway.partner(partner_id)?;
    let now = gateway.clock.now();
    let issued = state
        .token(old)
        .filter(|issued| now < issued.expires_at && issued.principal.partner() == partner)
        .ok_or(codes::TOKEN_INVALID)?;
    state.revoke_token(old);
    gateway.make_room_for_token(state);
    let member_id = match issued.principal {
        Principal::Merchant { merchant, .. } => config
            .merchants
            .get(merchant)
            .map(|merchant| merchant.member_id.as_str()),
        Principal::Partner { .. } => None,
    };
    let token = tokens::issue(
        state,
        issued.principal,
        member_id.unwrap_or(partner_id),
        now,
    );
    // The documented regenerate answer: `statusInvoiceResult` with `00020`.
    Ok(Answer::json(json::object(|answer| {
        answer
            .field("partnerId", partner_id)
            .optional("memberId", member_id)
            .result(
                "statusInvoiceResult",
                codes::TOKEN_REGENERATED.code,
                codes::TOKEN_REGENERATED.description,
            )
            .field("timestamp", gateway.now_text())
            .field("AuthToken", &token);
    })))
}

/// The answer that hands a fetched token out.
fn granted(
    gateway: &Gateway,
    partner_id: &str,
    member_id: Option<&str>,
    login_name: Option<&str>,
    token: &str,
) -> Answer {
    Answer::json(json::object(|answer| {
        answer
            .field("partnerId", partner_id)
            .optional("memberId", member_id)
            .code(codes::TOKEN_GENERATED)
            .field("timestamp", gateway.now_text())
            .optional("LoginName", login_name)
            .field("AuthToken", token);
    }))
}

/// Compares a secret with what was sent without stopping at the first difference.
fn same_secret(secret: &str, sent: &str) -> bool {
    let (secret, sent) = (secret.as_bytes(), sent.as_bytes());
    secret.len() == sent.len()
        && std::hint::black_box(
            secret
                .iter()
                .zip(sent)
                .fold(0u8, |difference, (a, b)| difference | (a ^ b)),
        ) == 0
}
