//! `paytoken listen`: a merchant's notification endpoint for development. It receives the
//! gateway's notifications (and the browser's return from 3-D Secure, a form), verifies
//! each with the secure key, prints one block per notification (`--json`: one object a
//! line), answers the gateway, and relays each verified one once to `--forward-to`.
//!
//! A notification is *settled* once it verified and, with `--forward-to`, the merchant's
//! endpoint took it (a `2xx`); only a settled one counts as seen, so the gateway is told to
//! send any other again (the verdicts and their statuses: docs/COMMAND.md, "Notifications";
//! [`Verdict`]). Each notification is handled on a task of its own: a gateway that hangs up
//! early cancels nothing, and the relay's outcome is printed and remembered either way.
//! Everything read is bounded: the body, the time to send it, the connections at once
//! ([`limits`]), the notifications remembered for duplicates ([`REMEMBERED`]).

pub(crate) mod endpoint;
mod verdict;

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderValue, RETRY_AFTER};
use hyper::{Method, Request, Response};
use paytoken::SecureKey;
use paytoken::protocol::notification::{
    Claim, DuplicateFilter, DuplicateKey, Fence, VerifiedNotification,
};
use serde_json::{Value, json};
use tokio::net::TcpListener;

use self::endpoint::Endpoint;
use self::verdict::{Rejection, Relay, Verdict};
use crate::cli::{GatewayArgs, ListenArgs};
use crate::config;
use crate::limits;
use crate::local_server::{self, text_answer};
use crate::report::{Exit, Failure, Report};
use crate::settings::Settings;
use crate::terminal;

/// Notifications remembered to tell a duplicate.
const REMEMBERED: usize = 10_000;

/// What every connection shares: the key, the notifications acted on and being relayed,
/// where to relay.
pub(crate) struct Receiver {
    key: SecureKey,
    seen: Mutex<DuplicateFilter>,
    /// Where the claims' timeline starts.
    since: tokio::time::Instant,
    forward: Option<Forward>,
    /// A defect a simulation plants: a notification marked done when it is claimed,
    /// before its target took it. Only with the `simulation` feature.
    #[cfg(feature = "simulation")]
    pub(crate) done_before_relaying: bool,
}

/// Where verified notifications are relayed, and how long a relay may take.
pub(crate) struct Forward {
    /// The target as `--forward-to` named it.
    pub(crate) url: String,
    pub(crate) target: Box<dyn RelayTarget>,
    pub(crate) timeout: Duration,
}

/// What a relay posts to: the merchant's endpoint ([`Endpoint`]), or a simulation's.
pub(crate) trait RelayTarget: Send + Sync {
    /// Posts `body` with `content_type` within `timeout`: the target's `2xx` status, or
    /// why not.
    fn post(
        &self,
        body: Bytes,
        content_type: Option<HeaderValue>,
        timeout: Duration,
    ) -> Pin<Box<dyn Future<Output = Result<u16, String>> + Send + '_>>;
}

impl RelayTarget for Endpoint {
    fn post(
        &self,
        body: Bytes,
        content_type: Option<HeaderValue>,
        timeout: Duration,
    ) -> Pin<Box<dyn Future<Output = Result<u16, String>> + Send + '_>> {
        Box::pin(Self::post(self, body, content_type, timeout))
    }
}

impl Receiver {
    /// A receiver verifying with `key`, relaying verified notifications to `forward`.
    pub(crate) fn new(key: SecureKey, forward: Option<Forward>) -> Self {
        Self {
            key,
            seen: Mutex::new(DuplicateFilter::new(REMEMBERED)),
            since: tokio::time::Instant::now(),
            forward,
            #[cfg(feature = "simulation")]
            done_before_relaying: false,
        }
    }

    /// Whether a claim is marked done before its relay: a defect a simulation plants;
    /// never without the `simulation` feature.
    const fn marks_done_before_relaying(&self) -> bool {
        #[cfg(feature = "simulation")]
        return self.done_before_relaying;
        #[cfg(not(feature = "simulation"))]
        false
    }

    fn seen(&self) -> std::sync::MutexGuard<'_, DuplicateFilter> {
        self.seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// What this receiver may do with `notification`; with nowhere to relay it, a claimed
    /// one is settled at once, or it stays claimed until its [`Relaying`] ends (which the
    /// lease, twice the relay's timeout, outlasts).
    fn claim(&self, notification: &VerifiedNotification) -> Claim {
        let mut seen = self.seen();
        let key = notification.duplicate_key();
        let lease = self
            .forward
            .as_ref()
            .map_or(Duration::ZERO, |forward| forward.timeout.saturating_mul(2));
        let claim = seen.claim(&key, self.since.elapsed(), lease);
        if let Claim::Claimed(fence) = claim
            && (self.forward.is_none() || self.marks_done_before_relaying())
        {
            seen.done(&key, fence);
        }
        claim
    }
}

/// A relay under way. However it ends, its claim ends: done once
/// [`taken`](Self::taken) was called, released otherwise, so that the gateway's retry is
/// relayed.
struct Relaying<'a> {
    receiver: &'a Receiver,
    key: DuplicateKey,
    fence: Fence,
    taken: bool,
}

impl Relaying<'_> {
    fn taken(mut self) {
        self.taken = true;
    }
}

impl Drop for Relaying<'_> {
    fn drop(&mut self) {
        let mut seen = self.receiver.seen();
        if self.taken {
            seen.done(&self.key, self.fence);
        } else {
            seen.release(&self.key, self.fence);
        }
    }
}

