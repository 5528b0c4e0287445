use serde_json::{Value, json};

use super::*;

/// One of the sandbox's own approvals of a payment.
const APPROVED: &str = r#"{"paymentId":"54279","registrationId":"8a82944a4cc25ebf014cc2c782423202","amount":"50.00","currency":"EUR","descriptor":"Shop","result":{"code":"00001","description":"Transaction succeeded"},"card":{"bin":"400000","last4Digits":"0051","holder":"Jane Doe","expiryMonth":"07","expiryYear":"2030"},"timestamp":"2026-11-22 10:15:00","merchantTransactionId":"order-1","transactionStatus":"Y"}"#;

const NOW: &str = "2026-11-27 08:00:00";

fn learned(answers: &[(&str, Value)]) -> Likeness {
    let mut shapes = AnswerShapes::default();
    for (operation, body) in answers {
        assert!(shapes.learn(operation, &body.to_string()));
    }
    shapes.decide()
}

fn applied(likeness: &Likeness, body: &str) -> Value {
    serde_json::from_str(&likeness.apply("pay", body, NOW)).unwrap()
}

fn approval(extra: Value) -> Value {
    let mut body = json!({"paymentId": "1", "result": {"code": "00001"}});
    body.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    body
}

#[test]
fn the_most_frequent_shape_wins_and_a_tie_goes_to_the_one_seen_first() {
    let likeness = learned(&[
        ("pay", approval(json!({"descriptor": null, "timestamp": 1}))),
        (
            "pay",
            approval(json!({"descriptor": "x", "timestamp": "2020-01-01T00:00:00"})),
        ),
        ("pay", approval(json!({"descriptor": "y"}))),
    ]);
    let answer = applied(&likeness, APPROVED);
    // Text twice, null once.
    assert_eq!(answer["descriptor"], "Shop");
    // A number once, a pattern once, absent once: the number was seen first.
    assert_eq!(answer["timestamp"], 0);

    let likeness = learned(&[
        ("pay", approval(json!({}))),
        ("pay", approval(json!({"descriptor": "x"}))),
    ]);
    // Absent once (seen first), text once.
    assert!(applied(&likeness, APPROVED).get("descriptor").is_none());
}

