//! Notifications over real sockets: the 3-D Secure page's decision and a pending
//! payment's settling each reach the merchant's listener, signed so that paytoken's
//! verifier accepts them; failures are retried; faults and refusals behave as documented.

use std::sync::Arc;
use std::time::Duration;

use crate::common;

use common::listener::Listener;
use common::*;
use paytoken_protocol::notification::Notification;
use paytoken_protocol::ops::inquiry::Inquiry;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::{Error, Operation, PaymentStatus};
use paytoken_sandbox::notifications::Attempt;
use paytoken_sandbox::{
    FAULT_HEADER, ManualClock, NotificationFault, NotificationPolicy, NotificationTargets, Sandbox,
    SentNotification, cards,
};
use paytoken_types::TransactionStatus;

/// Retries a test can wait for: 10 ms, doubling.
fn quick() -> NotificationPolicy {
    NotificationPolicy {
        first_retry_after: Duration::from_millis(10),
        late_by: Duration::from_millis(50),
        ..NotificationPolicy::default()
    }
}

async fn sandbox() -> Sandbox {
    builder().notifications(quick()).start().await.unwrap()
}

fn payment(number: &str, listener: &Listener) -> Payment {
    Payment::new(
        order_id().parse().unwrap(),
        "50.00".parse().unwrap(),
        "EUR".parse().unwrap(),
        card(number),
    )
    .notification_url(listener.url())
    .merchant_redirect_url("https://shop.example/back?order=1&x=\"><script>alert(1)</script>")
}

/// Makes the payment and returns its id.
async fn pay(sandbox: &Sandbox, payment: &Payment, extra: &[(&str, &str)]) -> String {
    let context = signed_in(sandbox, merchant(sandbox)).await;
    let answer = send_with(sandbox, &payment.request(&context).unwrap(), extra)
        .await
        .json();
    answer["paymentId"].as_str().unwrap().to_owned()
}

