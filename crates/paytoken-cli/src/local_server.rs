//! The HTTP/1.1 servers the command runs on this machine (`listen`'s notification
//! endpoint, `record`'s proxy): bound with a clear error, bounded in connections and in the
//! time a client has for a request's head, and each request handled on a task of its own,
//! so a client that hangs up cancels nothing already under way.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::report::Failure;

/// How a server is bounded.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// Connections served at once; one more is closed as soon as it is accepted.
    pub(crate) max_connections: usize,
    /// How long a client has to send a request's head.
    pub(crate) read_deadline: Duration,
    /// Whether a connection may carry more than one request.
    pub(crate) keep_alive: bool,
}

/// Listens on `addr`: the listener and the address it took (the port the system chose for
/// `:0`).
pub(crate) async fn bind(addr: SocketAddr) -> Result<(TcpListener, SocketAddr), Failure> {
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|error| Failure::failed(format!("cannot listen on {addr}: {error}")))?;
    let address = listener.local_addr().unwrap_or(addr);
    Ok((listener, address))
}

/// Serves `listener` for as long as it is polled, answering each request with `handle`'s
/// response, or with `failed` when the handler's task panicked.
pub(crate) async fn serve<H, F>(
    listener: TcpListener,
    limits: Limits,
    handle: H,
    failed: fn() -> Response<Full<Bytes>>,
) where
    H: Fn(Request<Incoming>) -> F + Send + Sync + 'static,
    F: Future<Output = Response<Full<Bytes>>> + Send + 'static,
{
    let handle = Arc::new(handle);
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        // Full: the connection is closed at once, the served ones go on.
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            continue;
        };
        let handle = Arc::clone(&handle);
        tokio::spawn(async move {
            let service = service_fn(move |request| {
                // On a task of its own: a client that hangs up drops this future, and what
                // the request started must still end.
                let handling = tokio::spawn(handle(request));
                async move { Ok::<_, Infallible>(handling.await.unwrap_or_else(|_| failed())) }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.read_deadline)
                .keep_alive(limits.keep_alive)
                .serve_connection(TokioIo::new(stream), service)
                .await;
            drop(slot);
        });
    }
}

/// A plain-text answer with `status`.
pub(crate) fn text_answer(status: u16, text: &str) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(text.to_owned())));
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain;charset=UTF-8"),
    );
    response
}
