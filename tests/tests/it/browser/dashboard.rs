//! Headless chromium on the sandbox's dashboard, as a merchant testing a checkout looks at
//! it: the client's payments with their status, a refusal with its explanation, a
//! merchant transaction id holding HTML shown as text, a notification whose receiver was
//! down (its failed attempts, then the resend button delivering it once the receiver is
//! up), and the clock moved past the auth token's lifetime. The page holds no secret. The
//! test leaves a screenshot in the target folder (`browser/dashboard.png`), which
//! `cargo xtask screenshot` copies to the one the sandbox's manual shows.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use fantoccini::{Client, Locator};
use paytoken::notification::Notification;
use paytoken::ops::payment::Payment;
use paytoken::{Amount, PaymentStatus};
use paytoken_sandbox::{DASHBOARD_PATH, DEFAULT_MERCHANT_ID, NotificationPolicy, Sandbox, cards};
use paytoken_test_support::http::{Received, read_request};
use tokio::io::AsyncWriteExt as _;
use tokio::net::TcpListener;

use super::headless_chromium;
use crate::common::{card, client_for, order_id};

/// How long the page may take to show what the test waits for.
const PATIENCE: Duration = Duration::from_secs(20);

/// The bodies a notification receiver was sent.
type Bodies = Arc<Mutex<Vec<Vec<u8>>>>;

/// A notification receiver on `listener`: keeps each body and answers `200`.
fn receive_on(listener: TcpListener, bodies: Bodies) {
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            if let Some(Received { body, .. }) = read_request(&mut stream).await {
                bodies.lock().unwrap().push(body);
            }
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                .await;
        }
    });
}

/// The text of every element `css` selects, on the page as it is now, joined by lines.
/// Read in one script, in the page: the dashboard redraws its tables as it polls, and an
/// element found by one WebDriver call may be gone by the next (a stale reference).
async fn text_of(browser: &Client, css: &str) -> String {
    let script = "return Array.from(document.querySelectorAll(arguments[0])).map(e => e.innerText.replace(/\\t/g, ' ')).join('\\n');";
    let text = browser
        .execute(script, vec![serde_json::Value::from(css)])
        .await
        .unwrap();
    text.as_str().unwrap().to_owned()
}

/// Reloads the page until the text of what `css` selects satisfies `shown`, and returns
/// that text; fails after [`PATIENCE`] with what the page showed last.
async fn reload_until(browser: &Client, css: &str, shown: impl Fn(&str) -> bool) -> String {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let text = text_of(browser, css).await;
        if shown(&text) {
            return text;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the dashboard's {css} never showed what was awaited; it shows:\n{text}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
        browser.refresh().await.unwrap();
    }
}

/// The row of the table `table` whose text holds `needle`, reloading until one does: read
/// once, right after navigating, it once found no table at all on a loaded CI machine.
async fn row_with(browser: &Client, table: &str, needle: &str) -> String {
    let rows = reload_until(browser, &format!("#{table} tr"), |rows| {
        rows.lines().any(|row| row.contains(needle))
    })
    .await;
    rows.lines()
        .find(|row| row.contains(needle))
        .unwrap_or_default()
        .to_owned()
}

