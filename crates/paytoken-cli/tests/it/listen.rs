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
use tokio::io::AsyncWriteExt as _;
use tokio::sync::{mpsc, oneshot};

use crate::common::{Run, answering_with, as_merchant, assert_no_secret, card_flags, read_request};

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
    let answer = crate::common::post_raw(url, content_type, body).await;
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

/// The verdicts of the next two notifications that were settled (verified or duplicate),
/// in the order they came: `notify=twice` sends both at once, so one may first be told to
/// retry (`in_flight`) while the other is being relayed.
async fn two(listening: &mut Listening) -> Vec<Value> {
    let mut settled = Vec::new();
    while settled.len() < 2 {
        let printed = listening.next().await;
        if printed["notification"] != "in_flight" {
            settled.push(printed);
        }
    }
    settled
}

/// The notification words printed until (and with) the first `verified`.
async fn until_verified(listening: &mut Listening) -> Vec<Value> {
    let mut printed = Vec::new();
    loop {
        let next = listening.next().await;
        let done = next["notification"] == "verified";
        printed.push(next);
        if done {
            return printed;
        }
    }
}

/// A merchant's endpoint whose first connection is read and then left unanswered until
/// `release` fires (then answered 500), and whose later connections are answered 200; how
/// many were answered 200.
async fn hanging_first(release: oneshot::Receiver<()>) -> (String, Arc<AtomicU64>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hooks", listener.local_addr().unwrap());
    let taken = Arc::new(AtomicU64::new(0));
    let counting = Arc::clone(&taken);
    tokio::spawn(async move {
        let (mut first, _) = listener.accept().await.unwrap();
        read_request(&mut first).await;
        tokio::spawn(async move {
            if release.await.is_ok() {
                let _ = first
                    .write_all(b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    .await;
            }
            // Dropped otherwise only when the test ends: it hangs until then.
            std::future::pending::<()>().await;
        });
        while let Ok((mut stream, _)) = listener.accept().await {
            read_request(&mut stream).await;
            counting.fetch_add(1, Ordering::SeqCst);
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                .await;
        }
    });
    (url, taken)
}

/// A sandbox that retries a notification soon and often, waiting `attempt_timeout` for
/// each attempt; the merchant's secure key.
async fn retrying_sandbox(attempt_timeout: Duration) -> (Sandbox, String) {
    let sandbox = Sandbox::builder()
        .notifications(NotificationPolicy {
            attempts: 60,
            first_retry_after: Duration::from_millis(20),
            max_retry_after: Duration::from_millis(100),
            attempt_timeout,
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
        .expose_secret()
        .to_owned();
    (sandbox, key)
}

/// Pays with the 3-D Secure card and approves on the page: the sandbox then notifies.
async fn approve_three_d_secure(sandbox: &Sandbox, listening: &Listening) -> String {
    let answer = pay(sandbox, cards::THREE_D_SECURE, listening).await;
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
    answer["paymentId"].as_str().unwrap().to_owned()
}

/// Waits until the sandbox counts every notification delivered; them.
async fn delivered(sandbox: &Sandbox) -> Vec<paytoken_sandbox::SentNotification> {
    let mut sent = sandbox.notifications();
    for _ in 0..1_000 {
        if !sent.is_empty() && sent.iter().all(|sent| sent.delivered) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
        sent = sandbox.notifications();
    }
    sent
}

/// A sandbox whose attempts wait `attempt_timeout`, a merchant's endpoint whose first
/// connection hangs until `release` fires ([`hanging_first`]), and `listen` relaying to it
/// with `relay_timeout`; how many relays the endpoint took.
struct Relaying {
    sandbox: Sandbox,
    release: oneshot::Sender<()>,
    taken: Arc<AtomicU64>,
    listening: Listening,
}

impl Relaying {
    async fn start(attempt_timeout: Duration, relay_timeout: &str) -> Self {
        let (sandbox, key) = retrying_sandbox(attempt_timeout).await;
        let (release, hang_until) = oneshot::channel();
        let (forward_to, taken) = hanging_first(hang_until).await;
        let listening = Listening::start(
            &[
                "--forward-to",
                &forward_to,
                "--relay-timeout",
                relay_timeout,
            ],
            &key,
        )
        .await;
        Self {
            sandbox,
            release,
            taken,
            listening,
        }
    }
}

/// Regression: with a merchant's endpoint that accepts and never answers, the relay was
/// still waiting when the sandbox's attempt gave up; the notification stayed marked as
/// seen, its retry was answered `200 duplicate`, and the endpoint never got it.
#[tokio::test]
async fn a_relay_that_times_out_is_answered_502_and_the_retry_is_relayed_once() {
    // The relay gives up long before the sandbox's attempt does; the endpoint's first
    // connection is never released.
    let Relaying {
        sandbox,
        release: _release,
        taken,
        mut listening,
    } = Relaying::start(Duration::from_secs(60), "300ms").await;
    let payment_id = approve_three_d_secure(&sandbox, &listening).await;

    let printed = until_verified(&mut listening).await;
    let words = in_order(&printed);
    assert_eq!(words, ["relay_failed", "verified"], "{printed:?}");
    let failed = &printed[0];
    assert_eq!(failed["paymentId"], payment_id.as_str());
    assert!(
        failed["forwarded"]["failed"]
            .as_str()
            .unwrap()
            .contains("no answer within"),
        "{failed}"
    );
    assert_eq!(printed[1]["forwarded"]["status"], 200, "{}", printed[1]);

    let sent = delivered(&sandbox).await;
    assert_eq!(sent.len(), 1);
    assert!(sent[0].delivered, "{sent:?}");
    let statuses: Vec<String> = sent[0]
        .attempts
        .iter()
        .map(|attempt| format!("{attempt:?}"))
        .collect();
    assert_eq!(statuses.len(), 2, "{statuses:?}");
    assert!(statuses[0].contains("502"), "{statuses:?}");
    assert_eq!(taken.load(Ordering::SeqCst), 1, "relayed exactly once");
}

/// Regression: a retry that came while the first relay was still under way was answered
/// `200 duplicate`, even when that relay then failed.
#[tokio::test]
async fn a_retry_during_a_relay_is_told_to_retry_until_the_relay_s_outcome_is_known() {
    // The sandbox's attempts give up long before the relay does.
    let Relaying {
        sandbox,
        release: release_first,
        taken,
        mut listening,
    } = Relaying::start(Duration::from_millis(200), "120s").await;
    approve_three_d_secure(&sandbox, &listening).await;

    let in_flight = listening.next().await;
    assert_eq!(in_flight["notification"], "in_flight", "{in_flight}");
    // The merchant's endpoint refuses the first relay: the retry after it must go through.
    release_first.send(()).unwrap();
    let printed = until_verified(&mut listening).await;
    let words = in_order(&printed);
    assert!(words.contains(&"relay_failed"), "{words:?}");
    assert!(!words.contains(&"duplicate"), "{words:?}");
    assert!(
        words
            .iter()
            .all(|word| ["in_flight", "relay_failed", "verified"].contains(word)),
        "{words:?}"
    );
    let sent = delivered(&sandbox).await;
    assert!(sent[0].delivered, "{sent:?}");
    assert_eq!(taken.load(Ordering::SeqCst), 1, "relayed exactly once");
}

/// Regression: a notification whose `paymentId` came twice was verified on one value and
/// relayed raw, for the merchant's framework to read the other.
#[tokio::test]
async fn a_notification_with_a_signed_field_twice_is_rejected_and_not_relayed() {
    let key = "listen-duplicate-keys";
    let relayed = Arc::new(AtomicU64::new(0));
    let counting = Arc::clone(&relayed);
    let endpoint = answering_with(move |_| {
        counting.fetch_add(1, Ordering::SeqCst);
        "{}".to_owned()
    })
    .await;
    let mut listening = Listening::start(&["--forward-to", &endpoint], key).await;
    let checksum = format!(
        "{:x}",
        md5_oracle::compute(format!("60001|order-1|0.50|Y|{key}"))
    );
    let json = format!(
        r#"{{"paymentId":"60999","paymentId ":"60001","merchantTransactionId":"order-1","amount":"0.50","transactionStatus":"Y","checksum":"{checksum}"}}"#
    );
    let form = format!(
        "paymentId=60999&paymentId=60001&merchantTransactionId=order-1&amount=0.50&transactionStatus=Y&checksum={checksum}"
    );
    for (content_type, body) in [
        ("application/json", json),
        ("application/x-www-form-urlencoded", form),
    ] {
        assert_eq!(post(&listening.url, content_type, &body).await, 400);
        let rejected = listening.next().await;
        assert_eq!(rejected["notification"], "rejected", "{rejected}");
        assert!(
            rejected["reason"]
                .as_str()
                .unwrap()
                .contains("paymentId appears more than once"),
            "{rejected}"
        );
    }
    assert_eq!(relayed.load(Ordering::SeqCst), 0);
}

/// Regression: a rejected notification's line said only `rejected` and why, not which
/// payment it claimed to be about.
#[tokio::test]
async fn a_rejected_notification_says_what_it_claimed_marked_unverified() {
    let mut listening = Listening::start(&[], "listen-claims").await;
    let forged = format!(
        r#"{{"paymentId":"60042","merchantTransactionId":"order-\u202egnp.exe","amount":"9.00","transactionStatus":"Y","checksum":"{}"}}"#,
        "0".repeat(32)
    );
    assert_eq!(post(&listening.url, "application/json", &forged).await, 400);
    let rejected = listening.next().await;
    assert_eq!(rejected["unverified"]["paymentId"], "60042", "{rejected}");
    assert_eq!(
        rejected["unverified"]["merchantTransactionId"],
        "order-\u{202e}gnp.exe"
    );
    assert!(rejected.get("paymentId").is_none(), "{rejected}");
    let line = listening.seen.last().unwrap();
    assert!(!line.contains('\u{202e}'), "escaped on the line: {line}");
}

/// The verdicts' words, as printed.
fn in_order(printed: &[Value]) -> Vec<&str> {
    printed
        .iter()
        .map(|printed| printed["notification"].as_str().unwrap())
        .collect()
}

/// The verdicts' words, sorted.
fn words(printed: &[Value]) -> Vec<&str> {
    let mut words = in_order(printed);
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
    assert_eq!(found.json()["outcome"], "found");
    assert_eq!(found.json()["transactionOutcome"], "approved");
}
