//! One HTTP connection opened by hand, beside the pooled transport, for the command's tools
//! that must see each step (`paytoken doctor`, `paytoken record`'s upstream) or post once to
//! a local endpoint (`listen`'s relay, the console, the demo's 3-D Secure page): the one
//! place a hyper client handshake is made, HTTP/2 when ALPN chose it and HTTP/1.1
//! otherwise. And the one TLS configuration ([`tls_config`]) that the transport and those
//! tools trust a server by.

use std::sync::Arc;

use bytes::Bytes;
use http::HeaderMap;
use http::header::{HOST, HeaderValue};
use http_body_util::{BodyExt as _, Full, Limited};
use hyper::client::conn::{http1, http2};
use hyper_util::rt::{TokioExecutor, TokioIo};
use rustls::pki_types::CertificateDer;
use tokio::io::{AsyncRead, AsyncWrite};

use crate::Error;

/// What a connection opened by hand offers by ALPN: HTTP/2, then HTTP/1.1, as the
/// transport's connector offers them with HTTP/2 on.
pub const ALPN: [&[u8]; 2] = [b"h2", b"http/1.1"];

/// rustls with the ring provider, its safe protocol versions, the webpki roots (unless
/// `built_in_roots` is off) and the caller's own (DER). ALPN is left empty, for the
/// connector to set ([`ALPN`] for a connection opened by hand).
///
/// # Errors
/// [`Error::Config`] when a root is not a certificate rustls accepts.
pub fn tls_config(
    extra_roots: &[Vec<u8>],
    built_in_roots: bool,
) -> Result<rustls::ClientConfig, Error> {
    let mut roots = rustls::RootCertStore::empty();
    if built_in_roots {
        roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    }
    for der in extra_roots {
        roots
            .add(CertificateDer::from(der.clone()))
            .map_err(|_| Error::Config {
                setting: "add_root_certificate",
                reason: "is not a DER-encoded X.509 certificate rustls accepts",
            })?;
    }
    let config = rustls::ClientConfig::builder_with_provider(tls_provider())
        .with_safe_default_protocol_versions()
        .map_err(|_| Error::Config {
            setting: "tls",
            reason: "the TLS provider offers no safe protocol version",
        })?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(config)
}

/// The certificates (DER) of a PEM text's `CERTIFICATE` blocks; other blocks are passed
/// over.
///
/// # Errors
/// Why not: a block that does not decode, or no certificate at all.
pub fn certificates_from_pem(pem: &[u8]) -> Result<Vec<Vec<u8>>, &'static str> {
    use rustls::pki_types::pem::PemObject as _;
    let certificates: Vec<Vec<u8>> = CertificateDer::pem_slice_iter(pem)
        .map(|certificate| certificate.map(|der| der.as_ref().to_vec()))
        .collect::<Result<_, _>>()
        .map_err(|_| "is not PEM: a block does not decode")?;
    if certificates.is_empty() {
        return Err("holds no certificate (-----BEGIN CERTIFICATE-----)");
    }
    Ok(certificates)
}

/// The sending half of an HTTP/1.1 or HTTP/2 connection; the other half runs on a task of
/// its own until both ends are done.
#[derive(Debug)]
pub enum Connection {
    /// HTTP/1.1.
    One(http1::SendRequest<Full<Bytes>>),
    /// HTTP/2.
    Two(http2::SendRequest<Full<Bytes>>),
}

/// An answer as it came: its status, headers and body.
#[derive(Clone)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The headers.
    pub headers: HeaderMap,
    /// The body, at most the limit asked for; empty when none was asked for.
    pub body: Bytes,
}

impl std::fmt::Debug for Answer {
    /// Without the headers and the body: an auth-token answer holds a token.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Answer")
            .field("status", &self.status)
            .field("body_bytes", &self.body.len())
            .finish_non_exhaustive()
    }
}

/// Why an exchange failed: before the request left (it is handed back, to go again on
/// another connection), or after.
#[derive(Debug)]
pub enum Unsent {
    /// The connection was closed before the request left.
    Yes(Box<http::Request<Full<Bytes>>>),
    /// What went wrong after.
    No(String),
}

