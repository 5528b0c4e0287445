//! Notifications read tolerantly and verified by their own rule
//! (`paymentId|merchantTransactionId|amount|transactionStatus|key`), checksums computed by
//! the second MD5 implementation over joined texts written out here.

use md5_oracle as md5;
use paytoken_checksum::SecureKey;
use std::time::Duration;

use paytoken_protocol::notification::{Claim, DuplicateFilter, Notification, NotificationCheck};
use paytoken_protocol::{Error, FieldValue, PaymentStatus};
use paytoken_types::TransactionState;

const KEY: &str = "w2Q8aZ2CrGc1dEbx0f9LkKmWu3YnN6sP";

/// How long a test's claims hold.
const LEASE: Duration = Duration::from_secs(30);

fn key() -> SecureKey {
    SecureKey::new(KEY).unwrap()
}

/// MD5 of `joined` by the oracle, in lower-case hex.
fn signed(joined: &str) -> String {
    format!("{:x}", md5::compute(joined.as_bytes()))
}

/// The documentation's sample shape, its fields as given, signed over `joined`.
fn sample(amount_json: &str, joined: &str) -> String {
    format!(
        r#"{{"paymentId":"21565","status":"capturesuccess","transactionStatus":"Y","paymentBrand":"VISA","paymentMode":"CC","amount":{amount_json},"currency":"EUR","merchantTransactionId":"testTransaction","remark":"","tmpl_amount":"50.00","tmpl_currency":"EUR","result":{{"code":"00001","description":"Transaction succeeded"}},"card":{{"bin":"400000","lastFourDigits":"0051","last4Digits":"0051","expiryMonth":"06","expiryYear":"2030"}},"customer":{{"email":"a@example.com","id":"1250"}},"timestamp":"2026-11-22 10:15:00","eci":"05","bankReferenceId":"","terminalId":"2541","checksum":"{}"}}"#,
        signed(joined)
    )
}

fn rejected(body: &str) -> NotificationCheck {
    match Notification::from_json(body.as_bytes()).and_then(|n| n.verify(&key())) {
        Err(Error::Unverified { check }) => check,
        other => panic!("not rejected: {other:?}"),
    }
}

#[test]
fn the_documented_joined_text_verifies_and_the_verdict_is_the_short_status() {
    let body = sample("\"50.00\"", &format!("21565|testTransaction|50.00|Y|{KEY}"));
    let verified = Notification::from_json(body.as_bytes())
        .unwrap()
        .verify(&key())
        .unwrap();
    assert_eq!(verified.payment_id.as_str(), "21565");
    assert_eq!(verified.status, PaymentStatus::Approved);
    assert_eq!(verified.amount.raw(), "50.00");
    assert_eq!(
        verified.merchant_transaction_id.unwrap().as_str(),
        "testTransaction"
    );
    // Kept, and marked as what nobody signed.
    let unauthenticated = &verified.unauthenticated;
    assert_eq!(
        unauthenticated.state.value(),
        Some(&TransactionState::CaptureSuccess)
    );
    assert_eq!(
        unauthenticated.result.as_ref().unwrap().code.as_str(),
        "00001"
    );
    assert_eq!(
        unauthenticated.card.as_ref().unwrap().bin.as_deref(),
        Some("400000")
    );
}

#[test]
fn a_json_number_is_signed_as_written() {
    let body = sample("50", &format!("21565|testTransaction|50|Y|{KEY}"));
    let verified = Notification::from_json(body.as_bytes())
        .unwrap()
        .verify(&key())
        .unwrap();
    assert_eq!(verified.amount.raw(), "50");
    assert_eq!(verified.amount.value().unwrap().to_string(), "50.00");
    // Re-formatted, the same amount is another text: it does not verify.
    let body = sample("50", &format!("21565|testTransaction|50.00|Y|{KEY}"));
    assert_eq!(rejected(&body), NotificationCheck::ChecksumMismatch);
}