/// `browser/NAME` in the target folder that holds this test's binary
/// (`target/<profile>/deps/it-<hash>`), created when missing.
fn screenshot_path(name: &str) -> PathBuf {
    let binary = std::env::current_exe().unwrap();
    let folder = binary.ancestors().nth(3).unwrap().join("browser");
    std::fs::create_dir_all(&folder).unwrap();
    folder.join(name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Debian's chromium and chromium-driver; cargo xtask ci installs them and runs it"]
async fn the_dashboard_shows_payments_refusals_notifications_and_the_clock() {
    // Three quick attempts per notification, so that a receiver that is down exhausts
    // them in well under a second.
    let sandbox = Sandbox::builder()
        .notifications(NotificationPolicy {
            attempts: 3,
            first_retry_after: Duration::from_millis(50),
            max_retry_after: Duration::from_millis(100),
            ..NotificationPolicy::default()
        })
        .start()
        .await
        .unwrap();
    let merchant = sandbox.config().merchant(DEFAULT_MERCHANT_ID).unwrap();
    let key = merchant.secure_key.clone();
    let client = client_for(&sandbox).build().unwrap();
    let amount = |text: &str| text.parse::<Amount>().unwrap();

    // An approved payment whose order id is markup that would run a script if it were
    // not escaped.
    let order = format!(
        "<img id=\"injected\" src=\"x\" onerror=\"document.title='injected'\"> {}",
        order_id()
    );
    let paid = client
        .pay(&Payment::new(
            order.parse().unwrap(),
            amount("12.34"),
            "EUR".parse().unwrap(),
            card(cards::APPROVED),
        ))
        .await
        .unwrap();
    assert_eq!(paid.status, PaymentStatus::Approved);

    // A payment notified to a receiver that is not up yet: its port is free, so every
    // attempt is refused.
    let free = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let receiver_address = free.local_addr().unwrap();
    drop(free);
    let notified = client
        .pay(
            &Payment::new(
                order_id(),
                amount("50.00"),
                "EUR".parse().unwrap(),
                card(cards::THREE_D_SECURE),
            )
            .notification_url(format!("http://{receiver_address}/notify")),
        )
        .await
        .unwrap();
    assert!(sandbox.approve_three_d_secure(notified.payment_id.as_str()));

    // The same order again: the sandbox refuses it and explains why.
    let refused = client
        .pay(&Payment::new(
            order.parse().unwrap(),
            amount("12.34"),
            "EUR".parse().unwrap(),
            card(cards::APPROVED),
        ))
        .await;
    assert!(refused.is_err(), "{refused:?}");

    let (_driver, browser) = headless_chromium().await;
    let dashboard = format!(
        "{}{DASHBOARD_PATH}",
        sandbox.base_url().trim_end_matches('/')
    );
    browser.goto(&dashboard).await.unwrap();

    // The payment, with its status.
    let row = row_with(&browser, "payments", paid.payment_id.as_str()).await;
    assert!(row.contains("Y (capturesuccess)"), "{row}");
    // Its order id as text: the markup is shown, not made.
    assert!(row.contains("<img id=\"injected\""), "{row}");
    assert!(
        browser
            .find_all(Locator::Id("injected"))
            .await
            .unwrap()
            .is_empty(),
        "the order id became an element"
    );
    assert_eq!(browser.title().await.unwrap(), "paytoken sandbox");

    // The refusal, explained.
    let refusal = text_of(&browser, "#requests tr.refused").await;
    assert!(
        refusal.contains("pay") && refusal.contains("30006: "),
        "{refusal}"
    );

    // The notification's attempts, every one failed.
    // Notifications are numbered from 1, as the request log's entries.
    let number = "1";
    let exhausted = reload_until(&browser, "#notifications", |text| {
        text.matches("failed (").count() == 3
    })
    .await;
    let attempts = row_with(&browser, "notifications", notified.payment_id.as_str()).await;
    assert!(attempts.contains("false"), "not delivered: {exhausted}");

    // The receiver comes up; the resend button delivers the notification, once.
    let bodies = Bodies::default();
    receive_on(
        TcpListener::bind(receiver_address).await.unwrap(),
        Arc::clone(&bodies),
    );
    browser
        .find(Locator::Css(&format!(
            "button[data-action=\"resend\"][data-number=\"{number}\"]"
        )))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let delivered = reload_until(&browser, "#notifications", |text| text.contains("200")).await;
    assert!(delivered.contains("resent, 200"), "{delivered}");
    let row = row_with(&browser, "notifications", notified.payment_id.as_str()).await;
    assert!(row.contains("true"), "delivered: {row}");
    // Longer than every retry wait: nothing more comes.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let received = bodies.lock().unwrap().clone();
    assert_eq!(received.len(), 1, "the receiver sees it once");
    let verified = Notification::from_json(&received[0])
        .unwrap()
        .verify(&key)
        .unwrap();
    assert_eq!(verified.payment_id, notified.payment_id);

    // The clock, moved two hours on: the auth token the client holds expires.
    let tokens = text_of(&browser, "#auth-tokens .token-state").await;
    assert_eq!(tokens, "live", "one token, live: {tokens}");
    let seconds = browser.find(Locator::Id("advance-seconds")).await.unwrap();
    seconds.clear().await.unwrap();
    seconds.send_keys("7200").await.unwrap();
    browser
        .find(Locator::Css("button[data-action=\"advance\"]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    reload_until(&browser, "#auth-tokens .token-state", |text| {
        text == "expired"
    })
    .await;
    let clock = text_of(&browser, "#clock").await;
    assert!(clock.contains("advanced by 7200 s"), "{clock}");

    // No secret anywhere in the page.
    let source = browser.source().await.unwrap().to_lowercase();
    for secret in [
        key.expose_secret(),
        cards::APPROVED,
        cards::THREE_D_SECURE,
        // The header every auth token starts with: no token is on the page.
        "eyjhbgcioi",
        "cvv",
        "checksum=",
    ] {
        assert!(
            !source.contains(&secret.to_lowercase()),
            "the dashboard shows {secret}"
        );
    }

    let png = browser.screenshot().await.unwrap();
    std::fs::write(screenshot_path("dashboard.png"), png).unwrap();
    browser.close().await.unwrap();
}
