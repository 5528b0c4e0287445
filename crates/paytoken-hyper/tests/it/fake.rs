//! The client over the in-memory fake transport: no sockets, the gateway's answers from the
//! fixtures, and the requests read back. What the client decides (send again or not,
//! renew the token, call an outcome unknown) is seen here request by request.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use paytoken_checksum::{Credentials, SecureKey};
use paytoken_hyper::testing::FakeTransport;
use paytoken_hyper::{
    Client, ClientBuilder, Error, RetryPolicy, TransportError, TransportErrorKind,
    TransportResponse,
};
use paytoken_protocol::ops::cancel::Cancel;
use paytoken_protocol::ops::capture::Capture;
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::ops::refund::Refund;
use paytoken_protocol::ops::repeat_payment::RepeatPayment;
use paytoken_protocol::ops::token_payment::TokenPayment;
use paytoken_protocol::{AuthToken, OperationKind, PaymentStatus, Username};
use paytoken_types::{Card, CardNumber, Cvv, TransactionState};

fn fixture(path: &str) -> Vec<u8> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/responses/");
    std::fs::read(format!("{root}{path}")).unwrap()
}

fn ok(path: &str) -> Result<TransportResponse, TransportError> {
    Ok(TransportResponse {
        status: 200,
        body: fixture(path).into(),
    })
}

fn failure(kind: TransportErrorKind) -> Result<TransportResponse, TransportError> {
    Err(TransportError::new(kind))
}

/// Answers the requests in turn with `script`, and fails the test past its end.
fn scripted(script: Vec<Result<TransportResponse, TransportError>>) -> FakeTransport {
    let script = Mutex::new(script.into_iter());
    FakeTransport::new(move |_| {
        script
            .lock()
            .unwrap()
            .next()
            .expect("a request past the script")
    })
}

fn builder() -> ClientBuilder {
    Client::builder()
        .base_url("https://gateway.test")
        .credentials(Credentials::merchant(
            "11344".parse().unwrap(),
            SecureKey::new("merchant-key").unwrap(),
        ))
        .retry_policy(RetryPolicy {
            max_attempts: 3,
            initial_backoff: Duration::from_millis(1),
            max_backoff: Duration::from_millis(2),
        })
}

fn with_fixed_token(transport: FakeTransport) -> Client<FakeTransport> {
    builder()
        .auth_token(AuthToken::new("fixed.token.value").unwrap())
        .build_with_transport(transport)
        .unwrap()
}

fn payment() -> Payment {
    let card = Card {
        number: CardNumber::new("4000000000000051").unwrap(),
        expiry_month: "06".parse().unwrap(),
        expiry_year: "2030".parse().unwrap(),
        cvv: Cvv::new("745").unwrap(),
        holder: None,
    };
    // What `payment/approved.json` answers: its echoes agree.
    Payment::new(
        "order20261122A".parse().unwrap(),
        "1250.50".parse().unwrap(),
        "EUR".parse().unwrap(),
        card,
    )
}

#[tokio::test]
async fn a_payment_goes_out_signed_with_the_token_and_comes_back_typed() {
    let client = with_fixed_token(scripted(vec![ok("payment/approved.json")]));
    let transaction = client.pay(&payment()).await.unwrap();
    assert_eq!(transaction.status, PaymentStatus::Approved);
    let sent = client.transport().sent();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].operation(), OperationKind::Payment);
    assert_eq!(sent[0].path(), paytoken_protocol::ops::payment::PATH);
    assert_eq!(sent[0].header("AuthToken"), Some("fixed.token.value"));
}

#[tokio::test]
async fn a_connection_that_never_opened_is_tried_again_even_for_a_payment() {
    let client = with_fixed_token(scripted(vec![
        failure(TransportErrorKind::Connect),
        ok("payment/approved.json"),
    ]));
    client.pay(&payment()).await.unwrap();
    assert_eq!(client.transport().sent().len(), 2);
}

#[tokio::test]
async fn a_broken_connection_a_5xx_or_a_huge_answer_to_a_payment_is_an_unknown_outcome_sent_once() {
    for answer in [
        failure(TransportErrorKind::Broken),
        Ok(TransportResponse {
            status: 502,
            body: fixture("payment/bad_gateway_502.html").into(),
        }),
        failure(TransportErrorKind::ResponseTooLarge { limit: 10 }),
    ] {
        let client = with_fixed_token(scripted(vec![answer]));
        let error = client.pay(&payment()).await.unwrap_err();
        assert!(error.is_outcome_unknown(), "{error}");
        assert_eq!(
            error.merchant_transaction_id().unwrap().as_str(),
            "order20261122A"
        );
        assert_eq!(client.transport().sent().len(), 1);
    }
}

