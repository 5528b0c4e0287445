//! `paytoken listen --forward-to`'s relay in the caller's process (feature `simulation`):
//! the receiver the command serves, verifying, claiming and relaying each notification,
//! with its target a function of the caller's instead of an HTTP endpoint. For a
//! simulation that delivers notifications itself; the command is
//! [`main`](crate::main).
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), paytoken::checksum::Error> {
//! use std::time::Duration;
//! use paytoken::SecureKey;
//! use paytoken_cli::simulation::Relay;
//!
//! let relay = Relay::new(SecureKey::new("key")?, Duration::from_secs(3), |_body| async {
//!     Ok(200)
//! });
//! // Not a notification: rejected, nothing relayed.
//! assert_eq!(relay.receive(b"{}", Some("application/json")).await, (400, "rejected"));
//! # Ok(()) }
//! ```

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use bytes::Bytes;
use hyper::header::HeaderValue;
use paytoken::SecureKey;

use crate::listen::{self, Forward, Receiver, RelayTarget};

/// The relay of `paytoken listen --forward-to`, answering in the caller's process.
pub struct Relay {
    receiver: Receiver,
}

impl std::fmt::Debug for Relay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Relay")
    }
}

/// A target that is a function of the body.
struct Function<F>(F);

impl<F, Fut> RelayTarget for Function<F>
where
    F: Fn(Bytes) -> Fut + Send + Sync,
    Fut: Future<Output = Result<u16, String>> + Send + 'static,
{
    fn post(
        &self,
        body: Bytes,
        _content_type: Option<HeaderValue>,
        timeout: Duration,
    ) -> Pin<Box<dyn Future<Output = Result<u16, String>> + Send + '_>> {
        let posting = (self.0)(body);
        Box::pin(async move {
            tokio::time::timeout(timeout, posting)
                .await
                .unwrap_or_else(|_| Err(format!("no answer within {timeout:?}")))
        })
    }
}

impl Relay {
    /// A relay verifying with `key` and relaying each new notification to `target`, which
    /// gives the target's `2xx` status or why it did not take it, within `timeout`.
    pub fn new<F, Fut>(key: SecureKey, timeout: Duration, target: F) -> Self
    where
        F: Fn(Bytes) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<u16, String>> + Send + 'static,
    {
        let forward = Forward {
            url: "simulated".to_owned(),
            target: Box::new(Function(target)),
            timeout,
        };
        Self {
            receiver: Receiver::new(key, Some(forward)),
        }
    }

    /// Plants a defect: a notification is marked done when claimed, before its target
    /// took it, so that the gateway's retry of a failed relay passes for a duplicate.
    #[must_use]
    pub fn with_done_before_relaying(mut self) -> Self {
        self.receiver.done_before_relaying = true;
        self
    }

    /// Handles one delivery of `body` (of `content_type`) as `paytoken listen` does: the
    /// status it answers the gateway (200 taken or a duplicate, 502 the relay failed, 503
    /// a relay of it under way, 400 rejected) and the verdict's word, as the command
    /// prints it (`verified`, `duplicate`, `in_flight`, `relay_failed`, `rejected`).
    pub async fn receive(&self, body: &[u8], content_type: Option<&str>) -> (u16, &'static str) {
        let content_type = content_type.and_then(|text| HeaderValue::from_str(text).ok());
        let verdict =
            listen::judge(&self.receiver, Bytes::copy_from_slice(body), content_type).await;
        (verdict.http_status(), verdict.word())
    }
}
