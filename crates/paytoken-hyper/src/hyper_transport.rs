//! The default transport: hyper-util's pooled client over hyper-rustls (ring, webpki
//! roots), HTTP/1.1 with keep-alive, HTTP/2 where the server offers it by ALPN, through
//! the proxy the settings or the environment name (`proxy.rs`).

use std::time::Duration;

use http::header::{HeaderValue, USER_AGENT};
use http_body::Body as _;
use http_body_util::{BodyExt as _, LengthLimitError, Limited};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioTimer};

use crate::body::SecretBody;
use crate::conn;
use crate::proxy::{Proxy, Routed};
use crate::{
    Error, Transport, TransportError, TransportErrorKind, TransportRequest, TransportResponse,
};

/// The settings the hyper transport is built from: the connection's part of a
/// [`ClientBuilder`](crate::ClientBuilder), which holds and sets them.
#[derive(Debug, Clone)]
pub(crate) struct HyperSettings {
    pub(crate) connect_timeout: Duration,
    pub(crate) pool_max_idle_per_host: usize,
    pub(crate) pool_idle_timeout: Duration,
    pub(crate) user_agent: String,
    pub(crate) allow_http: bool,
    pub(crate) http2: bool,
    pub(crate) extra_roots: Vec<Vec<u8>>,
    pub(crate) built_in_roots: bool,
    pub(crate) proxy: Proxy,
}

/// hyper-util's pooled client over rustls: what [`Client`](crate::Client) uses unless told
/// otherwise. Built by [`ClientBuilder::build`](crate::ClientBuilder::build).
#[derive(Debug, Clone)]
pub struct HyperTransport {
    client: Client<HttpsConnector<Routed>, SecretBody>,
    user_agent: HeaderValue,
}

impl HyperTransport {
    pub(crate) fn new(settings: &HyperSettings) -> Result<Self, Error> {
        let user_agent =
            HeaderValue::from_str(&settings.user_agent).map_err(|_| Error::Config {
                setting: "user_agent",
                reason: "cannot be carried in an http header",
            })?;
        let mut http = HttpConnector::new();
        // The https connector decides which schemes pass; this one only opens sockets.
        http.enforce_http(false);
        http.set_connect_timeout(Some(settings.connect_timeout));
        http.set_nodelay(true);
        let http = Routed {
            http,
            proxies: settings.proxy.matcher().map(std::sync::Arc::new),
        };
        let tls = conn::tls_config(&settings.extra_roots, settings.built_in_roots)?;
        let schemes = hyper_rustls::HttpsConnectorBuilder::new().with_tls_config(tls);
        let schemes = if settings.allow_http {
            schemes.https_or_http()
        } else {
            schemes.https_only()
        };
        let connector = if settings.http2 {
            schemes.enable_all_versions().wrap_connector(http)
        } else {
            schemes.enable_http1().wrap_connector(http)
        };
        let client = Client::builder(TokioExecutor::new())
            .pool_timer(TokioTimer::new())
            .timer(TokioTimer::new())
            .pool_idle_timeout(settings.pool_idle_timeout)
            .pool_max_idle_per_host(settings.pool_max_idle_per_host)
            .build(connector);
        Ok(Self { client, user_agent })
    }

    /// The request for hyper: the protocol crate's one conversion, with the shared body
    /// and this transport's user agent.
    fn http_request(
        &self,
        exchange: &TransportRequest<'_>,
    ) -> Result<http::Request<SecretBody>, TransportError> {
        let mut request = exchange
            .request
            .to_http(exchange.base_url)
            .map_err(|error| TransportError::with_source(TransportErrorKind::Other, error))?
            .map(SecretBody::new);
        request
            .headers_mut()
            .insert(USER_AGENT, self.user_agent.clone());
        Ok(request)
    }
}

impl Transport for HyperTransport {
    async fn send(
        &self,
        exchange: TransportRequest<'_>,
    ) -> Result<TransportResponse, TransportError> {
        let http_request = self.http_request(&exchange)?;
        let response = self.client.request(http_request).await.map_err(|error| {
            let kind = if error.is_connect() {
                TransportErrorKind::Connect
            } else {
                TransportErrorKind::Broken
            };
            TransportError::with_source(kind, error)
        })?;
        let status = response.status().as_u16();
        let limit = exchange.body_limit;
        let too_large = TransportError::new(TransportErrorKind::ResponseTooLarge { limit });
        // The length hyper read from `Content-Length`, when the answer has one: no second
        // lookup and parse of the header.
        let announced = response.body().size_hint().upper();
        if announced.is_some_and(|len| usize::try_from(len).map_or(true, |len| len > limit)) {
            // Not a byte of it is read: the connection is dropped with the response.
            return Err(too_large);
        }
        let body = Limited::new(response.into_body(), limit)
            .collect()
            .await
            .map_err(|error| {
                if error.is::<LengthLimitError>() {
                    too_large
                } else {
                    TransportError::with_source(TransportErrorKind::Broken, error)
                }
            })?
            .to_bytes();
        Ok(TransportResponse { status, body })
    }
}
