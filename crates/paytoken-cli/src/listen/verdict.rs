//! What `paytoken listen` makes of one notification, without any I/O: read (JSON, or the
//! browser's form), verified with the secure key, checked against the ones seen before;
//! and how the verdict is printed.

use paytoken::SecureKey;
use paytoken::protocol::notification::{DuplicateFilter, Notification, VerifiedNotification};
use serde_json::{Map, Value, json};

use crate::report::{self, status_outcome};

/// One notification's fate.
#[derive(Debug)]
pub(crate) enum Verdict {
    /// Its checksum verified, and it is the first with its payment id and short status.
    Verified(VerifiedNotification),
    /// It verified, and was seen before: the gateway's repeat, or a replay.
    Duplicate(VerifiedNotification),
    /// It does not verify, or cannot be read: why (never the key).
    Rejected(String),
}

/// Reads `body` (a form when `is_form`, JSON otherwise), verifies it with `key`, and asks
/// `seen` whether it is new (remembering it).
pub(crate) fn judge(
    body: &[u8],
    is_form: bool,
    key: &SecureKey,
    seen: &mut DuplicateFilter,
) -> Verdict {
    let read = if is_form {
        Notification::from_form(body)
    } else {
        Notification::from_json(body)
    };
    match read.and_then(|notification| notification.verify(key)) {
        Err(error) => Verdict::Rejected(error.to_string()),
        Ok(verified) if seen.first_time(&verified) => Verdict::Verified(verified),
        Ok(verified) => Verdict::Duplicate(verified),
    }
}

impl Verdict {
    /// The HTTP status the gateway gets: 200 for what verified (a duplicate too, or it
    /// would send it again), 400 for the rest.
    pub(crate) const fn http_status(&self) -> u16 {
        match self {
            Self::Verified(_) | Self::Duplicate(_) => 200,
            Self::Rejected(_) => 400,
        }
    }

    /// The word for it: `verified`, `duplicate`, `rejected`.
    pub(crate) const fn word(&self) -> &'static str {
        match self {
            Self::Verified(_) => "verified",
            Self::Duplicate(_) => "duplicate",
            Self::Rejected(_) => "rejected",
        }
    }

    /// The printed object: the verdict, then the signed fields (or the reason), then the
    /// unsigned ones under `unauthenticated`.
    pub(crate) fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("notification".into(), self.word().into());
        match self {
            Self::Rejected(reason) => {
                object.insert("reason".into(), reason.as_str().into());
            }
            Self::Verified(notification) | Self::Duplicate(notification) => {
                signed_fields(&mut object, notification);
            }
        }
        Value::Object(object)
    }
}

fn signed_fields(object: &mut Map<String, Value>, notification: &VerifiedNotification) {
    let (_, outcome) = status_outcome(&notification.status);
    object.insert(
        "paymentId".into(),
        notification.payment_id.to_string().into(),
    );
    object.insert("outcome".into(), outcome.name().into());
    object.insert(
        "transactionStatus".into(),
        notification.transaction_status.raw().into(),
    );
    object.insert("amount".into(), notification.amount.raw().into());
    if let Some(order) = &notification.merchant_transaction_id {
        object.insert("merchantTransactionId".into(), order.as_str().into());
    }
    let unsigned = &notification.unauthenticated;
    let mut other = Map::new();
    let mut put = |name: &str, value: Option<Value>| {
        if let Some(value) = value {
            other.insert(name.into(), value);
        }
    };
    put(
        "status",
        unsigned.state.as_ref().map(|state| state.raw().into()),
    );
    put(
        "result",
        unsigned.result.as_ref().map(
            |result| json!({ "code": result.code.as_str(), "description": result.description }),
        ),
    );
    put(
        "currency",
        unsigned
            .currency
            .as_ref()
            .map(|currency| currency.raw().into()),
    );
    put("remark", unsigned.remark.as_deref().map(Into::into));
    put(
        "card",
        unsigned
            .card
            .as_ref()
            .map(|card| json!({ "bin": card.bin, "lastFourDigits": card.last_four })),
    );
    put("timestamp", unsigned.timestamp.as_deref().map(Into::into));
    if !other.is_empty() {
        object.insert("unauthenticated".into(), Value::Object(other));
    }
}

/// A printed object as a block for people: `notification: {verdict}`, then its fields,
/// every value escaped for the terminal.
pub(crate) fn block(printed: &Value) -> String {
    let word = printed["notification"].as_str().unwrap_or("received");
    let mut fields = printed.clone();
    if let Some(object) = fields.as_object_mut() {
        object.remove("notification");
    }
    let mut text = format!("notification: {word}\n");
    report::write_fields(&mut text, &fields, "  ");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "listen-test-key";

    fn key() -> SecureKey {
        SecureKey::new(KEY).unwrap()
    }

    /// MD5 by the oracle crate over the notification rule's joined text.
    fn body(payment_id: &str, status: &str, key: &str) -> String {
        let checksum = format!(
            "{:x}",
            md5_oracle::compute(format!("{payment_id}|order-1|50.00|{status}|{key}"))
        );
        format!(
            r#"{{"paymentId":"{payment_id}","merchantTransactionId":"order-1","amount":"50.00","transactionStatus":"{status}","status":"capturesuccess\u001b[2J","currency":"EUR","checksum":"{checksum}"}}"#
        )
    }

    #[test]
    fn verified_then_duplicate_then_rejected_when_forged() {
        let mut seen = DuplicateFilter::new(16);
        let first = judge(body("60001", "Y", KEY).as_bytes(), false, &key(), &mut seen);
        assert_eq!(first.word(), "verified");
        assert_eq!(first.http_status(), 200);
        let printed = first.to_json();
        assert_eq!(printed["paymentId"], "60001");
        assert_eq!(printed["outcome"], "approved");
        assert_eq!(printed["amount"], "50.00");
        assert_eq!(printed["unauthenticated"]["currency"], "EUR");

        let again = judge(body("60001", "Y", KEY).as_bytes(), false, &key(), &mut seen);
        assert_eq!(again.word(), "duplicate");
        assert_eq!(again.http_status(), 200);

        let forged = judge(
            body("60002", "Y", "guess").as_bytes(),
            false,
            &key(),
            &mut seen,
        );
        assert_eq!(forged.word(), "rejected");
        assert_eq!(forged.http_status(), 400);
        let text = forged.to_json().to_string();
        assert!(text.contains("checksum"), "{text}");
        assert!(!text.contains(KEY), "{text}");
    }

    #[test]
    fn the_block_escapes_what_the_notification_says() {
        let mut seen = DuplicateFilter::new(16);
        let verdict = judge(body("60001", "Y", KEY).as_bytes(), false, &key(), &mut seen);
        let text = block(&verdict.to_json());
        assert!(text.starts_with("notification: verified\n"), "{text}");
        assert!(text.contains("capturesuccess\\u{1b}[2J"), "{text}");
        assert!(!text.contains('\u{1b}'), "{text:?}");
    }

    #[test]
    fn reads_the_browser_s_form() {
        let mut seen = DuplicateFilter::new(16);
        let checksum = format!(
            "{:x}",
            md5_oracle::compute(format!("7|order-1|50.00|N|{KEY}"))
        );
        let form = format!(
            "paymentId=7&merchantTransactionId=order-1&amount=50.00&transactionStatus=N&checksum={checksum}"
        );
        let verdict = judge(form.as_bytes(), true, &key(), &mut seen);
        assert_eq!(verdict.to_json()["outcome"], "declined");
    }
}
