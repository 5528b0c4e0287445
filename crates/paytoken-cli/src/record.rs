//! `paytoken record --upstream URL`: a recording proxy on this machine. The merchant's code
//! (any language) takes its address as the gateway's base URL; each request goes on to the
//! upstream unchanged, each answer comes back unchanged, and each exchange is appended to
//! a cassette, redacted before it is written (`record/cassette.rs`, `record/redact.rs`).
//!
//! Exchanges go to the upstream one at a time, in the order they came, over one
//! connection (`connection::Upstream`): the cassette's order is the gateway's.
//!
//! Bounds: a request body of 1 MiB, an answer of `--max-answer-bytes` (16 MiB by
//! default), the time to send a request's head (10 s), 64 connections at once, and the
//! cassette's `--max-bytes`, past which proxying goes on and recording stops (stderr says
//! so once).

mod cassette;
mod redact;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{HeaderName, HeaderValue};
use hyper::{HeaderMap, Request, Response};
use paytoken::protocol::redact::Redactor;
use serde_json::json;

pub(crate) use self::cassette::CASSETTE_VERSION;
use self::cassette::{Cassette, Exchange};
use crate::cli::{GatewayArgs, RecordArgs};
use crate::config;
use crate::connection::{self, Upstream};
use crate::limits;
use crate::local_server::{self, text_answer};
use crate::report::{Exit, Failure, Report};
use crate::settings::Settings;
use crate::terminal;

/// Headers that belong to one connection, never forwarded (RFC 9110, 7.6.1), and the
/// ones the proxy sets itself.
const HOP_BY_HOP: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-connection",
    "transfer-encoding",
    "te",
    "trailer",
    "upgrade",
    "host",
    "content-length",
];

/// What every connection shares.
struct Proxy {
    upstream: tokio::sync::Mutex<Upstream>,
    answer_limit: usize,
    cassette: Mutex<Cassette>,
    keep_personal: bool,
    exchanges: AtomicU64,
    /// The secrets seen by name in the exchanges so far (bounded), masked wherever they
    /// stand in later ones.
    held: Mutex<Redactor>,
}

/// Runs until Ctrl-C.
pub(crate) async fn run(
    args: &RecordArgs,
    gateway: &GatewayArgs,
    json: bool,
) -> Result<Report, Failure> {
    let proxy = Arc::new(proxy(args, gateway)?);
    if !args.addr.ip().is_loopback() {
        return Err(Failure::usage(
            "--addr: the proxy forwards your signed requests, so it listens on a loopback address only",
        ));
    }
    let (listener, address) = local_server::bind(args.addr).await?;
    let upstream = proxy.upstream.lock().await.base_url.as_str().to_owned();
    let announced = json!({
        "operation": "record",
        "outcome": "ok",
        "listenUrl": format!("http://{address}"),
        "upstream": upstream,
        "cassette": args.cassette.display().to_string(),
    });
    let text = if json {
        terminal::json(&announced) + "\n"
    } else {
        format!(
            "record: give your code http://{address} as the gateway's base URL; recording {} into {}\n",
            terminal::escape(&upstream),
            terminal::escape(&args.cassette.display().to_string())
        )
    };
    if let Err(unwritten) = terminal::out(&text) {
        return Ok(unwritten.into());
    }
    // `local_server` runs each exchange on a task of its own: a client that hangs up must
    // not cut an exchange the upstream may already have taken, nor its line in the
    // cassette.
    let handle = move |request| {
        let proxy = Arc::clone(&proxy);
        async move { forward(&proxy, request).await }
    };
    let failed = || text_answer(502, "paytoken record: the exchange's handler failed\n");
    tokio::select! {
        () = local_server::serve(listener, limits::RECORD, handle, failed) => {}
        _ = tokio::signal::ctrl_c() => {}
    }
    Ok(Report::quiet(Exit::Success))
}

