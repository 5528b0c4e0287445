//! The console: JSON over HTTP under [`CONSOLE_PREFIX`], to see and steer a running
//! sandbox from any language while one's own code runs against it.
//!
//! Its paths and what each gives or does: docs/SANDBOX.md, "The console" (`route`
//! below is the one list of them).
//!
//! A resend of a notification not yet delivered replaces its pending retries (it is
//! delivered once, when an attempt succeeds); a resend of a delivered one delivers it
//! again. Either way its attempts carry a `resent` mark where the resend began.
//!
//! The same rules serve the dashboard, a page at the sandbox's root path
//! ([`DASHBOARD_PATH`]) that shows all of it and sends the actions.
//!
//! The console answers only a connection from a loopback address whose `Host` names a
//! loopback host (`localhost`, `127.0.0.1`, `[::1]`), so that a web page elsewhere cannot
//! reach it through a DNS name that resolves to loopback; there is no remote console. An
//! action is a POST whose `Content-Type` is exactly `application/json` and whose `Origin`,
//! when there is one, is the console's own; no answer carries CORS headers. Console
//! requests are not gateway requests: no fault applies to them, and neither the request
//! log nor [`Sandbox::received`](crate::Sandbox::received) lists them.

mod dashboard;
mod views;

use std::net::SocketAddr;
use std::time::Duration;

use http_body_util::{BodyExt as _, Limited};
use hyper::body::Incoming;
use hyper::header::{CACHE_CONTROL, CONTENT_TYPE, HOST, HeaderValue, ORIGIN};
use hyper::{Request, Response, StatusCode};
use serde_json::{Value, json};

use crate::body::AnswerBody;
use crate::faults::{FaultQueue, FaultTarget, Faults};
use crate::gateway::Gateway;
use crate::notifications::NotResent;
use views::Page;

/// Where the console's paths begin.
pub const CONSOLE_PREFIX: &str = "/sandbox/console/";

/// Where the dashboard is: the sandbox's root path, under the console's rules.
pub const DASHBOARD_PATH: &str = "/";

/// What the dashboard may do in a browser: its own inline style and script, `fetch` to its
/// own origin, nothing loaded from elsewhere, never framed.
const DASHBOARD_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/// The largest body an action may send.
const MAX_ACTION_BODY: usize = 16 * 1024;

/// The most an advance may move the clock at once: ten years.
const MAX_ADVANCE_SECONDS: u64 = 10 * 366 * 86_400;

/// The most requests one `faults` action may fault.
const MAX_FAULTED: u64 = 100;

/// An answer of the console: its status and JSON.
type Reply = (StatusCode, Value);

fn error(status: StatusCode, message: &str) -> Reply {
    (status, json!({ "error": message }))
}

/// Answers one console request from `peer`.
pub(crate) async fn respond(
    gateway: &Gateway,
    faults: &FaultQueue,
    peer: SocketAddr,
    request: Request<Incoming>,
    deadline: Duration,
) -> Response<AnswerBody> {
    let scheme = gateway.base_url.split("://").next().unwrap_or("http");
    if request.uri().path() == DASHBOARD_PATH {
        return match admit(
            scheme,
            peer,
            request.uri(),
            request.method(),
            request.headers(),
        ) {
            Ok(()) if request.method() == hyper::Method::GET => {
                let mut response =
                    Response::new(AnswerBody::new(dashboard::page(gateway, faults), None));
                let headers = response.headers_mut();
                headers.insert(
                    CONTENT_TYPE,
                    HeaderValue::from_static(crate::exchange::HTML),
                );
                headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
                headers.insert(
                    hyper::header::CONTENT_SECURITY_POLICY,
                    HeaderValue::from_static(DASHBOARD_POLICY),
                );
                response
            }
            Ok(()) => json_response(error(
                StatusCode::METHOD_NOT_ALLOWED,
                "the dashboard is read with GET",
            )),
            Err(refused) => json_response(refused),
        };
    }
    let (status, body) = match admit(
        scheme,
        peer,
        request.uri(),
        request.method(),
        request.headers(),
    ) {
        Err(refused) => refused,
        Ok(()) => {
            let (parts, body) = request.into_parts();
            let reading = Limited::new(body, MAX_ACTION_BODY).collect();
            match tokio::time::timeout(deadline, reading).await {
                Ok(Ok(body)) => route(gateway, faults, &parts, &body.to_bytes()),
                _ => error(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "the body is too large, broken or late",
                ),
            }
        }
    };
    json_response((status, body))
}

