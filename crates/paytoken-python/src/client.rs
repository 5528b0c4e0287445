//! `paytoken.Client`: the Rust client (`paytoken-hyper`) as Python sees it. Every method
//! takes what the module's function of its operation takes (`client.pay(...)` what
//! `paytoken.payment(...)` does) and returns that operation's answer; the HTTP, the auth
//! token, the retries and the settling of a lost answer are the Rust client's.

use std::path::PathBuf;

use paytoken_hyper::{ClientBuilder, environment};
use paytoken_protocol::{AuthToken, BaseUrl, Username};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::awaiting;
use crate::call::{self, Call};
use crate::credentials::SecureKey;
use crate::errors::{invalid, raised_call};
use crate::per_process::PerProcess;
use crate::runtime::{self, runtime};
use crate::settings::{duration, given, missing, proxy, root_certificate_files};

/// A client of the gateway: pooled HTTPS, auth tokens fetched and renewed, retries that
/// never send a payment twice, and a lost answer settled by inquiry before a call returns
/// (`settle_lost_answers`, on by default). Safe to share between threads.
#[pyclass(frozen, module = "paytoken")]
pub(crate) struct Client {
    /// What builds the client again in a forked child.
    builder: ClientBuilder,
    base_url: String,
    /// `merchant 11344` or `partner 100`, for `repr`.
    caller: String,
    /// The client of this process: a forked child builds its own.
    built: PerProcess<paytoken_hyper::Client>,
}

