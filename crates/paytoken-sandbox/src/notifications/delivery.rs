//! Delivering one notification: attempts until a `2xx` answer, a refusal, or the policy's
//! last attempt, each attempt written to the log.

use std::net::SocketAddr;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::Full;
use hyper::Request;
use hyper::header::{CONTENT_TYPE, HOST, USER_AGENT};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use super::log::{Attempt, NotificationLog};
use super::target::{self, Unreachable};
use super::{DELIVERY_MARK, Message, NotificationPolicy, NotificationTargets};
use crate::clock::SandboxClock;
use crate::faults::NotificationFault;

/// How a delivery waits: the policy's waits, on the sandbox's clock; `notify=late`'s only
/// on its first delivery.
pub(crate) struct Schedule {
    pub(crate) policy: NotificationPolicy,
    pub(crate) waits_late: bool,
    pub(crate) clock: Arc<SandboxClock>,
    /// Where the sandbox listens: never a delivery's target.
    pub(crate) sandbox: SocketAddr,
}

/// Sends notification `number` as its schedule says, at least once unless its URL is
/// refused; its waits (`notify=late`, between attempts) run on the sandbox's clock, so an
/// advance ends them. Gives its number back when done.
pub(crate) async fn deliver(
    number: u64,
    message: Message,
    schedule: Schedule,
    log: Arc<NotificationLog>,
) -> u64 {
    let Schedule {
        policy,
        waits_late,
        clock,
        sandbox,
    } = schedule;
    if waits_late && message.fault == Some(NotificationFault::Late) {
        clock.wait(policy.late_by).await;
    }
    for attempt in 1..=policy.attempts.max(1) {
        if attempt > 1 {
            clock.wait(policy.wait_before(attempt)).await;
        }
        let outcome = tokio::time::timeout(
            policy.attempt_timeout,
            attempt_once(&message, policy.targets, sandbox),
        )
        .await
        .unwrap_or_else(|_| Attempt::Failed("no answer within the attempt's time".to_owned()));
        let done = matches!(outcome, Attempt::Answered(200..=299) | Attempt::NotSent(_));
        log.attempted(number, outcome);
        if done {
            break;
        }
    }
    number
}

/// One `POST` of the notification, never to the sandbox listening at `sandbox`.
async fn attempt_once(
    message: &Message,
    targets: NotificationTargets,
    sandbox: SocketAddr,
) -> Attempt {
    let target = match target::resolve(&message.url, targets, sandbox).await {
        Ok(target) => target,
        Err(Unreachable::Refused(reason)) => return Attempt::NotSent(reason),
        Err(Unreachable::Unresolved(reason)) => return Attempt::Failed(reason),
    };
    let stream = match connect(&target.addresses).await {
        Ok(stream) => stream,
        Err(error) => {
            return Attempt::Failed(format!("cannot connect to {}: {error}", target.authority));
        }
    };
    // An address of this machine that no name above gave away (its own address on a
    // network, for a sandbox on `0.0.0.0`) shows once connected: the kernel answers it
    // from itself. Nothing has been sent yet.
    if target::is_own(&stream, sandbox) {
        return Attempt::NotSent(target::OWN_PORT.to_owned());
    }
    let (mut sender, connection) =
        match hyper::client::conn::http1::handshake(TokioIo::new(stream)).await {
            Ok(handshake) => handshake,
            Err(error) => return Attempt::Failed(format!("http: {error}")),
        };
    let driving = tokio::spawn(connection);
    let request = Request::post(target.path.as_str())
        .header(HOST, target.authority.as_str())
        .header(CONTENT_TYPE, "application/json")
        .header(USER_AGENT, "paytoken-sandbox")
        .header(DELIVERY_MARK, "notification")
        .body(Full::new(Bytes::from(message.body.clone())));
    let outcome = match request {
        // A path and a host that `Uri` read are valid in a request; this is a safeguard.
        Err(error) => Attempt::NotSent(format!("cannot build the request: {error}")),
        Ok(request) => match sender.send_request(request).await {
            Ok(response) => Attempt::Answered(response.status().as_u16()),
            Err(error) => Attempt::Failed(format!("http: {error}")),
        },
    };
    driving.abort();
    outcome
}

/// The first of `addresses` that accepts a connection.
async fn connect(addresses: &[SocketAddr]) -> std::io::Result<TcpStream> {
    let mut last = std::io::Error::other("no address");
    for address in addresses {
        match TcpStream::connect(address).await {
            Ok(stream) => return Ok(stream),
            Err(error) => last = error,
        }
    }
    Err(last)
}
