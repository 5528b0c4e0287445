//! The verdict rests on the deciding fields only.
//!
//! - Every success fixture, read by the operation that asked for it, with each incidental
//!   field varied in turn (a JSON number, `null`, `""`, `true`, another date or amount form,
//!   a 200-character text, a nested object, a one-element list): the verdict (outcome, ids,
//!   codes; `common::verdict`) does not change. Echoed fields are varied only into forms
//!   that mean the same (`50` for `50.00`, `eur` for `EUR`).
//! - Each echoed field changed to another value: the answer is a contradiction, never a
//!   success.

use crate::common;

use common::Asked;
use paytoken_protocol::ops::inquiry::Inquiry;
use proptest::prelude::*;
use serde_json::{Value, json};

/// Fields that decide an answer (never varied), and the containers of deciding lists
/// (descended into, never replaced).
const DECIDING: &[&str] = &[
    "paymentId",
    "result",
    "statusInvoiceResult",
    "transactionStatus",
    "registrationId",
    "customerId",
    "AuthToken",
    "installment",
    "redirect",
];
const DECIDING_LISTS: &[&str] = &[
    "cards",
    "bankaccounts",
    "card",
    "bankaccount",
    "invoiceList",
];
/// A deciding field of an inquiry's answer alone: the long status, where the payment
/// stands since its approval (it is kept as it came in every other answer).
const INQUIRY_DECIDING: &str = "status";
/// Fields an answer echoes of its request: varied only into equivalent forms.
pub(crate) const ECHOED: &[&str] = &["merchantTransactionId", "amount", "currency"];

/// The JSON answer fixtures.
fn fixtures() -> Vec<(String, Vec<u8>)> {
    let mut all = common::response_fixtures();
    all.retain(|(name, _)| name.ends_with(".json"));
    all
}

/// The success fixtures, as JSON values whose re-serialized form gives the same verdict.
pub(crate) fn successes() -> Vec<(String, Asked, Value)> {
    fixtures()
        .into_iter()
        .filter_map(|(name, body)| {
            let asked = common::asked(&name);
            let verdict = common::verdict(&asked, 200, &body);
            let value: Value = serde_json::from_slice(&body).ok()?;
            let again = common::verdict(&asked, 200, value.to_string().as_bytes());
            // The invoice position map repeats keys, which a `Value` cannot hold.
            (verdict.starts_with("ok ") && again == verdict).then_some((name, asked, value))
        })
        .collect()
}

/// A key path into an answer, and what the field at its end is.
#[derive(Debug, Clone)]
struct Spot {
    path: Vec<String>,
    echoed: bool,
}

/// Every field that may vary: incidental ones anywhere (inside deciding lists too), and
/// echoed ones at the top.
fn spots(inquiry: bool, value: &Value, path: &mut Vec<String>, out: &mut Vec<Spot>) {
    let Value::Object(map) = value else {
        if let Value::Array(items) = value {
            for (index, item) in items.iter().enumerate() {
                path.push(index.to_string());
                spots(inquiry, item, path, out);
                path.pop();
            }
        }
        return;
    };
    for (key, child) in map {
        path.push(key.clone());
        let top = path.len() == 1;
        let key = key.as_str();
        // The payment's `card` is one object of incidental fields; `cards.card` is a list.
        let list = DECIDING_LISTS.contains(&key) && !(key == "card" && top);
        let position = !key.is_empty() && key.trim().bytes().all(|b| b.is_ascii_digit());
        if DECIDING.contains(&key) || (inquiry && top && key == INQUIRY_DECIDING) {
            // Never varied.
        } else if ECHOED.contains(&key) && top {
            out.push(Spot {
                path: path.clone(),
                echoed: true,
            });
        } else if list || position {
            spots(inquiry, child, path, out);
        } else {
            out.push(Spot {
                path: path.clone(),
                echoed: false,
            });
            spots(inquiry, child, path, out);
        }
        path.pop();
    }
}

fn at<'a>(value: &'a mut Value, path: &[String]) -> &'a mut Value {
    path.iter().fold(value, |node, key| match node {
        Value::Array(items) => &mut items[key.parse::<usize>().unwrap()],
        _ => &mut node[key.as_str()],
    })
}

/// The forms an incidental field may come in, whatever it held.
fn incidental_forms(original: &Value) -> Vec<Value> {
    let text = original.as_str().unwrap_or("text").to_owned();
    vec![
        json!(12345),
        json!(null),
        json!(""),
        json!(true),
        json!("2026-11-22T10:15:00+01:00"),
        json!("50"),
        json!(text.chars().cycle().take(200).collect::<String>()),
        json!({ "value": original, "nested": { "deeper": [1, 2] } }),
        json!([original]),
        json!({ "bin": "", "holder": null }),
    ]
}

/// The forms an echoed field may come in and still mean the same.
pub(crate) fn equivalent_forms(key: &str, original: &Value) -> Vec<Value> {
    let text = original.as_str().unwrap_or_default();
    match key {
        "amount" => {
            let (whole, cents) = text.split_once('.').unwrap_or((text, "00"));
            let mut forms = vec![
                json!(format!("{whole}.{cents}0")),
                json!(format!("0{whole}.{cents}")),
                serde_json::from_str(&format!("{whole}.{cents}")).unwrap(),
                json!([text]),
            ];
            if cents == "00" {
                forms.push(json!(whole));
                forms.push(serde_json::from_str(whole).unwrap());
            }
            forms
        }
        "currency" => vec![json!(text.to_ascii_lowercase()), json!(format!(" {text} "))],
        _ => vec![original.clone(), json!(null), json!("")],
    }
}

