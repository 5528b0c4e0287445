//! What `paytoken listen` makes of one notification, without any I/O: read (JSON, or the
//! browser's form) and verified with the secure key; the verdicts a notification can end
//! with; and how a verdict is printed.

use paytoken::SecureKey;
use paytoken::protocol::notification::{Notification, VerifiedNotification};
use serde_json::{Map, Value, json};

use crate::report::{self, Outcome, status_outcome};
use crate::terminal;

/// The most characters of a claimed, unverified value a line shows.
const CLAIM_SHOWN: usize = 64;

/// One notification's fate.
#[derive(Debug)]
pub(crate) enum Verdict {
    /// Its checksum verified, it is the first with its payment id and short status, and it
    /// is settled: relayed with a `2xx` when relaying (how, beside it).
    Verified(VerifiedNotification, Option<Relay>),
    /// It verified, and was settled before: the gateway's repeat, or a replay.
    Duplicate(VerifiedNotification),
    /// It verified, and the same notification is being relayed now: the gateway is asked to
    /// try again, since that relay may still fail.
    InFlight(VerifiedNotification),
    /// It verified and is new, but the merchant's endpoint did not take it: the gateway is
    /// asked to try again.
    RelayFailed(VerifiedNotification, Relay),
    /// It does not verify, or cannot be read.
    Rejected(Rejection),
}

/// A relay to `--forward-to`: where, and the endpoint's `2xx` status or why it failed.
#[derive(Debug)]
pub(crate) struct Relay {
    pub(crate) to: String,
    pub(crate) result: Result<u16, String>,
}

/// Why a notification was rejected (never the key), and what it claimed to be about.
#[derive(Debug)]
pub(crate) struct Rejection {
    reason: String,
    payment_id: Option<String>,
    merchant_transaction_id: Option<String>,
}

/// Reads `body` (a form or JSON, as its `content_type` says) and verifies it with `key`.
pub(crate) fn verify(
    body: &[u8],
    content_type: Option<&str>,
    key: &SecureKey,
) -> Result<VerifiedNotification, Rejection> {
    let notification = Notification::from_request(content_type, body)
        .map_err(|error| Rejection::unread(error.to_string()))?;
    let payment_id = notification.claimed_payment_id().map(str::to_owned);
    let merchant_transaction_id = notification
        .claimed_merchant_transaction_id()
        .map(str::to_owned);
    notification.verify(key).map_err(|error| Rejection {
        reason: error.to_string(),
        payment_id,
        merchant_transaction_id,
    })
}

impl Rejection {
    /// A body that could not be read, or not in time: nothing it claims is known.
    pub(crate) const fn unread(reason: String) -> Self {
        Self {
            reason,
            payment_id: None,
            merchant_transaction_id: None,
        }
    }
}

impl Verdict {
    /// The HTTP status the gateway gets: 200 once it is settled (a duplicate too, or it
    /// would send it again), 502 when the relay failed and 503 while one is under way (so
    /// it sends it again), 400 when it is rejected.
    pub(crate) const fn http_status(&self) -> u16 {
        match self {
            Self::Verified(..) | Self::Duplicate(_) => 200,
            Self::RelayFailed(..) => 502,
            Self::InFlight(_) => 503,
            Self::Rejected(_) => 400,
        }
    }

    /// The word for it: `verified`, `duplicate`, `in_flight`, `relay_failed`, `rejected`.
    pub(crate) const fn word(&self) -> &'static str {
        match self {
            Self::Verified(..) => "verified",
            Self::Duplicate(_) => "duplicate",
            Self::InFlight(_) => "in_flight",
            Self::RelayFailed(..) => "relay_failed",
            Self::Rejected(_) => "rejected",
        }
    }

    /// What the gateway reads in the answer's body: the word, and for a rejection why.
    pub(crate) fn answer_text(&self) -> String {
        match self {
            Self::Rejected(rejection) => format!("rejected: {}\n", rejection.reason),
            other => format!("{}\n", other.word()),
        }
    }

    /// The printed object: the verdict, then the signed fields (or the reason and what the
    /// notification claimed, marked unverified), the unsigned ones under
    /// `unauthenticated`, and the relay under `forwarded`.
    pub(crate) fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("operation".into(), "listen".into());
        object.insert("notification".into(), self.word().into());
        match self {
            Self::Rejected(rejection) => {
                object.insert("outcome".into(), Outcome::Refused.name().into());
                object.insert("reason".into(), rejection.reason.as_str().into());
                let mut claimed = Map::new();
                for (name, value) in [
                    ("paymentId", &rejection.payment_id),
                    ("merchantTransactionId", &rejection.merchant_transaction_id),
                ] {
                    if let Some(value) = value {
                        let shown = terminal::clip(value, CLAIM_SHOWN);
                        claimed.insert(name.into(), shown.into_owned().into());
                    }
                }
                if !claimed.is_empty() {
                    object.insert("unverified".into(), Value::Object(claimed));
                }
            }
            Self::Verified(notification, relay) => {
                signed_fields(&mut object, notification);
                if let Some(relay) = relay {
                    object.insert("forwarded".into(), relay.to_json());
                }
            }
            Self::RelayFailed(notification, relay) => {
                signed_fields(&mut object, notification);
                object.insert("forwarded".into(), relay.to_json());
            }
            Self::Duplicate(notification) | Self::InFlight(notification) => {
                signed_fields(&mut object, notification);
            }
        }
        Value::Object(object)
    }
}

