//! Interop with the `http` crate (feature `http`): a [`Request`] becomes an
//! `http::Request<Vec<u8>>`, an `http::Response<B>` is parsed by any operation.

use http::header::{HeaderName, HeaderValue};

use crate::ops::Operation;
use crate::{BaseUrl, Error, Request};

impl Request {
    /// The request for an `http`-speaking stack, sent to `base_url`. The auth-token header
    /// is marked sensitive (`HeaderValue::set_sensitive`), so `http`'s own `Debug` hides it.
    ///
    /// # Errors
    /// [`Error::Invalid`] for `baseUrl` when the URL does not make a valid URI.
    pub fn into_http(mut self, base_url: &BaseUrl) -> Result<http::Request<Vec<u8>>, Error> {
        let uri: http::Uri = self.url(base_url).parse().map_err(|_| Error::Invalid {
            field: "baseUrl",
            reason: "does not make a valid uri with this path",
        })?;
        let mut request = http::Request::new(core::mem::take(&mut self.body));
        *request.method_mut() = http::Method::POST;
        *request.uri_mut() = uri;
        let headers = request.headers_mut();
        for header in &self.headers {
            let name = HeaderName::from_static(static_lower(header.name));
            let mut value = HeaderValue::from_str(header.value()).map_err(|_| Error::Invalid {
                field: header.name,
                reason: "cannot be carried in an http header",
            })?;
            value.set_sensitive(header.is_sensitive());
            headers.append(name, value);
        }
        Ok(request)
    }
}

/// `HeaderName::from_static` wants lower case; our header names are constants.
fn static_lower(name: &'static str) -> &'static str {
    match name {
        "Content-Type" => "content-type",
        crate::AUTH_TOKEN_HEADER => "authtoken",
        other => other,
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
        let body = request.body.clone();
        let base = BaseUrl::new("https://gw.example/").unwrap();
        let http = request.into_http(&base).unwrap();
        assert_eq!(
            http.uri(),
            "https://gw.example/transactionServices/REST/v1/getCardsAndAccounts"
        );
        assert_eq!(http.method(), http::Method::POST);
        assert_eq!(http.body(), &body);
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
