//! A tap on the gateway's requests, for a harness in the same process: every request as it
//! arrived (method, path, query, headers, body), unmasked and unclipped, so that what a
//! client put on the wire can be held to the interface's rules byte for byte. It is never
//! served (the console and the request log stay masked and clipped), never printed (its
//! `Debug` names the request and the sizes only), and bounded: between two takes it holds at
//! most [`TAP_KEPT`] requests and [`TAP_BYTES`] bytes of them; past either, what arrives is
//! not kept, and the next [`Tap::take`] says so ([`TapFull`]) rather than hand over part.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use paytoken_sandbox::Sandbox;
//! use paytoken_sandbox::tap::Tap;
//!
//! let tap = Tap::default();
//! let sandbox = Sandbox::builder().tap(tap.clone()).start().await?;
//! // ... a client calls sandbox.base_url() ...
//! for request in tap.take()? {
//!     println!("{request:?}"); // method, path and sizes only
//! }
//! sandbox.shutdown().await;
//! # Ok(())
//! # }
//! ```

use core::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// The most requests a tap holds between two [`Tap::take`]s.
pub const TAP_KEPT: usize = 10_000;

/// The most bytes (of paths, queries, headers and bodies) a tap holds between two
/// [`Tap::take`]s: a client flooding the sandbox with large requests does not grow the
/// harness holding the tap.
pub const TAP_BYTES: usize = 16 * 1024 * 1024;

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

impl Tapped {
    /// The bytes it holds (of its path, query, headers and body): what the tap's byte
    /// bound counts.
    #[must_use]
    pub fn size(&self) -> usize {
        let headers: usize = (self.headers.iter())
            .map(|(name, value)| name.len() + value.len())
            .sum();
        self.method.len()
            + self.path.len()
            + self.query.as_ref().map_or(0, String::len)
            + headers
            + self.body.len()
    }
}

/// What a tap held past its bounds: the requests it did not keep since the last take.
/// [`Tap::take`] answers it instead of the requests it kept, which are not all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "the tap holds at most {TAP_KEPT} requests and {} MiB between two takes: {refused} more arrived",
    TAP_BYTES / (1024 * 1024)
)]
pub struct TapFull {
    /// The requests that arrived past the bounds.
    pub refused: usize,
}

/// What the tap holds between two takes.
#[derive(Default)]
struct Held {
    requests: Vec<Tapped>,
    bytes: usize,
    refused: usize,
}

/// The tap: shared by the sandbox, which records, and the harness, which takes.
#[derive(Clone, Default)]
pub struct Tap(Arc<Mutex<Held>>);

impl fmt::Debug for Tap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let held = self.held();
        write!(f, "Tap({} requests held)", held.requests.len())
    }
}

impl Tap {
    /// The requests recorded since the last `take`, oldest first; all of them, or
    /// [`TapFull`] when some arrived past the tap's bounds (and were not kept).
    ///
    /// # Errors
    /// [`TapFull`], with how many requests were not kept.
    pub fn take(&self) -> Result<Vec<Tapped>, TapFull> {
        let held = std::mem::take(&mut *self.held());
        match held.refused {
            0 => Ok(held.requests),
            refused => Err(TapFull { refused }),
        }
    }

    fn held(&self) -> MutexGuard<'_, Held> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn record(&self, parts: &hyper::http::request::Parts, body: &[u8]) {
        let mut held = self.held();
        // A request past the bounds is counted, never copied.
        let size = parts.method.as_str().len()
            + parts.uri.path().len()
            + parts.uri.query().map_or(0, str::len)
            + (parts.headers.iter())
                .map(|(name, value)| name.as_str().len() + value.len())
                .sum::<usize>()
            + body.len();
        if held.requests.len() >= TAP_KEPT || held.bytes.saturating_add(size) > TAP_BYTES {
            held.refused += 1;
            return;
        }
        let headers = parts
            .headers
            .iter()
            .map(|(name, value)| {
                let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
                (name.as_str().to_owned(), value)
            })
            .collect();
        let tapped = Tapped {
            method: parts.method.as_str().to_owned(),
            path: parts.uri.path().to_owned(),
            query: parts.uri.query().map(str::to_owned),
            headers,
            body: body.to_vec(),
        };
        held.bytes += size;
        held.requests.push(tapped);
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
        let taken = tap.take().unwrap();
        assert_eq!(taken.len(), 1);
        assert_eq!(taken[0].query.as_deref(), Some("x=1"));
        assert_eq!(taken[0].headers[0].0, "authtoken");
        let shown = format!("{taken:?} {tap:?}");
        for secret in ["4000000000000051", "123", "secret", "payments"] {
            assert!(!shown.contains(secret), "{shown}");
        }
        assert!(tap.take().unwrap().is_empty(), "taken once");
    }

    #[test]
    fn a_tap_past_its_bounds_keeps_nothing_more_and_says_so() {
        let tap = Tap::default();
        let (parts, ()) = hyper::Request::post("/x").body(()).unwrap().into_parts();
        let body = vec![b'a'; 1024 * 1024];
        for _ in 0..20 {
            tap.record(&parts, &body);
        }
        assert_eq!(
            tap.held().requests.len(),
            15,
            "16 MiB hold 15 such requests"
        );
        assert_eq!(tap.take(), Err(TapFull { refused: 5 }));
        let said = TapFull { refused: 5 }.to_string();
        assert!(said.contains("10000 requests and 16 MiB"), "{said}");
        // Taken, the tap starts again.
        tap.record(&parts, b"small");
        assert_eq!(tap.take().unwrap().len(), 1);
        for _ in 0..=TAP_KEPT {
            tap.record(&parts, b"");
        }
        assert_eq!(tap.take(), Err(TapFull { refused: 1 }));
    }
}