#[tokio::test]
async fn an_answer_about_another_transaction_is_an_unknown_outcome_sent_once() {
    let client = with_fixed_token(scripted(vec![ok("payment/approved.json")]));
    let mut other = payment();
    other.merchant_transaction_id = "Rest Transaction 01".parse().unwrap();
    let error = client.pay(&other).await.unwrap_err();
    assert!(error.is_outcome_unknown(), "{error}");
    assert_eq!(
        error.merchant_transaction_id().unwrap().as_str(),
        "Rest Transaction 01"
    );
    // The contradiction is the cause, printed by whoever walks the chain, once.
    let cause = std::error::Error::source(&error).unwrap().to_string();
    assert!(
        cause.contains("\"Rest Transaction 01\"") && cause.contains("\"order20261122A\""),
        "both values: {cause}"
    );
    assert!(!error.to_string().contains(&cause), "{error}");
    assert_eq!(client.transport().sent().len(), 1);
}

#[tokio::test]
async fn a_token_payment_without_a_merchant_transaction_id_is_given_one() {
    let answer = br#"{"paymentId":"9","paymentType":"DB","result":{"code":"00001"}}"#;
    let client = with_fixed_token(FakeTransport::answering(200, &answer[..]));
    let charge = TokenPayment::new(
        "8a82944a4cc25ebf014cc2c782423202".parse().unwrap(),
        "1.00".parse().unwrap(),
        "EUR".parse().unwrap(),
    );
    let first = client.pay_with_token(&charge).await.unwrap();
    let second = client.pay_with_token(&charge).await.unwrap();
    let (first, second) = (
        first.merchant_transaction_id.unwrap(),
        second.merchant_transaction_id.unwrap(),
    );
    assert_ne!(first, second, "unique per call");
    assert!(first.as_str().starts_with("pt-"), "{first:?}");
    let sent = client.transport().sent();
    let fields: Vec<(String, String)> = serde_urlencoded::from_bytes(sent[0].body()).unwrap();
    assert!(
        fields.contains(&("merchantTransactionId".into(), first.as_str().into())),
        "{fields:?}"
    );
}

#[tokio::test]
async fn settling_a_lost_token_payment_that_the_inquiry_cannot_find_stays_unknown() {
    let not_found = fixture("inquiry/not_found.json");
    let client = with_fixed_token(scripted(vec![
        failure(TransportErrorKind::Broken),
        Ok(TransportResponse {
            status: 200,
            body: not_found.into(),
        }),
    ]));
    let charge = TokenPayment::new(
        "8a82944a4cc25ebf014cc2c782423202".parse().unwrap(),
        "1.00".parse().unwrap(),
        "EUR".parse().unwrap(),
    );
    let lost = client.pay_with_token(&charge).await.unwrap_err();
    let id = lost.merchant_transaction_id().cloned().unwrap();
    let settled = client.settle(lost).await.unwrap_err();
    assert!(settled.is_outcome_unknown(), "never a guess: {settled}");
    assert_eq!(settled.merchant_transaction_id(), Some(&id));
}

/// Found by the simulation (`cargo xtask sim --seed 408`): a payment's answer lost, then
/// every attempt of its inquiry failed; `settle` gave the inquiry's error back, whose
/// connection had never opened, so that the payment read as never processed (and free to
/// send again) though the gateway had approved it.
#[tokio::test]
async fn seed_408_a_lost_payment_whose_inquiry_never_gets_through_stays_unknown() {
    let bad_gateway = || {
        Ok(TransportResponse {
            status: 502,
            body: "<html>502 Bad Gateway</html>".into(),
        })
    };
    let client = with_fixed_token(scripted(vec![
        failure(TransportErrorKind::Broken),
        bad_gateway(),
        failure(TransportErrorKind::Broken),
        failure(TransportErrorKind::Connect),
    ]));
    let lost = client.pay(&payment()).await.unwrap_err();
    let settled = client.settle(lost).await.unwrap_err();
    assert!(settled.is_outcome_unknown(), "{settled}");
    assert!(settled.may_have_been_processed(), "{settled}");
    assert_eq!(
        settled.merchant_transaction_id().map(|id| id.as_str()),
        Some("order20261122A")
    );
    assert_eq!(client.transport().sent().len(), 4);
}

