//! The client against a minimal fixed-answer hyper server on loopback, beside what a user
//! could pick instead, in the same run:
//!
//! - `bare-hyper`: hyper-util's pooled client sending a prebuilt request (the payment's
//!   bytes, built once) and reading the whole answer: doing no payment work.
//! - `paytoken`: `Client::pay`, which builds, validates and signs the payment and parses
//!   the answer into a typed `Transaction` on every call.
//! - `reqwest`: what a user would write instead: reqwest, with the request written by hand
//!   on every call (`format!`, the `md5` crate, `serde_urlencoded`) and the answer read
//!   with `serde_json::Value`: the protocol bench's baseline, the same bytes on the wire.
//!
//! The payment is the full 38-field one of the golden files, the answer the 700-byte
//! approval of the fixtures.
//!
//! The server runs on its own thread and runtime; the clients run on a current-thread
//! runtime on the bench's thread, so the client's CPU time is that thread's
//! (`/proc/thread-self/schedstat`). Criterion times one request at 1 and 64 in flight;
//! a summary after it gives requests per second, client CPU per request and the ratios
//! `cargo xtask bench` judges against its budgets.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::print_stdout,
    clippy::float_arithmetic,
    clippy::as_conversions
)]

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use criterion::{Criterion, Throughput};
use http_body_util::{BodyExt as _, Full};
use hyper::service::service_fn;
use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::rt::{TokioExecutor, TokioIo};
use paytoken_hyper::{Client, Transport, TransportError, TransportRequest, TransportResponse};
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::{AuthToken, Operation};
use tokio::runtime::Runtime;

use paytoken_test_support::baseline;
use paytoken_test_support::payment as common;

const ANSWER: &[u8] = include_bytes!("../../../fixtures/responses/payment/approved.json");

/// A server that reads each request whole and answers the approved payment.
fn start_server() -> SocketAddr {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("server".into())
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                sender.send(listener.local_addr().unwrap()).unwrap();
                loop {
                    let (stream, _) = listener.accept().await.unwrap();
                    stream.set_nodelay(true).unwrap();
                    tokio::spawn(async move {
                        let service = service_fn(
                            |request: hyper::Request<hyper::body::Incoming>| async move {
                                let _ = request.into_body().collect().await;
                                let mut answer =
                                    hyper::Response::new(Full::new(Bytes::from_static(ANSWER)));
                                answer.headers_mut().insert(
                                    hyper::header::CONTENT_TYPE,
                                    hyper::header::HeaderValue::from_static("application/json"),
                                );
                                Ok::<_, std::convert::Infallible>(answer)
                            },
                        );
                        let _ = hyper::server::conn::http1::Builder::new()
                            .serve_connection(TokioIo::new(stream), service)
                            .await;
                    });
                }
            });
        })
        .unwrap();
    receiver.recv().unwrap()
}

/// hyper-util's pooled client over plain TCP, as the bare-hyper contenders use it.
type BareClient = HyperClient<hyper_util::client::legacy::connect::HttpConnector, Full<Bytes>>;

fn bare_client() -> BareClient {
    HyperClient::builder(TokioExecutor::new())
        .pool_max_idle_per_host(64)
        .build_http()
}

/// Posts `body` as the form with the auth token, as every bare-hyper contender does, and
/// reads the whole answer. The headers are paytoken's own, its user agent included, so
/// every contender puts the same request on the wire and the server's share of the run
/// is the same for all.
async fn post_form(client: &BareClient, uri: hyper::Uri, body: Bytes) -> Bytes {
    let request = hyper::Request::post(uri)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("authtoken", common::TOKEN)
        .header("user-agent", paytoken_hyper::DEFAULT_USER_AGENT)
        .body(Full::new(body))
        .unwrap();
    let answer = client.request(request).await.unwrap();
    assert_eq!(answer.status(), 200);
    answer.into_body().collect().await.unwrap().to_bytes()
}

/// The ways of making the same exchange.
#[allow(
    clippy::large_enum_variant,
    reason = "bench code, cloned once per task"
)]
#[derive(Clone)]
enum Contender {
    BareHyper {
        client: BareClient,
        uri: hyper::Uri,
        body: Bytes,
    },
    Paytoken {
        client: Client,
        payment: Arc<Payment>,
    },
    Reqwest {
        client: reqwest::Client,
        url: String,
        input: Arc<baseline::PaymentInput>,
    },
}