/// Waits until the sandbox has recorded `count` notifications, each settled (delivered,
/// or out of attempts), and returns them.
async fn settled(sandbox: &Sandbox, count: usize) -> Vec<SentNotification> {
    for _ in 0..1000 {
        let sent = sandbox.notifications();
        let done = |sent: &SentNotification| {
            sent.delivered || matches!(sent.attempts.last(), Some(Attempt::NotSent(_)))
        };
        if sent.len() >= count && sent.iter().all(done) {
            return sent;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!(
        "the sandbox did not settle {count} notifications: {:?}",
        sandbox.notifications()
    );
}

/// The hidden fields of the page's return form, unescaped, as the browser would post them.
fn return_form(page: &str) -> Vec<(String, String)> {
    let unescape = |text: &str| {
        text.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&")
    };
    page.lines()
        .filter_map(|line| line.strip_prefix("<input type=\"hidden\" name=\""))
        .map(|rest| {
            let (name, rest) = rest.split_once("\" value=\"").unwrap();
            let value = rest.strip_suffix("\">").unwrap();
            (unescape(name), unescape(value))
        })
        .collect()
}

async fn visit(sandbox: &Sandbox, payment_id: &str, body: &str) -> Raw {
    let method = if body.is_empty() { "GET" } else { "POST" };
    let headers = [("Content-Type", "application/x-www-form-urlencoded")];
    let path = format!("/sandbox/3ds/{payment_id}");
    exchange(sandbox.address(), method, &path, &headers, body.as_bytes())
        .await
        .unwrap()
}

#[tokio::test]
async fn an_approved_challenge_notifies_and_sends_the_browser_back_signed() {
    let sandbox = sandbox().await;
    let listener = Listener::start(&[]).await;
    let key = &merchant(&sandbox).secure_key;
    let payment_id = pay(&sandbox, &payment(cards::THREE_D_SECURE, &listener), &[]).await;

    let challenge = visit(&sandbox, &payment_id, "").await.text();
    assert!(challenge.contains("value=\"approve\""), "{challenge}");
    assert!(challenge.contains("value=\"decline\""), "{challenge}");
    // The redirect's own POST (MD, TermUrl) shows the challenge too; it decides nothing.
    let arrival = visit(
        &sandbox,
        &payment_id,
        "MD=1&TermUrl=https%3A%2F%2Fevil.example",
    )
    .await;
    assert!(arrival.text().contains("value=\"approve\""));
    assert!(sandbox.notifications().is_empty());

    let page = visit(&sandbox, &payment_id, "decision=approve")
        .await
        .text();
    assert!(page.contains("approved"), "{page}");
    assert!(
        page.contains("action=\"https://shop.example/back?order=1&amp;x=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\""),
        "the payment's own redirect URL, escaped: {page}"
    );
    assert!(!page.contains("<script>"), "{page}");
    let fields = return_form(&page);
    let body = serde_urlencoded::to_string(&fields).unwrap();
    let returned = Notification::from_form(body.as_bytes())
        .unwrap()
        .verify(key)
        .unwrap();
    assert_eq!(returned.payment_id.to_string(), payment_id);
    assert_eq!(returned.status, PaymentStatus::Approved);

    let bodies = listener.bodies(1).await;
    let notified = Notification::from_json(bodies[0].as_bytes())
        .unwrap()
        .verify(key)
        .unwrap();
    assert_eq!(notified.payment_id.to_string(), payment_id);
    assert_eq!(
        notified.transaction_status.value(),
        Some(&TransactionStatus::Approved)
    );
    assert_eq!(
        notified.amount.value().map(ToString::to_string).as_deref(),
        Some("50.00")
    );
    let sent = settled(&sandbox, 1).await;
    assert_eq!(sent[0].attempts, [Attempt::Answered(200)]);
    assert_eq!(sent[0].body, bodies[0]);

    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let inquiry = Inquiry::ByPaymentId(payment_id.parse().unwrap());
    assert_eq!(
        call(&sandbox, &context, &inquiry).await.unwrap().status,
        PaymentStatus::Approved
    );
    // Deciding twice changes nothing and notifies nothing more.
    let again = visit(&sandbox, &payment_id, "decision=decline")
        .await
        .text();
    assert!(again.contains("Nothing to authenticate"), "{again}");
    assert_eq!(settled(&sandbox, 1).await.len(), 1);
}

#[tokio::test]
async fn a_declined_challenge_notifies_a_decline() {
    let sandbox = sandbox().await;
    let listener = Listener::start(&[]).await;
    let key = &merchant(&sandbox).secure_key;
    let payment_id = pay(&sandbox, &payment(cards::THREE_D_SECURE, &listener), &[]).await;
    let page = visit(&sandbox, &payment_id, "decision=decline")
        .await
        .text();
    assert!(page.contains("declined"), "{page}");
    let bodies = listener.bodies(1).await;
    let notified = Notification::from_json(bodies[0].as_bytes())
        .unwrap()
        .verify(key)
        .unwrap();
    assert_eq!(notified.status, PaymentStatus::Declined);
    assert_eq!(
        notified.unauthenticated.remark.as_deref(),
        Some("3-D Secure authentication failed")
    );
}

#[tokio::test]
async fn a_pending_payment_settles_on_the_sandbox_clock_and_is_notified() {
    let clock = Arc::new(ManualClock::at_unix_seconds(1_795_000_000));
    let sandbox = builder()
        .clock(clock.clone())
        .notifications(quick())
        .pending_settles_after(Some(Duration::from_secs(60)))
        .start()
        .await
        .unwrap();
    let listener = Listener::start(&[]).await;
    let payment_id = pay(&sandbox, &payment(cards::PENDING, &listener), &[]).await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let inquiry = Inquiry::ByPaymentId(payment_id.parse().unwrap());
    assert_eq!(
        call(&sandbox, &context, &inquiry).await.unwrap().status,
        PaymentStatus::Pending
    );
    clock.advance(Duration::from_secs(59));
    assert_eq!(
        call(&sandbox, &context, &inquiry).await.unwrap().status,
        PaymentStatus::Pending
    );
    assert!(sandbox.notifications().is_empty());

    clock.advance(Duration::from_secs(1));
    // The inquiry sees it settled at once; the notification follows.
    assert_eq!(
        call(&sandbox, &context, &inquiry).await.unwrap().status,
        PaymentStatus::Approved
    );
    let bodies = listener.bodies(1).await;
    let key = &merchant(&sandbox).secure_key;
    let notified = Notification::from_json(bodies[0].as_bytes())
        .unwrap()
        .verify(key)
        .unwrap();
    assert_eq!(notified.payment_id.to_string(), payment_id);
    assert_eq!(notified.status, PaymentStatus::Approved);
}

#[tokio::test]
async fn a_listener_that_failed_twice_gets_the_notification_on_the_third_attempt() {
    let sandbox = sandbox().await;
    let listener = Listener::start(&[500, 503]).await;
    let payment_id = pay(&sandbox, &payment(cards::THREE_D_SECURE, &listener), &[]).await;
    visit(&sandbox, &payment_id, "decision=approve").await;
    let sent = settled(&sandbox, 1).await;
    assert_eq!(
        sent[0].attempts,
        [
            Attempt::Answered(500),
            Attempt::Answered(503),
            Attempt::Answered(200)
        ]
    );
    assert!(sent[0].delivered);
    let bodies = listener.bodies(3).await;
    assert!(
        bodies.iter().all(|body| *body == bodies[0]),
        "the same notification each time"
    );
}

#[tokio::test]
async fn an_unreachable_listener_is_tried_the_policy_s_number_of_times() {
    let sandbox = builder()
        .notifications(NotificationPolicy {
            attempts: 3,
            ..quick()
        })
        .start()
        .await
        .unwrap();
    let listener = Listener::start(&[]).await;
    let payment = payment(cards::THREE_D_SECURE, &listener);
    // A port nobody listens on: the listener's, once it is gone.
    drop(listener);
    let payment_id = pay(&sandbox, &payment, &[]).await;
    visit(&sandbox, &payment_id, "decision=approve").await;
    for _ in 0..1000 {
        if sandbox
            .notifications()
            .first()
            .is_some_and(|sent| sent.attempts.len() == 3)
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let sent = sandbox.notifications();
    assert_eq!(sent[0].attempts.len(), 3, "{sent:?}");
    assert!(
        sent[0]
            .attempts
            .iter()
            .all(|attempt| matches!(attempt, Attempt::Failed(_)))
    );
    assert!(!sent[0].delivered);
}

#[tokio::test]
async fn fault_directives_send_twice_late_or_with_a_broken_checksum() {
    let sandbox = sandbox().await;
    let key = &merchant(&sandbox).secure_key;
    for (directive, fault, copies) in [
        ("notify=twice", NotificationFault::Twice, 2),
        ("notify=late", NotificationFault::Late, 1),
        (
            "notify=broken-checksum",
            NotificationFault::BrokenChecksum,
            1,
        ),
    ] {
        let listener = Listener::start(&[]).await;
        let before = sandbox.notifications().len();
        let payment = payment(cards::THREE_D_SECURE, &listener);
        let payment_id = pay(&sandbox, &payment, &[(FAULT_HEADER, directive)]).await;
        visit(&sandbox, &payment_id, "decision=approve").await;
        let bodies = listener.bodies(copies).await;
        let sent = settled(&sandbox, before + copies).await;
        assert!(
            sent[before..].iter().all(|sent| sent.fault == Some(fault)),
            "{directive}"
        );
        for body in &bodies {
            let verdict = Notification::from_json(body.as_bytes())
                .unwrap()
                .verify(key);
            if fault == NotificationFault::BrokenChecksum {
                assert!(
                    matches!(verdict, Err(Error::Unverified { .. })),
                    "{verdict:?}"
                );
            } else {
                assert_eq!(
                    verdict.unwrap().status,
                    PaymentStatus::Approved,
                    "{directive}"
                );
            }
        }
    }
}

#[tokio::test]
async fn notifications_go_to_loopback_only_unless_told_otherwise() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let payment = Payment::new(
        order_id().parse().unwrap(),
        "50.00".parse().unwrap(),
        "EUR".parse().unwrap(),
        card(cards::THREE_D_SECURE),
    )
    .notification_url("http://192.0.2.1:8080/notify");
    let answer = send(&sandbox, &payment.request(&context).unwrap())
        .await
        .json();
    let payment_id = answer["paymentId"].as_str().unwrap();
    visit(&sandbox, payment_id, "decision=approve").await;
    let sent = settled(&sandbox, 1).await;
    assert!(
        matches!(&sent[0].attempts[..], [Attempt::NotSent(reason)] if reason.contains("loopback")),
        "{sent:?}"
    );
    assert_eq!(
        NotificationPolicy::default().targets,
        NotificationTargets::Loopback
    );
}

#[tokio::test]
async fn a_javascript_data_or_out_of_range_url_is_refused_when_the_payment_is_made() {
    let sandbox = sandbox().await;
    let token = merchant_token(&sandbox, merchant(&sandbox)).await;
    for (field, url) in [
        ("merchantRedirectUrl", "javascript:alert(document.cookie)"),
        (
            "notificationUrl",
            "data:text/html,<script>alert(1)</script>",
        ),
        ("merchantRedirectUrl", "//shop.example/back"),
        // Regression: a port out of range was taken, and delivered to port 80.
        ("notificationUrl", "http://127.0.0.1:99999/hooks"),
        ("notificationUrl", "http://user:secret@127.0.0.1:8090/hooks"),
    ] {
        let order = order_id();
        let member = merchant(&sandbox).member_id.to_string();
        let key = merchant(&sandbox).secure_key.expose_secret().to_owned();
        let fields = [
            ("authentication.memberId", member.as_str()),
            (
                "authentication.checksum",
                &sign(&[&member, &key, &order, "50.00"]),
            ),
            ("merchantTransactionId", &order),
            ("amount", "50.00"),
            ("currency", "EUR"),
            ("paymentType", "DB"),
            ("paymentBrand", "VISA"),
            ("paymentMode", "CC"),
            ("card.number", cards::THREE_D_SECURE),
            ("card.expiryMonth", "12"),
            ("card.expiryYear", "2099"),
            ("card.cvv", "123"),
            (field, url),
        ];
        let answer = post(
            &sandbox,
            "/transactionServices/REST/v1/payments",
            Some(token.expose_secret()),
            &fields,
        )
        .await
        .json();
        assert_eq!(answer["paymentId"], "-", "{field}={url}: {answer}");
        assert_eq!(answer["result"]["code"], "30008", "{answer}");
        assert!(
            answer["result"]["description"]
                .as_str()
                .unwrap()
                .contains(field),
            "{answer}"
        );
    }
    assert!(sandbox.books().is_empty(), "nothing was created");
}

/// A sandbox that tries each notification once, to `targets`, listening at `address`.
async fn trying_once(address: &str, targets: NotificationTargets) -> Sandbox {
    builder()
        .address(address.parse().unwrap())
        .notifications(NotificationPolicy {
            attempts: 1,
            targets,
            ..quick()
        })
        .start()
        .await
        .unwrap()
}

/// Makes a 3-D Secure payment notified at `url`, approves it, and returns what its
/// notification's attempts were once the one attempt is made.
async fn notified_at(sandbox: &Sandbox, url: String) -> Vec<Attempt> {
    let listener = Listener::start(&[]).await;
    let made = payment(cards::THREE_D_SECURE, &listener).notification_url(url);
    let payment_id = pay(sandbox, &made, &[]).await;
    assert!(sandbox.approve_three_d_secure(&payment_id));
    for _ in 0..1000 {
        let sent = sandbox.notifications();
        let mine = sent.iter().find(|sent| sent.payment_id == payment_id);
        if let Some(mine) = mine.filter(|mine| !mine.attempts.is_empty()) {
            return mine.attempts.clone();
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no attempt: {:?}", sandbox.notifications());
}

/// Regression: merchant B's notification URL approved merchant A's challenge through
/// the console, and one aimed at its own resend called itself without end.
#[tokio::test]
async fn a_notification_drives_no_sandbox_and_never_calls_its_own() {
    let a = sandbox().await;
    let listener = Listener::start(&[]).await;
    let waiting = pay(&a, &payment(cards::THREE_D_SECURE, &listener), &[]).await;
    let b = trying_once("127.0.0.1:0", NotificationTargets::Loopback).await;

    let console = format!(
        "http://{}/sandbox/console/three-d-secure/{waiting}/approve",
        a.address()
    );
    let page = format!("http://{}/sandbox/3ds/{waiting}", a.address());
    for url in [console, page] {
        assert_eq!(
            notified_at(&b, url.clone()).await,
            [Attempt::Answered(403)],
            "{url}"
        );
    }
    assert!(
        a.approve_three_d_secure(&waiting),
        "merchant A's challenge still waits for its cardholder"
    );

    let own = b.address();
    for url in [
        format!("http://{own}/sandbox/console/notifications/1/resend"),
        format!(
            "http://localhost:{}/transactionServices/REST/v1/payments",
            own.port()
        ),
    ] {
        let attempts = notified_at(&b, url.clone()).await;
        assert!(
            matches!(&attempts[..], [Attempt::NotSent(reason)] if reason.contains("own port")),
            "{url}: {attempts:?}"
        );
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let sent = b.notifications();
    assert_eq!(sent.len(), 4, "no notification made another: {sent:?}");
    assert!(sent.iter().all(|sent| sent.attempts.len() == 1), "{sent:?}");
}

/// This machine's address on its network, as the route to a documentation address picks
/// it; loopback when the machine has no such route.
fn own_network_address() -> std::net::IpAddr {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").unwrap();
    socket
        .connect("192.0.2.1:9")
        .and_then(|()| socket.local_addr())
        .map_or(std::net::Ipv4Addr::LOCALHOST.into(), |address| address.ip())
}

#[tokio::test]
async fn a_sandbox_on_every_address_never_notifies_its_own_port_on_any() {
    let sandbox = trying_once("0.0.0.0:0", NotificationTargets::Anywhere).await;
    let port = sandbox.address().port();
    for host in [
        "127.0.0.1".to_owned(),
        "127.0.0.2".to_owned(),
        "[::1]".to_owned(),
        own_network_address().to_string(),
    ] {
        let url = format!("http://{host}:{port}/sandbox/console/clock");
        let attempts = notified_at(&sandbox, url.clone()).await;
        assert!(
            matches!(&attempts[..], [Attempt::NotSent(reason)] if reason.contains("own port")),
            "{url}: {attempts:?}"
        );
    }
}