/// Runs until Ctrl-C.
pub(crate) async fn run(
    args: &ListenArgs,
    gateway: &GatewayArgs,
    json: bool,
) -> Result<Report, Failure> {
    let key = config::secure_key(&Settings::resolve(gateway)?.secure_key)?;
    let forward = args
        .forward_to
        .as_deref()
        .map(|url| Endpoint::parse("--forward-to", url))
        .transpose()
        .map_err(Failure::usage)?
        .map(|endpoint| Forward {
            url: endpoint.url.clone(),
            target: Box::new(endpoint),
            timeout: args.relay_timeout,
        });
    let (listener, address) = local_server::bind(args.addr).await?;
    if let Err(unwritten) = announce(address, forward.as_ref(), json) {
        return Ok(unwritten.into());
    }
    let receiver = Arc::new(Receiver::new(key, forward));
    let print = move |printed: Value| {
        let text = if json {
            terminal::json(&printed) + "\n"
        } else {
            verdict::block(&printed)
        };
        // An output that fails ends nothing: the gateway is still answered. A cut one is
        // said on stderr.
        if let Err(terminal::Unwritten::Failed(error)) = terminal::out(&text) {
            terminal::err_line(&format!(
                "paytoken listen: cannot write to standard output: {error}"
            ));
        }
    };
    tokio::select! {
        () = serve(listener, receiver, print) => {}
        _ = tokio::signal::ctrl_c() => {}
    }
    Ok(Report::quiet(Exit::Success))
}

/// Serves notifications on `listener` for as long as it is polled, handing each printed
/// verdict to `print`: `paytoken listen`'s loop, and the demo's receiver.
pub(crate) async fn serve(
    listener: TcpListener,
    receiver: Arc<Receiver>,
    print: impl Fn(Value) + Send + Sync + 'static,
) {
    let print = Arc::new(print);
    let handle = move |request| {
        let receiver = Arc::clone(&receiver);
        let print = Arc::clone(&print);
        // The relay must end, be printed, and be remembered or forgotten, even when the
        // gateway hangs up: `local_server` runs this on a task of its own.
        async move {
            let (response, printed) = receive(&receiver, request).await;
            if let Some(printed) = printed {
                print(printed);
            }
            response
        }
    };
    local_server::serve(listener, limits::LISTEN, handle, || {
        text_answer(500, "the notification's handler failed\n")
    })
    .await;
}

/// The first line: where to send notifications.
fn announce(
    address: SocketAddr,
    forward: Option<&Forward>,
    json: bool,
) -> Result<(), terminal::Unwritten> {
    let url = format!("http://{address}/");
    if json {
        let line = json!({
            "operation": "listen",
            "outcome": "ok",
            "listening": url,
            "forwardTo": forward.map(|f| f.url.as_str()),
        });
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
        return (text_answer(405, "a notification is a POST\n"), None);
    }
    let content_type = request.headers().get(CONTENT_TYPE).cloned();
    let reading = Limited::new(request.into_body(), limits::NOTIFICATION_BYTES).collect();
    let body = match tokio::time::timeout(limits::NOTIFICATION_DEADLINE, reading).await {
        Ok(Ok(body)) => body.to_bytes(),
        Ok(Err(_)) => {
            let rejected = Verdict::Rejected(Rejection::unread(format!(
                "body broken or larger than {} bytes",
                limits::NOTIFICATION_BYTES
            )));
            let response = text_answer(413, "rejected: body too large or broken\n");
            return (response, Some(rejected.to_json()));
        }
        Err(_) => {
            return (
                text_answer(408, "rejected: body not received in time\n"),
                None,
            );
        }
    };
    let verdict = judge(receiver, body, content_type).await;
    let mut response = text_answer(verdict.http_status(), &verdict.answer_text());
    if matches!(verdict, Verdict::InFlight(_)) {
        response
            .headers_mut()
            .insert(RETRY_AFTER, HeaderValue::from_static("1"));
    }
    (response, Some(verdict.to_json()))
}

/// Verifies `body`, and relays it when it is new and there is somewhere to relay it: the
/// body as it came, which is the one verified (a body with two readings of a signed field
/// does not verify).
pub(crate) async fn judge(
    receiver: &Receiver,
    body: Bytes,
    content_type: Option<HeaderValue>,
) -> Verdict {
    let media = content_type.as_ref().and_then(|value| value.to_str().ok());
    let notification = match verdict::verify(&body, media, &receiver.key) {
        Ok(notification) => notification,
        Err(rejection) => return Verdict::Rejected(rejection),
    };
    let fence = match receiver.claim(&notification) {
        Claim::Claimed(fence) => fence,
        Claim::Done => return Verdict::Duplicate(notification),
        _ => return Verdict::InFlight(notification),
    };
    let Some(forward) = &receiver.forward else {
        return Verdict::Verified(notification, None);
    };
    let relaying = Relaying {
        receiver,
        key: notification.duplicate_key(),
        fence,
        taken: false,
    };
    let relay = Relay {
        to: forward.url.clone(),
        result: forward
            .target
            .post(body, content_type, forward.timeout)
            .await,
    };
    if relay.result.is_ok() {
        relaying.taken();
        Verdict::Verified(notification, Some(relay))
    } else {
        drop(relaying);
        Verdict::RelayFailed(notification, relay)
    }
}