#[test]
fn deciding_fields_stay_and_echoed_ones_take_only_equivalent_forms() {
    let likeness = learned(&[(
        "pay",
        approval(json!({
            "paymentId": 7,
            "transactionStatus": "n",
            "merchantTransactionId": "other",
            "amount": 12,
            "currency": "usd",
            "card": {"expiryMonth": "7", "expiryYear": "31", "bin": 4},
        })),
    )]);
    let answer = applied(&likeness, APPROVED);
    let original: Value = serde_json::from_str(APPROVED).unwrap();
    for key in [
        "paymentId",
        "registrationId",
        "result",
        "merchantTransactionId",
        "transactionStatus",
    ] {
        assert_eq!(answer[key], original[key], "{key}");
    }
    assert_eq!(answer["amount"], 50);
    assert_eq!(answer["currency"], "eur");
    assert_eq!(answer["card"]["expiryMonth"], "7");
    assert_eq!(answer["card"]["expiryYear"], "30");
    // Not the sandbox's to reshape.
    assert_eq!(answer["card"]["bin"], "400000");
    // Never sent by the deployment: informational fields go, echoed ones stay.
    assert!(answer.get("descriptor").is_none());
    assert!(answer["card"].get("holder").is_none());
    assert_eq!(answer["card"]["last4Digits"], "0051");

    // An amount keeps its value whatever the form learned.
    let likeness = learned(&[("pay", approval(json!({"amount": "5.5"})))]);
    let answer = likeness.apply("pay", &APPROVED.replace("50.00", "9.95"), NOW);
    assert!(answer.contains(r#""amount":"9.95""#), "{answer}");
    let answer = applied(&likeness, APPROVED);
    assert_eq!(answer["amount"], "50.0");
}

#[test]
fn lists_of_one_nesting_times_and_foreign_fields_take_the_learned_shapes() {
    let likeness = learned(&[(
        "pay",
        approval(json!({
            "card": [{"holder": {"value": "Ada"}, "expiryMonth": 7}],
            "timestamp": "2021-02-03T04:05:06.789Z",
            "eci": "05",
            "x_extra": {"note": "kept", "count": 3},
            "descriptor": "",
        })),
    )]);
    let answer = applied(&likeness, APPROVED);
    assert_eq!(answer["card"][0]["holder"], json!({"value": "Jane Doe"}));
    assert_eq!(answer["card"][0]["expiryMonth"], 7);
    assert_eq!(answer["timestamp"], "2026-11-22T10:15:00.000Z");
    assert_eq!(answer["eci"], "sandbox");
    assert_eq!(answer["x_extra"], json!({"note": "sandbox", "count": 0}));
    assert_eq!(answer["descriptor"], "");

    // And back: the one object of a list of one.
    let likeness = learned(&[(
        "cards_and_accounts",
        json!({
            "result": {"code": "0008"},
            "cards": {"card": {"registrationId": "a", "expiryYear": 2030}},
        }),
    )]);
    let own = r#"{"result":{"code":"0008"},"cards":{"card":[{"registrationId":"r1","expiryYear":"2031"}]}}"#;
    let answer: Value =
        serde_json::from_str(&likeness.apply("cards_and_accounts", own, NOW)).unwrap();
    assert_eq!(
        answer["cards"]["card"],
        json!({"registrationId": "r1", "expiryYear": 2031})
    );
}

#[test]
fn no_recorded_value_reaches_an_answer() {
    let recorded = approval(json!({
        "descriptor": "RecordedShop",
        "amount": "77.77",
        "currency": "XQZ",
        "holder": "RecordedName",
        "memberId": 97_531,
        "eci": "RecordedEci",
        "terminalId": 86_420,
        "timestamp": "1999-09-09 09:09:09",
        "x_extra": {"note": "RecordedNote", "list": ["RecordedItem"]},
        "card": {"holder": {"value": "RecordedHolder"}, "expiryMonth": "11"},
    }));
    let mut answers = vec![("pay", recorded.clone())];
    let mut refused = recorded;
    refused["result"] = json!({"code": "30006", "description": "RecordedWords"});
    answers.push(("pay", refused));
    let likeness = learned(&answers);
    let written = likeness.apply("pay", APPROVED, NOW);
    for value in [
        "Recorded", "77.77", "XQZ", "97531", "86420", "1999", "09:09", "\"11\"",
    ] {
        assert!(!written.contains(value), "{value} in {written}");
    }
}

#[test]
fn a_group_the_recording_lacks_keeps_the_sandboxs_own_shape() {
    let likeness = learned(&[("pay", json!({"result": {"code": "30006"}, "x": 1}))]);
    // An approval: no approval was learned.
    assert_eq!(likeness.apply("pay", APPROVED, NOW), APPROVED);
    assert_eq!(likeness.apply("inquiry", APPROVED, NOW), APPROVED);
    assert_eq!(likeness.apply("pay", "<html>", NOW), "<html>");
}

#[test]
fn a_hidden_value_keeps_the_sandboxs_own_form() {
    let likeness = learned(&[(
        "pay",
        approval(json!({"descriptor": "[personal]", "card": {"holder": "[personal]"}})),
    )]);
    let answer = applied(&likeness, APPROVED);
    assert_eq!(answer["descriptor"], "Shop");
    assert_eq!(answer["card"]["holder"], "Jane Doe");
}

#[test]
fn an_invoice_list_of_positions_is_asked_of_the_page_writer() {
    let likeness = learned(&[(
        "invoices",
        json!({"statusInvoiceResult": {"code": "00001"}, "invoiceList": {"0 ": {"amount": "1.00"}, "orderId": "A"}}),
    )]);
    assert_eq!(likeness.invoice_shape(), Some(InvoiceShape::PositionMap));
    let likeness = learned(&[(
        "invoices",
        json!({"result": {"code": "00001"}, "invoiceList": [{"amount": "1.00"}]}),
    )]);
    assert_eq!(likeness.invoice_shape(), None);
}

#[test]
fn times_are_rewritten_only_into_patterns_that_fit() {
    let time = "2026-11-22 10:15:00";
    assert_eq!(apply::retime(time, "99/99/9999"), None, "not year first");
    assert_eq!(
        apply::retime(time, "9999-99-99"),
        Some("2026-11-22".to_owned())
    );
    assert_eq!(
        apply::retime(time, "9999-99-99 99:99:99.9"),
        Some("2026-11-22 10:15:00.0".to_owned())
    );
    assert_eq!(apply::retime(time, "9999999999"), None);
}
