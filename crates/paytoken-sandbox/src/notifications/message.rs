//! What a notification says: the payment's outcome, shaped like a payment's answer, signed
//! by the notification's own rule. The same fields go back with the cardholder's browser.

use md5::{Digest, Md5};
use paytoken_checksum::{Checksum, SecureKey};
use paytoken_types::MerchantTransactionId;

use crate::faults::NotificationFault;
use crate::json;
use crate::state::Payment;

/// A notification ready to be sent.
#[derive(Debug, Clone)]
pub(crate) struct Message {
    pub(crate) payment_id: String,
    pub(crate) url: String,
    /// The JSON body.
    pub(crate) body: String,
    pub(crate) fault: Option<NotificationFault>,
}

impl Message {
    /// The notification of `payment`'s outcome to `url`, signed with `key` (its owner's),
    /// at `now` (the gateway's time text); its checksum broken under that fault.
    pub(crate) fn of(
        payment: &Payment,
        url: &str,
        key: &SecureKey,
        now: &str,
        fault: Option<NotificationFault>,
    ) -> Self {
        let mut checksum = signature(payment, key);
        if fault == Some(NotificationFault::BrokenChecksum) {
            checksum = broken(&checksum);
        }
        let amount = payment.amount.to_wire();
        let body = json::object(|object| {
            object
                .field("paymentId", payment.payment_id)
                .field("paymentType", &payment.payment_type)
                .optional("paymentBrand", payment.brand.as_ref())
                .optional("paymentMode", payment.mode.as_ref())
                .field("amount", amount.as_str())
                .field("currency", payment.currency)
                .optional(
                    "merchantTransactionId",
                    payment.merchant_transaction_id.as_ref(),
                )
                .field("transactionStatus", payment.status.short().as_str())
                .field("status", payment.long_status().as_str())
                .code(payment.status.code())
                .optional("remark", payment.status.remark());
            if let Some(card) = &payment.card {
                object.object("card", |card_object| {
                    card_object
                        .field("bin", &card.bin)
                        .field("lastFourDigits", &card.last_four)
                        .field("last4Digits", &card.last_four)
                        .field("expiryMonth", &card.expiry_month)
                        .field("expiryYear", &card.expiry_year);
                });
            }
            object.field("timestamp", now).field("checksum", &checksum);
        });
        Self {
            payment_id: payment.payment_id.to_string(),
            url: url.to_owned(),
            body,
            fault,
        }
    }
}

/// The fields the cardholder's browser carries back to `merchantRedirectUrl` after 3-D
/// Secure, flat as a form sends them (`result.code`), signed by the same rule. Never
/// broken: faults are for the server-to-server notification.
pub(crate) fn browser_return_fields(
    payment: &Payment,
    key: &SecureKey,
    now: &str,
) -> Vec<(&'static str, String)> {
    let code = payment.status.code();
    let mut fields = vec![
        ("paymentId", payment.payment_id.to_string()),
        ("paymentType", payment.payment_type.to_string()),
        ("amount", payment.amount.to_wire().as_str().to_owned()),
        ("currency", payment.currency.to_string()),
    ];
    if let Some(order) = &payment.merchant_transaction_id {
        fields.push(("merchantTransactionId", order.to_string()));
    }
    fields.extend([
        (
            "transactionStatus",
            payment.status.short().as_str().to_owned(),
        ),
        ("status", payment.long_status().as_str().to_owned()),
        ("result.code", code.code.to_owned()),
        ("result.description", code.description.to_owned()),
    ]);
    if let Some(remark) = payment.status.remark() {
        fields.push(("remark", remark.to_owned()));
    }
    fields.extend([
        ("timestamp", now.to_owned()),
        ("checksum", signature(payment, key)),
    ]);
    fields
}

/// MD5 over `paymentId|merchantTransactionId|amount|transactionStatus|key`, in lower-case
/// hex: the sandbox's own MD5, not paytoken-checksum's rule, so that the client's verifier
/// is checked against an independent signer.
fn signature(payment: &Payment, key: &SecureKey) -> String {
    let amount = payment.amount.to_wire();
    let short = payment.status.short();
    let mut md5 = Md5::new();
    for part in [
        payment.payment_id.as_str(),
        payment
            .merchant_transaction_id
            .as_ref()
            .map_or("", MerchantTransactionId::as_str),
        amount.as_str(),
        short.as_str(),
    ] {
        md5.update(part.as_bytes());
        md5.update(b"|");
    }
    md5.update(key.expose_secret().as_bytes());
    Checksum::from_bytes(md5.finalize().into())
        .to_hex()
        .as_str()
        .to_owned()
}

/// `checksum` with its first digit changed: well-formed, and wrong.
fn broken(checksum: &str) -> String {
    let mut chars = checksum.chars();
    let first = match chars.next() {
        Some('0') => '1',
        _ => '0',
    };
    std::iter::once(first).chain(chars).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_checksum_is_another_well_formed_one() {
        for checksum in [
            "0123456789abcdef0123456789abcdef",
            "f123456789abcdef0123456789abcdef",
        ] {
            let broken = broken(checksum);
            assert_ne!(broken, checksum);
            assert_eq!(broken.len(), 32);
            assert_eq!(broken[1..], checksum[1..]);
        }
    }
}
