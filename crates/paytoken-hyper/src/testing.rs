//! An in-memory transport for unit tests: no sockets, answers from a function of the
//! test's, and every request kept for the test to read back.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use paytoken_checksum::{Credentials, SecureKey};
//! use paytoken_hyper::Client;
//! use paytoken_hyper::testing::FakeTransport;
//! use paytoken_protocol::ops::delete_token::DeleteToken;
//!
//! let fake = FakeTransport::answering(200, r#"{"registrationId":"8a82944a4cc25ebf014cc2c782423202",
//!     "result":{"code":"00003","description":"Registration deleted"}}"#);
//! let client = Client::builder()
//!     .base_url("https://gateway.test")
//!     .credentials(Credentials::merchant("11344".parse()?, SecureKey::new("key")?))
//!     .build_with_transport(fake)?;
//!
//! let deleted = client.delete_token(&DeleteToken::new("8a82944a4cc25ebf014cc2c782423202".parse()?)).await?;
//! assert_eq!(deleted.result.code.as_str(), "00003");
//! let sent = client.transport().sent();
//! assert_eq!(sent.len(), 1);
//! assert!(sent[0].path().ends_with("/paywithtoken/8a82944a4cc25ebf014cc2c782423202"));
//! # Ok(()) }
//! ```

use std::fmt;
use std::sync::{Mutex, PoisonError};

use bytes::Bytes;
use paytoken_protocol::Request;

use crate::{Transport, TransportError, TransportRequest, TransportResponse};

type Handler = dyn Fn(&Request) -> Result<TransportResponse, TransportError> + Send + Sync;

/// A [`Transport`] that answers from a function and remembers what it was sent.
///
/// The requests it keeps hold what was sent, card numbers included, as every [`Request`]
/// does: their `Debug` hides the body and the auth token, and they are wiped when dropped.
pub struct FakeTransport {
    handler: Box<Handler>,
    sent: Mutex<Vec<Request>>,
}

impl FakeTransport {
    /// Answers each request with what `handler` returns for it: an answer, or a transport
    /// error (a [`Connect`](crate::TransportErrorKind::Connect) error, say, to see a retry).
    pub fn new(
        handler: impl Fn(&Request) -> Result<TransportResponse, TransportError> + Send + Sync + 'static,
    ) -> Self {
        Self {
            handler: Box::new(handler),
            sent: Mutex::new(Vec::new()),
        }
    }

    /// Answers every request with `status` and `body`.
    pub fn answering(status: u16, body: impl Into<Bytes>) -> Self {
        let body = body.into();
        Self::new(move |_| {
            Ok(TransportResponse {
                status,
                body: body.clone(),
            })
        })
    }

    /// Every request sent so far, in order.
    #[must_use]
    pub fn sent(&self) -> Vec<Request> {
        self.sent
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl fmt::Debug for FakeTransport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sent = self.sent.lock().map_or(0, |sent| sent.len());
        f.debug_struct("FakeTransport")
            .field("sent", &sent)
            .finish_non_exhaustive()
    }
}

impl Transport for FakeTransport {
    async fn send(
        &self,
        exchange: TransportRequest<'_>,
    ) -> Result<TransportResponse, TransportError> {
        // A panic in a handler while the lock is held cannot leave the list half-pushed.
        self.sent
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(exchange.request.clone());
        (self.handler)(exchange.request)
    }
}
