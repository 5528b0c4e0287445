//! The doors where text arrives unnamed (a gateway's free text, a body that is not a form,
//! an id, a header), each tried with planted secrets: what comes through shows none of
//! them in any output of the command. The audit (`audit.rs`) reads every output at once;
//! each test here holds one door.

use crate::common::{Run, answering_with, at_gateway_with_key, card_flags, form_named};

/// The secure key the command holds: under 24 characters, so only holding it masks it.
const KEY: &str = "Held key/+&8q";
/// The auth token the gateway issues the command: under 24 characters too.
const TOKEN: &str = "tok-held-Zq93";
/// A key and a token the command does not hold: masked as long words with a digit, as
/// keys and tokens are.
const FOREIGN_KEY: &str = "foreign-secure-key-of-shop-7731";
const FOREIGN_TOKEN: &str = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvdGhlciJ9.c2lnbmF0dXJl";
const CARD: &str = "4000000000000051";
const IBAN: &str = "DE89370400440532013000";

/// Each planted value found in `output`, compacted of spaces and dashes for the numbers.
fn found(output: &str) -> Vec<&'static str> {
    let compact: String = output.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
    [
        KEY,
        TOKEN,
        FOREIGN_KEY,
        FOREIGN_TOKEN,
        "Held+key",
        "Held%20key",
    ]
    .into_iter()
    .filter(|value| output.contains(value))
    .chain(
        [CARD, IBAN]
            .into_iter()
            .filter(|value| compact.contains(value)),
    )
    .collect()
}

/// The descriptions a hostile gateway gives: the held key in its plain, percent-encoded
/// and JSON-escaped forms, the auth token it issued, card numbers grouped and dashed, a
/// spaced IBAN, a joined checksum echo, and a key and a token the command does not hold.
fn descriptions() -> Vec<String> {
    vec![
        format!(
            "card 4000 0000 0000 0051 / 4000-0000-0000-0051 declined; key {KEY}; token {TOKEN}; iban DE89 3704 0044 0532 0130 00"
        ),
        format!("Invalid checksum; computed over 11344|o-1|10.00|EUR|{KEY}"),
        "Invalid checksum; computed over 11344|o-1|10.00|EUR|short-Key-9".to_owned(),
        "echo sKey=Held+key%2F%2B%268q and Held%20key%2F%2B%268q".to_owned(),
        format!("others: {FOREIGN_KEY} {FOREIGN_TOKEN}"),
    ]
}

/// A gateway that issues [`TOKEN`], then answers each payment with `answer`.
async fn gateway(answer: String) -> String {
    answering_with(move |served| {
        if served == 0 {
            format!(
                r#"{{"result":{{"code":"200","description":"Token generated successfully"}},"AuthToken":"{TOKEN}"}}"#
            )
        } else {
            answer.clone()
        }
    })
    .await
}

async fn pay(url: &str, json: bool) -> Run {
    let mut line = Vec::from(if json { &["--json"][..] } else { &[] });
    line.extend([
        "pay",
        "--amount",
        "10.00",
        "--currency",
        "EUR",
        "--merchant-transaction-id",
        "o-1",
    ]);
    line.extend(card_flags(CARD));
    at_gateway_with_key(url, KEY, &line).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gateways_free_text_shows_no_secret_in_the_commands_output() {
    for description in descriptions() {
        let text = serde_json::to_string(&description).unwrap();
        // Refused, and approved: the description is shown either way.
        for answer in [
            format!(r#"{{"paymentId":"-","result":{{"code":"30001","description":{text}}}}}"#),
            format!(
                r#"{{"paymentId":"8a82944a4cc25ebf014cc2c782423202","merchantTransactionId":"o-1","amount":"10.00","currency":"EUR","result":{{"code":"00001","description":{text}}},"transactionStatus":"Y"}}"#
            ),
        ] {
            for json in [false, true] {
                let url = gateway(answer.clone()).await;
                let run = pay(&url, json).await;
                let output = format!("{}\n{}", run.stdout, run.stderr);
                assert!(
                    output.contains("[redacted]") || output.contains("***"),
                    "the description was shown: {output}"
                );
                let leaked = found(&output);
                assert!(leaked.is_empty(), "{leaked:?} in {output}\nanswer {answer}");
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_approved_payments_id_shows_whole_beside_a_masked_description() {
    let id = "8a82944a4cc25ebf014cc2c782423202";
    let answer = format!(
        r#"{{"paymentId":"{id}","merchantTransactionId":"o-1","amount":"10.00","currency":"EUR","result":{{"code":"00001","description":"ok {id} for {FOREIGN_KEY}"}},"transactionStatus":"Y"}}"#
    );
    let url = gateway(answer).await;
    let run = pay(&url, true).await;
    let description = run.json()["result"]["description"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        description,
        format!("ok {id} for [redacted]"),
        "{}",
        run.stdout
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cassette_keeps_no_secret_in_a_fields_name_or_a_headers_value() {
    use crate::common::fresh_folder;
    use crate::record::record;
    use paytoken_test_support::http::post;

    let url =
        gateway(r#"{"paymentId":"-","result":{"code":"30001","description":"no"}}"#.into()).await;
    let cassette = fresh_folder("doors-cassette").join("cassette.jsonl");
    let (recorder, proxy) = record(&url, &cassette, &[]).await;
    let names = [
        format!("sKey={FOREIGN_KEY}"),
        format!(r#"{{"authentication.sKey":"{FOREIGN_KEY}"}}"#),
        format!("card {CARD}"),
    ];
    post(
        &format!("{proxy}/transactionServices/REST/v1/payments"),
        &[
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("X-Debug", &format!("sKey={FOREIGN_KEY}; card={CARD}")),
            ("X-Trace", &format!("seen {FOREIGN_TOKEN}")),
        ],
        &form_named(&names),
    )
    .await;
    let stderr = recorder.stop();
    let recorded = std::fs::read_to_string(&cassette).unwrap();
    assert!(recorded.contains("amount"), "{recorded}");
    for (place, text) in [
        ("the cassette", &recorded),
        ("the recorder's stderr", &stderr),
    ] {
        let leaked = found(text);
        assert!(leaked.is_empty(), "{place} shows {leaked:?}: {text}");
    }
}
