//! The client against a sandbox that misbehaves: stalls, dropped connections, `5xx` pages,
//! oversized bodies, expired tokens, redirects, closed ports. Payments are never sent
//! twice; reads are retried; every failure is a typed error.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::{QUICK, client_for, payment_with, signed_in_client};
use paytoken::ops::cards_and_accounts::CardsAndAccounts;
use paytoken::ops::payment::Payment;
use paytoken::{AuthToken, Client, Error, PaymentStatus, TransportErrorKind};
use paytoken_sandbox::{DEFAULT_MERCHANT_ID, FaultTarget, Faults, ManualClock, Sandbox, cards};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

use paytoken::ops::auth_token::{MERCHANT_PATH as AUTH_TOKEN, REGENERATE_PATH as REGENERATE};
use paytoken::ops::cards_and_accounts::PATH as LIST;
use paytoken::ops::payment::PATH as PAYMENTS;

/// The fault target of the list of cards and accounts, the read these tests break.
fn list_target() -> FaultTarget {
    FaultTarget::parse("cards_and_accounts").unwrap()
}

fn count(sandbox: &Sandbox, path: &str) -> usize {
    sandbox.received().iter().filter(|r| r.path == path).count()
}

/// A started sandbox and a client that already holds its auth token, so that the next
/// request the sandbox sees is the test's own.
async fn signed_in(sandbox: Sandbox) -> (Sandbox, Client) {
    let client = signed_in_client(client_for(&sandbox).retry_policy(QUICK)).await;
    (sandbox, client)
}

/// The unknown outcome of `payment`, an approved card's: it names the payment, the sandbox
/// saw the payment once, and the inquiry finds it approved without paying again.
async fn settles_once(client: &Client, sandbox: &Sandbox, payment: &Payment, error: &Error) {
    assert!(error.is_outcome_unknown(), "{error}");
    assert!(error.to_string().contains("outcome unknown"), "{error}");
    assert_eq!(
        error.merchant_transaction_id(),
        Some(&payment.merchant_transaction_id)
    );
    assert_eq!(count(sandbox, PAYMENTS), 1, "the sandbox saw one payment");
    let settled = client
        .reconcile(&payment.merchant_transaction_id)
        .await
        .unwrap();
    assert_eq!(settled.status, PaymentStatus::Approved);
    assert_eq!(count(sandbox, PAYMENTS), 1, "the inquiry paid nothing");
}

/// A client of the default merchant with a token of its own (nothing fetched), for a server
/// at `address` that is not the sandbox.
fn fixed_token_client(address: std::net::SocketAddr) -> paytoken::ClientBuilder {
    let merchant = paytoken_sandbox::SandboxConfig::default()
        .merchant(DEFAULT_MERCHANT_ID)
        .unwrap()
        .clone();
    Client::builder()
        .base_url(format!("http://{address}"))
        .allow_http(true)
        .credentials(merchant.credentials())
        .auth_token(AuthToken::new("fixed.token.value").unwrap())
}

/// The HTTP status of an `UnexpectedStatus` error, under an unknown outcome or not.
fn unexpected_status(error: &Error) -> Option<u16> {
    match error.root() {
        Error::Protocol(paytoken::protocol::Error::UnexpectedStatus { status, .. }) => {
            Some(*status)
        }
        _ => None,
    }
}

/// Bounds a test that would hang if the client had no timeout.
async fn bounded<F: Future>(future: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(30), future)
        .await
        .expect("the client gave up within its own bound")
}