impl Contender {
    fn all(address: SocketAddr) -> Vec<(&'static str, Self)> {
        let base = format!("http://{address}");
        let context = common::merchant();
        let prebuilt = common::full_payment().request(&context).unwrap();
        let body = Bytes::from(prebuilt.body().to_vec());
        let input = baseline::PaymentInput::sample();
        assert_eq!(
            baseline::build_payment(&input).as_bytes(),
            &body[..],
            "the same bytes"
        );
        let url = format!("{base}{}", prebuilt.path());
        let bare = bare_client();
        let paytoken = Client::builder()
            .base_url(&base)
            .allow_http(true)
            .credentials(context.credentials.clone())
            .account_id(context.account_id.unwrap())
            .terminal_id(context.terminal_id.unwrap())
            .auth_token(AuthToken::new(common::TOKEN).unwrap())
            .build()
            .unwrap();
        let reqwest = reqwest::Client::builder()
            .pool_max_idle_per_host(64)
            .build()
            .unwrap();
        vec![
            (
                "bare-hyper",
                Self::BareHyper {
                    client: bare,
                    uri: url.parse().unwrap(),
                    body: body.clone(),
                },
            ),
            (
                "paytoken",
                Self::Paytoken {
                    client: paytoken,
                    payment: Arc::new(common::full_payment()),
                },
            ),
            (
                "reqwest",
                Self::Reqwest {
                    client: reqwest,
                    url,
                    input: Arc::new(input),
                },
            ),
        ]
    }

    /// One payment, answer read whole.
    fn exchange(&self) -> impl Future<Output = ()> + Send + 'static {
        let this = self.clone();
        async move {
            match this {
                Self::BareHyper { client, uri, body } => {
                    let answer = post_form(&client, uri, body).await;
                    assert_eq!(answer.len(), ANSWER.len());
                }
                Self::Paytoken { client, payment } => {
                    let transaction = client.pay(&payment).await.unwrap();
                    assert!(transaction.is_approved());
                }
                Self::Reqwest { client, url, input } => {
                    let body = baseline::build_payment(&input);
                    let answer = client
                        .post(url)
                        .header("content-type", "application/x-www-form-urlencoded")
                        .header("authtoken", common::TOKEN)
                        .body(body)
                        .send()
                        .await
                        .unwrap();
                    assert_eq!(answer.status(), 200);
                    let body = answer.bytes().await.unwrap();
                    assert!(baseline::parse_payment(&body).approved);
                }
            }
        }
    }
}

/// `total` exchanges with `in_flight` of them at a time; the wall time and this thread's
/// CPU time.
fn run(
    runtime: &Runtime,
    contender: &Contender,
    in_flight: usize,
    total: u64,
) -> (Duration, Duration) {
    let cpu_before = thread_cpu();
    let started = Instant::now();
    runtime.block_on(async {
        let per_task = total.div_ceil(in_flight as u64);
        let tasks: Vec<_> = (0..in_flight)
            .map(|_| {
                let contender = contender.clone();
                tokio::spawn(async move {
                    for _ in 0..per_task {
                        contender.exchange().await;
                    }
                })
            })
            .collect();
        for task in tasks {
            task.await.unwrap();
        }
    });
    (started.elapsed(), thread_cpu().saturating_sub(cpu_before))
}

/// This thread's time on a CPU so far, from the scheduler's own count.
fn thread_cpu() -> Duration {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    let nanos = text
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    Duration::from_nanos(nanos)
}

fn client_runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A transport that answers at once, without sockets: what is left is the client's own
/// work (signing, parsing, the call loop, the timeout, the span).
struct Answering(Bytes);

impl Transport for Answering {
    async fn send(&self, _: TransportRequest<'_>) -> Result<TransportResponse, TransportError> {
        Ok(TransportResponse {
            status: 200,
            body: self.0.clone(),
        })
    }
}

