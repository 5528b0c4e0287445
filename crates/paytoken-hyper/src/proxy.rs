//! Where the transport's connections go: straight to the gateway, or through an HTTP proxy
//! by `CONNECT` (hyper-util's tunnel), as the proxy setting and the environment
//! (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`, `NO_PROXY`, read as curl reads them) say. A
//! loopback address is never proxied: no proxy reaches this machine's own services.

use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use http::Uri;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::connect::proxy::Tunnel;
use hyper_util::client::proxy::matcher::Matcher;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tower_service::Service;

/// Which proxy the client's connections go through.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Proxy {
    /// The environment's, as curl reads it: `HTTPS_PROXY` (or `ALL_PROXY`) for `https`,
    /// `HTTP_PROXY` for `http`, none for a host `NO_PROXY` names. The default.
    #[default]
    FromEnvironment,
    /// None: every connection goes straight to the gateway.
    Direct,
    /// This proxy (`http://host:port`, with `user:password@` for basic authentication)
    /// for every destination but those `NO_PROXY` names.
    Url(String),
}

impl Proxy {
    /// The rules this setting stands for; `None` when nothing is proxied.
    pub(crate) fn matcher(&self) -> Option<Matcher> {
        match self {
            Self::Direct => None,
            Self::FromEnvironment => Some(Matcher::from_env()),
            Self::Url(url) => {
                let no = std::env::var("NO_PROXY")
                    .or_else(|_| std::env::var("no_proxy"))
                    .unwrap_or_default();
                Some(
                    Matcher::builder()
                        .http(url.clone())
                        .https(url.clone())
                        .no(no)
                        .build(),
                )
            }
        }
    }
}

/// The connector under TLS: a socket to the destination, or a tunnel to it through the
/// proxy its rules pick.
#[derive(Clone)]
pub(crate) struct Routed {
    pub(crate) http: HttpConnector,
    pub(crate) proxies: Option<Arc<Matcher>>,
}

impl std::fmt::Debug for Routed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A proxy's URL may hold its password.
        f.debug_struct("Routed")
            .field("proxied", &self.proxies.is_some())
            .finish_non_exhaustive()
    }
}

/// What opening a connection fails with.
type ConnectError = Box<dyn std::error::Error + Send + Sync>;

impl Service<Uri> for Routed {
    type Response = TokioIo<TcpStream>;
    type Error = ConnectError;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, ConnectError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), ConnectError>> {
        self.http.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, destination: Uri) -> Self::Future {
        let mut http = self.http.clone();
        let through = self
            .proxies
            .as_ref()
            .filter(|_| !is_loopback(&destination))
            .and_then(|proxies| proxies.intercept(&destination));
        Box::pin(async move {
            match through {
                None => Ok(http.call(destination).await?),
                Some(proxy) => {
                    let mut tunnel = Tunnel::new(proxy.uri().clone(), http);
                    if let Some(authorization) = proxy.basic_auth() {
                        tunnel = tunnel.with_auth(authorization.clone());
                    }
                    Ok(tunnel.call(destination).await?)
                }
            }
        })
    }
}

/// Whether `destination` is this machine: `localhost`, or a loopback address.
fn is_loopback(destination: &Uri) -> bool {
    let host = destination.host().unwrap_or_default();
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || bare
            .parse::<IpAddr>()
            .is_ok_and(|address| address.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_destinations_are_never_proxied() {
        for uri in [
            "https://127.0.0.1:8443/",
            "http://localhost/",
            "https://[::1]:9/",
        ] {
            assert!(is_loopback(&uri.parse().unwrap()), "{uri}");
        }
        for uri in ["https://gateway.example/", "https://10.0.0.1/"] {
            assert!(!is_loopback(&uri.parse().unwrap()), "{uri}");
        }
    }
}