#[tokio::test]
async fn a_stalled_answer_times_out_within_the_bound_and_a_payment_is_not_resent() {
    let sandbox = Sandbox::start().await.unwrap();
    let client = signed_in_client(
        client_for(&sandbox)
            .request_timeout(Duration::from_millis(300))
            .retry_policy(QUICK),
    )
    .await;

    sandbox.fault_next(list_target(), Faults::parse("stall=60s").unwrap());
    let error = bounded(client.cards_and_accounts(&CardsAndAccounts::all()))
        .await
        .unwrap_err();
    assert!(error.is_timeout(), "{error}");
    assert!(
        matches!(error, Error::Transport { attempts: 1, .. }),
        "a timeout is not retried: {error}"
    );

    sandbox.fault_next(
        FaultTarget::MONEY_MOVING,
        Faults::parse("stall=60s").unwrap(),
    );
    let payment = payment_with(cards::APPROVED);
    let error = bounded(client.pay(&payment)).await.unwrap_err();
    assert!(error.is_timeout(), "{error}");
    settles_once(&client, &sandbox, &payment, &error).await;
}

#[tokio::test]
async fn the_time_out_card_gives_an_unknown_outcome_that_reconcile_settles() {
    let sandbox = Sandbox::start().await.unwrap();
    let client = client_for(&sandbox)
        .request_timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let payment = payment_with(cards::TIMEOUT);
    let error = bounded(client.pay(&payment)).await.unwrap_err();
    settles_once(&client, &sandbox, &payment, &error).await;
}

#[tokio::test]
async fn a_dropped_connection_on_a_payment_is_an_unknown_outcome_sent_once() {
    let (sandbox, client) = signed_in(Sandbox::start().await.unwrap()).await;
    sandbox.fault_next(
        FaultTarget::MONEY_MOVING,
        Faults::parse("drop=after").unwrap(),
    );
    let payment = payment_with(cards::APPROVED);
    let error = client.pay(&payment).await.unwrap_err();
    assert_eq!(error.transport_kind(), Some(TransportErrorKind::Broken));
    settles_once(&client, &sandbox, &payment, &error).await;
}

#[tokio::test]
async fn a_dropped_connection_on_a_read_is_retried_and_succeeds() {
    let (sandbox, client) = signed_in(Sandbox::start().await.unwrap()).await;
    let before = count(&sandbox, LIST);
    sandbox.fault_next(list_target(), Faults::parse("drop=after").unwrap());
    client
        .cards_and_accounts(&CardsAndAccounts::all())
        .await
        .unwrap();
    assert_eq!(
        count(&sandbox, LIST) - before,
        2,
        "one dropped, one answered"
    );
}

#[tokio::test]
async fn an_html_502_is_typed_retried_on_a_read_and_unknown_on_a_payment() {
    let (sandbox, client) = signed_in(Sandbox::start().await.unwrap()).await;

    // Once: the retry gets through.
    let before = count(&sandbox, LIST);
    sandbox.fault_next(list_target(), Faults::parse("status=502").unwrap());
    client
        .cards_and_accounts(&CardsAndAccounts::all())
        .await
        .unwrap();
    assert_eq!(count(&sandbox, LIST) - before, 2);

    // Every time: the policy's three attempts, then the status as a typed error.
    let before = count(&sandbox, LIST);
    for _ in 0..3 {
        sandbox.fault_next(list_target(), Faults::parse("status=502").unwrap());
    }
    let error = client
        .cards_and_accounts(&CardsAndAccounts::all())
        .await
        .unwrap_err();
    assert!(
        matches!(error, Error::Protocol(_)) && unexpected_status(&error) == Some(502),
        "{error}"
    );
    assert_eq!(count(&sandbox, LIST) - before, 3);

    // A payment is not sent again: the 502 may have come after it was made.
    sandbox.fault_next(
        FaultTarget::MONEY_MOVING,
        Faults::parse("status=502").unwrap(),
    );
    let payment = payment_with(cards::APPROVED);
    let error = client.pay(&payment).await.unwrap_err();
    assert_eq!(unexpected_status(&error), Some(502), "{error}");
    settles_once(&client, &sandbox, &payment, &error).await;
}

