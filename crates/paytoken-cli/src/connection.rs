//! One connection to a gateway, opened step by step so that `doctor` can say which step
//! failed and what each took: TCP, then TLS with the client's trust (the built-in roots and
//! `--root-certificate`'s) offering HTTP/2 and HTTP/1.1 by ALPN, then HTTP as agreed.
//! `doctor` sends the protocol's requests on it, signed as the client signs them; `record`
//! forwards its clients' requests as they came. Answers come back whole (at most a bound),
//! with their headers and `Date`. [`Upstream`] opens another connection when the gateway
//! closed one.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full, Limited};
use hyper::HeaderMap;
use hyper::client::conn::{http1, http2};
use hyper::header::{DATE, HOST, HeaderValue, USER_AGENT};
use hyper_util::rt::{TokioExecutor, TokioIo};
use paytoken::BaseUrl;
use paytoken::protocol::Request;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{CertificateError, RootCertStore};
use tokio::net::TcpStream;

/// What the TLS handshake agreed on.
#[derive(Debug, Clone)]
pub(crate) struct Agreed {
    /// `TLSv1_3`, `TLSv1_2`.
    pub(crate) version: String,
    /// The protocol ALPN chose (`h2`, `http/1.1`), or none.
    pub(crate) alpn: Option<String>,
}

/// A step that failed: what happened and what to do about it.
#[derive(Debug, Clone)]
pub(crate) struct Trouble {
    pub(crate) detail: String,
    pub(crate) advice: String,
}

/// Why the connection did not open: at which step.
#[derive(Debug, Clone)]
pub(crate) enum OpenError {
    Connect(Trouble),
    Tls(Trouble),
    Http(Trouble),
}

impl OpenError {
    /// What happened, whichever the step.
    pub(crate) fn detail(&self) -> &str {
        match self {
            Self::Connect(trouble) | Self::Tls(trouble) | Self::Http(trouble) => &trouble.detail,
        }
    }
}

/// An open connection: what opening it took and agreed, and the way to send on it.
pub(crate) struct Opened {
    pub(crate) connected_in: Duration,
    pub(crate) tls: Option<Agreed>,
    pub(crate) connection: Connection,
}

/// The sending half of an HTTP/1.1 or HTTP/2 connection.
pub(crate) enum Connection {
    One(http1::SendRequest<Full<Bytes>>),
    Two(http2::SendRequest<Full<Bytes>>),
}

/// An answer as it came: status, headers, the time its `Date` names, the body, and the
/// round trip.
#[derive(Clone)]
pub(crate) struct Exchanged {
    pub(crate) status: u16,
    pub(crate) headers: HeaderMap,
    pub(crate) date: Option<SystemTime>,
    pub(crate) body: Bytes,
    pub(crate) took: Duration,
}

impl std::fmt::Debug for Exchanged {
    /// Without the headers and the body: an auth-token answer holds a token.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Exchanged")
            .field("status", &self.status)
            .field("body_bytes", &self.body.len())
            .field("took", &self.took)
            .finish_non_exhaustive()
    }
}

/// The roots the client trusts: the built-in ones and the PEM certificates of `extra`.
pub(crate) fn roots(extra: &[Vec<u8>]) -> Result<RootCertStore, String> {
    let mut roots = RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    for der in extra {
        roots
            .add(CertificateDer::from(der.clone()))
            .map_err(|error| {
                format!("--root-certificate: not a certificate rustls accepts: {error}")
            })?;
    }
    Ok(roots)
}