#[test]
fn a_forged_checksum_a_changed_amount_and_a_long_status_signed_are_rejected() {
    // Signed with another key.
    let forged = sample("\"50.00\"", "21565|testTransaction|50.00|Y|another-key");
    assert_eq!(rejected(&forged), NotificationCheck::ChecksumMismatch);
    // The amount changed after signing.
    let tampered = sample(
        "\"500.00\"",
        &format!("21565|testTransaction|50.00|Y|{KEY}"),
    );
    assert_eq!(rejected(&tampered), NotificationCheck::ChecksumMismatch);
    // The long status signed where the rule signs the short one.
    let long = sample(
        "\"50.00\"",
        &format!("21565|testTransaction|50.00|capturesuccess|{KEY}"),
    );
    assert_eq!(rejected(&long), NotificationCheck::ChecksumMismatch);
    // What fails says which check, never the key.
    let error = Notification::from_json(forged.as_bytes())
        .unwrap()
        .verify(&key())
        .unwrap_err();
    assert!(!error.to_string().contains(KEY), "{error}");
    assert!(!format!("{error:?}").contains(KEY), "{error:?}");
}

#[test]
fn missing_and_malformed_checksums_say_so() {
    let without = r#"{"paymentId":"21565","amount":"50.00","transactionStatus":"Y"}"#;
    assert_eq!(
        rejected(without),
        NotificationCheck::Missing { field: "checksum" }
    );
    let short =
        r#"{"paymentId":"21565","amount":"50.00","transactionStatus":"Y","checksum":"abc"}"#;
    assert_eq!(rejected(short), NotificationCheck::MalformedChecksum);
    let no_status =
        r#"{"paymentId":"21565","amount":"50.00","checksum":"0123456789abcdef0123456789abcdef"}"#;
    assert_eq!(
        rejected(no_status),
        NotificationCheck::Missing {
            field: "transactionStatus"
        }
    );
    assert_eq!(rejected("not json"), NotificationCheck::NotReadable);
    assert_eq!(rejected("[1,2]"), NotificationCheck::NotReadable);
}

#[test]
fn a_bank_transfer_with_an_empty_card_object_and_a_pending_status() {
    let checksum = signed(&format!("60007|order 9|1250.5|P|{KEY}"));
    let body = format!(
        r#"{{"paymentId":60007,"merchantTransactionId":"order 9","amount":1250.5,"transactionStatus":"P","status":"authstarted","paymentMode":"SEPA","card":{{"bin":"","lastFourDigits":"","expiryMonth":"","expiryYear":""}},"unknownField":{{"a":[1]}},"checksum":"{}"}}"#,
        checksum.to_uppercase()
    );
    let verified = Notification::from_json(body.as_bytes())
        .unwrap()
        .verify(&key())
        .unwrap();
    assert_eq!(verified.status, PaymentStatus::Pending);
    assert_eq!(verified.payment_id.as_str(), "60007");
    assert!(
        verified.unauthenticated.card.is_none(),
        "an empty card is none"
    );
}

#[test]
fn the_browsers_return_as_a_form_verifies_by_the_same_rule() {
    let checksum = signed(&format!("21565|Rest Transaction 01|50.00|3D|{KEY}"));
    let form = format!(
        "paymentId=21565&merchantTransactionId=Rest+Transaction+01&amount=50.00&transactionStatus=3D&status=begun&result.code=90026&checksum={checksum}"
    );
    let verified = Notification::from_form(form.as_bytes())
        .unwrap()
        .verify(&key())
        .unwrap();
    assert!(matches!(
        verified.status,
        PaymentStatus::ThreeDSecure { .. }
    ));
    assert_eq!(
        verified.unauthenticated.result.unwrap().code.as_str(),
        "90026"
    );
    assert_eq!(
        Notification::from_form(b"a=%zz").unwrap_err().to_string(),
        "notification rejected: the body is neither a json object nor a form"
    );
}

