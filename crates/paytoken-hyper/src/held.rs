//! The gateway's free text where it enters the client: a result's description that echoes
//! the caller's own secure key or auth token has them masked (as
//! [`Context::mask_secrets`] does) before any log, message or output sees it. Nothing else
//! of the gateway's text changes.

use std::borrow::Cow;

use paytoken_protocol::{Context, Error};
use paytoken_types::GatewayResult;

/// `result`'s description with the secure key and the auth token of `context` masked.
pub(crate) fn mask(context: &Context, result: Option<&mut GatewayResult>) {
    let Some(result) = result else { return };
    if let Cow::Owned(masked) = context.mask_secrets(&result.description) {
        result.description = masked;
    }
}

/// A refusal's description masked as [`mask`] masks a result's; any other error as it is.
pub(crate) fn mask_refusal(context: &Context, error: &mut Error) {
    if let Error::Refused(refusal) = error {
        mask(context, Some(&mut refusal.result));
    }
}