#[tokio::test]
async fn a_read_is_retried_after_a_broken_connection_and_a_5xx_then_gives_up() {
    let client = with_fixed_token(scripted(vec![
        failure(TransportErrorKind::Broken),
        Ok(TransportResponse {
            status: 500,
            body: "oops".into(),
        }),
        ok("cards_and_accounts/success.json"),
    ]));
    client
        .cards_and_accounts(&CardsAndAccounts::all())
        .await
        .unwrap();
    assert_eq!(client.transport().sent().len(), 3);

    let client = with_fixed_token(scripted(vec![
        failure(TransportErrorKind::Broken),
        failure(TransportErrorKind::Broken),
        failure(TransportErrorKind::Broken),
    ]));
    let error = client
        .cards_and_accounts(&CardsAndAccounts::all())
        .await
        .unwrap_err();
    assert!(
        matches!(error, Error::Transport { attempts: 3, .. }),
        "{error}"
    );
    assert!(!error.is_outcome_unknown(), "a read changes nothing");
}

#[tokio::test]
async fn a_fetched_token_is_asked_for_once_and_renewed_after_a_refusal() {
    let client = builder()
        .fetch_auth_token("100".parse().unwrap(), Username::new("shop.admin").unwrap())
        .build_with_transport(scripted(vec![
            ok("auth_token/merchant.json"),
            ok("cards_and_accounts/success.json"),
            ok("payment/refused_auth_token.json"),
            ok("auth_token/merchant.json"),
            ok("payment/approved.json"),
        ]))
        .unwrap();
    client
        .cards_and_accounts(&CardsAndAccounts::all())
        .await
        .unwrap();
    let paid = client.pay(&payment()).await.unwrap();
    assert_eq!(paid.status, PaymentStatus::Approved);
    let sent = client.transport().sent();
    let kinds: Vec<_> = sent
        .iter()
        .map(paytoken_protocol::Request::operation)
        .collect();
    assert_eq!(
        kinds,
        [
            OperationKind::AuthToken,
            OperationKind::CardsAndAccounts,
            OperationKind::Payment,
            OperationKind::AuthToken,
            OperationKind::Payment,
        ]
    );
    assert!(
        sent[0].header("AuthToken").is_none(),
        "the token endpoint goes without it"
    );
    assert!(sent[1].header("AuthToken").is_some());
    // The payment sent again after the refused token is the request built the first
    // time, not built anew: the very same body bytes.
    assert!(std::ptr::eq(
        sent[2].body().as_bytes(),
        sent[4].body().as_bytes()
    ));
}

#[tokio::test]
async fn a_refusal_of_a_fixed_token_is_returned_as_it_is() {
    let client = with_fixed_token(scripted(vec![ok("payment/refused_auth_token.json")]));
    let error = client.pay(&payment()).await.unwrap_err();
    assert!(error.refusal().unwrap().contains("20002"));
    assert!(!error.may_have_been_processed());
    assert_eq!(client.transport().sent().len(), 1);
}

#[tokio::test]
async fn invalid_input_is_refused_before_anything_is_sent() {
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&calls);
    let client = with_fixed_token(FakeTransport::new(move |_| {
        seen.fetch_add(1, Ordering::Relaxed);
        ok("payment/approved.json")
    }));
    let mut zero = payment();
    zero.amount = "0.00".parse().unwrap();
    let error = client.pay(&zero).await.unwrap_err();
    assert!(
        error.is_invalid_input() && !error.may_have_reached_gateway(),
        "{error}"
    );
    assert_eq!(calls.load(Ordering::Relaxed), 0);

    // Not even the auth token is asked for when the input is wrong.
    let client = builder()
        .fetch_auth_token("100".parse().unwrap(), Username::new("shop.admin").unwrap())
        .build_with_transport(scripted(Vec::new()))
        .unwrap();
    let error = client.pay(&zero).await.unwrap_err();
    assert!(error.is_invalid_input(), "{error}");
    assert!(client.transport().sent().is_empty());
}

