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
use crate::{
    AUTH_TOKEN_HEADER, AuthToken, BaseUrl, Body, Error, FORM_CONTENT_TYPE, Header, Method, Request,
};

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
    let mut value = match header.token() {
        // A handle on the token itself, not a copy: the token is wiped when its last
        // handle, the request's or the one the stack that sends it holds, is dropped.
        Some(token) => HeaderValue::from_maybe_shared(Bytes::from_owner(TokenBytes(token.clone())))
            .map_err(|_| unfit())?,
        None if header.value() == FORM_CONTENT_TYPE => HeaderValue::from_static(FORM_CONTENT_TYPE),
        None => HeaderValue::from_str(header.value()).map_err(|_| unfit())?,
    };
    value.set_sensitive(header.is_sensitive());
    Ok((name, value))
}

/// The auth token as the bytes of an `http` header value (`Bytes::from_owner`), kept out
/// of `AuthToken`'s own API so that no `AsRef` there hands the secret around.
struct TokenBytes(AuthToken);

impl AsRef<[u8]> for TokenBytes {
    fn as_ref(&self) -> &[u8] {
        self.0.expose_secret().as_bytes()
    }
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

    /// The `http::Request` holds a handle on the auth token itself, not a copy of it, so the
    /// token is wiped when that handle is the last to go (it held a plain copy, freed
    /// unwiped).
    #[test]
    fn the_http_request_shares_the_auth_token_rather_than_copying_it() {
        let token = AuthToken::new("tok.en").unwrap();
        let context = Context {
            auth_token: Some(token.clone()),
            ..Context::new(Credentials::merchant(
                "11344".parse().unwrap(),
                SecureKey::new("key").unwrap(),
            ))
        };
        let base = BaseUrl::new("https://gw.example/").unwrap();
        let request = CardsAndAccounts::all().request(&context).unwrap();
        drop(context);
        // Ours, and the request's header.
        assert_eq!(token.handles(), 2);
        let http = request.to_http(&base).unwrap();
        drop(request);
        assert_eq!(
            token.handles(),
            2,
            "the http request's header shares the token"
        );
        let value = http.headers()["authtoken"].clone();
        assert_eq!(value, "tok.en");
        assert!(value.is_sensitive());
        drop(http);
        assert_eq!(
            token.handles(),
            2,
            "a clone of the header value shares it too"
        );
        drop(value);
        assert_eq!(token.handles(), 1);
    }
}
