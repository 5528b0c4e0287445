//! Interop with the `http` crate (feature `http`): a [`Request`] becomes an
//! `http::Request<Vec<u8>>`, an `http::Response<B>` is parsed by any operation.

use http::header::{HeaderName, HeaderValue};

use crate::ops::Operation;
use crate::{BaseUrl, Body, Error, Method, Request};

impl Request {
    /// The request for an `http`-speaking stack, sent to `base_url`. Its body is the
    /// request's own [`Body`], which wipes itself when the `http::Request` is dropped; the
    /// auth-token header is marked sensitive (`HeaderValue::set_sensitive`), so `http`'s
    /// own `Debug` hides it.
    ///
    /// # Errors
    /// [`Error::Invalid`] for `baseUrl` when the URL does not make a valid URI, or for a
    /// header that cannot be carried in HTTP.
    pub fn into_http(self, base_url: &BaseUrl) -> Result<http::Request<Body>, Error> {
        let uri: http::Uri = self.url(base_url).parse().map_err(|_| Error::Invalid {
            field: "baseUrl",
            reason: "does not make a valid uri with this path",
        })?;
        let (method, _, headers, body) = self.into_parts();
        let mut request = http::Request::new(body);
        *request.method_mut() = match method {
            Method::Post => http::Method::POST,
        };
        *request.uri_mut() = uri;
        let unfit = |field| Error::Invalid {
            field,
            reason: "cannot be carried in an http header",
        };
        for header in &headers {
            // `from_bytes` takes any case and stores it lower-cased, as HTTP/2 needs.
            let name = HeaderName::from_bytes(header.name().as_bytes())
                .map_err(|_| unfit(header.name()))?;
            let mut value =
                HeaderValue::from_str(header.value()).map_err(|_| unfit(header.name()))?;
            value.set_sensitive(header.is_sensitive());
            request.headers_mut().append(name, value);
        }
        Ok(request)
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
    fn converts_both_ways() {
        let context = Context::new(Credentials::merchant(
            "11344".parse().unwrap(),
            SecureKey::new("key").unwrap(),
        ))
        .with_auth_token(AuthToken::new("tok.en").unwrap());
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
        assert_eq!(http.headers()["content-type"], crate::FORM_CONTENT_TYPE);

        let response = http::Response::builder()
            .status(502)
            .body(b"<html>bad gateway</html>".to_vec())
            .unwrap();
        let error = parse_http(&CardsAndAccounts::all(), &response).unwrap_err();
        assert!(matches!(error, Error::UnexpectedStatus { status: 502, .. }));
    }
}