/// The proxy of the arguments: the upstream refused as every command refuses a base URL
/// (plain http beyond loopback), and trusted as the client trusts it.
fn proxy(args: &RecordArgs, gateway: &GatewayArgs) -> Result<Proxy, Failure> {
    config::check_bounds(gateway)?;
    let mut settings = Settings::resolve(gateway)?;
    settings.base_url.value = Some(args.upstream.clone());
    let base_url = config::base_url(gateway, &settings)
        .map_err(|failure| Failure::usage(format!("--upstream: {}", failure.message())))?;
    let trust = connection::trust(&config::root_certificates(gateway)?).map_err(Failure::usage)?;
    if args
        .cassette
        .parent()
        .is_some_and(|folder| !folder.as_os_str().is_empty() && !folder.is_dir())
    {
        return Err(Failure::usage(format!(
            "--cassette {}: its folder does not exist",
            args.cassette.display()
        )));
    }
    let cassette = Cassette::open(args.cassette.clone(), args.max_bytes)
        .map_err(|reason| Failure::usage(format!("--cassette {reason}")))?;
    Ok(Proxy {
        upstream: tokio::sync::Mutex::new(Upstream::new(base_url, trust, limits::UPSTREAM_STEP)),
        answer_limit: gateway
            .max_answer_bytes
            .unwrap_or(limits::LIST_ANSWER_BYTES),
        cassette: Mutex::new(cassette),
        keep_personal: args.keep_personal_data,
        exchanges: AtomicU64::new(0),
        held: Mutex::new(Redactor::new()),
    })
}

/// Forwards one request and records the exchange.
async fn forward(proxy: &Proxy, request: Request<Incoming>) -> Response<Full<Bytes>> {
    // Only the merchant's code on this machine: a web page reaching the proxy through a
    // DNS name that points at loopback sends its own `Host`.
    if paytoken_sandbox::console::loopback_host(request.uri(), request.headers()).is_none() {
        return text_answer(
            403,
            "paytoken record: a request for a path with one loopback Host only\n",
        );
    }
    let number = proxy.exchanges.fetch_add(1, Ordering::Relaxed) + 1;
    let (parts, body) = request.into_parts();
    let path = parts
        .uri
        .path_and_query()
        .map_or("/", |path| path.as_str())
        .to_owned();
    let body = match Limited::new(body, limits::FORWARDED_REQUEST_BYTES)
        .collect()
        .await
    {
        Ok(body) => body.to_bytes(),
        Err(_) => {
            return text_answer(413, "paytoken record: a request body larger than 1 MiB\n");
        }
    };
    let answer = exchange(proxy, &parts, &path, &body).await;
    let recorded = Exchange {
        number,
        method: parts.method.as_str(),
        path: path.split('?').next().unwrap_or(&path),
        request_headers: &parts.headers,
        request_body: &body,
        answer: answer
            .as_ref()
            .map(|(status, headers, body)| (*status, headers, body.as_ref()))
            .map_err(Clone::clone),
    };
    let held = match proxy.held.lock() {
        Ok(mut held) => {
            cassette::learn(&recorded, &mut held);
            held.clone()
        }
        Err(poisoned) => poisoned.into_inner().clone(),
    };
    let line = cassette::line(&recorded, proxy.keep_personal, &held);
    if let Ok(mut cassette) = proxy.cassette.lock() {
        cassette.append(&line);
    }
    match answer {
        Ok((status, headers, body)) => {
            let mut response = Response::new(Full::new(body));
            *response.status_mut() =
                hyper::StatusCode::from_u16(status).unwrap_or(hyper::StatusCode::BAD_GATEWAY);
            copy_headers(&headers, response.headers_mut());
            response
        }
        Err(error) => text_answer(
            502,
            &format!("paytoken record: the upstream did not answer: {error}\n"),
        ),
    }
}

/// Sends the request on to the upstream, as it came but for the connection's own headers
/// and `Accept-Encoding`: a compressed answer would reach the cassette as bytes it cannot
/// read, and the client, which offered the encodings, takes the plain answer as well.
async fn exchange(
    proxy: &Proxy,
    parts: &hyper::http::request::Parts,
    path: &str,
    body: &Bytes,
) -> Result<(u16, HeaderMap, Bytes), String> {
    let mut upstream = proxy.upstream.lock().await;
    let mut request = Request::new(Full::new(body.clone()));
    *request.method_mut() = parts.method.clone();
    *request.uri_mut() = upstream.uri(path)?;
    copy_headers(&parts.headers, request.headers_mut());
    request.headers_mut().remove(hyper::header::ACCEPT_ENCODING);
    let answered = upstream
        .send_http(request, proxy.answer_limit)
        .await
        .map_err(|error| error.to_string())?;
    Ok((answered.status, answered.headers, answered.body))
}

/// Copies every header but those of one connection.
fn copy_headers(from: &HeaderMap, to: &mut HeaderMap) {
    for (name, value) in from {
        if !HOP_BY_HOP.contains(&name.as_str()) {
            to.append(HeaderName::clone(name), HeaderValue::clone(value));
        }
    }
}
