//! Payments per second the sandbox serves to 64 keep-alive connections on this machine.
//!
//! Each sample sends `PER_CONNECTION` approved payments down each of 64 connections at
//! once and waits for every answer. The requests (built and signed by the protocol crate,
//! each with its own order id) are serialised before the clock starts, so what is measured
//! is the sandbox: HTTP parsing, form decoding, checksum, state, JSON, HTTP writing, plus
//! the loopback socket and a thin client in the same process (2 tokio workers).
#![allow(
    clippy::std_instead_of_core,
    clippy::std_instead_of_alloc,
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use std::time::{Duration, Instant};

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use paytoken_protocol::Operation;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::paytoken_types::{Card, CardNumber, Cvv};
use paytoken_sandbox::{DEFAULT_MERCHANT_ID, Sandbox, cards};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const CONNECTIONS: usize = 64;
const PER_CONNECTION: usize = 16;

/// Sends `request` (a whole HTTP/1.1 request) on a kept-alive connection and reads one
/// answer, returning its status.
async fn round_trip(stream: &mut TcpStream, request: &[u8], buffer: &mut Vec<u8>) -> u16 {
    stream.write_all(request).await.unwrap();
    buffer.clear();
    let mut chunk = [0; 8192];
    loop {
        let read = stream.read(&mut chunk).await.unwrap();
        assert!(read > 0, "the sandbox closed the connection");
        buffer.extend_from_slice(&chunk[..read]);
        let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = std::str::from_utf8(&buffer[..end]).unwrap();
        let length: usize = head
            .split("\r\n")
            .find_map(|line| {
                line.to_ascii_lowercase()
                    .strip_prefix("content-length:")
                    .map(|v| v.trim().parse().unwrap())
            })
            .unwrap();
        if buffer.len() >= end + 4 + length {
            assert!(
                buffer[end + 4..].starts_with(b"{\"paymentId\""),
                "an answer"
            );
            return head[9..12].parse().unwrap();
        }
    }
}

/// The protocol crate's request as HTTP/1.1 bytes, for a kept-alive connection.
fn http(request: &paytoken_protocol::Request) -> Vec<u8> {
    common::http_request(
        "POST",
        request.path(),
        &common::headers_of(request, &[]),
        request.body(),
    )
}

fn payments(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let sandbox = runtime.block_on(Sandbox::start()).unwrap();
    let merchant = sandbox.config().merchant(DEFAULT_MERCHANT_ID).unwrap();
    let context = runtime.block_on(common::signed_in(&sandbox, merchant));
    let card = Card {
        number: CardNumber::new(cards::APPROVED).unwrap(),
        expiry_month: "12".parse().unwrap(),
        expiry_year: "2099".parse().unwrap(),
        cvv: Cvv::new("123").unwrap(),
        holder: None,
    };
    let mut next_order = 0_u64;
    let mut batch = |count: usize| -> Vec<Vec<u8>> {
        (0..count)
            .map(|_| {
                next_order += 1;
                let payment = Payment::new(
                    format!("bench{next_order}").parse().unwrap(),
                    "10.00".parse().unwrap(),
                    "EUR".parse().unwrap(),
                    card.clone(),
                );
                http(&payment.request(&context).unwrap())
            })
            .collect()
    };

    let mut group = c.benchmark_group("sandbox");
    group.throughput(Throughput::Elements(
        u64::try_from(CONNECTIONS * PER_CONNECTION).unwrap(),
    ));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("payments_64_connections", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                let requests = batch(CONNECTIONS * PER_CONNECTION);
                total += runtime.block_on(async {
                    let mut connections = Vec::with_capacity(CONNECTIONS);
                    for mine in requests.chunks(PER_CONNECTION) {
                        let stream = TcpStream::connect(sandbox.address()).await.unwrap();
                        stream.set_nodelay(true).unwrap();
                        connections.push((stream, mine.to_vec()));
                    }
                    let start = Instant::now();
                    let mut clients = tokio::task::JoinSet::new();
                    for (mut stream, mine) in connections {
                        clients.spawn(async move {
                            let mut buffer = Vec::with_capacity(4096);
                            for request in &mine {
                                assert_eq!(
                                    round_trip(&mut stream, request, &mut buffer).await,
                                    200
                                );
                            }
                        });
                    }
                    while let Some(done) = clients.join_next().await {
                        done.unwrap();
                    }
                    start.elapsed()
                });
            }
            total
        });
    });
    group.finish();
}

criterion_group!(benches, payments);
criterion_main!(benches);