/// The client's cost without a network, beside the protocol's own build + sign + parse.
fn client_overhead(c: &mut Criterion) {
    let runtime = client_runtime();
    let context = common::merchant();
    let payment = common::full_payment();
    let client = Client::builder()
        .base_url("https://gateway.test")
        .credentials(context.credentials.clone())
        .account_id(context.account_id.unwrap())
        .terminal_id(context.terminal_id.unwrap())
        .auth_token(AuthToken::new(common::TOKEN).unwrap())
        .build_with_transport(Answering(Bytes::from_static(ANSWER)))
        .unwrap();
    let mut group = c.benchmark_group("client/no_network");
    group.bench_function("protocol_only", |b| {
        b.iter(|| {
            let request = payment.request(&context).unwrap();
            std::hint::black_box(request.body());
            payment.parse(200, ANSWER).unwrap()
        });
    });
    group.bench_function("paytoken_client", |b| {
        b.iter(|| runtime.block_on(client.pay(&payment)).unwrap());
    });
    group.finish();
}

fn criterion_benches(c: &mut Criterion, address: SocketAddr) {
    client_overhead(c);
    let runtime = client_runtime();
    let contenders = Contender::all(address);
    for in_flight in [1, 64] {
        let mut group = c.benchmark_group(format!("client/{in_flight}_in_flight"));
        group.throughput(Throughput::Elements(1));
        for (name, contender) in &contenders {
            group.bench_function(*name, |b| {
                b.iter_custom(|requests| {
                    // Whole batches of `in_flight`, so each sample keeps them all busy.
                    let total = requests.max(in_flight as u64);
                    let (elapsed, _) = run(&runtime, contender, in_flight, total);
                    elapsed.mul_f64(requests as f64 / total as f64)
                });
            });
        }
        group.finish();
    }
}

/// Requests per second and CPU per request, medians of interleaved rounds.
fn summary(address: SocketAddr) {
    let runtime = client_runtime();
    let contenders = Contender::all(address);
    println!("\n| in flight | client | requests/s | client CPU µs/request |");
    println!("|---|---|---|---|");
    for (in_flight, total) in [(1usize, 5_000u64), (64, 40_000)] {
        // Per round, per contender: requests/s and CPU µs per request. A round runs every
        // contender once, back to back, so a ratio taken within a round compares runs
        // that met the same machine speed.
        let all: Vec<&Contender> = contenders.iter().map(|(_, contender)| contender).collect();
        let rounds = interleaved(&runtime, &all, in_flight, total, ROUNDS);
        // Each contender's median requests/s and CPU µs per request.
        let medians: Vec<(f64, f64)> = (0..contenders.len())
            .map(|index| {
                (
                    median(rounds.iter().map(|round| round[index].0).collect()),
                    median(rounds.iter().map(|round| round[index].1).collect()),
                )
            })
            .collect();
        for ((name, _), (rate, cpu)) in contenders.iter().zip(&medians) {
            println!("| {in_flight} | {name} | {rate:.0} | {cpu:.1} |");
        }
        let at = |wanted: &str| {
            contenders
                .iter()
                .position(|(name, _)| *name == wanted)
                .unwrap()
        };
        // For `cargo xtask bench`: how many times the baseline's time each takes
        // (requests/s ratios), and the CPU per request the same way round; medians of the
        // rounds' own ratios, with their spread in the table.
        let prefix = format!("client/{in_flight}_in_flight");
        for (ours, baseline) in [("paytoken", "bare-hyper"), ("paytoken", "reqwest")] {
            let (ours_at, base_at) = (at(ours), at(baseline));
            let paired = |of: fn(&(f64, f64)) -> f64| -> Vec<f64> {
                rounds
                    .iter()
                    .map(|round| of(&round[ours_at]) / of(&round[base_at]))
                    .collect()
            };
            let rate_ratios = paired(|(rate, _)| *rate);
            let cpu_ratios = paired(|(_, cpu)| *cpu);
            let spread = |ratios: &[f64]| {
                let low = ratios.iter().copied().fold(f64::INFINITY, f64::min);
                let high = ratios.iter().copied().fold(0.0, f64::max);
                format!("{low:.2}–{high:.2}")
            };
            let rate_ratio = median(rate_ratios.clone());
            let cpu_ratio = median(cpu_ratios.clone());
            println!(
                "| {in_flight} | {ours} ÷ {baseline} | {rate_ratio:.2}× ({}) | {cpu_ratio:.2}× ({}) |",
                spread(&rate_ratios),
                spread(&cpu_ratios),
            );
            let ((ours_rate, ours_cpu), (base_rate, base_cpu)) =
                (medians[ours_at], medians[base_at]);
            println!(
                "RATIO {prefix}/{ours} {prefix}/{baseline} {rate_ratio:.3} {:.1} {:.1}",
                1e9 / ours_rate,
                1e9 / base_rate
            );
            println!(
                "RATIO {prefix}/{ours}_cpu {prefix}/{baseline}_cpu {:.3} {:.1} {:.1}",
                // As the budgets read it: the baseline's CPU ÷ ours.
                1.0 / cpu_ratio,
                ours_cpu * 1e3,
                base_cpu * 1e3
            );
        }
    }
}