/// Opens a connection to `base_url`, each step within `timeout`.
pub(crate) async fn open(
    base_url: &BaseUrl,
    roots: RootCertStore,
    timeout: Duration,
) -> Result<Opened, OpenError> {
    let (host, port) = host_and_port(base_url);
    let started = Instant::now();
    let tcp = match tokio::time::timeout(timeout, TcpStream::connect((host.as_str(), port))).await {
        Ok(Ok(tcp)) => tcp,
        Ok(Err(error)) => {
            return Err(OpenError::Connect(Trouble {
                detail: format!("cannot connect to {host} port {port}: {error}"),
                advice: "check the base URL's host and port, and that this machine may reach it (a firewall, a proxy, a VPN)".to_owned(),
            }));
        }
        Err(_) => {
            return Err(OpenError::Connect(Trouble {
                detail: format!("no connection to {host} port {port} within {}", seconds(timeout)),
                advice: "check the base URL's host and port, and that this machine may reach it (a firewall, a proxy, a VPN)".to_owned(),
            }));
        }
    };
    let connected_in = started.elapsed();
    let _ = tcp.set_nodelay(true);
    if !base_url.is_https() {
        let connection = handshake(tcp, false).await.map_err(OpenError::Http)?;
        return Ok(Opened {
            connected_in,
            tls: None,
            connection,
        });
    }
    let mut config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(|error| {
        OpenError::Tls(Trouble {
            detail: format!("no TLS version to offer: {error}"),
            advice: "report this to paytoken".to_owned(),
        })
    })?
    .with_root_certificates(roots)
    .with_no_client_auth();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    let name = ServerName::try_from(host.clone()).map_err(|_| {
        OpenError::Tls(Trouble {
            detail: format!("{host} is not a name TLS can check"),
            advice: "check the base URL's host".to_owned(),
        })
    })?;
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let tls = match tokio::time::timeout(timeout, connector.connect(name, tcp)).await {
        Ok(Ok(tls)) => tls,
        Ok(Err(error)) => return Err(OpenError::Tls(tls_trouble(&host, &error))),
        Err(_) => {
            return Err(OpenError::Tls(Trouble {
                detail: format!("no TLS handshake within {}", seconds(timeout)),
                advice: "check that the base URL's port serves HTTPS".to_owned(),
            }));
        }
    };
    let (_, session) = tls.get_ref();
    let agreed = Agreed {
        version: session
            .protocol_version()
            .map_or_else(|| "unknown".to_owned(), |version| format!("{version:?}")),
        alpn: session
            .alpn_protocol()
            .map(|alpn| String::from_utf8_lossy(alpn).into_owned()),
    };
    let two = agreed.alpn.as_deref() == Some("h2");
    let connection = handshake(tls, two).await.map_err(OpenError::Http)?;
    Ok(Opened {
        connected_in,
        tls: Some(agreed),
        connection,
    })
}

/// The HTTP handshake over `io`: HTTP/2 when ALPN chose it, HTTP/1.1 otherwise.
async fn handshake<T>(io: T, two: bool) -> Result<Connection, Trouble>
where
    T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let trouble = |error: hyper::Error| Trouble {
        detail: format!("the HTTP handshake failed: {error}"),
        advice: "check that the base URL is the gateway's".to_owned(),
    };
    if two {
        let (sender, connection) = http2::handshake(TokioExecutor::new(), TokioIo::new(io))
            .await
            .map_err(trouble)?;
        tokio::spawn(connection);
        Ok(Connection::Two(sender))
    } else {
        let (sender, connection) = http1::handshake(TokioIo::new(io)).await.map_err(trouble)?;
        tokio::spawn(connection);
        Ok(Connection::One(sender))
    }
}

impl Connection {
    /// Whether the other end closed it.
    pub(crate) fn is_closed(&self) -> bool {
        match self {
            Self::One(sender) => sender.is_closed(),
            Self::Two(sender) => sender.is_closed(),
        }
    }

    /// Sends `request` (its URI absolute) and reads the answer, at most `limit` bytes of
    /// body, within `timeout`.
    pub(crate) async fn send_http(
        &mut self,
        request: hyper::Request<Full<Bytes>>,
        limit: usize,
        timeout: Duration,
    ) -> Result<Exchanged, String> {
        match self.send_or_return(request, limit, timeout).await {
            Ok(exchanged) => Ok(exchanged),
            Err(Unsent::Yes(_)) => Err("the gateway closed the connection".to_owned()),
            Err(Unsent::No(error)) => Err(error),
        }
    }

