//! What the tests over real sockets share: a raw TCP server that answers with the bytes
//! given (so an answer can be anything a broken gateway or proxy might send), or not at
//! all, and a client of it with a fixed auth token.

use std::time::Duration;

use paytoken_checksum::{Credentials, SecureKey};
use paytoken_hyper::{Client, ClientBuilder, Error, TransportErrorKind};
use paytoken_protocol::AuthToken;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpListener;

/// Reads each request's head, waits `delay`, then writes `answer`, or, without one, says
/// nothing; either way it keeps the connection open until the client closes it. Returns
/// the base URL.
pub(crate) async fn raw_server(delay: Duration, answer: Option<Vec<u8>>) -> String {
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

/// A merchant client of `base_url` with a fixed auth token, to be finished by the test.
pub(crate) fn client_of(base_url: &str) -> ClientBuilder {
    Client::builder()
        .base_url(base_url)
        .allow_http(true)
        .credentials(Credentials::merchant(
            "11344".parse().unwrap(),
            SecureKey::new("merchant-key").unwrap(),
        ))
        .auth_token(AuthToken::new("fixed.token.value").unwrap())
}

/// The stored cards and accounts fixture's body.
pub(crate) fn success_body() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/responses/cards_and_accounts/success.json"
    );
    std::fs::read(path).unwrap()
}

/// `body` as a `200` answer with its `Content-Length`.
pub(crate) fn with_length(body: &[u8]) -> Vec<u8> {
    let mut answer = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    answer.extend_from_slice(body);
    answer
}

/// Asserts that a call failed below HTTP, with `kind`.
pub(crate) fn assert_failed_with(result: Result<(), Error>, kind: TransportErrorKind) {
    match result {
        Err(Error::Transport { source, .. }) => assert_eq!(source.kind(), kind),
        other => panic!("expected {kind:?}, got {other:?}"),
    }
}