#[tokio::test]
async fn an_oversized_answer_is_refused_without_reading_it_all() {
    let (sandbox, client) = signed_in(Sandbox::start().await.unwrap()).await;
    sandbox.fault_next(list_target(), Faults::parse("body=oversized").unwrap());
    let error = client
        .cards_and_accounts(&CardsAndAccounts::all())
        .await
        .unwrap_err();
    assert_eq!(
        error.transport_kind(),
        Some(TransportErrorKind::ResponseTooLarge { limit: 1024 * 1024 }),
        "{error}"
    );
    // A smaller limit refuses ordinary answers too: the limit is the client's.
    let small = client_for(&sandbox).body_limit(64).build().unwrap();
    let error = small
        .cards_and_accounts(&CardsAndAccounts::all())
        .await
        .unwrap_err();
    assert!(matches!(
        error.transport_kind(),
        Some(TransportErrorKind::ResponseTooLarge { limit: 64 })
    ));
}

#[tokio::test]
async fn a_malformed_answer_to_a_payment_is_an_unknown_outcome() {
    let (sandbox, client) = signed_in(Sandbox::start().await.unwrap()).await;
    sandbox.fault_next(
        FaultTarget::MONEY_MOVING,
        Faults::parse("body=truncated").unwrap(),
    );
    let payment = payment_with(cards::APPROVED);
    let error = client.pay(&payment).await.unwrap_err();
    assert!(matches!(
        error.root(),
        Error::Protocol(paytoken::protocol::Error::Undecodable { .. })
    ));
    settles_once(&client, &sandbox, &payment, &error).await;
}

#[tokio::test]
async fn an_expired_token_is_renewed_and_the_call_goes_through() {
    let clock = Arc::new(ManualClock::at_unix_seconds(1_795_000_000));
    let sandbox = Sandbox::builder()
        .clock(clock.clone())
        .start()
        .await
        .unwrap();
    let (sandbox, client) = signed_in(sandbox).await;
    // The client's own clock says the token is fresh; the gateway's says it expired.
    clock.advance(Duration::from_secs(2 * 60 * 60));
    let paid = client.pay(&payment_with(cards::APPROVED)).await.unwrap();
    assert_eq!(paid.status, PaymentStatus::Approved);
    let paths: Vec<_> = sandbox.received().into_iter().map(|r| r.path).collect();
    let tail: Vec<_> = paths
        .iter()
        .rev()
        .take(3)
        .rev()
        .map(String::as_str)
        .collect();
    assert_eq!(
        tail,
        [PAYMENTS, AUTH_TOKEN, PAYMENTS],
        "refused with the old token, a new one fetched, sent again"
    );
}

/// The console's `clock/advance`, over its socket, as a team's own tool would call it.
async fn advance_by_console(sandbox: &Sandbox, seconds: u64) {
    let mut stream = tokio::net::TcpStream::connect(sandbox.address())
        .await
        .unwrap();
    let body = format!("{{\"seconds\": {seconds}}}");
    let request = format!(
        "POST {}clock/advance HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        paytoken_sandbox::CONSOLE_PREFIX,
        sandbox.address(),
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[tokio::test]
async fn the_consoles_clock_moved_past_the_token_lifetime_has_the_client_renew() {
    let (sandbox, client) = signed_in(Sandbox::start().await.unwrap()).await;
    advance_by_console(
        &sandbox,
        paytoken_sandbox::AUTH_TOKEN_LIFETIME.as_secs() + 1,
    )
    .await;
    let paid = client.pay(&payment_with(cards::APPROVED)).await.unwrap();
    assert_eq!(paid.status, PaymentStatus::Approved);
    let log = sandbox.requests_after(0);
    let tail: Vec<_> = log
        .iter()
        .rev()
        .take(3)
        .rev()
        .map(|entry| (entry.operation, entry.result_code.as_deref()))
        .collect();
    assert_eq!(
        tail,
        [
            (Some("pay"), Some("20002")),
            (Some("fetch_auth_token"), Some("200")),
            (Some("pay"), Some("00001")),
        ],
        "refused with the expired token, a new one fetched, sent again"
    );
}

/// Regression: a refused login was asked for a second time, with the same credentials.
#[tokio::test]
async fn a_refused_login_is_asked_for_once() {
    let sandbox = Sandbox::start().await.unwrap();
    let member_id = sandbox
        .config()
        .merchant(DEFAULT_MERCHANT_ID)
        .unwrap()
        .member_id;
    let wrong = paytoken::Credentials::merchant(
        member_id,
        paytoken::SecureKey::new("not-the-merchant-key").unwrap(),
    );
    let client = client_for(&sandbox)
        .credentials(wrong)
        .retry_policy(QUICK)
        .build()
        .unwrap();
    let error = client
        .cards_and_accounts(&CardsAndAccounts::all())
        .await
        .unwrap_err();
    let refusal = error.refusal().expect("a refusal");
    assert_eq!(refusal.result.code.as_str(), "20001", "{error}");
    assert_eq!(
        count(&sandbox, AUTH_TOKEN),
        1,
        "the login was asked for once"
    );
    assert_eq!(count(&sandbox, LIST), 0, "nothing was sent without a token");
}

#[tokio::test]
async fn a_token_due_for_renewal_is_fetched_once_for_all_the_calls_waiting() {
    let sandbox = Sandbox::start().await.unwrap();
    let client = client_for(&sandbox).build().unwrap();
    let calls: Vec<_> = (0..32)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move { client.cards_and_accounts(&CardsAndAccounts::all()).await })
        })
        .collect();
    for call in calls {
        call.await.unwrap().unwrap();
    }
    assert_eq!(count(&sandbox, AUTH_TOKEN), 1);
    assert_eq!(count(&sandbox, LIST), 32);
}

