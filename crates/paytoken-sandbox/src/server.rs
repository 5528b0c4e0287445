//! The HTTP/1.1 server around the gateway, on the one server edge (`edge.rs`: the accept
//! loop, its bounds and a clean shutdown): the console's and the gateway's requests told
//! apart, and fault injection between the socket and the gateway.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::{BodyExt as _, Limited};
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderValue};

use crate::explain::EXPLAIN_HEADER;
use hyper::service::{Service, service_fn};
use hyper::{Request, Response, StatusCode};
use paytoken_protocol::AUTH_TOKEN_HEADER;
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::body::AnswerBody;
use crate::console::{self, CONSOLE_PREFIX, DASHBOARD_PATH};
use crate::edge;
use crate::exchange::{Answer, HTML};
use crate::faults::{BodyFault, Drop, FAULT_HEADER, FaultQueue, Faults, OVERSIZED_BODY_LEN};
use crate::gateway::Gateway;
use crate::notifications::DELIVERY_MARK;
use crate::received::ReceivedLog;
use crate::tap::Tap;

/// The largest request body the sandbox reads; the interface's forms are a few KiB.
pub(crate) const MAX_REQUEST_BODY: usize = 64 * 1024;

/// How long an answer the time-out test card withholds keeps the connection open before
/// closing it: longer than any sensible client timeout.
pub(crate) const WITHHELD_FOR: Duration = Duration::from_secs(300);

/// The connection is closed without an answer (a `drop` fault, or a withheld answer).
#[derive(Debug, thiserror::Error)]
#[error("connection dropped by fault injection")]
struct Dropped;

/// The socket and what applies to every connection on it.
pub(crate) struct Listening {
    pub(crate) listener: TcpListener,
    pub(crate) tls: Option<edge::Acceptor>,
    pub(crate) faults: Faults,
    pub(crate) fault_queue: Arc<FaultQueue>,
    pub(crate) request_deadline: Duration,
    pub(crate) max_connections: usize,
    /// Where every gateway request is recorded whole, when a harness asked.
    pub(crate) tap: Option<Tap>,
    /// The gateway's paths only: the console, the dashboard and the 3-D Secure page
    /// answer `404` (tapped, for the harness to see), and the fault header is not read.
    pub(crate) gateway_only: bool,
}

/// What one connection shares with the others.
#[derive(Clone)]
struct Shared {
    gateway: Arc<Gateway>,
    received: Arc<ReceivedLog>,
    tap: Option<Tap>,
    faults: Faults,
    fault_queue: Arc<FaultQueue>,
    request_deadline: Duration,
    gateway_only: bool,
}

/// Serves the gateway on the one server edge until `shutdown` changes.
pub(crate) async fn serve(
    listening: Listening,
    gateway: Arc<Gateway>,
    received: Arc<ReceivedLog>,
    mut shutdown: watch::Receiver<bool>,
) {
    let Listening {
        listener,
        tls,
        faults,
        fault_queue,
        request_deadline,
        max_connections,
        tap,
        gateway_only,
    } = listening;
    let shared = Shared {
        gateway,
        received,
        tap,
        faults,
        fault_queue,
        request_deadline,
        gateway_only,
    };
    let limits = edge::Limits {
        max_connections,
        // The headers (and the wait for them on a kept-alive connection) get the request
        // deadline; the body gets it again in `respond`.
        head_deadline: request_deadline,
        keep_alive: true,
    };
    let stop = async move {
        let _ = shutdown.changed().await;
    };
    edge::serve(listener, limits, tls, stop, move |peer| {
        service(peer, shared.clone())
    })
    .await;
}

