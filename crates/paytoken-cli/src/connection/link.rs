//! The gateway's one connection ([`Upstream`]) as the client's transport: what `doctor`
//! calls the gateway through, so that its calls take the client's path (signing, the auth
//! token, the answer read and its echoes checked) on the connection whose opening it
//! checked step by step. The last exchange (its `Date`, its time, its body) is kept for the
//! checks.

use std::sync::{Arc, Mutex, PoisonError};

use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{HeaderValue, USER_AGENT};
use paytoken::{
    Transport, TransportError, TransportErrorKind, TransportRequest, TransportResponse,
};

use super::{Exchanged, SendError, Upstream};

/// [`Upstream`] shared as a [`Transport`].
#[derive(Clone)]
pub(crate) struct Link {
    upstream: Arc<tokio::sync::Mutex<Upstream>>,
    user_agent: &'static str,
    last: Arc<Mutex<Option<Exchanged>>>,
}

impl Link {
    /// The client's transport over `upstream`, its requests sent with `user_agent`.
    pub(crate) fn new(upstream: Upstream, user_agent: &'static str) -> Self {
        Self {
            upstream: Arc::new(tokio::sync::Mutex::new(upstream)),
            user_agent,
            last: Arc::default(),
        }
    }

    /// The last exchange, if one was made since the last time it was taken.
    pub(crate) fn take_last(&self) -> Option<Exchanged> {
        self.last
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }
}

impl Transport for Link {
    async fn send(
        &self,
        exchange: TransportRequest<'_>,
    ) -> Result<TransportResponse, TransportError> {
        let http = exchange
            .request
            .to_http(exchange.base_url)
            .map_err(|error| TransportError::with_source(TransportErrorKind::Other, error))?;
        let (mut parts, body) = http.into_parts();
        parts
            .headers
            .insert(USER_AGENT, HeaderValue::from_static(self.user_agent));
        // The body's owner goes along: its bytes are wiped when the request is dropped.
        let request = hyper::Request::from_parts(parts, Full::new(Bytes::from_owner(body)));
        let exchanged = self
            .upstream
            .lock()
            .await
            .send_http(request, exchange.body_limit)
            .await
            .map_err(|error| {
                let kind = match error {
                    // Nothing of the request left: the client may send it again.
                    SendError::Connect(_) => TransportErrorKind::Connect,
                    SendError::Exchange(_) => TransportErrorKind::Broken,
                };
                TransportError::with_source(kind, error)
            })?;
        let response = TransportResponse {
            status: exchanged.status,
            body: exchanged.body.clone(),
        };
        *self.last.lock().unwrap_or_else(PoisonError::into_inner) = Some(exchanged);
        Ok(response)
    }
}