/// A console answer as HTTP.
fn json_response((status, body): Reply) -> Response<AnswerBody> {
    let mut response = Response::new(AnswerBody::new(format!("{body}\n"), None));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static(crate::exchange::JSON),
    );
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Whether the request may reach the console at all: a loopback peer, a path (never
/// another host's URL as the target), one loopback `Host`, and for an action exactly JSON
/// from no other origin than the console's own (`scheme` and `Host`).
fn admit(
    scheme: &str,
    peer: SocketAddr,
    target: &hyper::Uri,
    method: &hyper::Method,
    headers: &hyper::HeaderMap,
) -> Result<(), Reply> {
    let forbidden = |why| Err(error(StatusCode::FORBIDDEN, why));
    if !peer.ip().is_loopback() {
        return forbidden("the console answers loopback connections only");
    }
    let Some(host) = loopback_host(target, headers) else {
        return forbidden(
            "the console answers a request for its own path with one loopback Host only (localhost, 127.0.0.1, [::1])",
        );
    };
    match method.as_str() {
        "GET" => Ok(()),
        "POST" => {
            let content_type = headers.get(CONTENT_TYPE);
            if content_type.map(HeaderValue::as_bytes) != Some(b"application/json") {
                return Err(error(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    "an action's Content-Type is application/json, exactly",
                ));
            }
            let own = format!("{scheme}://{host}");
            match headers.get(ORIGIN) {
                Some(origin) if origin.as_bytes() != own.as_bytes() => {
                    forbidden("an action comes from the console's own origin, or none")
                }
                _ => Ok(()),
            }
        }
        _ => Err(error(
            StatusCode::METHOD_NOT_ALLOWED,
            "GET to read, POST to act",
        )),
    }
}

/// The `Host` of a request for a path (never another host's URL as its target) that has
/// exactly one `Host`, naming loopback; `None` for any other: how the console, and
/// `paytoken record`, keep web pages out through a DNS name that points at loopback.
#[must_use]
pub fn loopback_host<'h>(target: &hyper::Uri, headers: &'h hyper::HeaderMap) -> Option<&'h str> {
    if target.scheme().is_some() || target.authority().is_some() {
        return None;
    }
    // One `Host`: with a second, a proxy or a browser may have read the other.
    let mut hosts = headers.get_all(HOST).iter();
    let (Some(host), None) = (hosts.next(), hosts.next()) else {
        return None;
    };
    host.to_str().ok().filter(|host| is_loopback_host(host))
}

/// Whether a `Host` header names a loopback host: `localhost`, an IPv4 address in
/// `127.0.0.0/8` or `[::1]`, with or without a port of digits.
fn is_loopback_host(host: &str) -> bool {
    // `[v6]:port`, `name:port`, or either without its port.
    let (name, port) = match host.strip_prefix('[') {
        Some(bracketed) => {
            let Some((name, rest)) = bracketed.split_once(']') else {
                return false;
            };
            match (rest, rest.strip_prefix(':')) {
                ("", _) => (name, None),
                (_, Some(port)) => (name, Some(port)),
                _ => return false,
            }
        }
        None => match host.split_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        },
    };
    let port_is_digits = port.is_none_or(|digits| {
        (1..=5).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit())
    });
    port_is_digits
        && (name.eq_ignore_ascii_case("localhost")
            || name
                .parse::<std::net::IpAddr>()
                .is_ok_and(|address| address.is_loopback()))
}