/// What answers the requests of one connection from `peer`.
fn service(
    peer: SocketAddr,
    shared: Shared,
) -> impl Service<Request<Incoming>, Response = Response<AnswerBody>, Error = Dropped, Future: Send>
+ Send
+ 'static {
    let deadline = shared.request_deadline;
    service_fn(move |request: Request<Incoming>| {
        let gateway = Arc::clone(&shared.gateway);
        // A notification (this sandbox's or another's) is for a merchant's listener: taken
        // here, it could act on the console or the challenge page, or call itself forever.
        let delivered = request.headers().contains_key(DELIVERY_MARK);
        // The console is no gateway request: no fault, no record of it.
        let path = request.uri().path();
        let console = path.starts_with(CONSOLE_PREFIX) || path == DASHBOARD_PATH;
        if !console && !delivered {
            shared
                .received
                .record(request.method().as_str(), request.uri().path());
        }
        let queue = Arc::clone(&shared.fault_queue);
        let sandbox_faults = shared.faults;
        let gateway_only = shared.gateway_only;
        let tap = shared
            .tap
            .clone()
            .filter(|_| (!console || gateway_only) && !delivered);
        async move {
            if delivered {
                return Ok(plain(
                    403,
                    "forbidden: a sandbox takes no request that a sandbox's notification makes\n",
                ));
            }
            if console && !gateway_only {
                return Ok(console::respond(&gateway, &queue, peer, request, deadline).await);
            }
            let edge = Edge {
                sandbox_faults,
                queue: &queue,
                tap: tap.as_ref(),
                gateway_only,
                deadline,
            };
            respond(&gateway, &edge, request).await
        }
    })
}

/// 9999-12-31 23:59:59 UTC, the last time an HTTP date can say.
const LAST_HTTP_DATE: u64 = 253_402_300_799;

/// What stands between the socket and the gateway for one request.
struct Edge<'a> {
    /// The faults every request gets, unless one is queued or asked for.
    sandbox_faults: Faults,
    queue: &'a FaultQueue,
    tap: Option<&'a Tap>,
    gateway_only: bool,
    deadline: Duration,
}

/// Whether `path` is the sandbox's own rather than the gateway's: the console, the
/// dashboard, the 3-D Secure page.
fn is_sandbox_s_own(path: &str) -> bool {
    path.starts_with(CONSOLE_PREFIX)
        || path == DASHBOARD_PATH
        || crate::ops::id_after(path, crate::ops::THREE_D_SECURE_PREFIX).is_some()
}

async fn respond(
    gateway: &Gateway,
    edge: &Edge<'_>,
    request: Request<Incoming>,
) -> Result<Response<AnswerBody>, Dropped> {
    let Edge {
        sandbox_faults,
        queue,
        tap,
        gateway_only,
        deadline,
    } = *edge;
    let (parts, body) = request.into_parts();
    let reading = Limited::new(body, MAX_REQUEST_BODY).collect();
    let body = match tokio::time::timeout(deadline, reading).await {
        Ok(Ok(body)) => body,
        Ok(Err(_)) => return Ok(closing(plain(413, "request body too large or broken\n"))),
        // A body that never ends holds the connection no longer than its deadline.
        Err(_) => return Ok(closing(plain(408, "request body not received in time\n"))),
    };
    let body = body.to_bytes();
    if let Some(tap) = tap {
        tap.record(&parts, &body);
    }
    if gateway_only && is_sandbox_s_own(parts.uri.path()) {
        return Ok(plain(
            404,
            "not found: this sandbox serves the gateway's paths only\n",
        ));
    }
    // A queued fault waits for the operation it names, which the path and form tell: read
    // only while one waits.
    let queued = if queue.is_empty() {
        None
    } else {
        queue.take_for(Gateway::operation_of(parts.uri.path(), &body))
    };
    let sandbox_faults = queued.unwrap_or(sandbox_faults);
    // A sandbox that serves only the gateway's paths takes its faults from its owner alone.
    let asked = parts.headers.get(FAULT_HEADER).filter(|_| !gateway_only);
    let faults = match asked {
        None => sandbox_faults,
        Some(value) => match value
            .to_str()
            .map(|text| sandbox_faults.with_directives(text))
        {
            Ok(Ok(faults)) => faults,
            Ok(Err(error)) => return Ok(plain(400, &format!("{error}\n"))),
            Err(_) => return Ok(plain(400, "the fault header is not visible ASCII\n")),
        },
    };
    if let Some(latency) = faults.latency {
        tokio::time::sleep(latency).await;
    }
    if faults.drop == Some(Drop::BeforeProcessing) {
        return Err(Dropped);
    }
    let auth_token = parts
        .headers
        .get(AUTH_TOKEN_HEADER)
        .and_then(|value| value.to_str().ok());
    let answer = gateway.handle(
        parts.method.as_str(),
        parts.uri.path(),
        parts.uri.query(),
        auth_token,
        &body,
        faults.notification,
    );
    if answer.withheld {
        tokio::time::sleep(WITHHELD_FOR).await;
        return Err(Dropped);
    }
    if faults.drop == Some(Drop::AfterProcessing) {
        return Err(Dropped);
    }
    let mut response = disturb(answer, &faults);
    // The sandbox's time, which the console may have moved, not the machine's; at a time
    // an HTTP date cannot say (after 9999, which a caller's own clock may give) the answer
    // keeps hyper's own `Date`, the machine's, rather than stop.
    let now = u64::try_from(gateway.clock.now()).unwrap_or(0);
    if now <= LAST_HTTP_DATE {
        let date = httpdate::fmt_http_date(std::time::UNIX_EPOCH + Duration::from_secs(now));
        if let Ok(date) = HeaderValue::from_str(&date) {
            response.headers_mut().insert(hyper::header::DATE, date);
        }
    }
    Ok(response)
}

