//! The one server edge: the accept loop and HTTP/1.1 connections that the sandbox and the
//! command's local servers (`paytoken listen`, `paytoken record`) run on. It bounds the
//! connections served at once (one more is closed as soon as it is accepted, so the live
//! ones are not starved), gives a client a deadline for a request's head (and for a TLS
//! handshake), and stops by letting open connections finish for a moment, then dropping
//! them. What a request gets is the caller's service; it sees the peer's address.

use std::error::Error as StdError;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::pin;
use std::time::Duration;

use hyper::body::{Body, Incoming};
use hyper::server::conn::http1;
use hyper::service::Service;
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinSet;

/// How long open connections get to finish when the server stops.
const GRACE: Duration = Duration::from_secs(2);

/// How long the loop waits after a failed accept (out of file descriptors, say) rather
/// than spin.
const ACCEPT_PAUSE: Duration = Duration::from_millis(10);

/// What accepts TLS connections: rustls's acceptor with the feature `tls`, a type with no
/// value without it.
#[cfg(feature = "tls")]
pub type Acceptor = tokio_rustls::TlsAcceptor;
/// What accepts TLS connections: rustls's acceptor with the feature `tls`, a type with no
/// value without it.
#[cfg(not(feature = "tls"))]
pub type Acceptor = std::convert::Infallible;

/// How a server is bounded.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connections served at once; one more is closed as soon as it is accepted.
    pub max_connections: usize,
    /// How long a client has for a request's head (and a TLS handshake), and on a
    /// kept-alive connection for the next request's.
    pub head_deadline: Duration,
    /// Whether a connection may carry more than one request.
    pub keep_alive: bool,
}

/// Serves `listener` until `stop` ends, each connection answered by the service
/// `service_for` makes for its peer; over TLS when `tls` is given. Then lets open
/// connections finish for a moment, and drops what is left (a withheld answer, a long
/// stall).
pub async fn serve<M, S, B>(
    listener: TcpListener,
    limits: Limits,
    tls: Option<Acceptor>,
    stop: impl Future<Output = ()>,
    service_for: M,
) where
    M: Fn(SocketAddr) -> S,
    S: Service<Request<Incoming>, Response = Response<B>> + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<Box<dyn StdError + Send + Sync>>,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn StdError + Send + Sync>>,
{
    let (closing, closed) = watch::channel(false);
    let mut connections = JoinSet::new();
    let mut stop = pin!(stop);
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                // Every connection is held to its deadline, so the ones at the cap are
                // live: a new one is closed at once rather than starve them.
                Ok(_) if connections.len() >= limits.max_connections => {}
                Ok((stream, peer)) => {
                    let _ = stream.set_nodelay(true);
                    let service = service_for(peer);
                    let closed = closed.clone();
                    match &tls {
                        None => connections.spawn(connection(stream, service, limits, closed)),
                        #[cfg(feature = "tls")]
                        Some(acceptor) => {
                            let handshake = acceptor.accept(stream);
                            connections.spawn(async move {
                                // A failed handshake is the client's problem: no request,
                                // no answer.
                                let shaken = tokio::time::timeout(limits.head_deadline, handshake);
                                if let Ok(Ok(stream)) = shaken.await {
                                    connection(stream, service, limits, closed).await;
                                }
                            })
                        }
                        #[cfg(not(feature = "tls"))]
                        Some(never) => match *never {},
                    };
                }
                Err(_) => tokio::time::sleep(ACCEPT_PAUSE).await,
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            () = stop.as_mut() => break,
        }
    }
    drop(listener);
    let _ = closing.send(true);
    let _ = tokio::time::timeout(GRACE, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    // Dropping the set aborts what is left.
}

/// One connection, served until it ends, or shut down gracefully once the server stops.
async fn connection<I, S, B>(io: I, service: S, limits: Limits, mut closed: watch::Receiver<bool>)
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    S: Service<Request<Incoming>, Response = Response<B>> + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<Box<dyn StdError + Send + Sync>>,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn StdError + Send + Sync>>,
{
    let mut served = pin!(
        http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(limits.head_deadline)
            .keep_alive(limits.keep_alive)
            .serve_connection(TokioIo::new(io), service)
    );
    let mut closing = false;
    loop {
        tokio::select! {
            _ = served.as_mut() => break,
            _ = closed.changed(), if !closing => {
                closing = true;
                served.as_mut().graceful_shutdown();
            }
        }
    }
}
