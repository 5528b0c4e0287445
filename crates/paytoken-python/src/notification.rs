//! Notifications: the gateway's post to the shop, verified with the merchant's key before
//! anything in it is believed.

use paytoken_protocol::notification::Notification;
use pyo3::prelude::*;

use crate::credentials::SecureKey;
use crate::errors::raised;

/// A notification whose checksum matched: the signed fields, and the verdict they give.
#[pyclass(frozen, get_all, module = "paytoken")]
#[derive(Debug, Clone)]
pub(crate) struct VerifiedNotification {
    /// `paymentId`.
    payment_id: String,
    /// `merchantTransactionId`, when it is one.
    merchant_transaction_id: Option<String>,
    /// `amount`, as it came.
    amount: String,
    /// `transactionStatus`, as it came.
    transaction_status: String,
    /// The verdict of the signed short status: `approved`, `declined`, `pending`,
    /// `three_d_secure`, `cancelled` or `unknown`.
    status: &'static str,
    /// Whether it says the payment was approved.
    is_approved: bool,
    /// What a handler remembers to act on each notification once (`paymentId:status`).
    duplicate_key: String,
}

#[pymethods]
impl VerifiedNotification {
    fn __repr__(&self) -> String {
        format!("VerifiedNotification({}, {})", self.payment_id, self.status)
    }
}

/// Verifies a notification as received: its body and `Content-Type` (a form or JSON), with
/// the merchant's secure key.
///
/// Raises `NotificationRejected`, saying which check failed, when it does not verify.
///
/// >>> body = (b'{"paymentId": "21565", "merchantTransactionId": "testTransaction", '
/// ...     b'"amount": "50.00", "transactionStatus": "Y", "checksum": "a85a0d08535985bb1e0a37ff61394f46"}')
/// >>> notified = paytoken.verify_notification(body, paytoken.SecureKey("key"), content_type="application/json")
/// >>> notified.payment_id, notified.is_approved
/// ('21565', True)
/// >>> paytoken.verify_notification(body, paytoken.SecureKey("another"), content_type="application/json")
/// Traceback (most recent call last):
/// paytoken.NotificationRejected: ...
#[pyfunction]
#[pyo3(signature = (body, key, *, content_type=None))]
pub(crate) fn verify_notification(
    body: &[u8],
    key: &SecureKey,
    content_type: Option<&str>,
) -> PyResult<VerifiedNotification> {
    let verified = Notification::from_request(content_type, body)
        .and_then(|notification| notification.verify(&key.0))
        .map_err(|error| raised(&error))?;
    Ok(VerifiedNotification {
        duplicate_key: verified.duplicate_key().to_string(),
        payment_id: verified.payment_id.to_string(),
        merchant_transaction_id: verified.merchant_transaction_id.map(|id| id.to_string()),
        amount: verified.amount.raw().to_owned(),
        transaction_status: verified.transaction_status.raw().to_owned(),
        status: verified.status.name(),
        is_approved: matches!(verified.status, paytoken_protocol::PaymentStatus::Approved),
    })
}
