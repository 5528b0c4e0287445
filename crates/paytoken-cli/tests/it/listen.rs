//! `paytoken listen` over real sockets: the sandbox's notifications (3-D Secure through
//! the challenge page, a pending payment settling) reach the command, which verifies them,
//! tells the gateway's repeat as a duplicate, relays each once, and rejects a forgery;
//! `paytoken pay` sends the notification and redirect URLs.

use std::io::{BufRead as _, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use paytoken_sandbox::{DEFAULT_MERCHANT_ID, Faults, NotificationPolicy, Sandbox, cards};
use serde_json::Value;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::sync::mpsc;

use crate::common::{Run, answering_with, as_merchant, assert_no_secret, card_flags};

/// A running `paytoken listen`, killed when dropped.
struct Listening {
    child: Child,
    url: String,
    lines: mpsc::UnboundedReceiver<String>,
    seen: Vec<String>,
}

impl Listening {
    async fn start(args: &[&str], key: &str) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_paytoken"))
            .args(["listen", "--addr", "127.0.0.1:0", "--json"])
            .args(args)
            .env("PAYTOKEN_SECURE_KEY", key)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, mut lines) = mpsc::unbounded_channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        let first = tokio::time::timeout(Duration::from_secs(10), lines.recv())
            .await
            .unwrap()
            .unwrap();
        let announcement: Value = serde_json::from_str(&first).unwrap();
        let url = announcement["listening"].as_str().unwrap().to_owned();
        Self {
            child,
            url,
            lines,
            seen: vec![first],
        }
    }

    /// The next printed notification.
    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(10), self.lines.recv())
            .await
            .expect("a notification within ten seconds")
            .expect("listen still running");
        self.seen.push(line.clone());
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// POSTs `body` to `url` on a fresh connection; the status.
async fn post(url: &str, content_type: &str, body: &str) -> u16 {
    let rest = url.strip_prefix("http://").unwrap();
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let mut stream = tokio::net::TcpStream::connect(authority).await.unwrap();
    let request = format!(
        "POST /{path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    answer.split(' ').nth(1).unwrap().parse().unwrap()
}

/// Pays with `card` as the sandbox's merchant, notifying `listening`; the answer.
async fn pay(sandbox: &Sandbox, card: &'static str, listening: &Listening) -> Value {
    let order = paytoken_sandbox::samples::order_id("listen")
        .unwrap()
        .to_string();
    let mut args = vec![
        "pay",
        "--amount",
        "50.00",
        "--currency",
        "EUR",
        "--merchant-transaction-id",
        &order,
        "--notification-url",
        &listening.url,
        "--redirect-url",
        "https://shop.example/back",
    ];
    args.extend(card_flags(card));
    let run = as_merchant(sandbox, &args).await;
    assert_eq!(
        run.code, 5,
        "pending or 3-D Secure: {}{}",
        run.stdout, run.stderr
    );
    run.json()
}

/// The verdicts of the next two notifications, in the order they came.
async fn two(listening: &mut Listening) -> Vec<Value> {
    vec![listening.next().await, listening.next().await]
}

fn words(printed: &[Value]) -> Vec<&str> {
    let mut words: Vec<&str> = printed
        .iter()
        .map(|printed| printed["notification"].as_str().unwrap())
        .collect();
    words.sort_unstable();
    words
}

#[tokio::test]
async fn listen_verifies_the_sandbox_s_notifications_relays_each_once_and_rejects_forgeries() {
    // Every notification sent twice; pending payments settle at once.
    let sandbox = Sandbox::builder()
        .faults(Faults::parse("notify=twice").unwrap())
        .pending_settles_after(Some(Duration::ZERO))
        .notifications(NotificationPolicy {
            first_retry_after: Duration::from_millis(20),
            ..NotificationPolicy::default()
        })
        .start()
        .await
        .unwrap();
    let key = sandbox
        .config()
        .merchant(DEFAULT_MERCHANT_ID)
        .unwrap()
        .secure_key
        .clone();
    let relayed = Arc::new(AtomicU64::new(0));
    let counting = Arc::clone(&relayed);
    let endpoint = answering_with(move |_| {
        counting.fetch_add(1, Ordering::SeqCst);
        "{}".to_owned()
    })
    .await;
    let forward_to = format!("{endpoint}/hooks/payments");
    let mut listening = Listening::start(&["--forward-to", &forward_to], key.expose_secret()).await;

    // 3-D Secure: the payment waits; the cardholder approves on the sandbox's page.
    let answer = pay(&sandbox, cards::THREE_D_SECURE, &listening).await;
    let payment_id = answer["paymentId"].as_str().unwrap().to_owned();
    let page = answer["redirect"]["url"].as_str().unwrap();
    assert_eq!(
        post(
            page,
            "application/x-www-form-urlencoded",
            "decision=approve"
        )
        .await,
        200
    );
    let printed = two(&mut listening).await;
    assert_eq!(words(&printed), ["duplicate", "verified"], "{printed:?}");
    for printed in &printed {
        assert_eq!(printed["paymentId"], payment_id.as_str());
        assert_eq!(printed["outcome"], "approved");
        assert_eq!(printed["amount"], "50.00");
    }
    let verified = printed
        .iter()
        .find(|p| p["notification"] == "verified")
        .unwrap();
    assert_eq!(verified["forwarded"]["status"], 200, "{verified}");
    assert_eq!(verified["unauthenticated"]["status"], "capturesuccess");
    let duplicate = printed
        .iter()
        .find(|p| p["notification"] == "duplicate")
        .unwrap();
    assert!(
        duplicate.get("forwarded").is_none(),
        "a duplicate is not relayed: {duplicate}"
    );

    // A pending payment: the sandbox approves it, and says so.
    let answer = pay(&sandbox, cards::PENDING, &listening).await;
    let printed = two(&mut listening).await;
    assert_eq!(words(&printed), ["duplicate", "verified"], "{printed:?}");
    assert!(
        printed
            .iter()
            .all(|p| p["paymentId"] == answer["paymentId"])
    );
    assert!(printed.iter().all(|p| p["outcome"] == "approved"));
    assert_eq!(
        relayed.load(Ordering::SeqCst),
        2,
        "each notification relayed once"
    );

    // Both deliveries of each were answered 200: the sandbox is done with them (the
    // sandbox records an answer just after listen prints it).
    let mut sent = sandbox.notifications();
    for _ in 0..500 {
        if sent.iter().all(|sent| sent.delivered) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
        sent = sandbox.notifications();
    }
    assert_eq!(sent.len(), 4);
    assert!(sent.iter().all(|sent| sent.delivered), "{sent:?}");

    // A forgery: the right shape, a checksum under another key.
    let forged_checksum = format!(
        "{:x}",
        md5_oracle::compute(format!("{payment_id}|x|50.00|Y|not-the-key"))
    );
    let forged = format!(
        r#"{{"paymentId":"{payment_id}","merchantTransactionId":"x","amount":"50.00","transactionStatus":"Y","checksum":"{forged_checksum}"}}"#
    );
    assert_eq!(post(&listening.url, "application/json", &forged).await, 400);
    let rejected = listening.next().await;
    assert_eq!(rejected["notification"], "rejected");
    assert!(
        rejected["reason"].as_str().unwrap().contains("checksum"),
        "{rejected}"
    );
    assert_eq!(
        relayed.load(Ordering::SeqCst),
        2,
        "nothing relayed of a forgery"
    );

    // Nothing listen printed shows a key or a card number.
    let _ = listening.child.kill();
    let mut stderr = String::new();
    if let Some(mut pipe) = listening.child.stderr.take() {
        use std::io::Read as _;
        let _ = pipe.read_to_string(&mut stderr);
    }
    assert_no_secret(&Run {
        code: 0,
        stdout: listening.seen.join("\n"),
        stderr,
    });
}

#[tokio::test]
async fn listen_prints_a_readable_block_per_notification() {
    let sandbox = Sandbox::start().await.unwrap();
    let key = sandbox
        .config()
        .merchant(DEFAULT_MERCHANT_ID)
        .unwrap()
        .secure_key
        .clone();
    let mut child = Command::new(env!("CARGO_BIN_EXE_paytoken"))
        .args(["listen", "--addr", "127.0.0.1:0"])
        .env("PAYTOKEN_SECURE_KEY", key.expose_secret())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    let url = first
        .split_whitespace()
        .find(|word| word.starts_with("http://"))
        .unwrap()
        .trim_end_matches(',')
        .to_owned();
    let checksum = format!(
        "{:x}",
        md5_oracle::compute(format!("60001|order-1|50.00|N|{}", key.expose_secret()))
    );
    let form = format!(
        "paymentId=60001&merchantTransactionId=order-1&amount=50.00&transactionStatus=N&status=authfailed%1b%5b2J&checksum={checksum}"
    );
    assert_eq!(
        post(&url, "application/x-www-form-urlencoded", &form).await,
        200
    );
    let block = tokio::task::spawn_blocking(move || {
        let mut block = String::new();
        for _ in 0..8 {
            let mut line = String::new();
            stdout.read_line(&mut line).unwrap();
            block.push_str(&line);
        }
        block
    })
    .await
    .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(block.starts_with("notification: verified\n"), "{block}");
    assert!(block.contains("  outcome: declined\n"), "{block}");
    assert!(block.contains("  paymentId: 60001\n"), "{block}");
    assert!(
        block.contains("authfailed\\u{1b}[2J"),
        "escaped, not obeyed: {block}"
    );
}

#[tokio::test]
async fn listen_needs_the_secure_key() {
    let run = crate::common::paytoken(&["listen", "--addr", "127.0.0.1:0"], &[]).await;
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("PAYTOKEN_SECURE_KEY"), "{}", run.stderr);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_served_sandbox_settles_pending_payments_when_told() {
    let bad = crate::common::paytoken(&["sandbox", "--settle-pending-after", "soon"], &[]).await;
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(
        bad.stderr.contains("--settle-pending-after"),
        "{}",
        bad.stderr
    );

    let (mut child, first) =
        crate::common::sandbox_process(&["--addr", "127.0.0.1:0", "--settle-pending-after", "0s"])
            .await;
    let (flags, key) = crate::common::announced_merchant(&first);
    let mut pay = vec![
        "pay",
        "--amount",
        "5.00",
        "--currency",
        "EUR",
        "--merchant-transaction-id",
        "pending-settles",
    ];
    pay.extend(card_flags(cards::PENDING));
    let paid = crate::common::with_flags(&flags, &key, &pay).await;
    assert_eq!(paid.code, 5, "pending at first: {}", paid.stdout);
    let payment_id = paid.json()["paymentId"].as_str().unwrap().to_owned();
    let found = crate::common::with_flags(&flags, &key, &["inquiry", &payment_id]).await;
    child.kill().unwrap();
    let _ = child.wait();
    assert_eq!(found.code, 0, "approved since: {}", found.stdout);
    assert_eq!(found.json()["outcome"], "approved");
}
