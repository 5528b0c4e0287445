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

/// Regression: learning and applying were quadratic in an answer's fields (5,000 extra
/// fields: 4.4 s an answer; 200,000: not started after 6.5 minutes).
#[test]
fn what_is_learned_is_bounded_and_each_answer_grows_by_no_more() {
    let mut extra = serde_json::Map::new();
    for i in 0..20_000 {
        extra.insert(format!("extra{i}"), json!("x"));
    }
    let mut times: Vec<Value> = Vec::new();
    for i in 0..100 {
        times.push(json!({ "timestamp": format!("{}-{i}", "1".repeat(i % 50 + 1)) }));
    }
    extra.insert("card".into(), json!({ "history": times }));
    let likeness = learned(&[("pay", approval(Value::Object(extra)))]);
    let shape = likeness.groups.values().next().unwrap();
    assert_eq!(shape.members.len(), MAX_MEMBERS);
    let answer = applied(&likeness, APPROVED);
    let fields = answer.as_object().unwrap().len();
    assert!(fields <= MAX_MEMBERS + 12, "{fields} fields");
    assert_eq!(answer["paymentId"], "54279");
    assert!(answer.get("extra0").is_some(), "the first met are learned");
    assert!(answer.get(format!("extra{MAX_MEMBERS}")).is_none());

    // A field's shapes are counted up to their bound.
    let mut votes = Votes::default();
    for i in 0..100 {
        votes.vote(Tag::Text(Form::Pattern(i.to_string())), i);
    }
    assert_eq!(votes.tags.len(), MAX_SHAPES);
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

mod property {
    use paytoken_protocol::OperationKind;
    use paytoken_protocol::recorded::{self, Reading, SentFields};
    use proptest::prelude::*;
    use serde_json::{Map, Value};

    use super::{APPROVED, NOW};
    use crate::like::AnswerShapes;

    /// Names a deployment's answers may hold: the sandbox's own, deciding ones, and others.
    const NAMES: &[&str] = &[
        "paymentId",
        "result",
        "transactionStatus",
        "registrationId",
        "amount",
        "currency",
        "paymentBrand",
        "paymentType",
        "memberId",
        "descriptor",
        "remark",
        "timestamp",
        "card",
        "holder",
        "expiryMonth",
        "expiryYear",
        "bin",
        "eci",
        "x_extra",
    ];

    /// Values only a recording holds: none may reach an answer.
    const TEXT_MARKER: &str = "zqmarker";
    const NUMBER_MARKER: i64 = 424_242;

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            Just(Value::Bool(true)),
            Just(Value::from(NUMBER_MARKER)),
            Just(Value::from("")),
            Just(Value::from(TEXT_MARKER)),
            Just(Value::from(TEXT_MARKER.to_ascii_uppercase())),
            Just(Value::from("[personal]")),
            Just(Value::from("7")),
            Just(Value::from("2031")),
            Just(Value::from("12.5")),
            Just(Value::from("2021-02-03T04:05:06Z")),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
                prop::collection::vec((prop::sample::select(NAMES), inner), 0..5).prop_map(
                    |members| {
                        Value::Object(
                            members
                                .into_iter()
                                .map(|(name, value)| (name.to_owned(), value))
                                .collect::<Map<String, Value>>(),
                        )
                    }
                ),
            ]
        })
    }

    /// An approval of a payment, its other fields as generated.
    fn recorded_approval() -> impl Strategy<Value = Value> {
        prop::collection::vec((prop::sample::select(NAMES), value()), 0..10).prop_map(|members| {
            let mut body: Map<String, Value> = members
                .into_iter()
                .map(|(name, value)| (name.to_owned(), value))
                .collect();
            body.insert("result".into(), serde_json::json!({"code": "00001"}));
            Value::Object(body)
        })
    }

    fn read(body: &str) -> (String, String) {
        let sent = SentFields::from_wire(
            None,
            [
                ("merchantTransactionId", "order-1"),
                ("amount", "50.00"),
                ("currency", "EUR"),
            ],
        );
        match recorded::read(OperationKind::Payment, &sent, 200, body.as_bytes()) {
            Ok(Reading::Transaction(transaction)) => (
                transaction.payment_id.to_string(),
                format!("{:?}", transaction.status),
            ),
            other => panic!("{other:?}: {body}"),
        }
    }

    proptest! {
        /// Whatever a deployment's approvals looked like, an approval answered like them
        /// reads as the same approval, and holds none of their values.
        #[test]
        fn an_answer_like_any_recording_reads_the_same_and_copies_nothing(
            recorded in prop::collection::vec(recorded_approval(), 1..4),
        ) {
            let mut shapes = AnswerShapes::default();
            for body in &recorded {
                prop_assert!(shapes.learn("pay", &body.to_string()));
            }
            let likeness = shapes.decide();
            let answer = likeness.apply("pay", APPROVED, NOW);
            prop_assert_eq!(&answer, &likeness.apply("pay", APPROVED, NOW));
            prop_assert_eq!(read(&answer), read(APPROVED));
            prop_assert!(!answer.contains(TEXT_MARKER), "{}", answer);
            prop_assert!(!answer.contains(&TEXT_MARKER.to_ascii_uppercase()), "{}", answer);
            prop_assert!(!answer.contains(&NUMBER_MARKER.to_string()), "{}", answer);
        }
    }
}