/// The HTTP handshake over `io`: HTTP/2 when `two` (ALPN chose it), HTTP/1.1 otherwise.
///
/// # Errors
/// hyper's, when the handshake fails.
pub async fn handshake<T>(io: T, two: bool) -> Result<Connection, hyper::Error>
where
    T: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    if two {
        let (sender, connection) = http2::handshake(TokioExecutor::new(), TokioIo::new(io)).await?;
        tokio::spawn(connection);
        Ok(Connection::Two(sender))
    } else {
        let (sender, connection) = http1::handshake(TokioIo::new(io)).await?;
        tokio::spawn(connection);
        Ok(Connection::One(sender))
    }
}

impl Connection {
    /// Whether the other end closed it.
    #[must_use]
    pub fn is_closed(&self) -> bool {
        match self {
            Self::One(sender) => sender.is_closed(),
            Self::Two(sender) => sender.is_closed(),
        }
    }

    /// Sends `request` and reads the answer, its body up to `limit` bytes when a limit is
    /// given (none is read otherwise). An absolute URI is sent as HTTP/1.1 wants it: its
    /// path, and its authority as `Host`.
    ///
    /// # Errors
    /// [`Unsent::Yes`] with the request when the connection closed before it left,
    /// [`Unsent::No`] when the exchange failed after, or the body was larger than `limit`.
    pub async fn exchange(
        &mut self,
        request: http::Request<Full<Bytes>>,
        limit: Option<usize>,
    ) -> Result<Answer, Unsent> {
        let (mut parts, body) = request.into_parts();
        let failed = |error: hyper::Error| Unsent::No(format!("the exchange failed: {error}"));
        let response = match self {
            Self::One(sender) => {
                // HTTP/1.1 takes the path and a `Host`; HTTP/2 the whole URI.
                if let Some(authority) = parts.uri.authority() {
                    let host = HeaderValue::from_str(authority.as_str()).map_err(|_| {
                        Unsent::No("the base URL's host cannot be a Host header".to_owned())
                    })?;
                    parts.headers.insert(HOST, host);
                }
                if let Some(path) = parts.uri.path_and_query() {
                    parts.uri = path
                        .as_str()
                        .parse()
                        .map_err(|_| Unsent::No("the request's path is not a URI".to_owned()))?;
                }
                let request = http::Request::from_parts(parts, body);
                if sender.ready().await.is_err() {
                    return Err(Unsent::Yes(Box::new(request)));
                }
                sender.try_send_request(request).await
            }
            Self::Two(sender) => {
                let request = http::Request::from_parts(parts, body);
                if sender.ready().await.is_err() {
                    return Err(Unsent::Yes(Box::new(request)));
                }
                sender.try_send_request(request).await
            }
        };
        let response = match response {
            Ok(response) => response,
            // The server closed the connection before the request left: it may go again.
            Err(mut error) => {
                return Err(match error.take_message() {
                    Some(request) => Unsent::Yes(Box::new(request)),
                    None => failed(error.into_error()),
                });
            }
        };
        let status = response.status().as_u16();
        let (parts, body) = response.into_parts();
        let body = match limit {
            None => Bytes::new(),
            Some(limit) => Limited::new(body, limit)
                .collect()
                .await
                .map_err(|error| {
                    Unsent::No(format!("the answer could not be read whole: {error}"))
                })?
                .to_bytes(),
        };
        Ok(Answer {
            status,
            headers: parts.headers,
            body,
        })
    }
}

/// The TLS provider: the one the application installed as the process's default (such as
/// aws-lc-rs, with post-quantum key exchange), else *ring*'s, which this crate builds with.
fn tls_provider() -> Arc<rustls::crypto::CryptoProvider> {
    rustls::crypto::CryptoProvider::get_default()
        .cloned()
        .unwrap_or_else(|| Arc::new(ring_provider()))
}

/// *ring*'s provider. rustls 0.23.48 deprecates it for lacking post-quantum key exchange;
/// aws-lc-rs, which has it, is a C build this crate does not impose on every shop, and an
/// application that installs it is served by it ([`tls_provider`]).
#[allow(
    deprecated,
    reason = "ring's provider, deprecated from rustls 0.23.48, is the fallback on purpose"
)]
fn ring_provider() -> rustls::crypto::CryptoProvider {
    rustls::crypto::ring::default_provider()
}