#[test]
fn settings_that_cannot_work_are_named() {
    let fake = || FakeTransport::answering(200, "{}");
    let setting = |result: Result<Client<FakeTransport>, Error>| match result.unwrap_err() {
        Error::Config { setting, .. } => setting,
        other => panic!("{other}"),
    };
    assert_eq!(
        setting(Client::builder().build_with_transport(fake())),
        "base_url"
    );
    assert_eq!(
        setting(
            Client::builder()
                .base_url("https://x.test")
                .build_with_transport(fake())
        ),
        "credentials"
    );
    assert_eq!(
        setting(builder().base_url("ftp://x").build_with_transport(fake())),
        "base_url"
    );
    assert_eq!(
        setting(
            builder()
                .base_url("http://x.test")
                .build_with_transport(fake())
        ),
        "base_url"
    );
    assert_eq!(
        setting(
            builder()
                .request_timeout(Duration::ZERO)
                .build_with_transport(fake())
        ),
        "request_timeout"
    );
    assert_eq!(
        setting(builder().body_limit(0).build_with_transport(fake())),
        "body_limit"
    );
    assert!(matches!(
        builder().user_agent("bad\nagent").build(),
        Err(Error::Config {
            setting: "user_agent",
            ..
        })
    ));
    assert!(matches!(
        builder()
            .add_root_certificate(b"not a certificate".to_vec())
            .build(),
        Err(Error::Config {
            setting: "add_root_certificate",
            ..
        })
    ));
}

#[test]
fn debug_shows_no_secret() {
    let builder = builder().auth_token(AuthToken::new("fixed.token.value").unwrap());
    let shown = format!("{builder:?}");
    let client = builder
        .build_with_transport(FakeTransport::answering(200, "{}"))
        .unwrap();
    let shown = format!("{shown} {client:?}");
    assert!(
        !shown.contains("merchant-key") && !shown.contains("fixed.token.value"),
        "{shown}"
    );
}

/// The inquiry's answer for payment `id` in the long status `state`.
fn inquired(id: &str, state: &str) -> Result<TransportResponse, TransportError> {
    let body = format!(
        r#"{{"paymentId":"{id}","result":{{"code":"00026","description":"Record found"}},"transactionStatus":"Y","status":"{state}"}}"#
    );
    Ok(TransportResponse {
        status: 200,
        body: body.into_bytes().into(),
    })
}

fn capture() -> Capture {
    Capture::new(
        "54280".parse().unwrap(),
        "9.99".parse().unwrap(),
        "EUR".parse().unwrap(),
    )
}

#[tokio::test]
async fn a_lost_capture_refund_or_cancel_is_unknown_with_its_payment_sent_once() {
    let refund = Refund::new(
        "54279".parse().unwrap(),
        "1.00".parse().unwrap(),
        "EUR".parse().unwrap(),
    );
    for (operation, id) in [
        (OperationKind::Capture, "54280"),
        (OperationKind::Refund, "54279"),
        (OperationKind::Cancel, "54280"),
    ] {
        let client = with_fixed_token(scripted(vec![failure(TransportErrorKind::Broken)]));
        let error = match operation {
            OperationKind::Capture => client.capture(&capture()).await,
            OperationKind::Refund => client.refund(&refund).await,
            _ => client.cancel(&Cancel::new("54280".parse().unwrap())).await,
        }
        .unwrap_err();
        assert!(error.is_outcome_unknown(), "{error}");
        assert_eq!(error.payment_id().unwrap().as_str(), id);
        assert_eq!(client.transport().sent().len(), 1);
        assert_eq!(client.transport().sent()[0].operation(), operation);
    }
}

#[tokio::test]
async fn a_lost_capture_is_settled_by_the_payments_long_status_only() {
    // Took effect: the transaction as inquired.
    let client = with_fixed_token(scripted(vec![
        failure(TransportErrorKind::Timeout {
            after: Duration::from_secs(1),
        }),
        inquired("54280", "capturesuccess"),
    ]));
    let lost = client.capture(&capture()).await.unwrap_err();
    let settled = client.settle(lost).await.unwrap();
    assert_eq!(settled.payment_id.as_str(), "54280");
    let sent = client.transport().sent();
    assert_eq!(sent[1].operation(), OperationKind::Inquiry);

    // Still only authorised: it did not take effect, and may be sent again.
    let client = with_fixed_token(scripted(vec![
        failure(TransportErrorKind::Broken),
        inquired("54280", "authsuccessful"),
    ]));
    let lost = client.capture(&capture()).await.unwrap_err();
    let error = client.settle(lost).await.unwrap_err();
    assert!(
        matches!(
            &error,
            Error::NotApplied {
                state: TransactionState::AuthSuccessful,
                ..
            }
        ),
        "{error}"
    );
    assert!(!error.may_have_been_processed() && !error.is_outcome_unknown());

    // A status the table does not know: no guess.
    let client = with_fixed_token(scripted(vec![
        failure(TransportErrorKind::Broken),
        inquired("54280", "reversed"),
    ]));
    let lost = client.capture(&capture()).await.unwrap_err();
    let error = client.settle(lost).await.unwrap_err();
    assert!(matches!(&error, Error::Unsettled { .. }), "{error}");
    assert!(error.is_outcome_unknown() && error.may_have_been_processed());
}

