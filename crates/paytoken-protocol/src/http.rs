//! Interop with the `http` crate (feature `http`): a [`Request`] becomes an
//! `http::Request<Body>`, an `http::Response<B>` is parsed by any operation.
//!
//! This is the one place a request becomes an `http::Request`: the client's hyper
//! transport goes through it too.

use alloc::borrow::Cow;
use alloc::string::String;

use bytes::Bytes;
use http::header::{CONTENT_TYPE, HeaderName, HeaderValue};

use crate::ops::Operation;
use crate::request::WipedBytes;
use crate::{AUTH_TOKEN_HEADER, BaseUrl, Body, Error, FORM_CONTENT_TYPE, Header, Method, Request};

impl Request {
    /// The request for an `http`-speaking stack, sent to `base_url`. Its body is a handle
    /// on the request's own [`Body`] (shared, not copied), wiped when the last handle is
    /// dropped; the auth-token header is marked sensitive (`HeaderValue::set_sensitive`),
    /// so `http`'s own `Debug` hides it. Header names are lower-cased, as HTTP/2 needs.
    ///
    /// # Errors
    /// [`Error::Invalid`] for `baseUrl` when the URL does not make a valid URI, or for a
    /// header that cannot be carried in HTTP.
    pub fn to_http(&self, base_url: &BaseUrl) -> Result<http::Request<Body>, Error> {
        let uri = uri_of(base_url, self.path_text()).ok_or(Error::Invalid {
            field: "baseUrl",
            reason: "does not make a valid uri with this path",
        })?;
        let mut request = http::Request::new(self.body().clone());
        *request.method_mut() = match self.method() {
            Method::Post => http::Method::POST,
        };
        *request.uri_mut() = uri;
        let headers = request.headers_mut();
        // Room for the headers added on the way, so the map never grows: a transport's user
        // agent, and the `Host` and `Content-Length` an HTTP client such as hyper's adds.
        // (With room for only one more, the map grew, reallocating and rehashing, on every
        // request.)
        headers.reserve(self.headers().len() + 3);
        for header in self.headers() {
            let (name, value) = http_header(header)?;
            headers.append(name, value);
        }
        Ok(request)
    }

    /// As [`to_http`](Self::to_http), consuming the request.
    ///
    /// # Errors
    /// As [`to_http`](Self::to_http).
    pub fn into_http(self, base_url: &BaseUrl) -> Result<http::Request<Body>, Error> {
        self.to_http(base_url)
    }
}

/// The URI of `path` at `base_url`: the URI that parsing `base_url.join(path)` makes, from
/// the scheme, the authority the base URL parsed once, and only the path parsed here.
///
/// An operation's constant path under a base URL with no path of its own, the usual case,
/// is borrowed as it is: no copy of it is allocated.
#[expect(
    clippy::ptr_arg,
    reason = "the variant is the point: a borrowed path is a constant, handed on uncopied"
)]
fn uri_of(base_url: &BaseUrl, path: &Cow<'static, str>) -> Option<http::Uri> {
    let prefix = base_url.path_prefix();
    let path_and_query = match path {
        Cow::Borrowed(path) if prefix.is_empty() => {
            http::uri::PathAndQuery::from_maybe_shared(Bytes::from_static(path.as_bytes()))
        }
        _ => {
            let mut joined = String::with_capacity(prefix.len() + path.len());
            joined.push_str(prefix);
            joined.push_str(path);
            http::uri::PathAndQuery::try_from(joined)
        }
    };
    let mut parts = http::uri::Parts::default();
    parts.scheme = Some(if base_url.is_https() {
        http::uri::Scheme::HTTPS
    } else {
        http::uri::Scheme::HTTP
    });
    parts.authority = Some(base_url.http_authority()?.clone());
    parts.path_and_query = Some(path_and_query.ok()?);
    http::Uri::from_parts(parts).ok()
}

