//! The sandbox's clock moved forward (`Sandbox::advance_clock`, the console's `advance`):
//! tokens expire on it, what was scheduled on it fires, answers tell its time, and a state
//! file keeps the advance. And the request log, read without HTTP.

use std::time::Duration;

use crate::common;

use common::listener::Listener;
use common::*;
use paytoken_checksum::{Credentials, SecureKey};
use paytoken_protocol::Operation as _;
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;
use paytoken_sandbox::notifications::Attempt;
use paytoken_sandbox::{
    AUTH_TOKEN_LIFETIME, FAULT_HEADER, NotificationPolicy, SentNotification, cards,
};
use paytoken_test_support::shown;

#[tokio::test]
async fn a_token_expires_when_the_clock_is_moved_past_its_lifetime() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    call(&sandbox, &context, &CardsAndAccounts::all())
        .await
        .unwrap();
    sandbox
        .advance_clock(AUTH_TOKEN_LIFETIME + Duration::from_secs(1))
        .unwrap();
    let refused = call(&sandbox, &context, &CardsAndAccounts::all()).await;
    let error = refused.unwrap_err();
    assert!(error.to_string().contains("20002"), "{error}");
}

#[tokio::test]
async fn answers_tell_the_time_of_the_moved_clock() {
    let sandbox = sandbox().await;
    let before = sandbox.unix_seconds();
    sandbox
        .advance_clock(Duration::from_secs(86_400 * 3))
        .unwrap();
    assert!(sandbox.unix_seconds() >= before + 86_400 * 3);
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let raw = send(
        &sandbox,
        &CardsAndAccounts::all().request(&context).unwrap(),
    )
    .await;
    let date = raw.header("date").expect("a Date header");
    let dated = httpdate::parse_http_date(date).unwrap();
    let seconds = dated
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let now = u64::try_from(sandbox.unix_seconds()).unwrap();
    assert!(now.abs_diff(seconds) <= 2, "{date} against {now}");
}

#[tokio::test]
async fn an_advance_fires_a_late_notification_that_falls_due() {
    let sandbox = builder()
        .notifications(NotificationPolicy {
            late_by: Duration::from_secs(3600),
            first_retry_after: Duration::from_secs(600),
            ..NotificationPolicy::default()
        })
        .start()
        .await
        .unwrap();
    let listener = Listener::start(&[500]).await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let payment = payment_with(cards::THREE_D_SECURE).notification_url(listener.url());
    let raw = send_with(
        &sandbox,
        &payment.request(&context).unwrap(),
        &[(FAULT_HEADER, "notify=late")],
    )
    .await;
    let payment_id = raw.json()["paymentId"].as_str().unwrap().to_owned();
    assert!(sandbox.approve_three_d_secure(&payment_id));
    tokio::time::sleep(Duration::from_millis(200)).await;
    let waiting = sandbox.notifications();
    assert!(waiting[0].attempts.is_empty(), "{waiting:?}");

    // The hour passes at once; the first attempt fails (500) and waits ten minutes more.
    sandbox.advance_clock(Duration::from_secs(3600)).unwrap();
    let first = attempts_reach(&sandbox, 1).await;
    assert_eq!(first.attempts, [Attempt::Answered(500)]);
    sandbox.advance_clock(Duration::from_secs(600)).unwrap();
    let second = attempts_reach(&sandbox, 2).await;
    assert!(second.delivered, "{second:?}");
    assert_eq!(listener.bodies(2).await.len(), 2);
}

