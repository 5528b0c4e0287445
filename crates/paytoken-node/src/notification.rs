//! Notifications: the gateway's post to the shop, verified with the merchant's key before
//! anything in it is believed.

use napi::bindgen_prelude::{ClassInstance, Env};
use napi_derive::napi;
use paytoken_protocol::PaymentStatus;
use paytoken_protocol::notification::Notification;

use crate::args::{self, Given, GivenBody};
use crate::credentials::SecureKey;
use crate::errors::thrown;

/// A notification whose checksum matched: the signed fields, and the verdict they give.
#[napi(object, object_from_js = false)]
#[derive(Debug, Clone)]
pub struct VerifiedNotification {
    /// `paymentId`.
    pub payment_id: String,
    /// `merchantTransactionId`, when it is one.
    pub merchant_transaction_id: Option<String>,
    /// `amount`, as it came.
    pub amount: String,
    /// `transactionStatus`, as it came.
    pub transaction_status: String,
    /// The verdict of the signed short status.
    #[napi(
        ts_type = "'approved' | 'declined' | 'pending' | 'three_d_secure' | 'cancelled' | 'unknown'"
    )]
    pub status: &'static str,
    /// Whether it says the payment was approved.
    pub is_approved: bool,
    /// What a handler remembers to act on each notification once (`paymentId:status`).
    pub duplicate_key: String,
}

/// Verifies a notification as received: its body (a string, or the bytes as they came)
/// and `Content-Type` (a form or JSON), with the merchant's secure key.
///
/// Throws `PAYTOKEN_NOTIFICATION_REJECTED`, its `reason` the check that failed, when it
/// does not verify.
///
/// ```js
/// const verified = paytoken.verifyNotification(body, key, request.headers['content-type'])
/// if (verified.isApproved) ship(verified.merchantTransactionId)
/// ```
#[napi]
pub fn verify_notification(
    env: &Env,
    #[napi(ts_arg_type = "string | Uint8Array")] body: GivenBody<'_>,
    #[napi(ts_arg_type = "SecureKey")] key: Given<'_, ClassInstance<'_, SecureKey>>,
    #[napi(ts_arg_type = "string | undefined | null")] content_type: Option<Given<'_, String>>,
) -> napi::Result<VerifiedNotification> {
    let body = args::body(env, body, "body")?;
    let key = args::instance(env, key, "key", "expected a SecureKey")?;
    let content_type = args::optional_text(env, content_type, "contentType")?;
    let verified = Notification::from_request(content_type.as_deref(), body.bytes())
        .and_then(|notification| notification.verify(&key.0))
        .map_err(|error| thrown(env, &error))?;
    Ok(VerifiedNotification {
        duplicate_key: verified.duplicate_key().to_string(),
        payment_id: verified.payment_id.to_string(),
        merchant_transaction_id: verified.merchant_transaction_id.map(|id| id.to_string()),
        amount: verified.amount.raw().to_owned(),
        transaction_status: verified.transaction_status.raw().to_owned(),
        status: verified.status.name(),
        is_approved: matches!(verified.status, PaymentStatus::Approved),
    })
}