    /// As [`send_http`](Self::send_http), handing back a request that never left.
    async fn send_or_return(
        &mut self,
        request: hyper::Request<Full<Bytes>>,
        limit: usize,
        timeout: Duration,
    ) -> Result<Exchanged, Unsent> {
        let started = Instant::now();
        let (status, headers, body) = tokio::time::timeout(timeout, self.exchange(request, limit))
            .await
            .unwrap_or_else(|_| {
                Err(Unsent::No(format!("no answer within {}", seconds(timeout))))
            })?;
        Ok(Exchanged {
            status,
            date: headers
                .get(DATE)
                .and_then(|date| date.to_str().ok())
                .and_then(|date| httpdate::parse_http_date(date).ok()),
            headers,
            body,
            took: started.elapsed(),
        })
    }

    async fn exchange(
        &mut self,
        request: hyper::Request<Full<Bytes>>,
        limit: usize,
    ) -> Result<(u16, HeaderMap, Bytes), Unsent> {
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
                let request = hyper::Request::from_parts(parts, body);
                if sender.ready().await.is_err() {
                    return Err(Unsent::Yes(Box::new(request)));
                }
                sender.try_send_request(request).await
            }
            Self::Two(sender) => {
                let request = hyper::Request::from_parts(parts, body);
                if sender.ready().await.is_err() {
                    return Err(Unsent::Yes(Box::new(request)));
                }
                sender.try_send_request(request).await
            }
        };
        let response = match response {
            Ok(response) => response,
            // The gateway closed the connection before the request left: it may go again.
            Err(mut error) => {
                return Err(match error.take_message() {
                    Some(request) => Unsent::Yes(Box::new(request)),
                    None => failed(error.into_error()),
                });
            }
        };
        let status = response.status().as_u16();
        let (parts, body) = response.into_parts();
        let body = Limited::new(body, limit)
            .collect()
            .await
            .map_err(|error| Unsent::No(format!("the answer could not be read whole: {error}")))?
            .to_bytes();
        Ok((status, parts.headers, body))
    }
}

/// Why an exchange failed: before the request left (it is handed back, to go again on
/// another connection), or after.
enum Unsent {
    Yes(Box<hyper::Request<Full<Bytes>>>),
    No(String),
}

/// A gateway reached through one connection at a time: opened when first needed, and
/// again when the gateway closed it (as servers may after an answer).
pub(crate) struct Upstream {
    pub(crate) base_url: BaseUrl,
    roots: RootCertStore,
    timeout: Duration,
    connection: Option<Connection>,
}

impl Upstream {
    /// A gateway at `base_url`, trusted by `roots`, each step within `timeout`.
    pub(crate) const fn new(base_url: BaseUrl, roots: RootCertStore, timeout: Duration) -> Self {
        Self {
            base_url,
            roots,
            timeout,
            connection: None,
        }
    }

    /// A gateway on a connection already open.
    pub(crate) const fn with(
        base_url: BaseUrl,
        roots: RootCertStore,
        timeout: Duration,
        connection: Connection,
    ) -> Self {
        Self {
            base_url,
            roots,
            timeout,
            connection: Some(connection),
        }
    }

    /// The connection, opened (again) when there is none or the gateway closed it.
    async fn connection(&mut self) -> Result<&mut Connection, String> {
        let connection = match self.connection.take() {
            Some(open) if !open.is_closed() => open,
            _ => {
                open(&self.base_url, self.roots.clone(), self.timeout)
                    .await
                    .map_err(|error| format!("cannot connect: {}", error.detail()))?
                    .connection
            }
        };
        Ok(self.connection.insert(connection))
    }

    /// Sends `request` (its URI absolute), on another connection when the gateway closed
    /// this one before the request left; a connection that failed otherwise is let go.
    pub(crate) async fn send_http(
        &mut self,
        request: hyper::Request<Full<Bytes>>,
        limit: usize,
    ) -> Result<Exchanged, String> {
        let timeout = self.timeout;
        let request = match self
            .connection()
            .await?
            .send_or_return(request, limit, timeout)
            .await
        {
            Ok(exchanged) => return Ok(exchanged),
            Err(Unsent::Yes(request)) => *request,
            Err(Unsent::No(error)) => {
                self.connection = None;
                return Err(error);
            }
        };
        self.connection = None;
        let sent = self
            .connection()
            .await?
            .send_http(request, limit, timeout)
            .await;
        if sent.is_err() {
            self.connection = None;
        }
        sent
    }

