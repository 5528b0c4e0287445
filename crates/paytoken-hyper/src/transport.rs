//! The seam between the client and an HTTP stack.

use core::future::Future;

use bytes::Bytes;
use paytoken_protocol::{BaseUrl, Request};

use crate::TransportError;

/// Sends one request and reads its answer: what the [`Client`](crate::Client) needs of an
/// HTTP stack. [`HyperTransport`](crate::HyperTransport) is the default; bring another
/// stack, or `testing::FakeTransport` (feature `testing`) in unit tests.
///
/// The client does the rest around it: the whole-request timeout, retries, auth tokens,
/// parsing and tracing. A transport only has to:
/// - send `request.method()` to `base_url` + `request.path()` with every header of
///   `request.headers()` (keeping those marked [sensitive](paytoken_protocol::Header::is_sensitive)
///   out of its logs) and the body, and not follow redirects;
/// - read at most `body_limit` bytes of the answer, and fail with
///   [`ResponseTooLarge`](crate::TransportErrorKind::ResponseTooLarge) beyond;
/// - report a connection that never opened as [`Connect`](crate::TransportErrorKind::Connect)
///   and nothing else as it: the client sends even a payment again after a `Connect` error,
///   since nothing of it left.
pub trait Transport: Send + Sync + 'static {
    /// Sends the request and reads the answer.
    fn send(
        &self,
        request: TransportRequest<'_>,
    ) -> impl Future<Output = Result<TransportResponse, TransportError>> + Send;
}

/// What to send.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct TransportRequest<'a> {
    /// The gateway's base URL.
    pub base_url: &'a BaseUrl,
    /// The signed request (path, headers, body); its `Debug` hides the body and the token.
    pub request: &'a Request,
    /// The most bytes of answer body to read.
    pub body_limit: usize,
}

/// What came back: any status (the protocol layer judges it) and the whole body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransportResponse {
    /// The HTTP status.
    pub status: u16,
    /// The body, at most the limit long.
    pub body: Bytes,
}