#[test]
fn a_repeated_notification_is_a_duplicate_within_the_bound() {
    let verify = |id: &str, status: &str| {
        let checksum = signed(&format!("{id}|o|1.00|{status}|{KEY}"));
        let body = format!(
            r#"{{"paymentId":"{id}","merchantTransactionId":"o","amount":"1.00","transactionStatus":"{status}","checksum":"{checksum}"}}"#
        );
        Notification::from_json(body.as_bytes())
            .unwrap()
            .verify(&key())
            .unwrap()
    };
    let mut filter = DuplicateFilter::new(2);
    let mut first_time = |verified: &paytoken_protocol::notification::VerifiedNotification| {
        let key = verified.duplicate_key();
        match filter.claim(&key, Duration::ZERO, LEASE) {
            Claim::Claimed(fence) => filter.done(&key, fence),
            _ => false,
        }
    };
    assert!(first_time(&verify("1", "P")));
    assert!(!first_time(&verify("1", "P")), "the gateway's repeat");
    // The same payment's next status is news.
    assert!(first_time(&verify("1", "Y")));
    assert!(first_time(&verify("2", "Y")));
    // The bound of two forgot the first.
    assert!(first_time(&verify("1", "P")));
}

/// Regression (found by the simulation, `paytoken-sim`): a repeat that arrived while the
/// first delivery was still being acted on was told "seen", answered 200, and the gateway
/// stopped; the first then failed, and the notification was never acted on.
#[test]
fn a_repeat_while_the_first_is_acted_on_is_busy_until_its_claim_ends() {
    let checksum = signed(&format!("7|o|1.00|Y|{KEY}"));
    let body = format!(
        r#"{{"paymentId":"7","merchantTransactionId":"o","amount":"1.00","transactionStatus":"Y","checksum":"{checksum}"}}"#
    );
    let key = Notification::from_json(body.as_bytes())
        .unwrap()
        .verify(&key())
        .unwrap()
        .duplicate_key();
    let mut filter = DuplicateFilter::new(8);
    let now = Duration::from_secs(100);
    let Claim::Claimed(first) = filter.claim(&key, now, LEASE) else {
        panic!("new")
    };
    assert_eq!(
        filter.claim(&key, now, LEASE),
        Claim::Busy,
        "the repeat while acting"
    );
    // The handler's own work failed: it releases, answers an error, and the retry is news.
    filter.release(&key, first);
    let Claim::Claimed(second) = filter.claim(&key, now, LEASE) else {
        panic!("released")
    };
    assert!(!filter.done(&key, first), "a released fence marks nothing");
    assert!(filter.done(&key, second));
    assert_eq!(filter.claim(&key, now, LEASE), Claim::Done);
    // A done key is never released.
    filter.release(&key, second);
    assert_eq!(filter.claim(&key, now, LEASE), Claim::Done);
}

/// A claim whose handler never ended it (cancelled, or dead) lapses with its lease: the
/// key is claimed again with a new fence, and the late handler cannot mark it done.
#[test]
fn a_lapsed_claim_is_taken_over_and_its_fence_marks_nothing() {
    let key = paytoken_protocol::notification::DuplicateKey {
        payment_id: "7".parse().unwrap(),
        transaction_status: "Y".to_owned(),
    };
    let mut filter = DuplicateFilter::new(8);
    let start = Duration::from_secs(10);
    let Claim::Claimed(late) = filter.claim(&key, start, LEASE) else {
        panic!("new")
    };
    let within = start + LEASE - Duration::from_millis(1);
    assert_eq!(filter.claim(&key, within, LEASE), Claim::Busy);
    let Claim::Claimed(taken) = filter.claim(&key, start + LEASE, LEASE) else {
        panic!("the lease ran out")
    };
    assert_ne!(late, taken);
    assert!(!filter.done(&key, late), "fenced out");
    assert!(filter.done(&key, taken));
    assert_eq!(filter.claim(&key, start + LEASE, LEASE), Claim::Done);
}