#[test]
fn the_verdict_survives_every_incidental_variation() {
    let successes = successes();
    assert!(
        successes.len() >= 20,
        "{} success fixtures",
        successes.len()
    );
    let mut varied = 0;
    for (name, asked, value) in &successes {
        let verdict = common::verdict(asked, 200, value.to_string().as_bytes());
        let mut found = Vec::new();
        let inquiry = matches!(asked, Asked::Inquiry(_));
        spots(inquiry, value, &mut Vec::new(), &mut found);
        for spot in found {
            let original = at(&mut value.clone(), &spot.path).clone();
            let forms = if spot.echoed {
                equivalent_forms(spot.path.last().unwrap(), &original)
            } else {
                incidental_forms(&original)
            };
            for form in forms {
                let mut answer = value.clone();
                *at(&mut answer, &spot.path) = form.clone();
                let body = answer.to_string();
                assert_eq!(
                    common::verdict(asked, 200, body.as_bytes()),
                    verdict,
                    "{name}: {:?} as {form}",
                    spot.path
                );
                varied += 1;
            }
        }
    }
    assert!(varied > 500, "{varied} variations");
}

/// The echoed fields each success fixture's operation checks, with the value to put there
/// instead: another merchant transaction id, amount, currency or id.
pub(crate) fn contradicting(asked: &Asked, value: &Value) -> Vec<(&'static str, Value)> {
    let text = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
    let mut out = Vec::new();
    let money = |out: &mut Vec<(&'static str, Value)>| {
        if let Some(amount) = text("amount") {
            out.push(("amount", json!(format!("1{amount}"))));
            // A number is compared as money whatever its sign or size.
            out.push(("amount", json!(format!("-{amount}"))));
            out.push(("amount", json!("99999999999999999999.00")));
        }
        if let Some(currency) = text("currency") {
            let other = if currency == "JPY" { "EUR" } else { "JPY" };
            out.push(("currency", json!(other)));
        }
    };
    match asked {
        Asked::Payment(_) | Asked::TokenPayment(_) => {
            money(&mut out);
            if let Some(id) = text("merchantTransactionId") {
                out.push(("merchantTransactionId", json!(format!("{id} "))));
            }
        }
        Asked::Inquiry(Inquiry::ByMerchantTransactionId(_)) => {
            out.push(("merchantTransactionId", json!("another order")));
        }
        Asked::Inquiry(_) => out.push(("paymentId", json!("99999"))),
        Asked::DeleteToken(_) | Asked::Installments(_) => {
            out.push(("registrationId", json!("8a82944a4cc25ebf014cc2c7824232ff")));
        }
        Asked::CardsAndAccounts(_) if value.get("customerId").is_some() => {
            out.push(("customerId", json!("9999")));
        }
        _ => {}
    }
    if let Asked::TokenPayment(_) = asked {
        out.push(("registrationId", json!("8a82944a4cc25ebf014cc2c7824232ff")));
    }
    out
}

#[test]
fn an_answer_about_another_transaction_is_a_contradiction() {
    let mut checked = 0;
    for (name, asked, value) in successes() {
        for (key, other) in contradicting(&asked, &value) {
            let mut answer = value.clone();
            answer[key] = other.clone();
            let verdict = common::verdict(&asked, 200, answer.to_string().as_bytes());
            assert_eq!(verdict, "error Contradiction", "{name}: {key} = {other}");
            checked += 1;
        }
    }
    assert!(checked >= 12, "{checked} contradictions");
}

proptest! {
    /// Any amount but the one sent is a contradiction, in any form it comes in; the one
    /// sent, in any form, is not.
    #[test]
    fn only_another_amount_contradicts(cents in 0u64..10_000_000, form in 0usize..3) {
        let asked = common::asked("payment/declined.json");
        let sent = 5000; // 50.00 EUR, what `payment/declined.json` answers
        let text = |minor: u64| match form {
            0 => format!("{}.{:02}", minor / 100, minor % 100),
            1 => format!("\"{}.{:02}0\"", minor / 100, minor % 100),
            _ => format!("\"{}.{:02}\"", minor / 100, minor % 100),
        };
        let body = format!(
            r#"{{"paymentId":"54284","amount":{},"currency":"EUR","result":{{"code":"10001"}},"transactionStatus":"N"}}"#,
            text(cents)
        );
        let verdict = common::verdict(&asked, 200, body.as_bytes());
        if cents == sent {
            prop_assert!(verdict.starts_with("ok "), "{}", verdict);
        } else {
            prop_assert_eq!(verdict, "error Contradiction");
        }
    }

    /// A merchant transaction id is echoed byte for byte: any other text contradicts.
    #[test]
    fn only_the_same_merchant_transaction_id_agrees(id in "[ -~]{1,40}") {
        let asked = common::asked("payment/approved.json");
        let body = serde_json::json!({
            "paymentId": "54279",
            "merchantTransactionId": id,
            "result": {"code": "00001"},
        })
        .to_string();
        let verdict = common::verdict(&asked, 200, body.as_bytes());
        if id == "order20261122A" || id.trim().is_empty() {
            prop_assert!(verdict.starts_with("ok "), "{}", verdict);
        } else {
            prop_assert_eq!(verdict, "error Contradiction");
        }
    }
}
