//! The secret audit: planted secrets, a card number (as a card, in an order id, grouped in
//! free text), an IBAN and personal values go through the command, `paytoken record` and a
//! sandbox that explains its refusals; then every output (the commands' stdout and
//! stderr, the cassette, the recorder's stderr, every console answer, the dashboard, the
//! sandbox's explanations) is searched for any of them.

use std::sync::{Arc, Mutex};

use paytoken_sandbox::{DASHBOARD_PATH, Sandbox, cards};

use crate::common::{card_flags, fresh_folder, merchant_of, paytoken, post_raw, with_flags};
use crate::record::record;

/// The card number the audit plants, and the order id and free text that carry it.
const CARD: &str = cards::APPROVED;
const ORDER: &str = "audit-4000000000000051";
/// The commands' own order id: what a command prints of its answer holds it as given.
const COMMAND_ORDER: &str = "audit-order-1";
const GROUPED: &str = "4000 0000 0000 0051";
const IBAN: &str = "DE89370400440532013000";
/// Personal values, each in one field of the audit's requests.
const PERSONAL: [&str; 4] = [
    "Zenobia",
    "Quillfeather",
    "zenobia.q@planted.example",
    "Zenobia Quillfeather",
];

/// Each planted value found in `output`, named with where it was found.
fn leaks(planted: &[&str], place: &str, output: &str) -> Vec<String> {
    let compact: String = output.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
    planted
        .iter()
        .filter(|value| {
            output.contains(**value)
                || (value.bytes().all(|b| b.is_ascii_digit()) && compact.contains(**value))
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
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let mut stream = tokio::net::TcpStream::connect(sandbox.address())
        .await
        .unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    answer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_planted_secret_card_number_iban_or_personal_value_shows_anywhere() {
    let explained = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = Arc::clone(&explained);
    let sandbox = Sandbox::builder()
        .explain(move |line| sink.lock().unwrap().push(line.to_owned()))
        .start()
        .await
        .unwrap();
    let folder = fresh_folder("audit");
    let cassette = folder.join("cassette.jsonl");
    let (recorder, proxy) = record(sandbox.base_url(), &cassette, &[]).await;
    let (flags, env) = merchant_of(&sandbox);
    let key = env[0].1.clone();
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

    let mut planted = vec![CARD, IBAN, key.as_str()];
    planted.extend(PERSONAL);
    let found: Vec<String> = outputs
        .iter()
        .filter(|(place, _)| !place.ends_with("stdout") && !place.ends_with("stderr"))
        .flat_map(|(place, output)| leaks(&planted, place, output))
        .collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
    // What a command prints of its own answer (the holder, the person) is the user's:
    // the key and the IBAN never show there.
    let said: Vec<String> = outputs
        .iter()
        .filter(|(place, _)| place.ends_with("stdout") || place.ends_with("stderr"))
        .flat_map(|(place, output)| leaks(&[key.as_str(), IBAN], place, output))
        .collect();
    assert!(said.is_empty(), "{}", said.join("\n"));
}