/// Waits until the first notification has `count` attempts.
async fn attempts_reach(sandbox: &paytoken_sandbox::Sandbox, count: usize) -> SentNotification {
    for _ in 0..500 {
        let sent = sandbox.notifications();
        if sent[0].attempts.len() >= count {
            return sent[0].clone();
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no attempt {count}: {:?}", sandbox.notifications());
}

#[tokio::test]
async fn the_request_log_keeps_each_answer_masked() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let payment = payment_with(cards::APPROVED);
    send(&sandbox, &payment.request(&context).unwrap()).await;
    let mut wrong = context.clone();
    wrong.credentials = Credentials::merchant(
        merchant(&sandbox).member_id,
        SecureKey::new("not-the-key").unwrap(),
    );
    send(&sandbox, &payment.request(&wrong).unwrap()).await;

    let log = sandbox.requests_after(0);
    let operations: Vec<_> = log.iter().map(|entry| entry.operation).collect();
    assert_eq!(
        operations,
        [Some("fetch_auth_token"), Some("pay"), Some("pay")]
    );
    let paid = &log[1];
    assert_eq!(paid.result_code.as_deref(), Some("00001"));
    assert_eq!(
        paid.caller.as_deref(),
        Some(merchant(&sandbox).member_id.as_str())
    );
    // Every field as the table shows it: each secret redacted, the card masked.
    let (secrets, cards_seen) = shown::as_the_table_says(
        paid.fields
            .iter()
            .map(|(name, value)| (name.as_str(), value.as_str())),
        cards::APPROVED,
    );
    assert!(secrets >= 2 && cards_seen == 1, "{:?}", paid.fields);
    let refused = &log[2];
    assert_eq!(refused.result_code.as_deref(), Some("20010"));
    let explained = refused.explanation.as_deref().unwrap();
    assert!(explained.contains("checksum"), "{explained}");
    assert!(!explained.contains("not-the-key"), "{explained}");
    assert_eq!(sandbox.requests_after(log[2].number), []);
}

#[tokio::test]
async fn a_state_file_keeps_the_advance_and_the_request_log() {
    let folder = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sandbox-clock");
    std::fs::create_dir_all(&folder).unwrap();
    let file = folder.join(format!("{}.db", order_id()));
    let sandbox = paytoken_sandbox::Sandbox::builder()
        .state_file(&file)
        .start()
        .await
        .unwrap();
    sandbox
        .advance_clock(Duration::from_secs(86_400 * 30))
        .unwrap();
    let moved = sandbox.unix_seconds();
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    call(&sandbox, &context, &CardsAndAccounts::all())
        .await
        .unwrap();
    let logged = sandbox.requests_after(0);
    assert_eq!(logged.len(), 2);
    sandbox.shutdown().await;
    let again = paytoken_sandbox::Sandbox::builder()
        .state_file(&file)
        .start()
        .await
        .unwrap();
    assert!(
        again.unix_seconds() >= moved,
        "the advance outlives a restart"
    );
    again.shutdown().await;
    let _ = std::fs::remove_file(file);
}

#[tokio::test]
async fn an_undecided_challenge_expires_on_the_moved_clock_and_is_notified() {
    let sandbox = sandbox().await;
    let listener = Listener::start(&[]).await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let payment = payment_with(cards::THREE_D_SECURE).notification_url(listener.url());
    let raw = send(&sandbox, &payment.request(&context).unwrap()).await;
    let payment_id = raw.json()["paymentId"].as_str().unwrap().to_owned();
    sandbox
        .advance_clock(paytoken_sandbox::THREE_D_SECURE_EXPIRES_AFTER - Duration::from_secs(60))
        .unwrap();
    assert!(!sandbox.books()[0].approved && sandbox.notifications().is_empty());
    sandbox.advance_clock(Duration::from_secs(60)).unwrap();
    let body = listener.bodies(1).await.remove(0);
    assert!(body.contains("\"transactionStatus\":\"N\""), "{body}");
    assert!(body.contains("not completed in time"), "{body}");
    assert!(
        !sandbox.approve_three_d_secure(&payment_id),
        "expired: nothing to decide"
    );
}

/// Regression: moved past the year 9999 (796 advances of ten years through the console),
/// every answer panicked in its `Date` header after the request took effect, and after
/// every restart of a state file. The clock now moves a century in all, and at a time an
/// HTTP date cannot say (a caller's own clock may give one) the answer keeps the machine's.
#[tokio::test]
async fn the_clock_moves_a_century_and_a_time_past_9999_stops_no_answer() {
    // Near the end of the year 9999, as a caller's own clock may be.
    let clock = std::sync::Arc::new(paytoken_sandbox::ManualClock::at_unix_seconds(
        253_402_300_000,
    ));
    let sandbox = builder().clock(clock).start().await.unwrap();
    let decade = Duration::from_secs(10 * 366 * 86_400);
    for _ in 0..10 {
        sandbox.advance_clock(decade).unwrap();
    }
    let refused = sandbox.advance_clock(Duration::from_secs(1)).unwrap_err();
    assert!(
        matches!(refused, paytoken_sandbox::Error::ClockBound { .. }),
        "{refused}"
    );
    assert!(refused.to_string().contains("century"), "{refused}");
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let raw = send(
        &sandbox,
        &CardsAndAccounts::all().request(&context).unwrap(),
    )
    .await;
    assert_eq!(raw.status, 200, "{}", raw.text());
    let date = raw.header("date").expect("hyper's own Date");
    assert!(httpdate::parse_http_date(date).is_ok(), "{date}");
}

#[tokio::test]
async fn cards_still_pay_when_the_clock_has_moved_its_century() {
    let sandbox = sandbox().await;
    let decade = Duration::from_secs(10 * 366 * 86_400);
    for _ in 0..10 {
        sandbox.advance_clock(decade).unwrap();
    }
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    // A card of 2099 has expired by now; one issued in the clock's own time pays.
    let old = call(&sandbox, &context, &payment_with(cards::APPROVED)).await;
    assert!(old.unwrap_err().to_string().contains("expired"));
    let mut payment = payment_with(cards::APPROVED);
    let year = paytoken_types::Timestamp::from_unix_seconds(sandbox.unix_seconds())
        .unwrap()
        .year();
    payment.card.expiry_year = (year + 3).to_string().parse().unwrap();
    let paid = call(&sandbox, &context, &payment).await.unwrap();
    assert!(paid.is_approved(), "{paid:?}");
}
