//! The hyper transport over real sockets: an answer longer than the client's body limit is
//! refused, whether its `Content-Length` announces it or it comes in chunks, and an answer
//! within the limit is read. The server is a raw TCP listener that writes the bytes given,
//! so the answers can be anything a broken gateway or proxy might send.

use std::time::Duration;

use paytoken_hyper::{Error, TransportErrorKind};
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;

use crate::raw::{assert_failed_with, client_of, success_body, with_length};

const LIMIT: usize = 1024;

/// Answers every connection with `answer` once its request's head has arrived.
async fn raw_server(answer: Vec<u8>) -> String {
    crate::raw::raw_server(Duration::ZERO, Some(answer)).await
}

async fn list(base_url: &str) -> Result<(), Error> {
    client_of(base_url)
        .body_limit(LIMIT)
        .build()
        .unwrap()
        .cards_and_accounts(&CardsAndAccounts::all())
        .await
        .map(drop)
}

fn assert_too_large(result: Result<(), Error>) {
    assert_failed_with(
        result,
        TransportErrorKind::ResponseTooLarge { limit: LIMIT },
    );
}

#[tokio::test]
async fn an_answer_within_the_limit_is_read() {
    let body = success_body();
    assert!(body.len() <= LIMIT, "the fixture fits the limit");
    let base_url = raw_server(with_length(&body)).await;
    list(&base_url).await.unwrap();
}

#[tokio::test]
async fn an_announced_length_over_the_limit_is_refused_unread() {
    // Only the head is sent: the client must refuse on the announced length alone, not
    // wait for (or read) the body.
    let head = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        LIMIT + 1
    );
    let base_url = raw_server(head.into_bytes()).await;
    let result = tokio::time::timeout(Duration::from_secs(10), list(&base_url))
        .await
        .expect("refused without waiting for the body");
    assert_too_large(result);
}

#[tokio::test]
async fn a_chunked_answer_past_the_limit_is_refused() {
    let mut answer =
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"
            .to_vec();
    let chunk = vec![b' '; 512];
    for _ in 0..3 {
        answer.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        answer.extend_from_slice(&chunk);
        answer.extend_from_slice(b"\r\n");
    }
    answer.extend_from_slice(b"0\r\n\r\n");
    let base_url = raw_server(answer).await;
    assert_too_large(list(&base_url).await);
}
