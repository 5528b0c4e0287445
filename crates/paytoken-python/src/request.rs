//! A signed request, as the caller's HTTP client sends it.

use paytoken_protocol::BaseUrl;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::errors::invalid;

/// A signed request: send `method` to `url(base_url)` with `headers` and `body`.
///
/// `repr` shows the operation, the path and the body's length: never the body (it holds
/// card numbers and the checksum) nor the auth token.
#[pyclass(frozen, module = "paytoken")]
#[derive(Debug)]
pub(crate) struct Request(pub(crate) paytoken_protocol::Request);

#[pymethods]
impl Request {
    /// `POST`.
    #[getter]
    fn method(&self) -> &'static str {
        self.0.method().as_str()
    }

    /// The path from the interface's root, such as `/transactionServices/REST/v1/payments`.
    #[getter]
    fn path(&self) -> &str {
        self.0.path()
    }

    /// The full URL: `base_url` (the deployment's, such as `https://gateway.example`)
    /// followed by the path.
    fn url(&self, base_url: &str) -> PyResult<String> {
        let base_url = BaseUrl::new(base_url).map_err(invalid)?;
        Ok(self.0.url(&base_url))
    }

    /// The headers, as `(name, value)` pairs: the content type, and `AuthToken` for every
    /// operation but the auth-token requests.
    #[getter]
    fn headers(&self) -> Vec<(&'static str, &str)> {
        self.0
            .headers()
            .iter()
            .map(|header| (header.name(), header.value()))
            .collect()
    }

    /// The form-encoded body.
    #[getter]
    fn body<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.0.body())
    }

    /// Which operation this is: `payment`, `inquiry`...
    #[getter]
    fn operation(&self) -> &'static str {
        self.0.operation().name()
    }

    /// Whether the request may be sent again after it may have reached the gateway: true
    /// for reads, never for a payment.
    #[getter]
    fn is_retry_safe(&self) -> bool {
        self.0.is_retry_safe()
    }

    fn __repr__(&self) -> String {
        format!(
            "Request({} POST {}, {} bytes)",
            self.0.operation().name(),
            self.0.path(),
            self.0.body().len()
        )
    }
}
