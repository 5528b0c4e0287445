//! The HTTP/1.1 servers the command runs on this machine (`listen`'s notification
//! endpoint, `record`'s proxy), on the sandbox's one server edge: bound with a clear
//! error, bounded in connections and in the time a client has for a request's head, and
//! each request handled on a task of its own, so a client that hangs up cancels nothing
//! already under way.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use paytoken_sandbox::internal::edge;
use tokio::net::TcpListener;

use edge::Limits;

use crate::report::Failure;

/// Listens on `addr`: the listener and the address it took (the port the system chose for
/// `:0`).
pub(crate) async fn bind(addr: SocketAddr) -> Result<(TcpListener, SocketAddr), Failure> {
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|error| Failure::failed(format!("cannot listen on {addr}: {error}")))?;
    let address = listener.local_addr().unwrap_or(addr);
    Ok((listener, address))
}

/// Serves `listener` on the one server edge for as long as it is polled, answering each
/// request with `handle`'s response, or with `failed` when the handler's task panicked.
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
    let service_for = move |_peer| {
        let handle = Arc::clone(&handle);
        service_fn(move |request| {
            // On a task of its own: a client that hangs up drops this future, and what the
            // request started must still end.
            let handling = tokio::spawn(handle(request));
            async move { Ok::<_, Infallible>(handling.await.unwrap_or_else(|_| failed())) }
        })
    };
    edge::serve(listener, limits, None, std::future::pending(), service_for).await;
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
