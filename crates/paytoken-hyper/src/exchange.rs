//! One request on the wire: sent, timed out, and sent again where the retry policy and
//! the request's own safety allow.

use paytoken_protocol::Request;
use tracing::Instrument as _;

use crate::span::CallLog;
use crate::{
    Client, Error, Transport, TransportError, TransportErrorKind, TransportRequest,
    TransportResponse,
};

impl<T: Transport> Client<T> {
    /// Sends `request` until it gets an answer, or the policy allows no other attempt:
    /// every request after a connection that never opened, reads also after a broken
    /// connection or a `5xx` status.
    pub(crate) async fn exchange(
        &self,
        request: &Request,
        log: &CallLog,
    ) -> Result<TransportResponse, Error> {
        let inner = &*self.inner;
        let max_attempts = inner.retry.max_attempts.max(1);
        let mut attempt = 1;
        loop {
            let span = log.attempt(request, &inner.base_url);
            let sending = inner.transport.send(TransportRequest {
                base_url: &inner.base_url,
                request,
                body_limit: inner.body_limit,
            });
            // The attempt's future, and with it its connection, is dropped here, before
            // any pause.
            let result = tokio::time::timeout(inner.request_timeout, sending)
                .instrument(span.span().clone())
                .await
                .unwrap_or_else(|_| {
                    Err(TransportError::new(TransportErrorKind::Timeout {
                        after: inner.request_timeout,
                    }))
                });
            span.finish(&result);
            let again = match &result {
                Ok(answer) => request.is_retry_safe() && (500..=599).contains(&answer.status),
                Err(error) => match error.kind() {
                    TransportErrorKind::Connect => true,
                    TransportErrorKind::Broken => request.is_retry_safe(),
                    _ => false,
                },
            };
            if !again || attempt >= max_attempts {
                return result.map_err(|source| Error::Transport {
                    operation: request.operation(),
                    attempts: attempt,
                    source,
                });
            }
            let pause = inner.retry.backoff(attempt, inner.randomness.next_u64());
            match &result {
                Ok(answer) => {
                    tracing::debug!(target: "paytoken", attempt, status = answer.status, pause_ms = pause.as_millis(), "server error; sending again")
                }
                Err(error) => {
                    tracing::debug!(target: "paytoken", attempt, error = %error.kind(), pause_ms = pause.as_millis(), "transport error; sending again")
                }
            }
            tokio::time::sleep(pause).await;
            attempt += 1;
        }
    }
}
