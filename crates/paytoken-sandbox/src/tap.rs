//! A tap on the gateway's requests, for a harness in the same process: every request as it
//! arrived (method, path, query, headers, body), unmasked and unclipped, so that what a
//! client put on the wire can be held to the interface's rules byte for byte. It is never
//! served (the console and the request log stay masked and clipped), never printed (its
//! `Debug` names the request and the sizes only), and bounded: it keeps the newest requests,
//! each body within the sandbox's bound on a request body.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), paytoken_sandbox::Error> {
//! use paytoken_sandbox::Sandbox;
//! use paytoken_sandbox::tap::Tap;
//!
//! let tap = Tap::default();
//! let sandbox = Sandbox::builder().tap(tap.clone()).start().await?;
//! // ... a client calls sandbox.base_url() ...
//! for request in tap.take() {
//!     println!("{request:?}"); // method, path and sizes only
//! }
//! sandbox.shutdown().await;
//! # Ok(())
//! # }
//! ```

use core::fmt;
use std::sync::Arc;

use crate::bounded_log::BoundedLog;

/// The most requests a tap holds between two [`Tap::take`]s; older ones are forgotten.
const TAP_KEPT: usize = 10_000;

/// One request, exactly as it arrived: it may hold a secure key's checksum, an auth token,
/// a card number and its CVV, so it is never shown whole.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Tapped {
    /// `POST`, or whatever the client sent.
    pub method: String,
    /// The path, as sent (its percent-escapes not decoded), without the query.
    pub path: String,
    /// The query, as sent, without its `?`; `None` without one.
    pub query: Option<String>,
    /// Every header, in the order sent, its name lower-cased (as HTTP/1.1 reads it) and
    /// its value as sent (a value that is not UTF-8 read lossily).
    pub headers: Vec<(String, String)>,
    /// The body, as sent.
    pub body: Vec<u8>,
}

impl fmt::Debug for Tapped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tapped")
            .field("method", &self.method)
            .field("path_bytes", &self.path.len())
            .field("query_bytes", &self.query.as_ref().map(String::len))
            .field("headers", &self.headers.len())
            .field("body_bytes", &self.body.len())
            .finish()
    }
}

/// The tap: shared by the sandbox, which records, and the harness, which takes.
#[derive(Clone, Default)]
pub struct Tap(Arc<BoundedLog<Tapped, TAP_KEPT>>);

impl fmt::Debug for Tap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tap({} requests so far)", self.0.last())
    }
}

impl Tap {
    /// The requests recorded since the last `take`, oldest first.
    #[must_use]
    pub fn take(&self) -> Vec<Tapped> {
        self.0.drain()
    }

    pub(crate) fn record(&self, parts: &hyper::http::request::Parts, body: &[u8]) {
        let headers = parts
            .headers
            .iter()
            .map(|(name, value)| {
                let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
                (name.as_str().to_owned(), value)
            })
            .collect();
        self.0.push(Tapped {
            method: parts.method.as_str().to_owned(),
            path: parts.uri.path().to_owned(),
            query: parts.uri.query().map(str::to_owned),
            headers,
            body: body.to_vec(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tapped_request_shows_its_method_and_sizes_never_its_bytes() {
        let tap = Tap::default();
        let (parts, ()) = hyper::Request::post("/transactionServices/REST/v1/payments?x=1")
            .header("AuthToken", "eyJ0.secret.c2ln")
            .body(())
            .unwrap()
            .into_parts();
        tap.record(&parts, b"card.number=4000000000000051&card.cvv=123");
        let taken = tap.take();
        assert_eq!(taken.len(), 1);
        assert_eq!(taken[0].query.as_deref(), Some("x=1"));
        assert_eq!(taken[0].headers[0].0, "authtoken");
        let shown = format!("{taken:?} {tap:?}");
        for secret in ["4000000000000051", "123", "secret", "payments"] {
            assert!(!shown.contains(secret), "{shown}");
        }
        assert!(tap.take().is_empty(), "taken once");
    }
}
