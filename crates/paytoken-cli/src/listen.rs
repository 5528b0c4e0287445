//! `paytoken listen`: a merchant's notification endpoint for development. It receives the
//! gateway's notifications (and the browser's return from 3-D Secure, a form), verifies
//! each with the secure key, prints one block per notification (`--json`: one object a
//! line) marked `verified`, `duplicate` or `rejected`, answers the gateway, and relays each
//! verified one once to `--forward-to`.
//!
//! The gateway gets 200 for a verified notification and for a duplicate (it has been
//! told; a retry would bring nothing new), 400 for a rejected one. With `--forward-to`, a
//! verified notification the merchant's endpoint did not take (no connection, no `2xx`) is
//! answered 502 and forgotten, so that the gateway's retry is relayed: each is relayed
//! once it is taken, and not again.
//!
//! Everything read is bounded: the body (64 KiB), the time to send it (10 s), the
//! connections at once (256), the notifications remembered for duplicates (10,000).

pub(crate) mod endpoint;
mod verdict;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use paytoken::SecureKey;
use paytoken::protocol::notification::DuplicateFilter;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use self::endpoint::Endpoint;
use self::verdict::Verdict;
use crate::cli::{GatewayArgs, ListenArgs};
use crate::config;
use crate::report::{Exit, Failure, Report};
use crate::terminal;

/// The largest notification read: a payment's fields are a few hundred bytes.
const MAX_BODY: usize = 64 * 1024;
/// How long a sender has for its headers, and again for its body.
const READ_DEADLINE: Duration = Duration::from_secs(10);
/// Connections served at once; one more is closed when accepted.
const MAX_CONNECTIONS: usize = 256;
/// Notifications remembered to tell a duplicate.
const REMEMBERED: usize = 10_000;

/// What every connection shares: the key, the notifications seen, where to relay.
pub(crate) struct Receiver {
    key: SecureKey,
    seen: Mutex<DuplicateFilter>,
    forward: Option<Endpoint>,
}

impl Receiver {
    /// A receiver verifying with `key`, relaying verified notifications to `forward`.
    pub(crate) fn new(key: SecureKey, forward: Option<Endpoint>) -> Self {
        Self {
            key,
            seen: Mutex::new(DuplicateFilter::new(REMEMBERED)),
            forward,
        }
    }

