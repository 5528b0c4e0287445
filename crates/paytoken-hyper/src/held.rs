//! The gateway's free text where it enters the client: a result's description that echoes
//! the caller's own secure key or auth token has them masked (as
//! [`Redactor::mask_held`] does) before any log, message or output sees it. Nothing else
//! of the gateway's text changes.

use std::borrow::Cow;

use paytoken_protocol::redact::Redactor;
use paytoken_protocol::{Context, Error};
use paytoken_types::GatewayResult;

/// `result`'s description with the secure key and the auth token of `context` masked.
pub(crate) fn mask(context: &Context, result: Option<&mut GatewayResult>) {
    let Some(result) = result else { return };
    let mut redactor = Redactor::new().holding(context.credentials.secure_key().expose_secret());
    if let Some(token) = &context.auth_token {
        redactor = redactor.holding(token.expose_secret());
    }
    if let Cow::Owned(masked) = redactor.mask_held(&result.description) {
        result.description = masked;
    }
}

/// A refusal's description masked as [`mask`] masks a result's; any other error as it is.
pub(crate) fn mask_refusal(context: &Context, error: &mut Error) {
    if let Error::Refused(refusal) = error {
        mask(context, Some(&mut refusal.result));
    }
}