fn route(
    gateway: &Gateway,
    faults: &FaultQueue,
    parts: &hyper::http::request::Parts,
    body: &[u8],
) -> Reply {
    let path = parts
        .uri
        .path()
        .strip_prefix(CONSOLE_PREFIX)
        .unwrap_or_default();
    let segments: Vec<&str> = path.split('/').collect();
    let post = parts.method == hyper::Method::POST;
    let input = || -> Result<Value, Reply> {
        if body.is_empty() {
            return Ok(json!({}));
        }
        serde_json::from_slice(body).map_err(|_| bad_request("the body is not JSON"))
    };
    let page = || page(parts.uri.query());
    let reply = match (post, segments.as_slice()) {
        (false, ["books"]) => page().map(|page| (StatusCode::OK, views::books(gateway, page))),
        (false, ["requests"]) => {
            page().map(|page| (StatusCode::OK, views::requests(gateway, page)))
        }
        (false, ["notifications"]) => {
            page().map(|page| (StatusCode::OK, views::notifications(gateway, page)))
        }
        (true, ["notifications", number, "resend"]) => Ok(resend(gateway, number)),
        (false, ["clock"]) => Ok((StatusCode::OK, views::clock(gateway))),
        (true, ["clock", "advance"]) => input().and_then(|input| advance(gateway, &input)),
        (false, ["faults"]) => Ok((StatusCode::OK, views::faults(faults))),
        (true, ["faults"]) => input().and_then(|input| fault_next(faults, &input)),
        (true, ["faults", "clear"]) => {
            faults.clear();
            Ok((StatusCode::OK, views::faults(faults)))
        }
        (
            true,
            [
                "three-d-secure",
                payment_id,
                decision @ ("approve" | "decline"),
            ],
        ) => Ok(decide(gateway, payment_id, *decision == "approve")),
        _ => Ok(error(
            StatusCode::NOT_FOUND,
            "no such console path or method",
        )),
    };
    reply.unwrap_or_else(|refused| refused)
}

/// The page a list's query asks for: `after` (a number, 0 by default) and `limit` (1 to
/// [`views::PAGE_LIMIT`], which is the default), each given once, in digits only.
fn page(query: Option<&str>) -> Result<Page, Reply> {
    let (mut after, mut limit) = (None, None);
    for pair in query.into_iter().flat_map(|query| query.split('&')) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let (slot, refusal) = match name {
            "after" => (&mut after, "after: one whole number, in digits"),
            "limit" => (
                &mut limit,
                "limit: one whole number from 1 to 100, in digits",
            ),
            _ => continue,
        };
        let digits = !value.is_empty() && value.bytes().all(|byte| byte.is_ascii_digit());
        let number = digits.then(|| value.parse::<u64>().ok()).flatten();
        match (slot.is_some(), number) {
            (false, Some(number)) => *slot = Some(number),
            _ => return Err(bad_request(refusal)),
        }
    }
    let limit = match limit {
        None => views::PAGE_LIMIT,
        Some(limit) => usize::try_from(limit)
            .ok()
            .filter(|limit| (1..=views::PAGE_LIMIT).contains(limit))
            .ok_or_else(|| bad_request("limit: one whole number from 1 to 100, in digits"))?,
    };
    Ok(Page::After {
        after: after.unwrap_or(0),
        limit,
    })
}

fn resend(gateway: &Gateway, number: &str) -> Reply {
    let Ok(number) = number.parse::<u64>() else {
        return error(StatusCode::NOT_FOUND, "no such notification");
    };
    match gateway.outbox.resend(number) {
        Ok(()) => (StatusCode::ACCEPTED, json!({ "resent": number })),
        Err(NotResent::Unknown) => error(StatusCode::NOT_FOUND, "no such notification"),
        Err(NotResent::Exhausted) => error(
            StatusCode::CONFLICT,
            "this notification has had 100 attempts: it is not sent again",
        ),
        Err(NotResent::Busy) => error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the outbox is full or stopped: try again",
        ),
    }
}

/// A refusal of what an action's body asked for.
fn bad_request(message: &str) -> Reply {
    error(StatusCode::BAD_REQUEST, message)
}

fn advance(gateway: &Gateway, input: &Value) -> Result<Reply, Reply> {
    let seconds = input
        .get("seconds")
        .and_then(Value::as_u64)
        .filter(|seconds| (1..=MAX_ADVANCE_SECONDS).contains(seconds))
        .ok_or_else(|| {
            bad_request(
                "seconds: a whole number from 1 to ten years' worth; the clock never moves back",
            )
        })?;
    gateway
        .advance_clock(Duration::from_secs(seconds))
        .map_err(|left| bad_request(&crate::Error::ClockBound { left }.to_string()))?;
    Ok((StatusCode::OK, views::clock(gateway)))
}