/// `rounds` rounds of `total` exchanges each for every contender, back to back within a
/// round: per round, per contender (in the order given), requests/s and CPU µs per
/// request. Each round starts one contender later than the one before, so that none
/// always runs first or always right after the same one: a change in the machine's speed
/// within rounds falls on every contender alike.
fn interleaved(
    runtime: &Runtime,
    contenders: &[&Contender],
    in_flight: usize,
    total: u64,
    rounds: usize,
) -> Vec<Vec<(f64, f64)>> {
    (0..rounds)
        .map(|round| {
            let mut measured = vec![(0.0, 0.0); contenders.len()];
            for offset in 0..contenders.len() {
                let index = (round + offset) % contenders.len();
                let (elapsed, cpu) = run(runtime, contenders[index], in_flight, total);
                measured[index] = (
                    total as f64 / elapsed.as_secs_f64(),
                    cpu.as_secs_f64() * 1e6 / total as f64,
                );
            }
            measured
        })
        .collect()
}

/// How many rounds the summary runs: every contender once a round. On a shared machine
/// whose speed comes and goes, the rounds' ratios spread widely (0.46 to 0.92 for one
/// pair in a record of seven rounds), and the median of seven moved by more than the
/// budgets' margins between records: fifteen, each contender starting a round in turn.
const ROUNDS: usize = 15;

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// `PAYTOKEN_BENCH_PAIR=ours,baseline:in_flight:requests:rounds` (such as
/// `paytoken,bare-hyper:64:20000:7`): only those two contenders, in interleaved rounds, and
/// the median of the rounds' CPU ratios. A quick A/B between builds on a noisy machine,
/// where only a ratio taken within one run means anything.
fn pair(address: SocketAddr, spec: &str) {
    let mut parts = spec.split(':');
    let names: Vec<&str> = parts.next().unwrap_or_default().split(',').collect();
    let mut number = || -> u64 { parts.next().and_then(|n| n.parse().ok()).expect("a number") };
    let (in_flight, total, rounds) = (number() as usize, number(), number() as usize);
    assert_eq!(names.len(), 2, "two contenders: ours,baseline");
    let runtime = client_runtime();
    let contenders = Contender::all(address);
    let picked: Vec<&Contender> = names
        .iter()
        .map(|name| {
            &contenders
                .iter()
                .find(|(n, _)| n == name)
                .expect("a contender")
                .1
        })
        .collect();
    for contender in &picked {
        run(&runtime, contender, in_flight, 2_000);
    }
    let rounds = interleaved(&runtime, &picked, in_flight, total, rounds);
    let cpu_of = |index: usize| median(rounds.iter().map(|round| round[index].1).collect());
    let (ours, baseline) = (cpu_of(0), cpu_of(1));
    let ratio = median(rounds.iter().map(|round| round[0].1 / round[1].1).collect());
    println!(
        "{} {ours:.1} µs, {} {baseline:.1} µs CPU a request at {in_flight} in flight: \
         {ratio:.3}× (the budgets' way round: {:.3})",
        names[0],
        names[1],
        1.0 / ratio
    );
}

fn main() {
    let address = start_server();
    if let Ok(spec) = std::env::var("PAYTOKEN_BENCH_PAIR") {
        pair(address, &spec);
        return;
    }
    let mut criterion = Criterion::default().configure_from_args();
    criterion_benches(&mut criterion, address);
    criterion.final_summary();
    // A profiler's run (`--profile-time`) wants the benchmark it names, nothing more.
    if !std::env::args().any(|arg| arg == "--profile-time") {
        summary(address);
    }
}