/// The answer as the faults leave it, with its diagnostic when the sandbox explains.
fn disturb(answer: Answer, faults: &Faults) -> Response<AnswerBody> {
    let (status, content_type, body) = if let Some(status) = faults.status {
        (status, HTML, error_page(status))
    } else {
        let body = match faults.body {
            None => answer.body,
            Some(fault) => broken_body(&answer.body, fault),
        };
        (answer.status, answer.content_type, body)
    };
    let mut response = response(status, content_type, body, faults.stall);
    // The line is escaped to visible ASCII (`explain`), which a header value always takes.
    if let Some(value) = answer
        .explanation
        .and_then(|line| HeaderValue::from_str(&line).ok())
    {
        response.headers_mut().insert(EXPLAIN_HEADER, value);
    }
    response
}

/// The real answer `body`, broken as `fault` says.
fn broken_body(body: &str, fault: BodyFault) -> String {
    match fault {
        BodyFault::Malformed => body.replacen("\":", "\"=", 1),
        BodyFault::Truncated => {
            let mut half = body.len() / 2;
            while !body.is_char_boundary(half) {
                half -= 1;
            }
            body.get(..half).unwrap_or_default().to_owned()
        }
        BodyFault::Oversized => oversized(),
    }
}

/// `response`, with the connection closed after it (the rest of the request is unread).
fn closing(mut response: Response<AnswerBody>) -> Response<AnswerBody> {
    response
        .headers_mut()
        .insert(hyper::header::CONNECTION, HeaderValue::from_static("close"));
    response
}

fn plain(status: u16, text: &str) -> Response<AnswerBody> {
    let answer = Answer::text(status, text);
    response(answer.status, answer.content_type, answer.body, None)
}

fn response(
    status: u16,
    content_type: &'static str,
    body: String,
    stall: Option<Duration>,
) -> Response<AnswerBody> {
    let mut response = Response::new(AnswerBody::new(body, stall));
    *response.status_mut() =
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// What a proxy in front of a failing gateway sends.
fn error_page(status: u16) -> String {
    let title = if status == 502 {
        "502 Bad Gateway"
    } else {
        "500 Internal Server Error"
    };
    format!(
        "<html>\r\n<head><title>{title}</title></head>\r\n<body>\r\n<center><h1>{title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
    )
}

/// Valid JSON of [`OVERSIZED_BODY_LEN`] bytes.
fn oversized() -> String {
    let head = r#"{"result":{"code":"00001","description":"Transaction succeeded"},"padding":""#;
    let tail = "\"}";
    let mut body = String::with_capacity(OVERSIZED_BODY_LEN);
    body.push_str(head);
    body.extend(std::iter::repeat_n(
        'x',
        OVERSIZED_BODY_LEN - head.len() - tail.len(),
    ));
    body.push_str(tail);
    body
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oversized_body_is_json_of_the_promised_size() {
        let body = oversized();
        assert_eq!(body.len(), OVERSIZED_BODY_LEN);
        let value: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(value["result"]["code"], "00001");
    }

    #[test]
    fn a_malformed_body_is_not_json_and_a_truncated_one_is_cut() {
        let body = r#"{"paymentId":"60001","remark":"Zoë"}"#;
        let malformed = broken_body(body, BodyFault::Malformed);
        assert_eq!(malformed, r#"{"paymentId"="60001","remark":"Zoë"}"#);
        assert!(serde_json::from_str::<serde_json::Value>(&malformed).is_err());
        let truncated = broken_body(body, BodyFault::Truncated);
        assert!(body.starts_with(&truncated) && truncated.len() <= body.len() / 2);
        assert!(serde_json::from_str::<serde_json::Value>(&truncated).is_err());
    }
}
