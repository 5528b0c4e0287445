//! `SandboxBuilder::explain`: each refusal's diagnostic in a header and to the sink, each
//! usual checksum mistake named, the body the gateway's either way, no secret shown, and
//! nothing at all when the sandbox does not explain.

use std::sync::{Arc, Mutex};

use crate::common::{self, Raw};
use paytoken_sandbox::{EXPLAIN_HEADER, ManualClock, Sandbox};

const PAYMENTS: &str = "/transactionServices/REST/v1/payments";
const CARD: &str = "4000000000000051";

/// A sandbox that explains, and the lines its sink received.
async fn explaining() -> (Sandbox, Arc<Mutex<Vec<String>>>) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&lines);
    let sandbox = common::builder()
        .clock(Arc::new(ManualClock::at_unix_seconds(1_795_000_000)))
        .explain(move |line| sink.lock().unwrap().push(line.to_owned()))
        .start()
        .await
        .unwrap();
    (sandbox, lines)
}

/// A payment of 50.00 by `Rest Transaction 01`, signed over `joined` (the key as `{key}`).
async fn pay_signed(sandbox: &Sandbox, joined: &str) -> Raw {
    let merchant = common::merchant(sandbox);
    let token = common::merchant_token(sandbox, merchant).await;
    let key = merchant.secure_key.expose_secret();
    let joined = joined
        .replace("{key}", key)
        .replace("{id}", merchant.member_id.as_str());
    let checksum = format!("{:x}", md5_oracle::compute(joined.as_bytes()));
    let checksum = if joined.starts_with("UPPER:") {
        let plain = joined.trim_start_matches("UPPER:");
        format!("{:X}", md5_oracle::compute(plain.as_bytes()))
    } else {
        checksum
    };
    common::post(
        sandbox,
        PAYMENTS,
        Some(token.expose_secret()),
        &[
            ("authentication.memberId", merchant.member_id.as_str()),
            ("authentication.checksum", &checksum),
            ("merchantTransactionId", "Rest Transaction 01"),
            ("amount", "50.00"),
            ("currency", "EUR"),
            ("paymentType", "DB"),
            ("paymentBrand", "VISA"),
            ("paymentMode", "CC"),
            ("card.number", CARD),
            ("card.expiryMonth", "12"),
            ("card.expiryYear", "2099"),
            ("card.cvv", "123"),
        ],
    )
    .await
}

