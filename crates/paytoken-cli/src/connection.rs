//! One connection to a gateway, opened step by step so that `doctor` can say which step
//! failed and what each took: TCP, then TLS with the client's one configuration (the
//! built-in roots and `--root-certificate`'s) offering HTTP/2 and HTTP/1.1 by ALPN, then
//! HTTP as agreed, through the client's one handshake (`paytoken_hyper`'s `conn`).
//! `doctor`'s client sends on it (its transport, [`Link`]); `record` forwards its
//! clients' requests as they came. Answers come back whole (at most a bound),
//! with their headers and `Date`. [`Upstream`] opens another connection when the gateway
//! closed one.

mod link;

pub(crate) use link::Link;

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use bytes::Bytes;
use http_body_util::Full;
use hyper::HeaderMap;
use hyper::header::DATE;
use paytoken::BaseUrl;
use paytoken_hyper::internal::conn::{self, Connection, Unsent};
use rustls::CertificateError;
use rustls::pki_types::ServerName;
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

/// What the client trusts, as its one TLS configuration makes it: the built-in roots and
/// the certificates of `extra` (DER), with HTTP/2 and HTTP/1.1 offered by ALPN.
pub(crate) fn trust(extra: &[Vec<u8>]) -> Result<Trust, String> {
    let mut config = conn::tls_config(extra, true).map_err(|error| match error {
        paytoken::Error::Config { setting: "tls", .. } => error.to_string(),
        _ => "--root-certificate: not a certificate rustls accepts".to_owned(),
    })?;
    config.alpn_protocols = conn::ALPN
        .iter()
        .map(|protocol| protocol.to_vec())
        .collect();
    Ok(Arc::new(config))
}

/// The client's TLS configuration, shared by every connection opened with it.
pub(crate) type Trust = Arc<rustls::ClientConfig>;

/// Opens a connection to `base_url`, each step within `timeout`.
pub(crate) async fn open(
    base_url: &BaseUrl,
    trust: Trust,
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
    let name = ServerName::try_from(host.clone()).map_err(|_| {
        OpenError::Tls(Trouble {
            detail: format!("{host} is not a name TLS can check"),
            advice: "check the base URL's host".to_owned(),
        })
    })?;
    let connector = tokio_rustls::TlsConnector::from(trust);
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

/// The HTTP handshake over `io`, HTTP/2 when ALPN chose it: the client's one.
async fn handshake<T>(io: T, two: bool) -> Result<Connection, Trouble>
where
    T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    conn::handshake(io, two).await.map_err(|error| Trouble {
        detail: format!("the HTTP handshake failed: {error}"),
        advice: "check that the base URL is the gateway's".to_owned(),
    })
}

/// Sends `request` (its URI absolute) on `connection` and reads the answer, at most `limit`
/// bytes of body, within `timeout`; a request that never left is handed back.
async fn exchange(
    connection: &mut Connection,
    request: hyper::Request<Full<Bytes>>,
    limit: usize,
    timeout: Duration,
) -> Result<Exchanged, Unsent> {
    let started = Instant::now();
    let answer = tokio::time::timeout(timeout, connection.exchange(request, Some(limit)))
        .await
        .unwrap_or_else(|_| Err(Unsent::No(format!("no answer within {}", seconds(timeout)))))?;
    Ok(Exchanged {
        status: answer.status,
        date: answer
            .headers
            .get(DATE)
            .and_then(|date| date.to_str().ok())
            .and_then(|date| httpdate::parse_http_date(date).ok()),
        headers: answer.headers,
        body: answer.body,
        took: started.elapsed(),
    })
}

/// As [`exchange`], a request that never left an error too.
async fn send_http(
    connection: &mut Connection,
    request: hyper::Request<Full<Bytes>>,
    limit: usize,
    timeout: Duration,
) -> Result<Exchanged, String> {
    match exchange(connection, request, limit, timeout).await {
        Ok(exchanged) => Ok(exchanged),
        Err(Unsent::Yes(_)) => Err("the gateway closed the connection".to_owned()),
        Err(Unsent::No(error)) => Err(error),
    }
}

/// Why a request to the gateway failed: no connection opened (nothing of it left), or the
/// exchange failed after it started.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SendError {
    #[error("{0}")]
    Connect(String),
    #[error("{0}")]
    Exchange(String),
}

/// A gateway reached through one connection at a time: opened when first needed, and
/// again when the gateway closed it (as servers may after an answer).
pub(crate) struct Upstream {
    pub(crate) base_url: BaseUrl,
    trust: Trust,
    timeout: Duration,
    connection: Option<Connection>,
}

impl Upstream {
    /// A gateway at `base_url`, trusted by `trust`, each step within `timeout`.
    pub(crate) const fn new(base_url: BaseUrl, trust: Trust, timeout: Duration) -> Self {
        Self {
            base_url,
            trust,
            timeout,
            connection: None,
        }
    }

    /// A gateway on a connection already open.
    pub(crate) const fn with(
        base_url: BaseUrl,
        trust: Trust,
        timeout: Duration,
        connection: Connection,
    ) -> Self {
        Self {
            base_url,
            trust,
            timeout,
            connection: Some(connection),
        }
    }

    /// The connection, opened (again) when there is none or the gateway closed it.
    async fn connection(&mut self) -> Result<&mut Connection, SendError> {
        let connection = match self.connection.take() {
            Some(open) if !open.is_closed() => open,
            _ => {
                open(&self.base_url, Arc::clone(&self.trust), self.timeout)
                    .await
                    .map_err(|error| {
                        SendError::Connect(format!("cannot connect: {}", error.detail()))
                    })?
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
    ) -> Result<Exchanged, SendError> {
        let timeout = self.timeout;
        let request = match exchange(self.connection().await?, request, limit, timeout).await {
            Ok(exchanged) => return Ok(exchanged),
            Err(Unsent::Yes(request)) => *request,
            Err(Unsent::No(error)) => {
                self.connection = None;
                return Err(SendError::Exchange(error));
            }
        };
        self.connection = None;
        let sent = send_http(self.connection().await?, request, limit, timeout).await;
        if sent.is_err() {
            self.connection = None;
        }
        sent.map_err(SendError::Exchange)
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