impl Relay {
    fn to_json(&self) -> Value {
        match &self.result {
            Ok(status) => json!({ "to": self.to, "status": status }),
            Err(reason) => json!({ "to": self.to, "failed": reason }),
        }
    }
}

fn signed_fields(object: &mut Map<String, Value>, notification: &VerifiedNotification) {
    let outcome = status_outcome(&notification.status);
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
        object.remove("operation");
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

    fn judged(body: &str, is_form: bool) -> Verdict {
        let content_type = is_form.then_some("application/x-www-form-urlencoded");
        match verify(body.as_bytes(), content_type, &key()) {
            Ok(verified) => Verdict::Verified(verified, None),
            Err(rejection) => Verdict::Rejected(rejection),
        }
    }

    #[test]
    fn verified_or_rejected_when_forged_saying_what_it_claimed() {
        let first = judged(&body("60001", "Y", KEY), false);
        assert_eq!(first.word(), "verified");
        assert_eq!(first.http_status(), 200);
        let printed = first.to_json();
        assert_eq!(printed["paymentId"], "60001");
        assert_eq!(printed["outcome"], "approved");
        assert_eq!(printed["amount"], "50.00");
        assert_eq!(printed["unauthenticated"]["currency"], "EUR");

        let forged = judged(&body("60002", "Y", "guess"), false);
        assert_eq!(forged.word(), "rejected");
        assert_eq!(forged.http_status(), 400);
        let printed = forged.to_json();
        assert_eq!(printed["unverified"]["paymentId"], "60002");
        assert_eq!(printed["unverified"]["merchantTransactionId"], "order-1");
        assert!(printed.get("paymentId").is_none(), "{printed}");
        let text = printed.to_string();
        assert!(text.contains("checksum"), "{text}");
        assert!(!text.contains(KEY), "{text}");
    }

    #[test]
    fn a_long_claim_is_shown_as_a_prefix_with_its_length() {
        let long = "9".repeat(5_000);
        let forged = judged(&body(&long, "Y", "guess"), false).to_json();
        let shown = forged["unverified"]["paymentId"].as_str().unwrap();
        assert!(shown.len() < 100, "{shown}");
        assert!(shown.contains("5000 characters"), "{shown}");
    }

    #[test]
    fn the_block_escapes_what_the_notification_says() {
        let verdict = judged(&body("60001", "Y", KEY), false);
        let text = block(&verdict.to_json());
        assert!(text.starts_with("notification: verified\n"), "{text}");
        assert!(text.contains("capturesuccess\\u{1b}[2J"), "{text}");
        assert!(!text.contains('\u{1b}'), "{text:?}");
    }

    #[test]
    fn reads_the_browser_s_form() {
        let checksum = format!(
            "{:x}",
            md5_oracle::compute(format!("7|order-1|50.00|N|{KEY}"))
        );
        let form = format!(
            "paymentId=7&merchantTransactionId=order-1&amount=50.00&transactionStatus=N&checksum={checksum}"
        );
        assert_eq!(judged(&form, true).to_json()["outcome"], "declined");
        let twice = format!("paymentId=8&{form}");
        let rejected = judged(&twice, true).to_json();
        assert_eq!(rejected["notification"], "rejected", "{rejected}");
        assert!(
            rejected["reason"]
                .as_str()
                .unwrap()
                .contains("more than once"),
            "{rejected}"
        );
    }
}
