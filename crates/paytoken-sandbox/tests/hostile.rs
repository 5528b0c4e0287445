//! The sandbox under hostile clients: connections that never finish their request, fault
//! directives that ask for forever, bodies of thousands of fields, fields of any length,
//! values no gateway would take, and a client that never stops storing. Each test asserts
//! behaviour; times appear only as generous guards against a hang.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::std_instead_of_core,
    clippy::std_instead_of_alloc
)]

mod common;

use std::time::Duration;

use common::*;
use paytoken_protocol::Operation as _;
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;
use paytoken_sandbox::{FAULT_HEADER, Sandbox};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A connection that sends its headers and ten bytes of a hundred-byte body, then waits.
async fn slow_body(sandbox: &Sandbox) -> TcpStream {
    let mut stream = TcpStream::connect(sandbox.address()).await.unwrap();
    let head = "POST /transactionServices/REST/v1/getCardsAndAccounts HTTP/1.1\r\nHost: s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nauthentica";
    stream.write_all(head.as_bytes()).await.unwrap();
    stream
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_slow_bodies_starve_nobody_and_are_closed_at_their_deadline() {
    let sandbox = Sandbox::builder()
        .request_deadline(Duration::from_millis(500))
        .start()
        .await
        .unwrap();
    let mut slow = Vec::new();
    for _ in 0..1000 {
        slow.push(slow_body(&sandbox).await);
    }
    // A normal request, while all of them hold their connections.
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let list = tokio::time::timeout(
        Duration::from_secs(30),
        call(&sandbox, &context, &CardsAndAccounts::all()),
    )
    .await
    .expect("the normal request is answered")
    .unwrap();
    assert!(list.cards.is_empty());
    // Past the deadline, every slow one is answered 408 and closed.
    for stream in &mut slow {
        let mut answer = Vec::new();
        tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut answer))
            .await
            .expect("closed, not left open")
            .unwrap();
        assert!(
            answer.starts_with(b"HTTP/1.1 408"),
            "{:?}",
            String::from_utf8_lossy(&answer)
        );
    }
}

#[tokio::test]
async fn headers_that_never_end_are_closed_at_the_deadline() {
    let sandbox = Sandbox::builder()
        .request_deadline(Duration::from_millis(300))
        .start()
        .await
        .unwrap();
    let mut stream = TcpStream::connect(sandbox.address()).await.unwrap();
    stream
        .write_all(b"POST /x HTTP/1.1\r\nHost: s\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut answer))
        .await
        .expect("closed, not left open")
        .unwrap();
}

#[tokio::test]
async fn connections_past_the_cap_are_closed_and_the_sandbox_still_serves() {
    let sandbox = Sandbox::builder()
        .max_connections(8)
        .request_deadline(Duration::from_millis(400))
        .start()
        .await
        .unwrap();
    let mut held = Vec::new();
    for _ in 0..8 {
        held.push(slow_body(&sandbox).await);
    }
    // The ninth is closed at once, without an answer.
    let mut ninth = TcpStream::connect(sandbox.address()).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(30), ninth.read_to_end(&mut answer))
        .await
        .expect("closed at once");
    assert!(answer.is_empty());
    // Once the held ones reach their deadline, the sandbox serves again.
    drop(held);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    call(&sandbox, &context, &CardsAndAccounts::all())
        .await
        .unwrap();
}

#[tokio::test]
async fn a_fault_directive_cannot_ask_for_forever() {
    let sandbox = Sandbox::start().await.unwrap();
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let request = CardsAndAccounts::all().request(&context).unwrap();
    for directive in [
        "latency=18446744073709551615s",
        "stall=301s",
        "latency=999999ms",
    ] {
        let raw = tokio::time::timeout(
            Duration::from_secs(30),
            send_with(&sandbox, &request, &[(FAULT_HEADER, directive)]),
        )
        .await
        .expect("refused at once, not waited out");
        assert_eq!(raw.status, 400, "{directive}: {}", raw.text());
        assert!(raw.text().contains("300s"), "{}", raw.text());
    }
}
