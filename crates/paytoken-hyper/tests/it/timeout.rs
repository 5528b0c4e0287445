//! The request timeout over real sockets: a gateway that takes a request and never answers
//! fails the call as a timeout (a read as a transport error, a payment as an unknown
//! outcome), however many wait at once and whichever runtime they run on; a slow answer
//! within the timeout is read. The server is a raw TCP listener.
//!
//! Each call runs under a generous outer `tokio::time::timeout`, so that a timeout that
//! never fires fails the test instead of hanging it; nothing is asserted on time.

use std::time::Duration;

use paytoken_hyper::{Client, Error, TransportErrorKind};
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;
use paytoken_protocol::ops::payment::Payment;
use paytoken_types::{Card, CardNumber, Cvv};

use crate::raw::{assert_failed_with, client_of, raw_server, success_body, with_length};

const TIMEOUT: Duration = Duration::from_millis(200);

/// Long enough for any timeout here to have fired many times over.
const HANG_GUARD: Duration = Duration::from_secs(20);

/// A gateway that takes every request and never answers.
async fn silent_server() -> String {
    raw_server(Duration::ZERO, None).await
}

fn client(base_url: &str, timeout: Duration) -> Client {
    client_of(base_url)
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
    assert_failed_with(result, TransportErrorKind::Timeout { after: TIMEOUT });
}

#[tokio::test]
async fn a_gateway_that_never_answers_times_a_read_out() {
    let base_url = silent_server().await;
    let client = client(&base_url, TIMEOUT);
    assert_timed_out(list(&client).await);
    // And again, on the same client.
    assert_timed_out(list(&client).await);
}

#[tokio::test]
async fn a_payment_that_times_out_has_an_unknown_outcome() {
    let base_url = silent_server().await;
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
    let base_url = silent_server().await;
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
    let answer = with_length(&success_body());
    let base_url = raw_server(Duration::from_millis(100), Some(answer)).await;
    let client = client(&base_url, Duration::from_secs(10));
    list(&client).await.unwrap();
}

/// A runtime of its own, for the tests that use several.
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A client of a silent server that runs on a runtime and a thread of its own, so that it
/// outlives the runtimes the test makes and drops.
fn client_of_a_server_on_its_own_thread() -> Client {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        runtime().block_on(async {
            sender.send(silent_server().await).unwrap();
            std::future::pending::<()>().await;
        });
    });
    client(&receiver.recv().unwrap(), TIMEOUT)
}

#[test]
fn one_client_times_out_on_a_second_runtime_after_the_first_is_gone() {
    let client = client_of_a_server_on_its_own_thread();
    let first = runtime();
    first.block_on(async {
        // A request left waiting when the runtime goes, its timer with it.
        let waiting = client.clone();
        tokio::spawn(async move { list(&waiting).await });
        tokio::time::sleep(Duration::from_millis(20)).await;
    });
    drop(first);
    runtime().block_on(async { assert_timed_out(list(&client).await) });
}

#[test]
fn a_request_on_a_second_runtime_times_out_when_the_first_goes_while_it_waits() {
    let client = client_of_a_server_on_its_own_thread();
    // A request waits on the first runtime.
    let first = runtime();
    let waiting = client.clone();
    first.spawn(async move { list(&waiting).await });
    first.block_on(async { tokio::time::sleep(Duration::from_millis(10)).await });
    // A request on a second runtime waits too; then the first runtime goes, well before
    // the second request's deadline: the second's timer is its own runtime's.
    let second = {
        let client = client.clone();
        std::thread::spawn(move || runtime().block_on(async { list(&client).await }))
    };
    std::thread::sleep(Duration::from_millis(20));
    drop(first);
    assert_timed_out(second.join().unwrap());
}

/// A transport whose every attempt waits forever.
struct Silent;

impl paytoken_hyper::Transport for Silent {
    async fn send(
        &self,
        _: paytoken_hyper::TransportRequest<'_>,
    ) -> Result<paytoken_hyper::TransportResponse, paytoken_hyper::TransportError> {
        std::future::pending().await
    }
}

/// On a paused clock, where time moves only when told: the attempt is still waiting a
/// millisecond before its timeout, and has timed out at it, exactly.
#[tokio::test(start_paused = true)]
async fn a_request_times_out_at_its_deadline_exactly() {
    let client = client_of("https://gateway.test")
        .request_timeout(Duration::from_secs(30))
        .build_with_transport(Silent)
        .unwrap();
    let started = tokio::time::Instant::now();
    let list = CardsAndAccounts::all();
    let mut call = Box::pin(client.cards_and_accounts(&list));
    let early = tokio::time::timeout(Duration::from_millis(29_999), &mut call).await;
    assert!(early.is_err(), "still waiting just before the timeout");
    let result = call.await.map(drop);
    assert_eq!(started.elapsed(), Duration::from_secs(30));
    assert_failed_with(
        result,
        TransportErrorKind::Timeout {
            after: Duration::from_secs(30),
        },
    );
}