/// One header for `http`. The two every request carries skip the parsing (and, for the
/// custom name, the allocation) of a header met for the first time.
fn http_header(header: &Header) -> Result<(HeaderName, HeaderValue), Error> {
    let unfit = || Error::Invalid {
        field: header.name(),
        reason: "cannot be carried in an http header",
    };
    let name = match header.name() {
        "Content-Type" => CONTENT_TYPE,
        AUTH_TOKEN_HEADER => HeaderName::from_static("authtoken"),
        // `from_bytes` takes any case and stores it lower-cased.
        other => HeaderName::from_bytes(other.as_bytes()).map_err(|_| unfit())?,
    };
    let mut value = if header.is_sensitive() {
        // The auth token: its copy for `http` is one that wipes itself when the last
        // handle on it (the request's, or the stack's that sends it) is dropped, as the
        // request's own header does.
        let copy = Bytes::from_owner(WipedBytes::copy_of(header.value().as_bytes()));
        HeaderValue::from_maybe_shared(copy).map_err(|_| unfit())?
    } else if header.value() == FORM_CONTENT_TYPE {
        HeaderValue::from_static(FORM_CONTENT_TYPE)
    } else {
        HeaderValue::from_str(header.value()).map_err(|_| unfit())?
    };
    value.set_sensitive(header.is_sensitive());
    Ok((name, value))
}

/// Parses an `http::Response` as the answer to `operation`.
///
/// # Errors
/// As [`Operation::parse`].
pub fn parse_http<O: Operation, B: AsRef<[u8]>>(
    operation: &O,
    response: &http::Response<B>,
) -> Result<O::Response, Error> {
    operation.parse(response.status().as_u16(), response.body().as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::cards_and_accounts::CardsAndAccounts;
    use crate::{AuthToken, Context};
    use paytoken_checksum::{Credentials, SecureKey};

    #[test]
    fn the_uri_is_the_one_the_joined_url_parses_to() {
        for base in [
            "https://gw.example",
            "HTTPS://GW.example:8443/api/",
            "http://127.0.0.1:9000",
            "http://[::1]:80/pay/v2",
            "https://xn--bcher-kva.example/",
        ] {
            let base = BaseUrl::new(base).unwrap();
            for path in ["/transactionServices/REST/v1/payments", "/p/a%20b"] {
                let parsed: http::Uri = base.join(path).parse().unwrap();
                assert_eq!(
                    uri_of(&base, &Cow::Borrowed(path)),
                    Some(parsed.clone()),
                    "{base} {path}"
                );
                let owned = Cow::Owned(path.to_owned());
                assert_eq!(uri_of(&base, &owned), Some(parsed), "{base} {path}");
            }
        }
    }

    #[test]
    fn converts_both_ways() {
        let context = Context {
            auth_token: Some(AuthToken::new("tok.en").unwrap()),
            ..Context::new(Credentials::merchant(
                "11344".parse().unwrap(),
                SecureKey::new("key").unwrap(),
            ))
        };
        let request = CardsAndAccounts::all().request(&context).unwrap();
        let body = request.body().to_vec();
        let base = BaseUrl::new("https://gw.example/").unwrap();
        let http = request.into_http(&base).unwrap();
        assert_eq!(
            http.uri(),
            "https://gw.example/transactionServices/REST/v1/getCardsAndAccounts"
        );
        assert_eq!(http.method(), http::Method::POST);
        assert_eq!(http.body().as_bytes(), body.as_slice());
        assert!(http.headers()["authtoken"].is_sensitive());
        assert!(!format!("{http:?}").contains("tok.en"));
        assert_eq!(http.headers()["content-type"], FORM_CONTENT_TYPE);

        let response = http::Response::builder()
            .status(502)
            .body(b"<html>bad gateway</html>".to_vec())
            .unwrap();
        let error = parse_http(&CardsAndAccounts::all(), &response).unwrap_err();
        assert!(matches!(error, Error::UnexpectedStatus { status: 502, .. }));
    }

    /// The auth token's copy in the `http::Request` wipes itself when its last handle
    /// goes, as the body does (it was a plain copy, freed as it was).
    #[test]
    fn the_auth_tokens_copy_for_http_wipes_itself() {
        use crate::request::wipes;

        let context = Context {
            auth_token: Some(AuthToken::new("tok.en").unwrap()),
            ..Context::new(Credentials::merchant(
                "11344".parse().unwrap(),
                SecureKey::new("key").unwrap(),
            ))
        };
        let base = BaseUrl::new("https://gw.example/").unwrap();
        let request = CardsAndAccounts::all().request(&context).unwrap();
        let http = request.to_http(&base).unwrap();
        drop(request);
        let token = http.headers()["authtoken"].clone();
        assert_eq!(token, "tok.en");

        let before = wipes::so_far();
        // The body's last handle: one wipe. The token's copy lives on in `token`.
        drop(http);
        assert_eq!(wipes::so_far(), before + 1);
        drop(token);
        assert_eq!(
            wipes::so_far(),
            before + 2,
            "the token's copy was not wiped"
        );
    }
}