/// Regression: a body with two readings (Python's `json` keeps `"paymentId"`, Werkzeug's
/// form the first value) was verified on one and could be acted on by the other.
#[test]
fn a_signed_field_given_twice_or_padded_is_refused_whatever_the_checksum() {
    let checksum = signed(&format!("21565|testTransaction|50.00|Y|{KEY}"));
    let rest = format!(
        r#""merchantTransactionId":"testTransaction","amount":"50.00","transactionStatus":"Y","checksum":"{checksum}""#
    );
    for (body, field) in [
        (
            format!(r#"{{"paymentId":"99999","paymentId ":"21565",{rest}}}"#),
            "paymentId",
        ),
        (
            format!(r#"{{"paymentId":"21565","paymentId":"21565",{rest}}}"#),
            "paymentId",
        ),
        (format!(r#"{{" paymentId":"21565",{rest}}}"#), "paymentId"),
        (
            format!(r#"{{"paymentId":"21565",{rest},"checksum":"{checksum}"}}"#),
            "checksum",
        ),
        (
            format!(r#"{{"paymentId":"21565",{rest},"amount\t":"5000.00"}}"#),
            "amount",
        ),
    ] {
        assert_eq!(
            rejected(&body),
            NotificationCheck::Ambiguous { field },
            "{body}"
        );
    }
    let form = |first: &str| {
        format!(
            "paymentId={first}&paymentId=21565&merchantTransactionId=testTransaction&amount=50.00&transactionStatus=Y&checksum={checksum}"
        )
    };
    for body in [form("99999"), form("21565")] {
        let read = Notification::from_form(body.as_bytes()).and_then(|n| n.verify(&key()));
        assert!(
            matches!(
                read,
                Err(Error::Unverified {
                    check: NotificationCheck::Ambiguous { field: "paymentId" }
                })
            ),
            "{body}: {read:?}"
        );
    }
    // Unsigned fields may repeat, and nested objects may hold the same names.
    let body = format!(
        r#"{{"paymentId":"21565",{rest},"status":"a","status":"b","card":{{"amount":"1","amount":"2"}}}}"#
    );
    let verified = Notification::from_json(body.as_bytes())
        .unwrap()
        .verify(&key())
        .unwrap();
    assert_eq!(verified.payment_id.as_str(), "21565");
}

/// A handler hands over the request's content type: a form only for the form media type
/// (any case, any parameters), JSON for everything else.
#[test]
fn a_request_is_read_as_its_content_type_says() {
    let form = b"paymentId=60001&transactionStatus=Y";
    let json = br#"{"paymentId":"60001","transactionStatus":"Y"}"#;
    for content_type in [
        "application/x-www-form-urlencoded",
        "APPLICATION/X-WWW-FORM-URLENCODED;charset=UTF-8",
        " application/x-www-form-urlencoded ; charset=utf-8",
    ] {
        let read = Notification::from_request(Some(content_type), form).unwrap();
        assert_eq!(read.claimed_payment_id(), Some("60001"), "{content_type}");
        // A JSON body under the form's type is not JSON to this reader.
        let as_form = Notification::from_request(Some(content_type), json).ok();
        assert_eq!(
            as_form.as_ref().and_then(Notification::claimed_payment_id),
            None,
            "{content_type}"
        );
    }
    for content_type in [
        None,
        Some("application/json"),
        Some("text/plain"),
        Some("application/x-www-form-urlencodedx"),
    ] {
        let read = Notification::from_request(content_type, json).unwrap();
        assert_eq!(read.claimed_payment_id(), Some("60001"), "{content_type:?}");
        assert!(
            Notification::from_request(content_type, form).is_err(),
            "{content_type:?}"
        );
    }
}
