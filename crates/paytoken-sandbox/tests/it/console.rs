//! The console over real sockets: every read and action, the request log's bound, the
//! refusals that keep other origins out, and no secret in anything it shows.

use std::time::Duration;

use crate::common;

use common::listener::Listener;
use common::*;
use paytoken_protocol::Operation as _;
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;
use paytoken_protocol::ops::payment::Payment;
use paytoken_sandbox::{
    CONSOLE_PREFIX, DASHBOARD_PATH, NotificationPolicy, REQUESTS_KEPT, Sandbox, cards,
};
use paytoken_types::internal::sensitive;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

/// One request to the console, its `Host` and other headers as given.
async fn console(
    sandbox: &Sandbox,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Raw {
    let target = format!("{CONSOLE_PREFIX}{path}");
    console_at(sandbox, method, &target, headers, body).await
}

/// One request under the console's rules to `target` (a console path, the dashboard).
async fn console_at(
    sandbox: &Sandbox,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Raw {
    let mut stream = tokio::net::TcpStream::connect(sandbox.address())
        .await
        .unwrap();
    let mut head = format!(
        "{method} {target} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    head.push_str(body);
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let raw = parse_response(&answer).expect("an HTTP answer");
    for (name, _) in &raw.headers {
        assert!(
            !name.to_ascii_lowercase().starts_with("access-control-"),
            "the console sends no CORS header: {name}"
        );
    }
    raw
}

/// A read, as a local tool sends it.
async fn get(sandbox: &Sandbox, path: &str) -> Value {
    let raw = console(sandbox, "GET", path, &[("Host", "127.0.0.1")], "").await;
    assert_eq!(raw.status, 200, "{path}: {}", raw.text());
    parsed(&raw)
}

/// A console answer's JSON (numbers and lists are the console's own, not the gateway's).
fn parsed(raw: &Raw) -> Value {
    serde_json::from_slice(&raw.body).unwrap()
}

/// An action, as a local tool sends it.
async fn act(sandbox: &Sandbox, path: &str, body: &Value) -> Raw {
    let host = sandbox.address().to_string();
    console(
        sandbox,
        "POST",
        path,
        &[("Host", &host), ("Content-Type", "application/json")],
        &body.to_string(),
    )
    .await
}

#[tokio::test]
async fn the_reads_show_books_requests_clock_and_faults() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let paid = send(
        &sandbox,
        &payment_with(cards::APPROVED).request(&context).unwrap(),
    )
    .await;
    let payment_id = paid.json()["paymentId"].as_str().unwrap().to_owned();

    let books = get(&sandbox, "books").await;
    let booked = &books["payments"][0];
    assert_eq!(booked["paymentId"], payment_id.as_str());
    assert_eq!(booked["card"]["last4Digits"], "0051");
    assert_eq!(
        booked["owner"]["memberId"],
        merchant(&sandbox).member_id.to_string()
    );
    assert!(books["invoices"].as_array().unwrap().len() >= 12);

    let log = get(&sandbox, "requests").await;
    let entries = log["requests"].as_array().unwrap();
    assert_eq!(entries.len(), 2, "{log}");
    assert_eq!(entries[1]["operation"], "pay");
    assert_eq!(entries[1]["resultCode"], "00001");
    let last = log["last"].as_u64().unwrap();
    let none = get(&sandbox, &format!("requests?after={last}")).await;
    assert_eq!(none["requests"], json!([]));
    assert_eq!(none["last"], last);

    let clock = get(&sandbox, "clock").await;
    assert_eq!(clock["advancedSeconds"], 0);
    let token = &clock["authTokens"][0];
    assert_eq!(token["live"], true, "{clock}");
    assert_eq!(
        token["owner"]["memberId"],
        merchant(&sandbox).member_id.to_string()
    );
    assert_eq!(get(&sandbox, "faults").await["next"], json!([]));
    assert_eq!(
        get(&sandbox, "notifications").await["notifications"],
        json!([])
    );
    assert_eq!(
        sandbox.requests_after(0).len(),
        2,
        "the console's own reads are not logged"
    );
}

#[tokio::test]
async fn actions_advance_the_clock_fault_the_next_request_and_decide_a_challenge() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;

    let advanced = act(&sandbox, "clock/advance", &json!({ "seconds": 7200 })).await;
    assert_eq!(advanced.status, 200, "{}", advanced.text());
    assert_eq!(parsed(&advanced)["advancedSeconds"], 7200);
    assert_eq!(parsed(&advanced)["authTokens"][0]["live"], false);
    let expired = call(&sandbox, &context, &CardsAndAccounts::all()).await;
    assert!(expired.unwrap_err().to_string().contains("20002"));
    for bad in [
        json!({}),
        json!({ "seconds": 0 }),
        json!({ "seconds": -5 }),
        json!({ "seconds": "1h" }),
    ] {
        assert_eq!(
            act(&sandbox, "clock/advance", &bad).await.status,
            400,
            "{bad}"
        );
    }

    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let queued = act(
        &sandbox,
        "faults",
        &json!({ "directives": "status=502", "count": 2, "target": "cards_and_accounts" }),
    )
    .await;
    let waiting = json!({ "directives": "status=502", "target": "cards_and_accounts" });
    assert_eq!(parsed(&queued)["next"], json!([waiting, waiting]));
    assert_eq!(
        get(&sandbox, "faults").await["next"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    for _ in 0..2 {
        let raw = send(
            &sandbox,
            &CardsAndAccounts::all().request(&context).unwrap(),
        )
        .await;
        assert_eq!(raw.status, 502);
    }
    let raw = send(
        &sandbox,
        &CardsAndAccounts::all().request(&context).unwrap(),
    )
    .await;
    assert_eq!(raw.status, 200, "the third is not faulted");
    for bad in [
        json!({ "directives": "explode" }),
        json!({ "directives": "drop=after", "target": "payment" }),
        json!({ "directives": "drop=after", "target": 7 }),
    ] {
        assert_eq!(act(&sandbox, "faults", &bad).await.status, 400, "{bad}");
    }
    // Without a target, a fault waits for the next request that moves money: a read
    // passes it by.
    act(&sandbox, "faults", &json!({ "directives": "status=502" })).await;
    let read = send(
        &sandbox,
        &CardsAndAccounts::all().request(&context).unwrap(),
    )
    .await;
    assert_eq!(read.status, 200, "a read is no money-moving request");
    assert_eq!(
        get(&sandbox, "faults").await["next"],
        json!([{ "directives": "status=502", "target": "money-moving" }])
    );
    act(&sandbox, "faults/clear", &json!({})).await;

    let waiting = send(
        &sandbox,
        &payment_with(cards::THREE_D_SECURE)
            .request(&context)
            .unwrap(),
    )
    .await;
    let payment_id = waiting.json()["paymentId"].as_str().unwrap().to_owned();
    let path = format!("three-d-secure/{payment_id}/approve");
    let decided = act(&sandbox, &path, &json!({})).await;
    assert_eq!(decided.status, 200, "{}", decided.text());
    assert_eq!(parsed(&decided)["decided"], "approved");
    assert_eq!(
        act(&sandbox, &path, &json!({})).await.status,
        409,
        "decided once"
    );
    let books = get(&sandbox, "books").await;
    assert_eq!(books["payments"][0]["transactionStatus"], "Y");

    // The clock moves a century in all; past it, nothing moves and the answer says why.
    let decade = json!({ "seconds": 10 * 366 * 86_400 });
    for _ in 0..9 {
        assert_eq!(act(&sandbox, "clock/advance", &decade).await.status, 200);
    }
    let past = act(&sandbox, "clock/advance", &decade).await;
    assert_eq!(past.status, 400, "{}", past.text());
    assert!(past.text().contains("century"), "{}", past.text());
}

/// Waits until notification `number` has `count` attempts (the `resent` mark counted).
async fn attempts(sandbox: &Sandbox, number: u64, count: usize) -> Value {
    for _ in 0..500 {
        let all = get(sandbox, "notifications").await;
        let found = all["notifications"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["number"] == number)
            .cloned();
        if let Some(found) = found
            && found["attempts"].as_array().unwrap().len() >= count
        {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("notification {number} did not reach {count} attempts");
}

#[tokio::test]
async fn a_resend_replaces_pending_retries_or_delivers_again() {
    let sandbox = builder()
        .notifications(NotificationPolicy {
            first_retry_after: Duration::from_secs(3600),
            ..NotificationPolicy::default()
        })
        .start()
        .await
        .unwrap();
    // The first attempt fails and the retry waits an hour: the resend goes now, once.
    let listener = Listener::start(&[500]).await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let made = payment_with(cards::THREE_D_SECURE).notification_url(listener.url());
    let waiting = send(&sandbox, &made.request(&context).unwrap()).await;
    let payment_id = waiting.json()["paymentId"].as_str().unwrap().to_owned();
    assert!(sandbox.approve_three_d_secure(&payment_id));
    let failed = attempts(&sandbox, 1, 1).await;
    assert_eq!(
        failed["attempts"],
        json!([{ "outcome": "answered", "status": 500 }])
    );

    let resent = act(&sandbox, "notifications/1/resend", &json!({})).await;
    assert_eq!(resent.status, 202, "{}", resent.text());
    let delivered = attempts(&sandbox, 1, 3).await;
    assert_eq!(
        delivered["attempts"],
        json!([
            { "outcome": "answered", "status": 500 },
            { "outcome": "resent" },
            { "outcome": "answered", "status": 200 },
        ])
    );
    assert_eq!(delivered["delivered"], true);

    // A delivered one is delivered again.
    assert_eq!(
        act(&sandbox, "notifications/1/resend", &json!({}))
            .await
            .status,
        202
    );
    let again = attempts(&sandbox, 1, 5).await;
    assert_eq!(again["attempts"][3], json!({ "outcome": "resent" }));
    assert_eq!(
        again["attempts"][4],
        json!({ "outcome": "answered", "status": 200 })
    );
    assert_eq!(listener.bodies(3).await.len(), 3);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        listener.bodies(3).await.len(),
        3,
        "the hour-long retry was replaced"
    );

    assert_eq!(
        act(&sandbox, "notifications/99/resend", &json!({}))
            .await
            .status,
        404
    );
}

#[tokio::test]
async fn other_hosts_types_origins_and_methods_are_refused() {
    let sandbox = sandbox().await;
    let own = format!("http://{}", sandbox.address());
    let host = sandbox.address().to_string();
    let advance = json!({ "seconds": 60 }).to_string();
    for (method, headers, expected) in [
        ("GET", vec![("Host", "evil.example")], 403),
        ("GET", vec![("Host", "localhost.evil.example:8080")], 403),
        ("GET", vec![], 403),
        // A loopback name with a port that is none, and two Hosts of which one is
        // loopback.
        ("GET", vec![("Host", "localhost:evil")], 403),
        (
            "GET",
            vec![("Host", host.as_str()), ("Host", "evil.example")],
            403,
        ),
        (
            "POST",
            vec![("Host", host.as_str()), ("Content-Type", "text/plain")],
            415,
        ),
        (
            "POST",
            vec![
                ("Host", host.as_str()),
                ("Content-Type", "application/json; charset=utf-8"),
            ],
            415,
        ),
        ("POST", vec![("Host", host.as_str())], 415),
        (
            "POST",
            vec![
                ("Host", host.as_str()),
                ("Content-Type", "application/json"),
                ("Origin", "http://evil.example"),
            ],
            403,
        ),
        ("PUT", vec![("Host", host.as_str())], 405),
        ("DELETE", vec![("Host", host.as_str())], 405),
    ] {
        let raw = console(&sandbox, method, "clock/advance", &headers, &advance).await;
        assert_eq!(raw.status, expected, "{method} {headers:?}: {}", raw.text());
    }
    assert_eq!(
        get(&sandbox, "clock").await["advancedSeconds"],
        0,
        "nothing moved"
    );
    let raw = console(
        &sandbox,
        "POST",
        "clock/advance",
        &[
            ("Host", &host),
            ("Content-Type", "application/json"),
            ("Origin", &own),
        ],
        &advance,
    )
    .await;
    assert_eq!(raw.status, 200, "its own origin: {}", raw.text());
    assert_eq!(
        console(&sandbox, "GET", "nowhere", &[("Host", "localhost")], "")
            .await
            .status,
        404
    );
}

#[tokio::test]
async fn the_request_log_keeps_the_newest_thousand() {
    let sandbox = sandbox().await;
    let extra = 5;
    for _ in 0..REQUESTS_KEPT + extra {
        let raw = exchange(sandbox.address(), "POST", "/elsewhere", &[], b"")
            .await
            .unwrap();
        assert_eq!(raw.status, 404);
    }
    // Read a page at a time, the next asked for after the last number of the one before.
    let mut entries = Vec::new();
    let mut after = 0;
    loop {
        let page = get(&sandbox, &format!("requests?after={after}")).await;
        let rows = page["requests"].as_array().unwrap();
        assert!(rows.len() <= 100, "a page holds 100 at most");
        entries.extend(rows.iter().cloned());
        after = page["last"].as_u64().unwrap();
        if page["more"] == false {
            break;
        }
    }
    assert_eq!(entries.len(), REQUESTS_KEPT);
    assert_eq!(entries[0]["number"], extra + 1);
    assert_eq!(after, u64::try_from(REQUESTS_KEPT + extra).unwrap());
    let small = get(&sandbox, "requests?after=10&limit=3").await;
    let numbers: Vec<&Value> = small["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| &entry["number"])
        .collect();
    assert_eq!(numbers, [&json!(11), &json!(12), &json!(13)]);
    // One value each, digits only: a repeated or signed one is refused, not half read.
    for bad in [
        "limit=0",
        "limit=101",
        "limit=x",
        "after=-1",
        "after=+1",
        "limit=+5",
        "after=1&after=2",
        "limit=3&limit=4",
        "after=",
    ] {
        let raw = console(
            &sandbox,
            "GET",
            &format!("requests?{bad}"),
            &[("Host", "127.0.0.1")],
            "",
        )
        .await;
        assert_eq!(raw.status, 400, "{bad}");
    }
}

/// Regression: 1,000 requests whose one field name was 64,000 bytes were kept whole (the
/// sandbox 15 to 203 MB); the log's answer was 384 MB, and `--explain` put a 160 KB line in
/// a header.
#[tokio::test]
async fn long_names_are_refused_and_the_log_and_its_answers_stay_small() {
    let sandbox = builder().explain(|_| {}).start().await.unwrap();
    let name = "n".repeat(64_000);
    for _ in 0..100 {
        let body = format!("merchantTransactionId=order-7&{name}=1");
        let raw = exchange(
            sandbox.address(),
            "POST",
            "/transactionServices/REST/v1/payments",
            &[("Content-Type", "application/x-www-form-urlencoded")],
            body.as_bytes(),
        )
        .await
        .unwrap();
        assert_eq!(raw.json()["result"]["code"], "30010", "{}", raw.text());
        let explained = raw.header(paytoken_sandbox::EXPLAIN_HEADER).unwrap();
        assert!(explained.len() < 400, "{} bytes", explained.len());
    }
    let page = console(&sandbox, "GET", "requests", &[("Host", "127.0.0.1")], "").await;
    assert!(page.body.len() < 100 * 1024, "{} bytes", page.body.len());
    let entries = parsed(&page)["requests"].as_array().unwrap().clone();
    assert_eq!(entries.len(), 100);
    for entry in &entries {
        assert_eq!(entry["orderId"], "order-7", "found by the shop's own id");
    }
}

#[tokio::test]
async fn nothing_the_console_shows_holds_a_secret() {
    let sandbox = sandbox().await;
    let listener = Listener::start(&[]).await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    for number in [cards::APPROVED, cards::THREE_D_SECURE] {
        let made = payment_with(number).notification_url(listener.url());
        send(&sandbox, &made.request(&context).unwrap()).await;
    }
    let waiting = sandbox.books().into_iter().find(|b| !b.approved).unwrap();
    assert!(sandbox.approve_three_d_secure(&waiting.payment_id));
    listener.bodies(1).await;
    let token = context
        .auth_token
        .as_ref()
        .unwrap()
        .expose_secret()
        .to_owned();
    let mut pages = Vec::new();
    for path in ["books", "requests", "notifications", "clock", "faults"] {
        pages.push((path, get(&sandbox, path).await.to_string()));
    }
    let dashboard = console_at(
        &sandbox,
        "GET",
        DASHBOARD_PATH,
        &[("Host", "localhost")],
        "",
    )
    .await;
    pages.push(("the dashboard", dashboard.text()));
    for (path, shown) in pages {
        for secret in [
            cards::APPROVED,
            cards::THREE_D_SECURE,
            merchant(&sandbox).secure_key.expose_secret(),
            token.as_str(),
        ] {
            assert!(!shown.contains(secret), "{path} shows {secret}: {shown}");
        }
    }
    // A notification's checksum is never shown (its body as the listener got it is).
    let sent = get(&sandbox, "notifications").await;
    let body = sent["notifications"][0]["body"].as_str().unwrap();
    let body: Value = serde_json::from_str(body).unwrap();
    assert_eq!(body["checksum"], "[redacted]", "{body}");
    let delivered = listener.bodies(1).await;
    let delivered: Value = serde_json::from_str(&delivered[0]).unwrap();
    assert_ne!(delivered["checksum"], "[redacted]");
    assert!(
        !log_text(&sandbox)
            .await
            .contains(delivered["checksum"].as_str().unwrap())
    );
    // A secret's field is named, its value never shown: every field the table calls a
    // secret (the key, each checksum, each CVV here).
    let log = get(&sandbox, "requests").await;
    let mut secrets = 0;
    for entry in log["requests"].as_array().unwrap() {
        for field in entry["fields"].as_array().unwrap() {
            if sensitive::of(field["name"].as_str().unwrap()) == sensitive::Sensitivity::Secret {
                assert_eq!(field["value"], sensitive::REDACTED, "{field}");
                secrets += 1;
            }
        }
    }
    assert!(
        secrets >= 3,
        "the key, a checksum and a CVV were sent: {log}"
    );
}

#[tokio::test]
async fn the_dashboard_shows_the_books_and_the_log_escaped_and_keeps_the_rules() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let order = format!("<b>{}</b>", order_id());
    let made = Payment::new(
        order.parse().unwrap(),
        "50.00".parse().unwrap(),
        "EUR".parse().unwrap(),
        card(cards::APPROVED),
    );
    let paid = send(&sandbox, &made.request(&context).unwrap()).await;
    let payment_id = paid.json()["paymentId"].as_str().unwrap().to_owned();
    send(&sandbox, &made.request(&context).unwrap()).await; // refused: the order id is used

    let page = console_at(
        &sandbox,
        "GET",
        DASHBOARD_PATH,
        &[("Host", "localhost")],
        "",
    )
    .await;
    assert_eq!(page.status, 200, "{}", page.text());
    assert!(
        page.header("content-type")
            .unwrap()
            .starts_with("text/html")
    );
    let policy = page.header("content-security-policy").unwrap();
    assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    let html = page.text();
    assert!(html.contains(&payment_id), "the payment is listed");
    assert!(!html.contains("<b>"), "the order id is text, not markup");
    assert!(html.contains("&lt;b&gt;"), "escaped");
    assert!(
        html.contains("30006") && html.contains("class=\"refused\""),
        "the refusal, explained"
    );
    for secret in [
        cards::APPROVED,
        merchant(&sandbox).secure_key.expose_secret(),
    ] {
        assert!(!html.contains(secret), "the page shows {secret}");
    }
    let foreign = console_at(
        &sandbox,
        "GET",
        DASHBOARD_PATH,
        &[("Host", "evil.example")],
        "",
    )
    .await;
    assert_eq!(foreign.status, 403);
    let posted = console_at(
        &sandbox,
        "POST",
        DASHBOARD_PATH,
        &[("Host", "localhost")],
        "",
    )
    .await;
    assert_ne!(posted.status, 200);
}

/// Regression: a request whose target is another host's URL (`GET http://evil.example/...`)
/// with a loopback `Host` reached the console.
#[tokio::test]
async fn a_target_naming_another_host_is_refused() {
    let sandbox = sandbox().await;
    let host = sandbox.address().to_string();
    let target = format!("http://evil.example{CONSOLE_PREFIX}books");
    let refused = console_at(&sandbox, "GET", &target, &[("Host", &host)], "").await;
    assert_eq!(refused.status, 403, "{}", refused.text());
    let own = console(&sandbox, "GET", "books", &[("Host", &host)], "").await;
    assert_eq!(own.status, 200, "{}", own.text());
}

#[tokio::test]
async fn a_notification_of_a_hundred_attempts_is_not_resent() {
    let sandbox = builder()
        .notifications(NotificationPolicy {
            attempts: 100,
            first_retry_after: Duration::from_millis(1),
            max_retry_after: Duration::from_millis(1),
            ..NotificationPolicy::default()
        })
        .start()
        .await
        .unwrap();
    let listener = Listener::start(&[500; 100]).await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let made = payment_with(cards::THREE_D_SECURE).notification_url(listener.url());
    let waiting = send(&sandbox, &made.request(&context).unwrap()).await;
    let payment_id = waiting.json()["paymentId"].as_str().unwrap().to_owned();
    assert!(sandbox.approve_three_d_secure(&payment_id));
    attempts(&sandbox, 1, 100).await;
    let refused = act(&sandbox, "notifications/1/resend", &json!({})).await;
    assert_eq!(refused.status, 409, "{}", refused.text());
    assert!(
        refused.text().contains("100 attempts"),
        "{}",
        refused.text()
    );
}

/// Every console answer and the dashboard, as one text.
async fn log_text(sandbox: &Sandbox) -> String {
    let mut all = String::new();
    for path in ["books", "requests", "notifications", "clock", "faults"] {
        all.push_str(&get(sandbox, path).await.to_string());
    }
    all.push_str(
        &console_at(sandbox, "GET", DASHBOARD_PATH, &[("Host", "localhost")], "")
            .await
            .text(),
    );
    all
}
