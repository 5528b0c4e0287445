//! Payments per second the sandbox serves to 64 keep-alive connections on this machine,
//! and beside it a hyper server that reads each request and sends a fixed approval (the
//! floor: HTTP and nothing of the gateway), in interleaved rounds.
//!
//! Each sample sends `PER_CONNECTION` approved payments down each of 64 connections at
//! once and waits for every answer. The requests (built and signed by the protocol crate,
//! each with its own order id) are serialised before the clock starts, so what is measured
//! is the sandbox: HTTP parsing, form decoding, checksum, state, JSON, HTTP writing, plus
//! the loopback socket and a thin client in the same process (2 tokio workers).
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::float_arithmetic,
    clippy::print_stdout,
    reason = "bench code: times and their ratios are floats, printed for cargo xtask bench"
)]

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use paytoken_test_support::raw as common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use paytoken_protocol::Operation;
use paytoken_protocol::ops::payment::Payment;
use paytoken_sandbox::{DEFAULT_MERCHANT_ID, Sandbox, cards};
use paytoken_types::{Card, CardNumber, Cvv};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const CONNECTIONS: usize = 64;
const PER_CONNECTION: usize = 16;

/// What the fixed-answer server sends: an approval of the sandbox's own size and shape.
const FIXED_ANSWER: &[u8] = br#"{"paymentId":"54279","merchantTransactionId":"bench1","amount":"10.00","currency":"EUR","descriptor":"Sandbox","result":{"code":"00001","description":"Transaction succeeded"},"card":{"bin":"400000","last4Digits":"0051","expiryMonth":"12","expiryYear":"2099"},"paymentBrand":"VISA","paymentMode":"CC","paymentType":"DB","timestamp":"2026-11-23 10:15:00","transactionStatus":"Y"}"#;

/// A hyper HTTP/1.1 server on loopback that reads each request whole and answers
/// `FIXED_ANSWER`: every connection a task, as the sandbox's server does.
async fn fixed_answer_server() -> SocketAddr {
    use http_body_util::{BodyExt as _, Full};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let (stream, _) = listener.accept().await.unwrap();
            stream.set_nodelay(true).unwrap();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(
                    |request: hyper::Request<hyper::body::Incoming>| async move {
                        let _ = request.into_body().collect().await;
                        let answer = hyper::Response::builder()
                            .header("content-type", "application/json;charset=UTF-8")
                            .body(Full::new(bytes_of(FIXED_ANSWER)))
                            .unwrap();
                        Ok::<_, std::convert::Infallible>(answer)
                    },
                );
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    address
}

fn bytes_of(bytes: &'static [u8]) -> hyper::body::Bytes {
    hyper::body::Bytes::from_static(bytes)
}

