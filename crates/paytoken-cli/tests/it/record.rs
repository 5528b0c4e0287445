//! `paytoken record` between the command and a sandbox that varies its answers, over real
//! sockets: every exchange recorded, each line valid by the cassette's schema, the
//! command's results the same through the proxy, and no secret, whole card number or
//! personal value of the test in the cassette; `paytoken replay --check` on it reads the
//! verdicts seen live, and reports a corrupted answer. And byte for byte: what an
//! upstream answers is what the client gets.

use std::process::Child;

use paytoken::protocol::AUTH_TOKEN_HEADER;
use paytoken::types::internal::sensitive;
use paytoken_sandbox::{Sandbox, cards};
use paytoken_test_support::shown;
use serde_json::Value;

use crate::common::{
    answering, card_flags, fresh_folder, merchant_of, paytoken, post_raw, schema_of,
    server_process, with_flags,
};

/// `paytoken record`, killed when dropped.
pub(crate) struct Recorder(Child);

impl Recorder {
    /// Stops it, and gives what it said on stderr.
    pub(crate) fn stop(mut self) -> String {
        use std::io::Read as _;
        let _ = self.0.kill();
        let _ = self.0.wait();
        let mut stderr = String::new();
        if let Some(mut pipe) = self.0.stderr.take() {
            pipe.read_to_string(&mut stderr).unwrap();
        }
        stderr
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `paytoken --json record --upstream UPSTREAM` writing into `cassette`, and gives
/// the URL it listens on.
pub(crate) async fn record(
    upstream: &str,
    cassette: &std::path::Path,
    extra: &[&str],
) -> (Recorder, String) {
    let cassette = cassette.display().to_string();
    let mut args = vec![
        "--json",
        "record",
        "--upstream",
        upstream,
        "--addr",
        "127.0.0.1:0",
        "--cassette",
        cassette.as_str(),
    ];
    args.extend_from_slice(extra);
    let (child, line) = server_process(&args).await;
    let announced: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
    crate::common::assert_valid(&announced);
    let url = announced["listenUrl"].as_str().unwrap().to_owned();
    (Recorder(child), url)
}

/// The personal values the test sends, which the cassette must not hold.
const PERSONAL: [&str; 8] = [
    "Grace",
    "Hopper",
    "grace.hopper@example.com",
    "5550142",
    "19061209",
    "203.0.113.77",
    "Navy Yard 1",
    "Arlington",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_exchange_is_recorded_redacted_and_the_results_do_not_change() {
    // Each seed nests, renames and retypes other incidental fields.
    for seed in [5, 6, 7] {
        recorded_between_the_command_and_a_sandbox(seed).await;
    }
}

async fn recorded_between_the_command_and_a_sandbox(seed: u64) {
    let sandbox = Sandbox::builder().vary_answers(seed).start().await.unwrap();
    let folder = fresh_folder(&format!("sandbox-{seed}"));
    let cassette = folder.join("cassette.jsonl");
    let (_recorder, proxy) = record(sandbox.base_url(), &cassette, &[]).await;
    let (flags, env) = merchant_of(&sandbox);
    let key = env[0].1.clone();
    let through = |flags: &[String]| -> Vec<String> {
        let mut through = flags.to_vec();
        let at = through
            .iter()
            .position(|flag| flag == "--base-url")
            .unwrap();
        through[at + 1] = proxy.clone();
        through.push("--json".to_owned());
        through
    };

    let mut pay = vec![
        "pay",
        "--amount",
        "12.00",
        "--currency",
        "EUR",
        "--merchant-transaction-id",
        "recorded-1",
        "--given-name",
        PERSONAL[0],
        "--surname",
        PERSONAL[1],
        "--email",
        PERSONAL[2],
        "--phone",
        PERSONAL[3],
        "--birth-date",
        PERSONAL[4],
        "--ip",
        PERSONAL[5],
        "--street",
        PERSONAL[6],
        "--city",
        PERSONAL[7],
        "--store-card",
        "--holder",
        "Grace Hopper",
    ];
    pay.extend(card_flags(cards::APPROVED));
    let paid = with_flags(&through(&flags), &key, &pay).await;
    assert_eq!(paid.code, 0, "{}{}", paid.stdout, paid.stderr);
    let paid = paid.json();
    assert_eq!(paid["outcome"], "approved");
    let payment_id = paid["paymentId"].as_str().unwrap().to_owned();

    // The same verdicts through the proxy as without it.
    let mut direct = flags.clone();
    direct.push("--json".to_owned());
    for args in [
        vec!["inquiry", payment_id.as_str()],
        vec!["cards-and-accounts"],
        vec!["invoices"],
    ] {
        let proxied = with_flags(&through(&flags), &key, &args).await;
        let straight = with_flags(&direct, &key, &args).await;
        assert_eq!(proxied.code, straight.code, "{args:?}");
        let (proxied, straight) = (proxied.json(), straight.json());
        assert_eq!(proxied["outcome"], straight["outcome"], "{args:?}");
        assert_eq!(proxied["paymentId"], straight["paymentId"], "{args:?}");
    }

    let text = std::fs::read_to_string(&cassette).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    // Each command fetched its token, then made its call: two exchanges each.
    assert_eq!(lines.len(), 8, "{text}");
    let schema = schema_of("cassette");
    for line in &lines {
        assert_eq!(schema.errors(line), Vec::<String>::new(), "{line}");
    }
    let operations: Vec<&str> = lines
        .iter()
        .map(|line| line["operation"].as_str().unwrap())
        .collect();
    assert_eq!(
        operations,
        [
            "fetch_auth_token",
            "pay",
            "fetch_auth_token",
            "inquiry",
            "fetch_auth_token",
            "cards_and_accounts",
            "fetch_auth_token",
            "invoices"
        ]
    );
    let payment = &lines[1];
    assert_eq!(payment["answer"]["body"]["paymentId"], payment_id.as_str());
    let field = |name: &str| -> Value {
        payment["request"]["fields"]
            .as_array()
            .unwrap()
            .iter()
            .find(|field| field["name"] == name)
            .unwrap()["value"]
            .clone()
    };
    // Every field as the table shows it: each secret redacted, the card masked.
    let fields = payment["request"]["fields"].as_array().unwrap();
    let (secrets, cards_seen) = shown::as_the_table_says(
        fields.iter().map(|kept| {
            (
                kept["name"].as_str().unwrap(),
                kept["value"].as_str().unwrap(),
            )
        }),
        cards::APPROVED,
    );
    assert!(secrets >= 2 && cards_seen == 1, "{fields:?}");
    assert_eq!(field("amount"), "12.00");
    let token_header = AUTH_TOKEN_HEADER.to_ascii_lowercase();
    assert_eq!(
        payment["request"]["headers"][token_header],
        sensitive::REDACTED
    );
    // The token fetched first: its answer's secret redacted.
    let grant = lines[0]["answer"]["body"].as_object().unwrap();
    let texts = grant
        .iter()
        .filter_map(|(name, value)| Some((name.as_str(), value.as_str()?)));
    assert_eq!(
        shown::as_the_table_says(texts, cards::APPROVED),
        (1, 0),
        "{grant:?}"
    );

    // Replayed, every answer reads as it did live.
    let replayed = paytoken(
        &["--json", "replay", "--check", cassette.to_str().unwrap()],
        &[],
    )
    .await;
    assert_eq!(replayed.code, 0, "seed {seed}: {}", replayed.stdout);
    let verdicts: Vec<String> = replayed.json()["exchanges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|exchange| exchange["verdict"].as_str().unwrap().to_owned())
        .collect();
    let live = ["ok", "approved", "ok", "approved", "ok", "ok", "ok", "ok"];
    assert_eq!(verdicts, live, "seed {seed}");

    // A corrupted answer, and one about another payment, are reported, exit 1.
    let mut corrupted = lines.clone();
    corrupted[1]["answer"]["body"] = serde_json::json!({ "odd": true });
    corrupted[3]["answer"]["body"]["paymentId"] = "99999".into();
    let broken = folder.join("broken.jsonl");
    let text_of =
        |lines: &[Value]| -> String { lines.iter().map(|line| format!("{line}\n")).collect() };
    std::fs::write(&broken, text_of(&corrupted)).unwrap();
    let replayed = paytoken(
        &["--json", "replay", "--check", broken.to_str().unwrap()],
        &[],
    )
    .await;
    assert_eq!(replayed.code, 1, "seed {seed}: {}", replayed.stdout);
    let report = replayed.json();
    assert_eq!(report["outcome"], "checks_failed");
    assert_eq!(report["unread"], 2);
    assert_eq!(report["exchanges"][1]["verdict"], "unreadable");
    assert!(report["exchanges"][1]["reason"].is_string());
    assert_eq!(report["exchanges"][3]["verdict"], "contradiction");

    for secret in [key.as_str(), cards::APPROVED, "eyJhbGci"]
        .into_iter()
        .chain(PERSONAL)
    {
        assert!(
            !text.contains(secret),
            "the cassette holds {secret}: {text}"
        );
    }
    let _ = std::fs::remove_dir_all(&folder);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_pass_unchanged_bodies_that_are_not_json_are_kept_by_length_and_the_bound_holds() {
    const BODY: &str = "{\"paymentId\":\"77\",\"result\":{\"code\":\"00001\",\"description\":\"ok\"},\"odd\" : [1, 2.50, null]}";
    let upstream = answering(BODY).await;
    let folder = fresh_folder("bytes");
    let cassette = folder.join("cassette.jsonl");
    // Room for about two lines.
    let (recorder, proxy) = record(&upstream, &cassette, &["--max-bytes", "1500"]).await;

    for round in 0..4 {
        let body = if round == 1 {
            "not a form at all"
        } else {
            "a=1&b=2"
        };
        let url = format!("{proxy}/transactionServices/REST/v1/payments");
        let answer = post_raw(&url, "application/x-www-form-urlencoded", body).await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(
            answer.ends_with(BODY),
            "the body as the upstream sent it: {answer}"
        );
    }
    let text = std::fs::read_to_string(&cassette).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert!((1..4).contains(&lines.len()), "bounded: {text}");
    assert_eq!(lines[0]["answer"]["body"]["odd"][1], 2.5);
    if let Some(second) = lines.get(1) {
        assert_eq!(second["request"]["unrecorded"]["length"], 17);
        assert_eq!(second["request"]["fields"], Value::Null);
    }
    let stderr = recorder.stop();
    assert_eq!(
        stderr.matches("--max-bytes").count(),
        1,
        "said once: {stderr}"
    );
    let _ = std::fs::remove_dir_all(&folder);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plain_http_upstream_beyond_loopback_is_refused() {
    let run = paytoken(
        &[
            "--json",
            "record",
            "--upstream",
            "http://192.0.2.10:8080",
            "--addr",
            "127.0.0.1:0",
        ],
        &[],
    )
    .await;
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stdout.contains("plain http"), "{}", run.stdout);
}

/// Regression: the proxy forwarded `Accept-Encoding`, so a client that offers gzip (as most
/// HTTP libraries do) had the upstream compress its answers, and the cassette kept each
/// one by its length only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_offering_compression_gets_plain_answers_the_cassette_can_read() {
    const BODY: &str =
        "{\"paymentId\":\"78\",\"result\":{\"code\":\"00001\",\"description\":\"ok\"}}";
    // An upstream that compresses whenever it is offered to (its "gzip" is not real: the
    // cassette could not read it either way).
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let upstream = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        use tokio::io::AsyncWriteExt as _;
        while let Ok((mut stream, _)) = listener.accept().await {
            let Some(request) = paytoken_test_support::http::read_request(&mut stream).await else {
                continue;
            };
            let offered = paytoken_test_support::http::header(&request.head, "accept-encoding")
                .is_some_and(|value| value.contains("gzip"));
            let (encoding, body) = if offered {
                ("Content-Encoding: gzip\r\n", "\u{1f}compressed")
            } else {
                ("", BODY)
            };
            let answer = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{encoding}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(answer.as_bytes()).await;
        }
    });
    let folder = fresh_folder("encoding");
    let cassette = folder.join("cassette.jsonl");
    let (recorder, proxy) = record(&upstream, &cassette, &[]).await;
    let answer = paytoken_test_support::http::post(
        &format!("{proxy}/transactionServices/REST/v1/payments"),
        &[
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Accept-Encoding", "gzip, deflate"),
        ],
        "a=1",
    )
    .await;
    recorder.stop();
    assert!(answer.ends_with(BODY), "the plain answer: {answer}");
    let text = std::fs::read_to_string(&cassette).unwrap();
    let line: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(line["answer"]["body"]["paymentId"], "78", "{text}");
    assert_eq!(line["answer"]["unrecorded"], Value::Null, "{text}");
    let _ = std::fs::remove_dir_all(&folder);
}

/// Regression: the cassette kept answers as JSON values, so the invoice list's map of
/// positions lost every repeated key but the last (`orderId` A1 and A2 of A1, A2, A3) and
/// its order, which says what belongs to which invoice. The answer as it came is now kept
/// as text beside the value, redacted, and replay reads that.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_that_repeats_keys_is_kept_whole_in_order_and_redacted() {
    const BODY: &str =
        include_str!("../../../../fixtures/responses/invoice_list/position_map.json");
    let upstream = answering(BODY).await;
    let folder = fresh_folder("repeated");
    let cassette = folder.join("cassette.jsonl");
    let (recorder, proxy) = record(&upstream, &cassette, &[]).await;
    let answer = post_raw(
        &format!("{proxy}/invoiceServices/REST/v1/getInvoice"),
        "application/x-www-form-urlencoded",
        "authentication.memberId=11344&authentication.checksum=00&pagination.pageno=1&pagination.records=10",
    )
    .await;
    recorder.stop();
    assert!(answer.ends_with(BODY), "passed unchanged: {answer}");
    let text = std::fs::read_to_string(&cassette).unwrap();
    let line: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(schema_of("cassette").errors(&line), Vec::<String>::new());
    let kept = line["answer"]["bodyText"].as_str().unwrap();
    let orders: Vec<usize> = [
        "\"orderId\":\"A1\"",
        "\"orderId\":\"A2\"",
        "\"orderId\":\"A3\"",
    ]
    .iter()
    .map(|order| {
        kept.find(order)
            .unwrap_or_else(|| panic!("{order} lost: {kept}"))
    })
    .collect();
    assert!(
        orders.windows(2).all(|pair| pair[0] < pair[1]),
        "in order: {kept}"
    );
    assert!(kept.find("\"0 \"").unwrap() < orders[0], "{kept}");
    assert!(
        !kept.contains("Ann Example") && kept.contains("[personal]"),
        "{kept}"
    );
    // The value beside it holds what a JSON value can: the last of each key.
    assert_eq!(line["answer"]["body"]["invoiceList"]["orderId"], "A3");

    // Replay reads the text where there is one: with `body` made unreadable, the line
    // still reads, and without its text it does not.
    let mut line = line;
    line["answer"]["body"] = serde_json::json!({ "odd": true });
    let verdict = |line: &Value| {
        let path = folder.join("edited.jsonl");
        std::fs::write(&path, format!("{line}\n")).unwrap();
        async move {
            let replayed = paytoken(
                &["--json", "replay", "--check", path.to_str().unwrap()],
                &[],
            )
            .await;
            replayed.json()["exchanges"][0]["verdict"].clone()
        }
    };
    assert_eq!(verdict(&line).await, "ok");
    line["answer"]["bodyText"] = Value::Null;
    assert_eq!(verdict(&line).await, "unreadable");
    let _ = std::fs::remove_dir_all(&folder);
}

/// Regression: `record` forwarded whatever `Host` a request carried, so a web page could
/// reach it through a DNS name that points at loopback.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn record_answers_one_loopback_host_only() {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let upstream = answering(r#"{"result":{"code":"0008","description":"ok"}}"#).await;
    let folder = fresh_folder("hosts");
    let (_recorder, url) = record(&upstream, &folder.join("c.jsonl"), &[]).await;
    let authority = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    let status_of = |head: String| {
        let authority = authority.clone();
        async move {
            let mut stream = tokio::net::TcpStream::connect(&authority).await.unwrap();
            let request = format!("{head}Content-Length: 0\r\nConnection: close\r\n\r\n");
            stream.write_all(request.as_bytes()).await.unwrap();
            let mut answer = String::new();
            stream.read_to_string(&mut answer).await.unwrap();
            answer.split(' ').nth(1).unwrap_or_default().to_owned()
        }
    };
    let path = "/transactionServices/REST/v1/cardsandaccounts";
    for (head, status) in [
        (
            format!("POST {path} HTTP/1.1\r\nHost: evil.example\r\n"),
            "403",
        ),
        (
            format!("POST {path} HTTP/1.1\r\nHost: {authority}\r\nHost: evil.example\r\n"),
            "403",
        ),
        (
            format!("POST http://evil.example{path} HTTP/1.1\r\nHost: {authority}\r\n"),
            "403",
        ),
        (
            format!("POST {path} HTTP/1.1\r\nHost: {authority}\r\n"),
            "200",
        ),
    ] {
        assert_eq!(status_of(head.clone()).await, status, "{head}");
    }
}