#[tokio::test]
async fn a_lost_refund_is_never_confirmed_by_the_status_alone_but_by_what_the_caller_knows() {
    let refund = Refund::new(
        "54279".parse().unwrap(),
        "1.00".parse().unwrap(),
        "EUR".parse().unwrap(),
    );
    let client = with_fixed_token(scripted(vec![
        failure(TransportErrorKind::Broken),
        inquired("54279", "markedforreversal"),
        inquired("54279", "markedforreversal"),
        inquired("54279", "capturesuccess"),
        inquired("54279", "markedforreversal"),
    ]));
    let lost = client.refund(&refund).await.unwrap_err();
    let error = client.settle(lost).await.unwrap_err();
    // This refund or an earlier one: the error says it cannot tell, and keeps its cause.
    assert!(matches!(&error, Error::Unsettled { .. }), "{error}");
    assert!(error.to_string().contains("cannot tell"), "{error}");
    assert!(error.is_timeout() || error.transport_kind().is_some());
    // The caller knows it was the payment's first refund, a partial one.
    let id = "54279".parse().unwrap();
    let (before, after) = (
        TransactionState::CaptureSuccess,
        TransactionState::MarkedForReversal,
    );
    let settled = client
        .reconcile_move(OperationKind::Refund, &id, &before, &after)
        .await
        .unwrap();
    assert_eq!(settled.payment_id, id);
    // Still as before: it did not take effect.
    let error = client
        .reconcile_move(OperationKind::Refund, &id, &before, &after)
        .await
        .unwrap_err();
    assert!(matches!(&error, Error::NotApplied { .. }), "{error}");
    // A second partial refund leaves the status as it was: never told from it.
    let error = client
        .reconcile_move(OperationKind::Refund, &id, &after, &after)
        .await
        .unwrap_err();
    assert!(matches!(&error, Error::Unsettled { .. }), "{error}");
    assert_eq!(client.transport().sent().len(), 5, "the refund went once");
}

#[tokio::test]
async fn a_repeated_payment_by_payment_id_is_given_a_merchant_transaction_id() {
    let client = with_fixed_token(scripted(vec![failure(TransportErrorKind::Broken)]));
    let repeat = RepeatPayment::new(
        "54279".parse().unwrap(),
        "9.99".parse().unwrap(),
        "EUR".parse().unwrap(),
    );
    let error = client.repeat_payment(&repeat).await.unwrap_err();
    assert!(error.is_outcome_unknown(), "{error}");
    let id = error.merchant_transaction_id().unwrap();
    assert!(id.as_str().starts_with("pt-"), "{id:?}");
    let sent = client.transport().sent();
    let fields: Vec<(String, String)> = serde_urlencoded::from_bytes(sent[0].body()).unwrap();
    assert!(fields.contains(&("merchantTransactionId".into(), id.as_str().into())));
    assert!(fields.contains(&("recurringType".into(), "REPEATED".into())));
}

/// Regression: a gateway's description that echoed the client's own secure key or auth
/// token reached the caller, its logs and the error's message whole.
#[tokio::test]
async fn a_description_that_echoes_the_clients_key_or_token_is_masked_where_it_enters() {
    let echo = r#"key merchant-key, form merchant-key, token fixed.token.value"#;
    let charge = TokenPayment::new(
        "8a82944a4cc25ebf014cc2c782423202".parse().unwrap(),
        "1.00".parse().unwrap(),
        "EUR".parse().unwrap(),
    )
    .merchant_transaction_id("order-1".parse().unwrap());
    let approved = format!(
        r#"{{"paymentId":"9","paymentType":"DB","merchantTransactionId":"order-1","result":{{"code":"00001","description":"{echo}"}}}}"#
    );
    let client = with_fixed_token(FakeTransport::answering(200, approved));
    let paid = client.pay_with_token(&charge).await.unwrap();
    assert_eq!(
        paid.result.description,
        "key [redacted], form [redacted], token [redacted]"
    );
    let refused =
        format!(r#"{{"paymentId":"-","result":{{"code":"30001","description":"{echo}"}}}}"#);
    let client = with_fixed_token(FakeTransport::answering(200, refused));
    let error = client.pay_with_token(&charge).await.unwrap_err();
    let shown = format!(
        "{error} {error:?} {}",
        error.refusal().unwrap().result.description
    );
    for secret in ["merchant-key", "fixed.token.value"] {
        assert!(!shown.contains(secret), "{secret}: {shown}");
    }
}
