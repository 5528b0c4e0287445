//! The sandbox's doors where text arrives unnamed, each tried with planted secrets: a body
//! that is not a form, a field whose name holds a secret. The request log, the console
//! and the state file show none of them.

use std::path::PathBuf;

use crate::common;

use common::*;
use paytoken_protocol::AUTH_TOKEN_HEADER;
use paytoken_sandbox::{CONSOLE_PREFIX, Sandbox, cards};

const CARD: &str = cards::APPROVED;
const CVV: &str = "739";

/// A state file in the system's temporary folder, removed with SQLite's files when dropped.
struct StateFile(PathBuf);

impl Drop for StateFile {
    fn drop(&mut self) {
        let _ = paytoken_sandbox::remove_state_file(&self.0);
    }
}

/// A GET of `target` under the console's rules, as a local tool sends it: the whole
/// answer, which must be a 200.
async fn read(sandbox: &Sandbox, target: &str) -> String {
    let page = paytoken_test_support::http::get_local(sandbox.address(), target).await;
    assert!(page.starts_with("HTTP/1.1 200"), "{target}: {page}");
    page
}

/// The console's request log and the log as the library gives it, as text.
async fn log_text(sandbox: &Sandbox) -> String {
    let page = read(sandbox, &format!("{CONSOLE_PREFIX}requests")).await;
    format!("{page}\n{:?}", sandbox.requests_after(0))
}

#[tokio::test]
async fn a_body_that_is_not_a_form_and_secret_names_show_nothing_they_hold() {
    let file = StateFile(std::env::temp_dir().join(format!(
        "paytoken-doors-{}-{}.db",
        std::process::id(),
        order_id()
    )));
    let sandbox = Sandbox::builder()
        .state_file(&file.0)
        .start()
        .await
        .unwrap();
    let merchant = merchant(&sandbox);
    let key = merchant.secure_key.expose_secret().to_owned();
    let token = merchant_token(&sandbox, merchant).await;
    let token = token.expose_secret();
    let path = "/transactionServices/REST/v1/payments";
    // A JSON body, as a client that forgot to form-encode sends it.
    let json =
        format!(r#"{{"authentication.sKey":"{key}","card.number":"{CARD}","card.cvv":"{CVV}"}}"#);
    let headers = [
        (AUTH_TOKEN_HEADER, token),
        ("Content-Type", "application/json"),
    ];
    exchange(sandbox.address(), "POST", path, &headers, json.as_bytes())
        .await
        .unwrap();
    // A form whose field names hold the key, a card number and a CVV.
    let named = form(&[
        (&format!(r#"{{"sKey":"{key}"}}"#), "1"),
        (&format!("sKey={key}"), "2"),
        (&format!("card {CARD}"), "3"),
        (&format!(r#"{{"card.cvv":"{CVV}"}}"#), "4"),
        ("amount", "1.00"),
    ]);
    let form_headers = [
        (AUTH_TOKEN_HEADER, token),
        ("Content-Type", "application/x-www-form-urlencoded"),
    ];
    exchange(sandbox.address(), "POST", path, &form_headers, &named)
        .await
        .unwrap();

    let log = log_text(&sandbox).await;
    assert!(log.contains("(json), not kept"), "{log}");
    sandbox.shutdown().await;
    let cvv = format!(r#""card.cvv":"{CVV}""#);
    for secret in [key.as_str(), token, CARD, &cvv] {
        assert!(
            !log.contains(secret),
            "the request log shows {secret}: {log}"
        );
    }
    // The state file keeps the token only as a digest.
    let kept = paytoken_test_support::state_file::text(&file.0);
    for secret in [key.as_str(), token, CARD, &cvv] {
        assert!(!kept.contains(secret), "the state file shows {secret}");
    }
}

#[tokio::test]
async fn an_id_holding_a_card_number_shows_masked_and_is_kept_as_sent() {
    use paytoken_protocol::ops::inquiry::Inquiry;
    use paytoken_protocol::ops::payment::Payment;
    use paytoken_sandbox::{DASHBOARD_PATH, EXPLAIN_HEADER};
    use std::sync::{Arc, Mutex};

    const ORDER: &str = "plant-order-5555555555554444";
    let file = StateFile(std::env::temp_dir().join(format!(
        "paytoken-ids-{}-{}.db",
        std::process::id(),
        order_id()
    )));
    let explained = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = Arc::clone(&explained);
    let sandbox = Sandbox::builder()
        .state_file(&file.0)
        .explain(move |line| sink.lock().unwrap().push(line.to_owned()))
        .start()
        .await
        .unwrap();
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let payment = Payment::new(
        ORDER.parse().unwrap(),
        "50.00".parse().unwrap(),
        "EUR".parse().unwrap(),
        card(cards::APPROVED),
    );
    let paid = call(&sandbox, &context, &payment).await.unwrap();
    // A refund to a path whose id is a card number, with a wrong checksum: explained.
    let token = context.auth_token.as_ref().unwrap().expose_secret();
    let refused = post(
        &sandbox,
        &format!("/transactionServices/REST/v1/payments/{CARD}"),
        Some(token),
        &[
            (
                "authentication.memberId",
                merchant(&sandbox).member_id.as_str(),
            ),
            ("authentication.checksum", "00"),
            ("amount", "1.00"),
            ("currency", "EUR"),
            ("paymentType", "RF"),
        ],
    )
    .await;
    let header = refused
        .header(EXPLAIN_HEADER)
        .expect("explained")
        .to_owned();

    let mut shown = vec![("the explanation's header", header)];
    shown.push(("the explanations", explained.lock().unwrap().join("\n")));
    for path in ["books", "requests"] {
        shown.push((
            path,
            read(&sandbox, &format!("{CONSOLE_PREFIX}{path}")).await,
        ));
    }
    shown.push(("the dashboard", read(&sandbox, DASHBOARD_PATH).await));
    assert!(shown[1].1.contains("checksum"), "{}", shown[1].1);
    for (place, text) in &shown {
        for number in ["5555555555554444", CARD] {
            assert!(!text.contains(number), "{place} shows {number}: {text}");
        }
    }
    assert!(
        shown[2].1.contains("plant-order-555555******4444"),
        "{}",
        shown[2].1
    );

    // The books keep the id as sent: found by it after a restart from the file.
    sandbox.shutdown().await;
    let again = Sandbox::builder()
        .state_file(&file.0)
        .start()
        .await
        .unwrap();
    let context = signed_in(&again, merchant(&again)).await;
    let found = call(
        &again,
        &context,
        &Inquiry::ByMerchantTransactionId(ORDER.parse().unwrap()),
    )
    .await
    .unwrap();
    assert_eq!(found.payment_id, paid.payment_id);
    assert_eq!(
        found.merchant_transaction_id.as_ref().map(|id| id.as_str()),
        Some(ORDER)
    );
}
