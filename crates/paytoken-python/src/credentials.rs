//! Who signs: the secure key, the merchant's or partner's credentials, and the context a
//! request is built in (credentials, account and terminal, auth token). Each masks its
//! secrets in `repr` and `str`.

use paytoken_protocol::AuthToken;
use pyo3::prelude::*;

use crate::errors::invalid;

/// A secure key: what signs every request. Shown as `SecureKey(***)`.
///
/// The text handed in is a Python `str`, which Python may keep and cannot wipe; the copy
/// paytoken keeps is wiped when it is dropped.
#[pyclass(frozen, module = "paytoken")]
#[derive(Debug, Clone)]
pub(crate) struct SecureKey(pub(crate) paytoken_checksum::SecureKey);

#[pymethods]
impl SecureKey {
    #[new]
    fn new(key: String) -> PyResult<Self> {
        paytoken_checksum::SecureKey::new(key)
            .map(Self)
            .map_err(invalid)
    }

    fn __repr__(&self) -> &'static str {
        "SecureKey(***)"
    }

    fn __str__(&self) -> &'static str {
        "***"
    }
}

/// A merchant's or a partner's id with its secure key.
#[pyclass(frozen, module = "paytoken")]
#[derive(Debug, Clone)]
pub(crate) struct Credentials(pub(crate) paytoken_checksum::Credentials);

#[pymethods]
impl Credentials {
    /// A merchant's: its member id (`authentication.memberId`) and secure key.
    #[staticmethod]
    fn merchant(member_id: &str, key: &SecureKey) -> PyResult<Self> {
        let id = member_id.parse().map_err(invalid)?;
        Ok(Self(paytoken_checksum::Credentials::merchant(
            id,
            key.0.clone(),
        )))
    }

    /// A partner's: its partner id (`authentication.partnerId`) and secure key.
    #[staticmethod]
    fn partner(partner_id: &str, key: &SecureKey) -> PyResult<Self> {
        let id = partner_id.parse().map_err(invalid)?;
        Ok(Self(paytoken_checksum::Credentials::partner(
            id,
            key.0.clone(),
        )))
    }

    /// The member or partner id.
    #[getter]
    fn id(&self) -> &str {
        self.0.id()
    }

    fn __repr__(&self) -> String {
        format!("Credentials({}, SecureKey(***))", self.0.id())
    }
}

/// What a request is built in: the credentials, `authentication.accountId` and
/// `terminalId` where the interface takes them, and the auth token of the `AuthToken`
/// header (left out of the auth-token requests).
#[pyclass(frozen, module = "paytoken")]
#[derive(Debug, Clone)]
pub(crate) struct Context(pub(crate) paytoken_protocol::Context);

#[pymethods]
impl Context {
    #[new]
    #[pyo3(signature = (credentials, *, auth_token=None, account_id=None, terminal_id=None))]
    fn new(
        credentials: &Credentials,
        auth_token: Option<&str>,
        account_id: Option<&str>,
        terminal_id: Option<&str>,
    ) -> PyResult<Self> {
        let mut context = paytoken_protocol::Context::new(credentials.0.clone());
        context.auth_token = auth_token
            .map(AuthToken::new)
            .transpose()
            .map_err(invalid)?;
        context.account_id = account_id.map(str::parse).transpose().map_err(invalid)?;
        context.terminal_id = terminal_id.map(str::parse).transpose().map_err(invalid)?;
        Ok(Self(context))
    }

    fn __repr__(&self) -> String {
        let token = if self.0.auth_token.is_some() {
            "***"
        } else {
            "None"
        };
        format!("Context({}, auth_token={token})", self.0.credentials.id())
    }
}
