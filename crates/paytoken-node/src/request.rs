//! A signed request, as the caller's HTTP client (`fetch`) sends it.

use napi::bindgen_prelude::Env;
use napi_derive::napi;
use paytoken_protocol::BaseUrl;

use crate::args::{self, Given};
use crate::errors::invalid;

/// A signed request: send `method` to `url(baseUrl)` with `headers` and `body`.
///
/// `toString` (and so `util.inspect`) shows the operation, the path and the body's length:
/// never the body (it holds card numbers and the checksum) nor the auth token.
#[napi]
#[derive(Debug)]
pub struct Request(pub(crate) paytoken_protocol::Request);

#[napi]
impl Request {
    /// `POST`.
    #[napi(getter, ts_return_type = "'POST'")]
    pub fn method(&self) -> &'static str {
        self.0.method().as_str()
    }

    /// The path from the interface's root, such as `/transactionServices/REST/v1/payments`.
    #[napi(getter)]
    pub fn path(&self) -> String {
        self.0.path().to_owned()
    }

    /// The full URL: `baseUrl` (the deployment's, such as `https://gateway.example`)
    /// followed by the path.
    #[napi]
    pub fn url(
        &self,
        env: &Env,
        #[napi(ts_arg_type = "string")] base_url: Given<'_, String>,
    ) -> napi::Result<String> {
        let base_url = args::text(env, base_url, "baseUrl")?;
        let base_url = BaseUrl::new(&base_url).map_err(|error| invalid(env, error))?;
        Ok(self.0.url(&base_url))
    }

    /// The headers, as `[name, value]` pairs (which `fetch` takes as they are): the
    /// content type, and `AuthToken` for every operation but the auth-token requests.
    #[napi(getter)]
    pub fn headers(&self) -> Vec<(String, String)> {
        (self.0.headers().iter())
            .map(|header| (header.name().to_owned(), header.value().to_owned()))
            .collect()
    }

    /// The form-encoded body, as `fetch` sends it.
    #[napi(getter)]
    pub fn body(&self) -> String {
        // The form's encoding writes ASCII alone: no byte is replaced.
        String::from_utf8_lossy(self.0.body()).into_owned()
    }

    /// Which operation this is: `pay`, `inquiry`... (as `Operation.name` says it).
    #[napi(getter)]
    pub fn operation(&self) -> &'static str {
        self.0.operation().name()
    }

    /// Whether the request may be sent again after it may have reached the gateway: true
    /// for reads, never for a payment.
    #[napi(getter)]
    pub fn is_retry_safe(&self) -> bool {
        self.0.is_retry_safe()
    }

    /// `Request(<operation> POST <path>, <n> bytes)`.
    #[napi(js_name = "toString")]
    pub fn shown(&self) -> String {
        format!(
            "Request({} POST {}, {} bytes)",
            self.0.operation().name(),
            self.0.path(),
            self.0.body().len()
        )
    }
}