    /// The protocol's `request`, signed, sent as [`send_http`](Self::send_http) sends.
    pub(crate) async fn send(
        &mut self,
        request: &Request,
        user_agent: &'static str,
        limit: usize,
    ) -> Result<Exchanged, String> {
        let http = request
            .to_http(&self.base_url)
            .map_err(|error| format!("cannot build the request: {error}"))?;
        let (mut parts, body) = http.into_parts();
        parts
            .headers
            .insert(USER_AGENT, HeaderValue::from_static(user_agent));
        // The body's owner goes along: its bytes are wiped when the request is dropped.
        let body = Full::new(Bytes::from_owner(body));
        self.send_http(hyper::Request::from_parts(parts, body), limit)
            .await
    }

    /// The URI of `path_and_query` at the gateway.
    pub(crate) fn uri(&self, path_and_query: &str) -> Result<hyper::Uri, String> {
        self.base_url
            .join(path_and_query)
            .parse()
            .map_err(|_| "the path does not make a URI at the upstream".to_owned())
    }
}

/// The host and port the base URL names (the scheme's port when it names none).
fn host_and_port(base_url: &BaseUrl) -> (String, u16) {
    let default = if base_url.is_https() { 443 } else { 80 };
    let port = base_url
        .as_str()
        .parse::<hyper::Uri>()
        .ok()
        .and_then(|uri| uri.port_u16())
        .unwrap_or(default);
    (base_url.host().to_owned(), port)
}

/// What a failed handshake means, and what to do.
fn tls_trouble(host: &str, error: &std::io::Error) -> Trouble {
    let certificate = error
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<rustls::Error>())
        .and_then(|error| match error {
            rustls::Error::InvalidCertificate(certificate) => Some(certificate),
            _ => None,
        });
    let (detail, advice) = match certificate {
        Some(CertificateError::Expired) => (
            "the server's certificate has expired".to_owned(),
            CLOCK_OR_RENEW.to_owned(),
        ),
        Some(CertificateError::ExpiredContext { not_after, .. }) => (
            // Formatted by a function that cannot panic, whatever date a server sends.
            match i64::try_from(not_after.as_secs())
                .ok()
                .and_then(paytoken::Timestamp::from_unix_seconds)
            {
                Some(when) => format!("the server's certificate expired on {when} UTC"),
                None => "the server's certificate has expired".to_owned(),
            },
            CLOCK_OR_RENEW.to_owned(),
        ),
        Some(CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. }) => (
            "the server's certificate is not valid yet".to_owned(),
            CLOCK_OR_RENEW.to_owned(),
        ),
        Some(CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. }) => (
            format!("the server's certificate is not for {host}"),
            "check the base URL's host: use the name the gateway gave you, which its certificate is for".to_owned(),
        ),
        Some(CertificateError::UnknownIssuer) => (
            "the server's certificate is signed by an authority this machine does not trust".to_owned(),
            "for a gateway with a private authority, give its certificate with --root-certificate FILE (PEM)".to_owned(),
        ),
        Some(other) => (
            format!("the server's certificate was refused: {other}"),
            "ask the gateway about its certificate".to_owned(),
        ),
        None => (
            format!("the TLS handshake failed: {error}"),
            "check that the base URL's port serves HTTPS".to_owned(),
        ),
    };
    Trouble { detail, advice }
}

const CLOCK_OR_RENEW: &str =
    "the gateway must renew its certificate; if it says it did, check this machine's clock";

/// `5 s`, `300 ms`.
pub(crate) fn seconds(duration: Duration) -> String {
    if duration < Duration::from_secs(1) {
        format!("{} ms", duration.as_millis())
    } else {
        format!("{} s", duration.as_secs())
    }
}
