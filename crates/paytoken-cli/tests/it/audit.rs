//! The secret audit: planted secrets (the secure key under every name and header a
//! gateway or a careless client uses, a CVV), a card number (as a card, under other names,
//! in an order id and the path carrying it, grouped in free text), an IBAN and personal
//! values go through the command, `paytoken record` and a sandbox that explains its
//! refusals, and come back in a hostile gateway's answers; then every output (the
//! commands' stdout and stderr, the cassettes, the recorders' stderr, every console
//! answer, the dashboard, the sandbox's explanations) is searched for any of them, and
//! for a mask in any form but the one.
//! The client's own half (tracing at every level, errors' `Display` and `Debug`) is
//! `tests/tests/it/client_secrets.rs`.

use std::sync::{Arc, Mutex};

use paytoken_sandbox::{DASHBOARD_PATH, Sandbox, cards};

use crate::common::{
    answering_with, card_flags, form_named, fresh_folder, merchant_of, paytoken, post_raw,
    with_flags,
};
use crate::record::record;
use paytoken_test_support::http::post;

/// The card number the audit plants, and the order id and free text that carry it.
const CARD: &str = cards::APPROVED;
const ORDER: &str = "audit-4000000000000051";
/// The commands' own order id: what a command prints of its answer holds it as given.
const COMMAND_ORDER: &str = "audit-order-1";
const GROUPED: &str = "4000 0000 0000 0051";
const DASHED: &str = "4000-0000-0000-0051";
const IBAN: &str = "DE89370400440532013000";
const IBAN_SPACED: &str = "DE89 3704 0044 0532 0130 00";
/// A key and a token the command does not hold, as a hostile gateway may echo them.
const FOREIGN_KEY: &str = "foreign-secure-key-of-shop-7731";
const FOREIGN_TOKEN: &str = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvdGhlciJ9.c2lnbmF0dXJl";
/// A CVV under the names other gateways give it.
const CVV: &str = "Q7cvv9Z";
/// Personal values, each in one field of the audit's requests.
const PERSONAL: [&str; 5] = [
    "Zenobia",
    "Quillfeather",
    "zenobia.q@planted.example",
    "Zenobia Quillfeather",
    "17 Larkspur Lane",
];
/// How each kind is shown, in its one form.
const CARD_SHOWN: &str = "400000******0051";
const IBAN_SHOWN: &str = "DE****************3000";
const REDACTED: &str = "[redacted]";
const PERSONAL_SHOWN: &str = "[personal]";

/// Each planted value found in `output`, named with where it was found; a card number or
/// an IBAN also when grouped by spaces or dashes.
fn leaks(planted: &[&str], place: &str, output: &str) -> Vec<String> {
    let compact: String = output.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
    planted
        .iter()
        .filter(|value| {
            output.contains(**value)
                || (value.bytes().all(|b| b.is_ascii_alphanumeric()) && compact.contains(**value))
        })
        .map(|value| format!("{place} shows {value}"))
        .collect()
}

#[test]
fn the_audit_finds_a_value_that_was_not_masked() {
    let planted = [CARD, IBAN, PERSONAL[2]];
    assert!(leaks(&planted, "out", "400000******0051 DE****3000 [personal]").is_empty());
    for unmasked in [
        format!("card {CARD}"),
        format!("card {GROUPED}"),
        format!("iban {IBAN}"),
        format!("mail {}", PERSONAL[2]),
    ] {
        assert_eq!(leaks(&planted, "out", &unmasked).len(), 1, "{unmasked}");
    }
}

