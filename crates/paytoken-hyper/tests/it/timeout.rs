//! The request timeout over real sockets: a gateway that takes a request and never answers
//! fails the call as a timeout (a read as a transport error, a payment as an unknown
//! outcome), however many wait at once and whichever runtime they run on; a slow answer
//! within the timeout is read. The server is a raw TCP listener.
//!
//! Each call runs under a generous outer `tokio::time::timeout`, so that a timeout that
//! never fires fails the test instead of hanging it; nothing is asserted on time.

use std::time::Duration;

use paytoken_checksum::{Credentials, SecureKey};
use paytoken_hyper::{Client, Error, TransportErrorKind};
use paytoken_protocol::AuthToken;
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;
use paytoken_protocol::ops::payment::Payment;
use paytoken_types::{Card, CardNumber, Cvv};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpListener;

const TIMEOUT: Duration = Duration::from_millis(200);

/// Long enough for any timeout here to have fired many times over.
const HANG_GUARD: Duration = Duration::from_secs(20);

/// Reads each request's head, waits `delay`, then answers with `answer`, or, without
/// one, keeps the connection open and silent until the client closes it.
async fn server(delay: Duration, answer: Option<Vec<u8>>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let (mut stream, _) = listener.accept().await.unwrap();
            let answer = answer.clone();
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut chunk = [0; 4096];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut chunk).await {
                        Ok(0) | Err(_) => return,
                        Ok(read) => request.extend_from_slice(&chunk[..read]),
                    }
                }
                tokio::time::sleep(delay).await;
                if let Some(answer) = answer {
                    let _ = stream.write_all(&answer).await;
                }
                // Until the client closes the connection (or forever).
                while let Ok(read) = stream.read(&mut chunk).await {
                    if read == 0 {
                        return;
                    }
                }
            });
        }
    });
    format!("http://{address}")
}

fn client(base_url: &str, timeout: Duration) -> Client {
    Client::builder()
        .base_url(base_url)
        .allow_http(true)
        .credentials(Credentials::merchant(
            "11344".parse().unwrap(),
            SecureKey::new("merchant-key").unwrap(),
        ))
        .auth_token(AuthToken::new("fixed.token.value").unwrap())
        .request_timeout(timeout)
        .build()
        .unwrap()
}

async fn list(client: &Client) -> Result<(), Error> {
    tokio::time::timeout(
        HANG_GUARD,
        client.cards_and_accounts(&CardsAndAccounts::all()),
    )
    .await
    .expect("the request timeout fired")
    .map(drop)
}

fn assert_timed_out(result: Result<(), Error>) {
    match result {
        Err(Error::Transport { source, .. }) => assert_eq!(
            source.kind(),
            TransportErrorKind::Timeout { after: TIMEOUT }
        ),
        other => panic!("expected a timeout, got {other:?}"),
    }
}

#[tokio::test]
async fn a_gateway_that_never_answers_times_a_read_out() {
    let base_url = server(Duration::ZERO, None).await;
    let client = client(&base_url, TIMEOUT);
    assert_timed_out(list(&client).await);
    // And again: the first request's place among the deadlines is free for the next.
    assert_timed_out(list(&client).await);
}

#[tokio::test]
async fn a_payment_that_times_out_has_an_unknown_outcome() {
    let base_url = server(Duration::ZERO, None).await;
    let client = client(&base_url, TIMEOUT);
    let payment = Payment::new(
        "order-timeout-1".parse().unwrap(),
        "9.99".parse().unwrap(),
        "EUR".parse().unwrap(),
        Card {
            number: CardNumber::new("4000000000000051").unwrap(),
            expiry_month: "06".parse().unwrap(),
            expiry_year: "2030".parse().unwrap(),
            cvv: Cvv::new("745").unwrap(),
            holder: None,
        },
    );
    let error = tokio::time::timeout(HANG_GUARD, client.pay(&payment))
        .await
        .expect("the request timeout fired")
        .unwrap_err();
    assert!(error.is_outcome_unknown(), "{error}");
    assert!(error.is_timeout(), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_requests_waiting_at_once_all_time_out() {
    let base_url = server(Duration::ZERO, None).await;
    let client = client(&base_url, TIMEOUT);
    let calls: Vec<_> = (0..16)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move { list(&client).await })
        })
        .collect();
    for call in calls {
        assert_timed_out(call.await.unwrap());
    }
}

#[tokio::test]
async fn a_slow_answer_within_the_timeout_is_read() {
    let body = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/responses/cards_and_accounts/success.json"
    ))
    .unwrap();
    let mut answer = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    answer.extend_from_slice(&body);
    let base_url = server(Duration::from_millis(100), Some(answer)).await;
    let client = client(&base_url, Duration::from_secs(10));
    list(&client).await.unwrap();
}

#[test]
fn one_client_times_out_on_a_second_runtime_after_the_first_is_gone() {
    let runtime = || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    };
    // The silent server on a runtime of its own, on its own thread, for the whole test.
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        runtime().block_on(async {
            sender.send(server(Duration::ZERO, None).await).unwrap();
            std::future::pending::<()>().await;
        });
    });
    let base_url = receiver.recv().unwrap();
    let client = client(&base_url, TIMEOUT);
    let first = runtime();
    first.block_on(async {
        // A request left waiting when the runtime goes: the task that times requests out
        // goes with it.
        let waiting = client.clone();
        tokio::spawn(async move { list(&waiting).await });
        tokio::time::sleep(Duration::from_millis(20)).await;
    });
    drop(first);
    runtime().block_on(async { assert_timed_out(list(&client).await) });
}