#[tokio::test]
async fn a_token_near_its_end_is_regenerated_before_it_expires() {
    let sandbox = Sandbox::start().await.unwrap();
    // Tokens the client takes to live a minute, renewed after 100 ms: the second call
    // renews, by regenerating (the token is still valid). The minute keeps the test clear
    // of a slow machine: only "at least 100 ms passed" matters.
    let client = client_for(&sandbox)
        .token_lifetime(Duration::from_secs(60))
        .refresh_before(Duration::from_millis(59_900))
        .build()
        .unwrap();
    client
        .cards_and_accounts(&CardsAndAccounts::all())
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(150)).await;
    client
        .cards_and_accounts(&CardsAndAccounts::all())
        .await
        .unwrap();
    let paths: Vec<_> = sandbox.received().into_iter().map(|r| r.path).collect();
    assert_eq!(paths, [AUTH_TOKEN, LIST, REGENERATE, LIST]);
}

#[tokio::test]
async fn a_closed_port_is_a_connect_error_retried_even_for_a_payment() {
    // Port 1 on loopback: nothing listens there, and no test binds it (a port freed by
    // another test's listener could be taken by a sandbox started meanwhile).
    let address = std::net::SocketAddr::from(([127, 0, 0, 1], 1));
    let client = fixed_token_client(address)
        .retry_policy(QUICK)
        .build()
        .unwrap();
    let error = client
        .pay(&payment_with(cards::APPROVED))
        .await
        .unwrap_err();
    assert!(
        matches!(error, Error::Transport { attempts: 3, .. }),
        "{error}"
    );
    assert_eq!(error.transport_kind(), Some(TransportErrorKind::Connect));
    assert!(!error.is_outcome_unknown() && !error.may_have_been_processed());
}

#[tokio::test]
async fn a_redirect_is_not_followed() {
    let sandbox = Sandbox::start().await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let location = format!("{}{LIST}", sandbox.base_url());
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let location = location.clone();
            tokio::spawn(async move {
                let mut buffer = vec![0; 64 * 1024];
                let _ = socket.read(&mut buffer).await;
                let answer = format!(
                    "HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\n\r\n"
                );
                let _ = socket.write_all(answer.as_bytes()).await;
            });
        }
    });
    let client = fixed_token_client(address).build().unwrap();
    let error = client
        .cards_and_accounts(&CardsAndAccounts::all())
        .await
        .unwrap_err();
    assert!(
        matches!(error, Error::Protocol(_)) && unexpected_status(&error) == Some(302),
        "{error}"
    );
    assert!(
        sandbox.received().is_empty(),
        "the redirect's target was never asked"
    );
}