#[pymethods]
impl Client {
    #[new]
    #[pyo3(signature = (
        base_url=None, *, member_id=None, partner_id=None, secure_key=None, username=None,
        auth_token=None, account_id=None, terminal_id=None, timeout=None, connect_timeout=None,
        allow_http=false, root_certificates=None, proxy=None, settle_lost_answers=true,
    ))]
    #[expect(
        clippy::too_many_arguments,
        reason = "Python's keyword arguments: each is a setting of the client"
    )]
    fn new(
        base_url: Option<String>,
        member_id: Option<String>,
        partner_id: Option<String>,
        secure_key: Option<&Bound<'_, PyAny>>,
        username: Option<String>,
        auth_token: Option<String>,
        account_id: Option<String>,
        terminal_id: Option<String>,
        timeout: Option<f64>,
        connect_timeout: Option<f64>,
        allow_http: bool,
        root_certificates: Option<PathBuf>,
        proxy: Option<&Bound<'_, PyAny>>,
        settle_lost_answers: bool,
    ) -> PyResult<Self> {
        let base_url = given(base_url, environment::BASE_URL)
            .ok_or_else(|| missing("base_url", environment::BASE_URL))?;
        let url = BaseUrl::new(&base_url).map_err(invalid)?;
        if !url.is_https() && !url.is_loopback() && !allow_http {
            return Err(invalid(paytoken_protocol::Error::Invalid {
                field: "base_url",
                reason: "is plain http and not a loopback address; card data needs https (allow_http=True to insist)",
            }));
        }
        let key = match secure_key {
            Some(key) => match key.cast::<SecureKey>() {
                Ok(key) => key.get().0.clone(),
                Err(_) => {
                    paytoken_checksum::SecureKey::new(key.extract::<String>()?).map_err(invalid)?
                }
            },
            None => {
                let key = given(None, environment::SECURE_KEY)
                    .ok_or_else(|| missing("secure_key", environment::SECURE_KEY))?;
                paytoken_checksum::SecureKey::new(key).map_err(invalid)?
            }
        };
        let member_id = given(member_id, environment::MEMBER_ID);
        let partner_id = given(partner_id, environment::PARTNER_ID);
        let (credentials, caller) = match (&member_id, &partner_id) {
            (Some(member), _) => (
                paytoken_checksum::Credentials::merchant(member.parse().map_err(invalid)?, key),
                format!("merchant {member}"),
            ),
            (None, Some(partner)) => (
                paytoken_checksum::Credentials::partner(partner.parse().map_err(invalid)?, key),
                format!("partner {partner}"),
            ),
            (None, None) => return Err(missing("member_id", environment::MEMBER_ID)),
        };
        let mut builder = paytoken_hyper::Client::builder()
            .base_url(base_url.as_str())
            .allow_http(!url.is_https())
            .credentials(credentials)
            .settle_lost_answers(settle_lost_answers);
        if let Some(account) = given(account_id, environment::ACCOUNT_ID) {
            builder = builder.account_id(account.parse().map_err(invalid)?);
        }
        if let Some(terminal) = given(terminal_id, environment::TERMINAL_ID) {
            builder = builder.terminal_id(terminal.parse().map_err(invalid)?);
        }
        let username = given(username, environment::USERNAME);
        match (
            given(auth_token, environment::AUTH_TOKEN),
            partner_id,
            username,
        ) {
            (Some(token), _, _) => {
                builder = builder.auth_token(AuthToken::new(token.trim()).map_err(invalid)?);
            }
            (None, Some(partner), Some(username)) => {
                let partner = partner.parse().map_err(invalid)?;
                let username = Username::new(username).map_err(invalid)?;
                builder = builder.fetch_auth_token(partner, username);
            }
            // No token and no way to fetch one: the calls go without, as asked.
            _ => {}
        }
        if let Some(seconds) = timeout {
            builder = builder.request_timeout(duration(seconds, "timeout")?);
        }
        if let Some(seconds) = connect_timeout {
            builder = builder.connect_timeout(duration(seconds, "connect_timeout")?);
        }
        builder = builder.proxy(self::proxy(proxy)?);
        for pem in root_certificate_files(root_certificates)? {
            builder = builder.add_root_certificates_pem(pem);
        }
        let client = build(builder.clone())?;
        Ok(Self {
            builder,
            base_url,
            caller,
            built: PerProcess::made(client),
        })
    }

    /// A payment with a card: `paytoken.payment`'s arguments. A `Transaction`.
    #[pyo3(signature = (*args, **kwargs))]
    fn pay(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.waited(py, Call::of(py, "pay", args, kwargs)?)
    }

    /// A payment with a stored token: `paytoken.token_payment`'s arguments. A
    /// `Transaction`. Without a `merchant_transaction_id` one is made, which a lost
    /// answer's exception names.
    #[pyo3(signature = (*args, **kwargs))]
    fn pay_with_token(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.waited(py, Call::of(py, "pay_with_token", args, kwargs)?)
    }

    /// A repeat of a recurring series: `paytoken.repeat_payment`'s arguments. A
    /// `Transaction`.
    #[pyo3(signature = (*args, **kwargs))]
    fn repeat_payment(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.waited(py, Call::of(py, "repeat_payment", args, kwargs)?)
    }

    /// A capture of a pre-authorisation: `paytoken.capture`'s arguments.
    #[pyo3(signature = (*args, **kwargs))]
    fn capture(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.waited(py, Call::of(py, "capture", args, kwargs)?)
    }

    /// A refund: `paytoken.refund`'s arguments.
    #[pyo3(signature = (*args, **kwargs))]
    fn refund(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.waited(py, Call::of(py, "refund", args, kwargs)?)
    }

    /// A cancel of a pre-authorisation: `paytoken.cancel`'s arguments.
    #[pyo3(signature = (*args, **kwargs))]
    fn cancel(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.waited(py, Call::of(py, "cancel", args, kwargs)?)
    }

    /// An inquiry by `payment_id` or `merchant_transaction_id`: its `Transaction`, whose
    /// `is_approved` is the ship / don't-ship decision.
    #[pyo3(signature = (*args, **kwargs))]
    fn inquiry(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.waited(py, Call::of(py, "inquiry", args, kwargs)?)
    }

    /// What became of the payment of the order `merchant_transaction_id`, by inquiry: its
    /// `Transaction`. Raises `Refused` when the gateway holds no such payment.
    #[pyo3(signature = (*args, **kwargs))]
    fn reconcile(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.waited(py, Call::of(py, "reconcile", args, kwargs)?)
    }

    /// A card stored as a token: `paytoken.register_card`'s arguments. `Registered`.
    #[pyo3(signature = (*args, **kwargs))]
    fn register_card(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.waited(py, Call::of(py, "register_card", args, kwargs)?)
    }

    /// A bank account stored as a token: `paytoken.register_bank_account`'s arguments.
    #[pyo3(signature = (*args, **kwargs))]
    fn register_bank_account(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.waited(py, Call::of(py, "register_bank_account", args, kwargs)?)
    }

    /// A customer signed up: `paytoken.customer_signup`'s arguments. `SignedUp`.
    #[pyo3(signature = (*args, **kwargs))]
    fn customer_signup(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.waited(py, Call::of(py, "customer_signup", args, kwargs)?)
    }

    /// A token deleted: `paytoken.delete_token`'s arguments. `Deleted`.
    #[pyo3(signature = (*args, **kwargs))]
    fn delete_token(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.waited(py, Call::of(py, "delete_token", args, kwargs)?)
    }

    /// A token's installment counts, as a list: `paytoken.installments`'s arguments.
    #[pyo3(signature = (*args, **kwargs))]
    fn installments(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.waited(py, Call::of(py, "installments", args, kwargs)?)
    }

    /// The stored cards and accounts: `paytoken.cards_and_accounts`'s arguments.
    /// `StoredRegistrations`.
    #[pyo3(signature = (*args, **kwargs))]
    fn cards_and_accounts(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.waited(py, Call::of(py, "cards_and_accounts", args, kwargs)?)
    }

    /// One page of the invoice list: `paytoken.invoice_list`'s arguments. `InvoicePage`.
    #[pyo3(signature = (*args, **kwargs))]
    fn invoice_page(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.waited(py, Call::of(py, "invoice_page", args, kwargs)?)
    }

    /// Every invoice, asking for `records` (100 unless given) a page until the list ends:
    /// a list of `Invoice`, held in memory whole.
    #[pyo3(signature = (*args, **kwargs))]
    fn all_invoices(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.waited(py, Call::of(py, "all_invoices", args, kwargs)?)
    }

    /// An auth token fetched with a login name: `paytoken.fetch_auth_token`'s arguments.
    /// The client keeps its own.
    #[pyo3(signature = (*args, **kwargs))]
    fn fetch_auth_token(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.waited(py, Call::of(py, "fetch_auth_token", args, kwargs)?)
    }

    /// A still-valid auth token exchanged for a fresh one:
    /// `paytoken.regenerate_auth_token`'s arguments.
    #[pyo3(signature = (*args, **kwargs))]
    fn regenerate_auth_token(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.waited(py, Call::of(py, "regenerate_auth_token", args, kwargs)?)
    }

    /// Any operation the module's functions built (`paytoken.payment(...)`): its answer.
    #[pyo3(signature = (*args, **kwargs))]
    fn send(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.waited(py, Call::of(py, "send", args, kwargs)?)
    }

    /// The call of the method `method` started for `AsyncClient`: an `asyncio` future of the
    /// running loop.
    fn _start(
        &self,
        py: Python<'_>,
        method: &str,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        awaiting::start(py, self.client()?, Call::of(py, method, args, kwargs)?)
    }

    /// The methods that call the gateway, by name: what `AsyncClient` awaits.
    #[classattr]
    fn calls() -> Vec<&'static str> {
        call::methods()
    }

    /// The gateway's base URL.
    #[getter]
    fn base_url(&self) -> &str {
        &self.base_url
    }

    fn __repr__(&self) -> String {
        format!("Client({}, {}, secure_key=***)", self.base_url, self.caller)
    }
}

impl Client {
    /// The client of this process: the one built here, or a new one in a forked child.
    fn client(&self) -> PyResult<paytoken_hyper::Client> {
        self.built.get_or_make(|| build(self.builder.clone()))
    }

    /// `call` made, waited for with the GIL released: its answer.
    fn waited(&self, py: Python<'_>, call: Call) -> PyResult<Py<PyAny>> {
        let client = self.client()?;
        let outcome = if call.changes() {
            let (what, then) = call.described();
            runtime::wait_change(py, call.run(client), what, &then, call::outcome_in_words)?
        } else {
            runtime::wait_read(py, call.run(client))?
        };
        call::answered(py, outcome)
    }
}

/// The client `builder` builds, in the runtime (whose timer and I/O its pool uses).
fn build(builder: ClientBuilder) -> PyResult<paytoken_hyper::Client> {
    let _entered = runtime()?.enter();
    builder.build().map_err(raised_call)
}