/// A GET of `path` at the sandbox, as a local browser asks: the whole answer as text.
async fn get(sandbox: &Sandbox, path: &str) -> String {
    paytoken_test_support::http::get_local(sandbox.address(), path).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_planted_secret_card_number_iban_or_personal_value_shows_anywhere() {
    let explained = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = Arc::clone(&explained);
    let folder = fresh_folder("audit");
    let state = folder.join("state.db");
    let sandbox = Sandbox::builder()
        .explain(move |line| sink.lock().unwrap().push(line.to_owned()))
        .state_file(&state)
        .start()
        .await
        .unwrap();
    let cassette = folder.join("cassette.jsonl");
    let (recorder, proxy) = record(sandbox.base_url(), &cassette, &[]).await;
    let (flags, env) = merchant_of(&sandbox);
    let key = env[0].1.clone();
    let key_for_gateway = key.clone();
    let mut through = flags.clone();
    let at = through
        .iter()
        .position(|flag| flag == "--base-url")
        .unwrap();
    through[at + 1] = proxy.clone();
    let mut outputs: Vec<(String, String)> = Vec::new();

    // A payment by a named person; the inquiry by its order id (the path carries it); a
    // bank account stored.
    let mut pay = vec![
        "pay",
        "--amount",
        "12.00",
        "--currency",
        "EUR",
        "--merchant-transaction-id",
        COMMAND_ORDER,
        "--given-name",
        PERSONAL[0],
        "--surname",
        PERSONAL[1],
        "--email",
        PERSONAL[2],
        "--holder",
        PERSONAL[3],
    ];
    // A return address that carries the key in its query, as a careless shop might.
    let redirect = format!("https://shop.example/back?sKey={key}&order=1");
    pay.extend(["--redirect-url", redirect.as_str()]);
    pay.extend(card_flags(CARD));
    let register = [
        "register",
        "--iban",
        IBAN,
        "--bic",
        "COBADEFFXXX",
        "--email",
        PERSONAL[2],
    ];
    let inquiry = ["inquiry", "--merchant-transaction-id", COMMAND_ORDER];
    for json in [true, false] {
        for args in [&pay[..], &register[..], &inquiry[..]] {
            let mut line = through.clone();
            if json {
                line.push("--json".to_owned());
            }
            let run = with_flags(&line, &key, args).await;
            outputs.push((format!("{} stdout", args[0]), run.stdout));
            outputs.push((format!("{} stderr", args[0]), run.stderr));
        }
    }

    // A hand-made payment whose order id holds the card number, with a wrong checksum and
    // the card grouped in its descriptor: refused and explained; then the inquiry by that
    // order id, the card number in the path.
    let member = sandbox.config().partners[0].merchants[0]
        .member_id
        .to_string();
    let refused = post_raw(
        &format!("{proxy}/transactionServices/REST/v1/payments"),
        "application/x-www-form-urlencoded",
        &format!(
            "authentication.memberId={member}&authentication.checksum=00&merchantTransactionId={ORDER}x&amount=1.00&currency=EUR&paymentType=DB&paymentBrand=VISA&paymentMode=CC&card.number={CARD}&card.expiryMonth=12&card.expiryYear=2099&card.cvv=123&orderDescriptor={}&customer.email={}",
            GROUPED.replace(' ', "+"),
            PERSONAL[2]
        ),
    )
    .await;
    outputs.push(("a refused payment's answer".into(), refused));
    let by_order = with_flags(
        &through,
        &key,
        &[
            "--json",
            "inquiry",
            "--merchant-transaction-id",
            &format!("{ORDER}x"),
        ],
    )
    .await;
    assert_eq!(by_order.json()["outcome"], "refused", "{}", by_order.stdout);
    // The same inquiry by an order id whose card number is grouped by spaces: the path
    // writes them as `%20`.
    let grouped_order = format!("audit {GROUPED}");
    let by_grouped = with_flags(
        &through,
        &key,
        &["inquiry", "--merchant-transaction-id", &grouped_order],
    )
    .await;
    outputs.push(("a grouped inquiry's stderr".into(), by_grouped.stderr));

    // The key, the CVV, the card number, the IBAN and personal values under the names
    // and headers other clients use.
    let planted_names = post(
        &format!("{proxy}/transactionServices/REST/v1/payments"),
        &[
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("X-Api-Key", &key),
            ("X-Auth-Token", &key),
            ("Authorization", &format!("Bearer {key}")),
        ],
        &planted_form(&member, &key),
    )
    .await;
    outputs.push(("a planted request's answer".into(), planted_names));
    // The same as JSON rather than a form, a header that carries the key, and field names
    // that hold what values would.
    let token = paytoken_test_support::raw::merchant_token(
        &sandbox,
        sandbox
            .config()
            .merchant(paytoken_sandbox::DEFAULT_MERCHANT_ID)
            .unwrap(),
    )
    .await;
    let json_body = serde_json::json!({
        "authentication.sKey": key,
        "card.number": CARD,
        "card.cvv": CVV,
        "bankAccount.iban": IBAN_SPACED,
    })
    .to_string();
    for (content_type, body) in [
        ("application/json", json_body),
        ("application/x-www-form-urlencoded", secret_names(&key)),
    ] {
        let answer = post(
            &format!("{proxy}/transactionServices/REST/v1/payments"),
            &[
                ("Content-Type", content_type),
                ("AuthToken", token.expose_secret()),
                (
                    "X-Debug",
                    &format!("sKey={key}; card={DASHED}; token={FOREIGN_TOKEN}"),
                ),
            ],
            &body,
        )
        .await;
        outputs.push((format!("a {content_type} request's answer"), answer));
    }

    // A hostile gateway's answers, recorded and read by the command.
    let hostile_cassette = folder.join("hostile.jsonl");
    let gateway = answering_with(move |_| hostile_answer(&key_for_gateway)).await;
    let (hostile_recorder, hostile_proxy) = record(&gateway, &hostile_cassette, &[]).await;
    let mut hostile = flags.clone();
    hostile[at + 1] = hostile_proxy;
    for json in [true, false] {
        let mut line = hostile.clone();
        if json {
            line.push("--json".to_owned());
        }
        let run = with_flags(&line, &key, &inquiry).await;
        outputs.push(("a hostile inquiry's stdout".into(), run.stdout));
        outputs.push(("a hostile inquiry's stderr".into(), run.stderr));
    }
    outputs.push((
        "the hostile recorder's stderr".into(),
        hostile_recorder.stop(),
    ));
    let hostile_recorded = std::fs::read_to_string(&hostile_cassette).unwrap();
    assert!(hostile_recorded.lines().count() >= 2, "{hostile_recorded}");
    outputs.push(("the hostile cassette".into(), hostile_recorded));

    // The console from a shell, and in a browser.
    for args in [
        vec!["books"],
        vec!["logs", "tail", "--once"],
        vec!["events", "list"],
        vec!["clock", "show"],
    ] {
        for json in [true, false] {
            let mut line = flags.clone();
            if json {
                line.push("--json".to_owned());
            }
            line.extend(args.iter().map(|arg| (*arg).to_owned()));
            let line: Vec<&str> = line.iter().map(String::as_str).collect();
            let run = paytoken(&line, &[]).await;
            outputs.push((format!("{} stdout", args.join(" ")), run.stdout));
            outputs.push((format!("{} stderr", args.join(" ")), run.stderr));
        }
    }
    for path in ["books", "requests", "notifications", "clock", "faults"] {
        let answer = get(&sandbox, &format!("/sandbox/console/{path}")).await;
        outputs.push((format!("the console's {path}"), answer));
    }
    outputs.push(("the dashboard".into(), get(&sandbox, DASHBOARD_PATH).await));
    let explanations = explained.lock().unwrap().join("\n");
    assert!(!explanations.is_empty(), "the refusal was explained");
    outputs.push(("the explanations".into(), explanations));
    outputs.push(("the recorder's stderr".into(), recorder.stop()));
    let recorded = std::fs::read_to_string(&cassette).unwrap();
    assert!(recorded.lines().count() >= 10, "{recorded}");
    assert!(
        recorded.contains("back?sKey=[redacted]&order=1"),
        "the return address was recorded, its key hidden"
    );
    outputs.push(("the cassette".into(), recorded));
    sandbox.shutdown().await;
    // The state file keeps what the books need as it was sent (SANDBOX.md): the return
    // address the sandbox sends a browser to, and the names on cards and customers; no
    // secret, card number or IBAN besides.
    let kept = paytoken_test_support::state_file::text(&state).replace(&redirect, "");
    assert!(kept.contains(COMMAND_ORDER), "the state file was read");
    let secrets = [
        CARD,
        IBAN,
        key.as_str(),
        CVV,
        FOREIGN_KEY,
        FOREIGN_TOKEN,
        token.expose_secret(),
    ];
    let found: Vec<String> = leaks(&secrets, "the state file", &kept);
    assert!(found.is_empty(), "{}", found.join("\n"));

    let mut planted = secrets.to_vec();
    planted.extend(PERSONAL);
    let (said, shown): (Vec<_>, Vec<_>) = outputs
        .iter()
        .partition(|(place, _)| place.ends_with("stdout") || place.ends_with("stderr"));
    let found: Vec<String> = shown
        .iter()
        .flat_map(|(place, output)| leaks(&planted, place, output))
        .collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
    // What a command prints of its own answer (the holder, the person) is the user's:
    // the key, the CVV and the IBAN never show there.
    let found: Vec<String> = said
        .iter()
        .flat_map(|(place, output)| {
            leaks(
                &[key.as_str(), IBAN, CVV, CARD, FOREIGN_KEY, FOREIGN_TOKEN],
                place,
                output,
            )
        })
        .collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
    let odd: Vec<String> = outputs
        .iter()
        .filter_map(|(place, output)| other_form(output).map(|form| format!("{place}: {form}")))
        .collect();
    assert!(odd.is_empty(), "{}", odd.join("\n"));

    // Each mask was at work where the audit looked, and the audit sees a value whose mask
    // is taken away there.
    for (value, masked) in [
        (CARD, CARD_SHOWN),
        (IBAN, IBAN_SHOWN),
        (key.as_str(), REDACTED),
        (PERSONAL[2], PERSONAL_SHOWN),
    ] {
        let masking: Vec<&(String, String)> = shown
            .iter()
            .copied()
            .filter(|(_, output)| output.contains(masked))
            .collect();
        assert!(!masking.is_empty(), "no output shows {masked}");
        for (place, output) in masking {
            let unmasked = output.replacen(masked, value, 1);
            assert!(
                !leaks(&planted, place, &unmasked).is_empty(),
                "{place}: {masked} taken away goes unseen"
            );
        }
    }
}

/// A payment form with the key, the CVV, the card number, the IBAN and personal values
/// under the names other gateways and clients give them.
fn planted_form(member: &str, key: &str) -> String {
    let name = PERSONAL[3].replace(' ', "+");
    let address = PERSONAL[4].replace(' ', "+");
    [
        format!("authentication.memberId={member}"),
        format!("authentication%5BsKey%5D={key}"),
        format!("token={key}"),
        format!("accessToken={key}"),
        format!("cvv2={CVV}"),
        format!("card.cvc={CVV}"),
        format!("card.Number={CARD}"),
        format!("cardNumber={}", GROUPED.replace(' ', "-")),
        format!("accountNumber={IBAN}"),
        format!("emailAddress={}", PERSONAL[2]),
        format!("name={name}"),
        format!("address={address}"),
        "amount=1.00&currency=EUR&paymentType=DB".to_owned(),
    ]
    .join("&")
}

/// A form whose field names hold the key, a card number, a CVV and an IBAN, as a
/// careless client may write them.
fn secret_names(key: &str) -> String {
    let names = [
        format!("sKey={key}"),
        format!(r#"{{"authentication.sKey":"{key}"}}"#),
        format!("card {DASHED}"),
        format!(r#"{{"card.cvv":"{CVV}"}}"#),
        format!("iban {IBAN_SPACED}"),
    ];
    form_named(&names)
}

/// What a hostile gateway answers: the key as name/value pairs, in a redirect's query and
/// as a token; the IBAN under another name; the card number grouped in a remark; personal
/// values under other names.
fn hostile_answer(key: &str) -> String {
    serde_json::json!({
        "result": {
            "code": "00026",
            "description": format!(
                "record found; key {key}; card {GROUPED} / {DASHED}; iban {IBAN_SPACED}; others {FOREIGN_KEY} {FOREIGN_TOKEN}; over 11344|o-1|{key}"
            ),
        },
        "paymentId": "8a82944a4cc25ebf014cc2c782423202",
        "parameters": [
            {"name": "checksum", "value": key},
            {"name": "sKey", "value": key},
        ],
        "redirect": {
            "url": format!("https://acs.example/3ds?sKey={key}&authentication.checksum={key}"),
        },
        "token": key,
        "accessToken": key,
        "accountNumber": IBAN,
        "remark": format!("paid by {GROUPED}"),
        "emailAddress": PERSONAL[2],
        "address": PERSONAL[4],
    })
    .to_string()
}

/// A mask written in a form but the one: a card number's, an IBAN's or `[redacted]`.
fn other_form(output: &str) -> Option<String> {
    let lower = output.to_ascii_lowercase();
    if lower.matches("redacted").count() != output.matches(REDACTED).count() {
        return Some("\"redacted\" spelled otherwise".into());
    }
    for odd in ["...3000", "\u{2026}3000", "XXXX", "DE89*"] {
        if output.contains(odd) {
            return Some(format!("a mask as {odd}"));
        }
    }
    if output.matches("****0051").count() != output.matches(CARD_SHOWN).count() {
        return Some("a card number masked otherwise".into());
    }
    None
}
