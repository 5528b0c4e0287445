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

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use paytoken_protocol::ops::auth_token::FetchAuthToken;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::paytoken_types::{Card, CardNumber, Cvv};
use paytoken_protocol::{Context, Operation};
use paytoken_sandbox::{DEFAULT_MERCHANT_ID, DEFAULT_PARTNER_ID, Sandbox, cards};
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

fn http(request: &paytoken_protocol::Request, address: SocketAddr) -> Vec<u8> {
    let mut bytes = format!(
        "POST {} HTTP/1.1\r\nHost: {address}\r\nContent-Length: {}\r\n",
        request.path,
        request.body.len()
    );
    for header in &request.headers {
        bytes.push_str(&format!("{}: {}\r\n", header.name, header.value()));
    }
    bytes.push_str("\r\n");
    let mut bytes = bytes.into_bytes();
    bytes.extend_from_slice(&request.body);
    bytes
}

async fn signed_in(sandbox: &Sandbox) -> Context {
    let merchant = sandbox.config().merchant(DEFAULT_MERCHANT_ID).unwrap();
    let partner = sandbox.config().partner(DEFAULT_PARTNER_ID).unwrap();
    let fetch = FetchAuthToken::new(partner.partner_id, merchant.username.clone());
    let request = http(
        &fetch.request(&merchant.context()).unwrap(),
        sandbox.address(),
    );
    let mut stream = TcpStream::connect(sandbox.address()).await.unwrap();
    stream.write_all(&request).await.unwrap();
    let mut answer = vec![0; 4096];
    let read = stream.read(&mut answer).await.unwrap();
    let body_start = answer.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    let grant = FetchAuthToken::parse(200, &answer[body_start..read]).unwrap();
    merchant.context().with_auth_token(grant.token)
}

fn payments(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let sandbox = runtime.block_on(Sandbox::start()).unwrap();
    let context = runtime.block_on(signed_in(&sandbox));
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
                http(&payment.request(&context).unwrap(), sandbox.address())
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