fn fault_next(queue: &FaultQueue, input: &Value) -> Result<Reply, Reply> {
    let target = match input.get("target") {
        None | Some(Value::Null) => FaultTarget::default(),
        Some(Value::String(name)) => {
            FaultTarget::parse(name).map_err(|refused| bad_request(&refused.to_string()))?
        }
        Some(_) => {
            return Err(bad_request(
                "target: money-moving, any, or an operation such as \"pay\"",
            ));
        }
    };
    let directives = input
        .get("directives")
        .and_then(Value::as_str)
        .ok_or_else(|| bad_request("directives: text such as \"drop=after\""))?;
    let count = match input.get("count") {
        None => 1,
        Some(count) => count
            .as_u64()
            .filter(|n| (1..=MAX_FAULTED).contains(n))
            .ok_or_else(|| bad_request("count: a whole number from 1 to 100"))?,
    };
    let faults = Faults::parse(directives).map_err(|refused| bad_request(&refused.to_string()))?;
    for _ in 0..count {
        if !queue.push(target, faults) {
            return Err(error(
                StatusCode::SERVICE_UNAVAILABLE,
                "too many faults already wait for the next requests",
            ));
        }
    }
    Ok((StatusCode::OK, views::faults(queue)))
}

fn decide(gateway: &Gateway, payment_id: &str, approve: bool) -> Reply {
    let decided = crate::ops::three_d_secure::decide_waiting(
        gateway,
        &mut gateway.lock(),
        payment_id,
        approve,
    );
    if decided {
        let word = if approve { "approved" } else { "declined" };
        (
            StatusCode::OK,
            json!({ "paymentId": payment_id, "decided": word }),
        )
    } else {
        error(
            StatusCode::CONFLICT,
            "no payment of that id waits for 3-D Secure",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_peer_beyond_loopback_is_refused_whatever_it_sends() {
        let mut headers = hyper::HeaderMap::new();
        headers.insert(HOST, HeaderValue::from_static("127.0.0.1:8080"));
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        let local: SocketAddr = "127.0.0.1:50000".parse().unwrap();
        let books: hyper::Uri = "/sandbox/console/books".parse().unwrap();
        for peer in ["192.0.2.7:50000", "[2001:db8::1]:50000", "10.0.0.1:1"] {
            let peer: SocketAddr = peer.parse().unwrap();
            for method in [hyper::Method::GET, hyper::Method::POST] {
                let refused = admit("http", peer, &books, &method, &headers).unwrap_err();
                assert_eq!(refused.0, StatusCode::FORBIDDEN, "{peer} {method}");
            }
        }
        assert!(admit("http", local, &books, &hyper::Method::POST, &headers).is_ok());
        headers.insert(ORIGIN, HeaderValue::from_static("https://127.0.0.1:8080"));
        assert!(
            admit("http", local, &books, &hyper::Method::POST, &headers).is_err(),
            "another scheme"
        );
        assert!(admit("https", local, &books, &hyper::Method::POST, &headers).is_ok());
    }

    #[test]
    fn only_loopback_hosts_are_loopback() {
        for host in [
            "localhost",
            "localhost:8080",
            "127.0.0.1:1",
            "127.1.2.3",
            "[::1]:80",
            "[::1]",
            "LOCALHOST",
        ] {
            assert!(is_loopback_host(host), "{host}");
        }
        for host in [
            "",
            "evil.example",
            "evil.example:8080",
            "localhost.evil.example",
            "10.0.0.1",
            "[::2]:80",
            "127.0.0.1.nip.io",
            "localhost:evil",
            "127.0.0.1:",
            "127.0.0.1:80:80",
            "[::1]x",
            "[::1]:http",
            "[::1",
        ] {
            assert!(!is_loopback_host(host), "{host}");
        }
    }

    /// Regression: two `Host` headers of which the first was loopback, and a target in
    /// absolute form naming another host, reached the console.
    #[test]
    fn one_loopback_host_and_a_path_or_nothing() {
        let local: SocketAddr = "127.0.0.1:50000".parse().unwrap();
        let mut two = hyper::HeaderMap::new();
        two.append(HOST, HeaderValue::from_static("127.0.0.1:8080"));
        two.append(HOST, HeaderValue::from_static("evil.example"));
        let books: hyper::Uri = "/sandbox/console/books".parse().unwrap();
        let refused = admit("http", local, &books, &hyper::Method::GET, &two).unwrap_err();
        assert_eq!(refused.0, StatusCode::FORBIDDEN);
        let mut one = hyper::HeaderMap::new();
        one.insert(HOST, HeaderValue::from_static("127.0.0.1:8080"));
        assert!(admit("http", local, &books, &hyper::Method::GET, &one).is_ok());
        let elsewhere: hyper::Uri = "http://evil.example/sandbox/console/books".parse().unwrap();
        let refused = admit("http", local, &elsewhere, &hyper::Method::GET, &one).unwrap_err();
        assert_eq!(refused.0, StatusCode::FORBIDDEN);
    }
}
