//! The hyper transport over real sockets: an answer longer than the client's body limit is
//! refused, whether its `Content-Length` announces it or it comes in chunks, and an answer
//! within the limit is read. The server is a raw TCP listener that writes the bytes given,
//! so the answers can be anything a broken gateway or proxy might send.

use paytoken_checksum::{Credentials, SecureKey};
use paytoken_hyper::{Client, Error, TransportErrorKind};
use paytoken_protocol::AuthToken;
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpListener;

const LIMIT: usize = 1024;

/// Answers every connection with `answer` once its request's head has arrived, then keeps
/// the connection open until the client closes it.
async fn raw_server(answer: Vec<u8>) -> String {
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
                let _ = stream.write_all(&answer).await;
                let _ = stream.read(&mut chunk).await;
            });
        }
    });
    format!("http://{address}")
}

fn client(base_url: &str) -> Client {
    Client::builder()
        .base_url(base_url)
        .allow_http(true)
        .credentials(Credentials::merchant(
            "11344".parse().unwrap(),
            SecureKey::new("merchant-key").unwrap(),
        ))
        .auth_token(AuthToken::new("fixed.token.value").unwrap())
        .body_limit(LIMIT)
        .build()
        .unwrap()
}

fn success_body() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/responses/cards_and_accounts/success.json"
    );
    std::fs::read(path).unwrap()
}

fn with_length(body: &[u8]) -> Vec<u8> {
    let mut answer = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    answer.extend_from_slice(body);
    answer
}

async fn list(base_url: &str) -> Result<(), Error> {
    client(base_url)
        .cards_and_accounts(&CardsAndAccounts::all())
        .await
        .map(drop)
}

fn assert_too_large(result: Result<(), Error>) {
    match result {
        Err(Error::Transport { source, .. }) => assert_eq!(
            source.kind(),
            TransportErrorKind::ResponseTooLarge { limit: LIMIT }
        ),
        other => panic!("expected an answer too large, got {other:?}"),
    }
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
    let result = tokio::time::timeout(std::time::Duration::from_secs(10), list(&base_url))
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