#[tokio::test]
async fn each_usual_checksum_mistake_is_named_in_the_header_and_to_the_sink() {
    let (sandbox, lines) = explaining().await;
    let cases = [
        (
            "{id}|{key}|50.00|Rest Transaction 01",
            "the parts in another order",
        ),
        (
            "{id}|{key}|Rest Transaction 01|50",
            "the amount signed as \"50\"",
        ),
        (
            "UPPER:{id}|{key}|Rest Transaction 01|50.00",
            "upper-case hex",
        ),
        (
            "{id}|Rest Transaction 01|50.00|{key}",
            "the key at the wrong end",
        ),
        ("{id}|{key}|Rest+Transaction+01|50.00", "form-encoded"),
        (
            "{id}|another key|Rest Transaction 01|50.00",
            "no usual mistake matches",
        ),
    ];
    for (joined, named) in cases {
        let raw = pay_signed(&sandbox, joined).await;
        let answer = raw.json();
        assert_eq!(answer["result"]["code"], "20010", "{joined}");
        let header = raw.header(EXPLAIN_HEADER).expect("the diagnostic header");
        assert!(
            header.starts_with("checksum mismatch: rule payment expects MD5 of id|key|merchantTransactionId|amount = \"11344|***|Rest Transaction 01|50.00\""),
            "{header}"
        );
        assert!(header.contains(named), "{joined}: {header}");
        assert_eq!(
            lines.lock().unwrap().last().map(String::as_str),
            Some(header)
        );
    }
    // A refusal of another kind is explained by its code and description.
    let raw = common::post(&sandbox, PAYMENTS, None, &[("amount", "1.00")]).await;
    let header = raw.header(EXPLAIN_HEADER).expect("the diagnostic header");
    assert!(header.starts_with("refused "), "{header}");
    // Nothing secret: the key, the card number, the CVV or the token.
    let merchant = common::merchant(&sandbox);
    let key = merchant.secure_key.expose_secret().to_owned();
    for line in lines.lock().unwrap().iter() {
        for secret in [key.as_str(), CARD, "cvv", "AuthToken"] {
            assert!(!line.contains(secret), "{line}");
        }
    }
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_card_registration_shows_the_card_as_its_first_six_and_last_four_digits() {
    let (sandbox, lines) = explaining().await;
    let merchant = common::merchant(&sandbox);
    let token = common::merchant_token(&sandbox, merchant).await;
    let raw = common::post(
        &sandbox,
        "/transactionServices/REST/v1/registrations",
        Some(token.expose_secret()),
        &[
            ("authentication.memberId", merchant.member_id.as_str()),
            ("authentication.checksum", &"0".repeat(32)),
            ("card.number", CARD),
            ("card.expiryMonth", "12"),
            ("card.expiryYear", "2099"),
            ("card.cvv", "123"),
        ],
    )
    .await;
    let header = raw.header(EXPLAIN_HEADER).unwrap();
    assert!(
        header.contains("\"11344|***|400000******0051\""),
        "{header}"
    );
    assert!(!lines.lock().unwrap().concat().contains(CARD));
    sandbox.shutdown().await;
}

#[tokio::test]
async fn without_explain_there_is_no_header_and_the_body_is_the_same() {
    let clock = Arc::new(ManualClock::at_unix_seconds(1_795_000_000));
    let quiet = common::builder().clock(clock).start().await.unwrap();
    let (explaining, _) = explaining().await;
    let joined = "{id}|{key}|50.00|Rest Transaction 01";
    let plain = pay_signed(&quiet, joined).await;
    let explained = pay_signed(&explaining, joined).await;
    assert_eq!(plain.header(EXPLAIN_HEADER), None);
    assert!(explained.header(EXPLAIN_HEADER).is_some());
    assert_eq!(plain.body, explained.body, "the wire stays the gateway's");
    quiet.shutdown().await;
    explaining.shutdown().await;
}

/// Regression: the interface's own invoice request (`authentication.memberId`,
/// `pagination.pageno`, `pagination.records`, the `AuthToken` header, no checksum) was
/// refused `30007 Missing field: authentication.checksum`, though the platform checks no
/// checksum on it.
#[tokio::test]
async fn the_specification_s_invoice_request_is_taken_without_a_checksum_or_with_a_wrong_one() {
    const INVOICES: &str = "/invoiceServices/REST/v1/getInvoice";
    let (sandbox, lines) = explaining().await;
    let merchant = common::merchant(&sandbox);
    let token = common::merchant_token(&sandbox, merchant).await;
    let member = merchant.member_id.as_str();
    let right = common::sign(&[member, merchant.secure_key.expose_secret()]);
    let page = [
        ("authentication.memberId", member),
        ("pagination.pageno", "1"),
        ("pagination.records", "2"),
    ];
    for (checksum, said) in [
        (None, Some("checksum absent")),
        (
            Some("0123456789abcdef0123456789abcdef"),
            Some("checksum wrong"),
        ),
        (Some(right.as_str()), None),
    ] {
        let mut fields = page.to_vec();
        if let Some(checksum) = checksum {
            fields.push(("authentication.checksum", checksum));
        }
        lines.lock().unwrap().clear();
        let raw = common::post(&sandbox, INVOICES, Some(token.expose_secret()), &fields).await;
        let answer = raw.json();
        assert_eq!(raw.status, 200);
        assert_eq!(answer["memberId"], member, "{answer}");
        assert!(
            answer.get("invoiceList").is_some() || answer.get("invoices").is_some(),
            "a page of invoices: {answer}"
        );
        let header = raw.header(EXPLAIN_HEADER);
        match said {
            Some(said) => {
                let header = header.expect("explained");
                assert!(header.starts_with(said), "{header}");
                assert!(header.contains("not checked here"), "{header}");
                assert!(!header.contains(merchant.secure_key.expose_secret()));
                assert_eq!(lines.lock().unwrap().len(), 1);
            }
            None => assert_eq!(header, None),
        }
    }
    // The auth token, the member and the page values are still checked.
    let raw = common::post(&sandbox, INVOICES, None, &page).await;
    assert!(raw.text().contains("20003"), "{}", raw.text());
    let zero = [
        ("authentication.memberId", member),
        ("pagination.pageno", "0"),
        ("pagination.records", "2"),
    ];
    let raw = common::post(&sandbox, INVOICES, Some(token.expose_secret()), &zero).await;
    assert!(raw.text().contains("pagination.pageno"), "{}", raw.text());
}
