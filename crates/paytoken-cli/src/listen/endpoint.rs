//! An endpoint on this machine that the command posts to: `--forward-to`, where each
//! verified notification is relayed with its body and content type as they came (the way
//! `stripe listen` forwards webhooks), the sandbox's 3-D Secure page, which the demo
//! visits as the cardholder, and the sandbox's console. Plain `http`: these are local development servers. A URL with
//! user info or a port out of range is refused, never sent on to another port or with its
//! credentials in the `Host` header.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{CONTENT_TYPE, HOST, HeaderValue, USER_AGENT};
use hyper::{Request, Uri};
use paytoken_hyper::internal::conn::{self, Unsent};
use tokio::net::TcpStream;

/// An `http` endpoint.
#[derive(Debug, Clone)]
pub(crate) struct Endpoint {
    /// The URL as given, for the report.
    pub(crate) url: String,
    authority: String,
    host: String,
    port: u16,
    path: String,
}

impl Endpoint {
    /// Reads an `http://` URL with a host; the error names `what` (`--forward-to`).
    pub(crate) fn parse(what: &str, url: &str) -> Result<Self, String> {
        // The URL is not quoted: it may hold credentials, or be any length.
        let bad = |reason: &str| format!("{what}: {reason}");
        let uri: Uri = url.parse().map_err(|_| bad("not a url"))?;
        if !uri
            .scheme_str()
            .is_some_and(|scheme| scheme.eq_ignore_ascii_case("http"))
        {
            return Err(bad(
                "give the http:// url of your local endpoint, such as http://127.0.0.1:3000/hooks",
            ));
        }
        let (Some(authority), Some(host)) = (uri.authority(), uri.host()) else {
            return Err(bad("the url has no host"));
        };
        paytoken::types::check_authority(authority.as_str())
            .map_err(|reason| bad(&format!("the url {reason}")))?;
        Ok(Self {
            url: url.to_owned(),
            authority: authority.as_str().to_owned(),
            host: host
                .trim_start_matches('[')
                .trim_end_matches(']')
                .to_owned(),
            // Checked above: a port written is 1 to 65535; only an absent one is the default.
            port: uri.port_u16().unwrap_or(80),
            path: uri
                .path_and_query()
                .map_or_else(|| "/".to_owned(), |path| path.as_str().to_owned()),
        })
    }

    /// Posts `body` with `content_type`, connecting, sending and reading the status within
    /// `timeout`; the endpoint's status when it is `2xx`, why not otherwise.
    pub(crate) async fn post(
        &self,
        body: Bytes,
        content_type: Option<HeaderValue>,
        timeout: Duration,
    ) -> Result<u16, String> {
        tokio::time::timeout(timeout, self.send(body, content_type))
            .await
            .unwrap_or_else(|_| Err(format!("no answer within {timeout:?}")))
    }

    async fn send(&self, body: Bytes, content_type: Option<HeaderValue>) -> Result<u16, String> {
        let content_type =
            content_type.unwrap_or_else(|| HeaderValue::from_static("application/json"));
        let request = Request::post(self.path.as_str())
            .header(HOST, self.authority.as_str())
            .header(CONTENT_TYPE, content_type)
            .header(USER_AGENT, "paytoken-listen")
            .body(Full::new(body))
            .map_err(|error| format!("cannot build the request: {error}"))?;
        let status = self.exchange(request, None).await?.status;
        if (200..300).contains(&status) {
            Ok(status)
        } else {
            Err(format!("answered {status}"))
        }
    }

    /// Sends `method` to `path` under this endpoint (a JSON `body` for a POST) and reads
    /// the answer, at most `limit` bytes of it, within `timeout`.
    pub(crate) async fn call(
        &self,
        method: hyper::Method,
        path: &str,
        body: Option<&serde_json::Value>,
        limit: usize,
        timeout: Duration,
    ) -> Result<Answered, String> {
        let mut request = Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.path.trim_end_matches('/')))
            .header(HOST, self.authority.as_str())
            .header(USER_AGENT, "paytoken");
        let body = match body {
            Some(body) => {
                request = request.header(CONTENT_TYPE, "application/json");
                Bytes::from(body.to_string())
            }
            None => Bytes::new(),
        };
        let request = request
            .body(Full::new(body))
            .map_err(|error| format!("cannot build the request: {error}"))?;
        tokio::time::timeout(timeout, self.exchange(request, Some(limit)))
            .await
            .unwrap_or_else(|_| Err(format!("no answer within {timeout:?}")))
    }

    /// One request on a connection of its own: its status, and its body up to `limit`
    /// bytes when one is asked for (none is read otherwise).
    async fn exchange(
        &self,
        request: Request<Full<Bytes>>,
        limit: Option<usize>,
    ) -> Result<Answered, String> {
        let stream = TcpStream::connect((self.host.as_str(), self.port))
            .await
            .map_err(|error| format!("cannot connect to {}: {error}", self.authority))?;
        let mut connection = conn::handshake(stream, false)
            .await
            .map_err(|error| format!("http: {error}"))?;
        // The connection ends with this call: the sender dropped, its task closes it.
        match connection.exchange(request, limit).await {
            Ok(answer) => Ok(Answered {
                status: answer.status,
                body: answer.body,
            }),
            Err(Unsent::Yes(_)) => Err("http: the endpoint closed the connection".to_owned()),
            Err(Unsent::No(error)) => Err(format!("http: {error}")),
        }
    }
}

/// What [`Endpoint::call`] read of an answer: its status and body.
#[derive(Debug)]
pub(crate) struct Answered {
    pub(crate) status: u16,
    pub(crate) body: Bytes,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_http_urls_only() {
        let forward = Endpoint::parse("--forward-to", "http://127.0.0.1:3000/hooks?x=1").unwrap();
        assert_eq!(
            (forward.host.as_str(), forward.port, forward.path.as_str()),
            ("127.0.0.1", 3000, "/hooks?x=1")
        );
        let forward = Endpoint::parse("--forward-to", "http://[::1]").unwrap();
        assert_eq!(
            (forward.host.as_str(), forward.port, forward.path.as_str()),
            ("::1", 80, "/")
        );
        for bad in [
            "https://127.0.0.1/",
            "127.0.0.1:3000",
            "javascript:alert(1)",
            "http://",
        ] {
            assert!(Endpoint::parse("--forward-to", bad).is_err(), "{bad}");
        }
        // Regression: port 99999 became port 80, and credentials went into `Host`.
        for (bad, reason) in [
            ("http://127.0.0.1:99999/x", "port that is not 1 to 65535"),
            ("http://user:secret@127.0.0.1:3000/", "user info"),
        ] {
            let error = Endpoint::parse("--forward-to", bad).unwrap_err();
            assert!(error.contains(reason), "{error}");
            assert!(!error.contains("secret"), "{error}");
        }
    }
}