/// Sends `requests` down 64 fresh keep-alive connections to `address` at once and waits
/// for every answer; the time from the first send to the last answer.
async fn serve_batch(address: SocketAddr, requests: Vec<Vec<u8>>) -> Duration {
    let mut connections = Vec::with_capacity(CONNECTIONS);
    for mine in requests.chunks(PER_CONNECTION) {
        let stream = TcpStream::connect(address).await.unwrap();
        stream.set_nodelay(true).unwrap();
        connections.push((stream, mine.to_vec()));
    }
    let start = Instant::now();
    let mut clients = tokio::task::JoinSet::new();
    for (mut stream, mine) in connections {
        clients.spawn(async move {
            let mut buffer = Vec::with_capacity(4096);
            for request in &mine {
                assert_eq!(round_trip(&mut stream, request, &mut buffer).await, 200);
            }
        });
    }
    while let Some(done) = clients.join_next().await {
        done.unwrap();
    }
    start.elapsed()
}

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
    // The same sandbox on its file store: one SQLite transaction per payment. The auth
    // token of the first is not the second's: it signs in on its own.
    let state_file = std::env::temp_dir().join(format!("paytoken-bench-{}.db", std::process::id()));
    let on_file = runtime
        .block_on(Sandbox::builder().state_file(&state_file).start())
        .unwrap();
    let file_context = runtime.block_on(common::signed_in(
        &on_file,
        on_file.config().merchant(DEFAULT_MERCHANT_ID).unwrap(),
    ));
    let card = Card {
        number: CardNumber::new(cards::APPROVED).unwrap(),
        expiry_month: "12".parse().unwrap(),
        expiry_year: "2099".parse().unwrap(),
        cvv: Cvv::new("123").unwrap(),
        holder: None,
    };
    let mut next_order = 0_u64;
    let mut batch = |count: usize, context: &paytoken_protocol::Context| -> Vec<Vec<u8>> {
        (0..count)
            .map(|_| {
                next_order += 1;
                let payment = Payment::new(
                    format!("bench{next_order}").parse().unwrap(),
                    "10.00".parse().unwrap(),
                    "EUR".parse().unwrap(),
                    card.clone(),
                );
                http(&payment.request(context).unwrap())
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
                let requests = batch(CONNECTIONS * PER_CONNECTION, &context);
                total += runtime.block_on(serve_batch(sandbox.address(), requests));
            }
            total
        });
    });
    group.bench_function("payments_64_connections_file_store", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                let requests = batch(CONNECTIONS * PER_CONNECTION, &file_context);
                total += runtime.block_on(serve_batch(on_file.address(), requests));
            }
            total
        });
    });
    let fixed = runtime.block_on(fixed_answer_server());
    group.bench_function("fixed_answer_hyper_64_connections", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                let requests = batch(CONNECTIONS * PER_CONNECTION, &context);
                total += runtime.block_on(serve_batch(fixed, requests));
            }
            total
        });
    });
    group.finish();
    // Interleaved rounds, the median of each and of their ratios (the machine's speed moves
    // between criterion's groups).
    let mut ratios = Vec::new();
    let mut file_ratios = Vec::new();
    let mut ours = Vec::new();
    let mut on_files = Vec::new();
    let mut floor = Vec::new();
    for _ in 0..15 {
        let sandbox_time = runtime.block_on(serve_batch(
            sandbox.address(),
            batch(CONNECTIONS * PER_CONNECTION, &context),
        ));
        let file_time = runtime.block_on(serve_batch(
            on_file.address(),
            batch(CONNECTIONS * PER_CONNECTION, &file_context),
        ));
        let fixed_time = runtime.block_on(serve_batch(
            fixed,
            batch(CONNECTIONS * PER_CONNECTION, &context),
        ));
        ratios.push(fixed_time.as_secs_f64() / sandbox_time.as_secs_f64());
        file_ratios.push(sandbox_time.as_secs_f64() / file_time.as_secs_f64());
        ours.push(sandbox_time.as_secs_f64() * 1e9);
        on_files.push(file_time.as_secs_f64() * 1e9);
        floor.push(fixed_time.as_secs_f64() * 1e9);
    }
    let median = |values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    let ratio = median(&mut ratios);
    println!(
        "RATIO sandbox/payments_64_connections sandbox/fixed_answer_hyper_64_connections {ratio:.3} {:.1} {:.1}",
        median(&mut ours),
        median(&mut floor)
    );
    println!("sandbox: {ratio:.2} of a fixed-answer hyper server's payments per second");
    let file_ratio = median(&mut file_ratios);
    let on_file_ns = median(&mut on_files);
    println!(
        "RATIO sandbox/payments_64_connections_file_store sandbox/payments_64_connections {file_ratio:.3} {on_file_ns:.1} {:.1}",
        median(&mut ours)
    );
    let payments = f64::from(u32::try_from(CONNECTIONS * PER_CONNECTION).unwrap());
    let per_second = |nanos: f64| payments / (nanos / 1e9);
    println!(
        "sandbox on its file store: {file_ratio:.2} of the in-memory store's payments per second ({:.0} against {:.0} payments/s)",
        per_second(on_file_ns),
        per_second(median(&mut ours))
    );
    drop(on_file);
    let _ = paytoken_sandbox::remove_state_file(&state_file);
}

criterion_group!(benches, payments);
criterion_main!(benches);