    fn seen(&self) -> std::sync::MutexGuard<'_, DuplicateFilter> {
        self.seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Runs until Ctrl-C.
pub(crate) async fn run(args: &ListenArgs, gateway: &GatewayArgs, json: bool) -> Report {
    let key = match config::secure_key(gateway) {
        Ok(key) => key,
        Err(failure) => return Report::from(failure),
    };
    let forward = match args
        .forward_to
        .as_deref()
        .map(|url| Endpoint::parse("--forward-to", url))
        .transpose()
    {
        Ok(forward) => forward,
        Err(message) => return Report::from(Failure::usage(message)),
    };
    let listener = match TcpListener::bind(args.addr).await {
        Ok(listener) => listener,
        Err(error) => {
            return Report::from(Failure::failed(format!(
                "cannot listen on {}: {error}",
                args.addr
            )));
        }
    };
    let address = listener.local_addr().unwrap_or(args.addr);
    if announce(address, forward.as_ref(), json).is_err() {
        return Report::quiet(Exit::Success);
    }
    let receiver = Arc::new(Receiver::new(key, forward));
    let print = move |printed: Value| {
        let text = if json {
            terminal::json(&printed) + "\n"
        } else {
            verdict::block(&printed)
        };
        // A closed standard output ends nothing: the gateway is still answered.
        let _ = terminal::out(&text);
    };
    tokio::select! {
        () = serve(listener, receiver, print) => {}
        _ = tokio::signal::ctrl_c() => {}
    }
    Report::quiet(Exit::Success)
}

/// Serves notifications on `listener` for as long as it is polled, handing each printed
/// verdict to `print`: `paytoken listen`'s loop, and the demo's receiver.
pub(crate) async fn serve(
    listener: TcpListener,
    receiver: Arc<Receiver>,
    print: impl Fn(Value) + Send + Sync + 'static,
) {
    let print = Arc::new(print);
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        // Full: the connection is closed at once, the served ones go on.
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            continue;
        };
        let receiver = Arc::clone(&receiver);
        let print = Arc::clone(&print);
        tokio::spawn(async move {
            let service = service_fn(move |request| {
                let receiver = Arc::clone(&receiver);
                let print = Arc::clone(&print);
                async move {
                    let (response, printed) = receive(&receiver, request).await;
                    if let Some(printed) = printed {
                        print(printed);
                    }
                    Ok::<_, std::convert::Infallible>(response)
                }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(READ_DEADLINE)
                .keep_alive(false)
                .serve_connection(TokioIo::new(stream), service)
                .await;
            drop(slot);
        });
    }
}

/// The first line: where to send notifications.
fn announce(
    address: SocketAddr,
    forward: Option<&Endpoint>,
    json: bool,
) -> Result<(), terminal::Closed> {
    let url = format!("http://{address}/");
    if json {
        let line = json!({ "listening": url, "forwardTo": forward.map(|f| f.url.as_str()) });
        return terminal::out(&(terminal::json(&line) + "\n"));
    }
    let relay = forward.map_or_else(String::new, |forward| {
        format!(
            ", relaying verified ones to {}",
            terminal::escape(&forward.url)
        )
    });
    terminal::out(&format!(
        "paytoken listen: receiving notifications at {url}{relay} (Ctrl-C to stop)\n"
    ))
}

/// One request: read, judged, relayed; the answer, and what to print of it (nothing for
/// a request that is no notification).
async fn receive(
    receiver: &Receiver,
    request: Request<Incoming>,
) -> (Response<Full<Bytes>>, Option<Value>) {
    if request.method() != Method::POST {
        return (answer(405, "a notification is a POST\n"), None);
    }
    let content_type = request.headers().get(CONTENT_TYPE).cloned();
    let is_form = content_type.as_ref().is_some_and(|value| {
        value
            .as_bytes()
            .to_ascii_lowercase()
            .starts_with(b"application/x-www-form-urlencoded")
    });
    let reading = Limited::new(request.into_body(), MAX_BODY).collect();
    let body = match tokio::time::timeout(READ_DEADLINE, reading).await {
        Ok(Ok(body)) => body.to_bytes(),
        Ok(Err(_)) => {
            let rejected =
                Verdict::Rejected(format!("body broken or larger than {MAX_BODY} bytes"));
            let response = answer(413, "rejected: body too large or broken\n");
            return (response, Some(rejected.to_json()));
        }
        Err(_) => return (answer(408, "rejected: body not received in time\n"), None),
    };
    let verdict = verdict::judge(&body, is_form, &receiver.key, &mut receiver.seen());
    let mut printed = verdict.to_json();
    let mut status = verdict.http_status();
    if let (Verdict::Verified(notification), Some(forward)) = (&verdict, &receiver.forward) {
        let relayed = forward.post(body, content_type).await;
        if relayed.is_err() {
            // Not taken: the gateway's retry must be relayed, not filtered as a repeat.
            receiver.seen().forget(notification);
            status = 502;
        }
        if let Some(object) = printed.as_object_mut() {
            let report = match relayed {
                Ok(answered) => json!({ "to": forward.url, "status": answered }),
                Err(reason) => json!({ "to": forward.url, "failed": reason }),
            };
            object.insert("forwarded".into(), report);
        }
    }
    let text = match &verdict {
        Verdict::Rejected(reason) => format!("rejected: {reason}\n"),
        other => format!("{}\n", other.word()),
    };
    (answer(status, &text), Some(printed))
}

fn answer(status: u16, text: &str) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(text.to_owned())));
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain;charset=UTF-8"),
    );
    response
}
