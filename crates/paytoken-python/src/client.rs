//! `paytoken.Client`: the Rust client (`paytoken-hyper`) as Python sees it. Every method
//! takes what the module's function of its operation takes (`client.pay(...)` what
//! `paytoken.payment(...)` does) and returns that operation's answer; the HTTP, the auth
//! token, the retries and the settling of a lost answer are the Rust client's.

use std::io::Read as _;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use paytoken_hyper::{ClientBuilder, Proxy, environment};
use paytoken_protocol::call;
use paytoken_protocol::recorded::{AnyOperation, Reading};
use paytoken_protocol::{AuthToken, BaseUrl, Username};
use paytoken_types::MerchantTransactionId;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString, PyTuple};

use crate::answer;
use crate::credentials::SecureKey;
use crate::errors::{InvalidInput, invalid, raised_call};
use crate::operation::Operation;
use crate::runtime::{self, runtime};

/// The most bytes read of a file of root certificates: a whole system bundle is some
/// hundred KiB.
const ROOT_CERTIFICATES_BYTES: u64 = 4 * 1024 * 1024;

/// The variable Python's and OpenSSL's users name a file of root certificates with; read
/// besides the command's own.
const SSL_CERT_FILE: &str = "SSL_CERT_FILE";

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
    built: Mutex<Built>,
}

/// The client of one process: a forked child builds its own.
struct Built {
    pid: u32,
    client: paytoken_hyper::Client,
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
            built: Mutex::new(Built {
                pid: std::process::id(),
                client,
            }),
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
        self.forward(py, "payment", args, kwargs)
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
        self.forward(py, "token_payment", args, kwargs)
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
        self.forward(py, "repeat_payment", args, kwargs)
    }

    /// A capture of a pre-authorisation: `paytoken.capture`'s arguments.
    #[pyo3(signature = (*args, **kwargs))]
    fn capture(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.forward(py, "capture", args, kwargs)
    }

    /// A refund: `paytoken.refund`'s arguments.
    #[pyo3(signature = (*args, **kwargs))]
    fn refund(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.forward(py, "refund", args, kwargs)
    }

    /// A cancel of a pre-authorisation: `paytoken.cancel`'s arguments.
    #[pyo3(signature = (*args, **kwargs))]
    fn cancel(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.forward(py, "cancel", args, kwargs)
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
        self.forward(py, "inquiry", args, kwargs)
    }

    /// What became of the payment of the order `merchant_transaction_id`, by inquiry: its
    /// `Transaction`. Raises `Refused` when the gateway holds no such payment.
    fn reconcile(&self, py: Python<'_>, merchant_transaction_id: &str) -> PyResult<Py<PyAny>> {
        let id = MerchantTransactionId::new(merchant_transaction_id).map_err(invalid)?;
        let client = self.client()?;
        let found = runtime::wait_read(py, async move { client.reconcile(&id).await })?;
        let found = found.map_err(raised_call)?;
        answer::reading(py, Reading::Transaction(Box::new(found)), None)
    }

    /// A card stored as a token: `paytoken.register_card`'s arguments. `Registered`.
    #[pyo3(signature = (*args, **kwargs))]
    fn register_card(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.forward(py, "register_card", args, kwargs)
    }

    /// A bank account stored as a token: `paytoken.register_bank_account`'s arguments.
    #[pyo3(signature = (*args, **kwargs))]
    fn register_bank_account(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.forward(py, "register_bank_account", args, kwargs)
    }

    /// A customer signed up: `paytoken.customer_signup`'s arguments. `SignedUp`.
    #[pyo3(signature = (*args, **kwargs))]
    fn customer_signup(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.forward(py, "customer_signup", args, kwargs)
    }

    /// A token deleted: `paytoken.delete_token`'s arguments. `Deleted`.
    #[pyo3(signature = (*args, **kwargs))]
    fn delete_token(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.forward(py, "delete_token", args, kwargs)
    }

    /// A token's installment counts, as a list: `paytoken.installments`'s arguments.
    #[pyo3(signature = (*args, **kwargs))]
    fn installments(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.forward(py, "installments", args, kwargs)
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
        self.forward(py, "cards_and_accounts", args, kwargs)
    }

    /// One page of the invoice list: `paytoken.invoice_list`'s arguments. `InvoicePage`.
    #[pyo3(signature = (*args, **kwargs))]
    fn invoice_page(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        self.forward(py, "invoice_list", args, kwargs)
    }

    /// Every invoice, asking for `records` a page until the list ends: a list of
    /// `Invoice`, held in memory whole.
    #[pyo3(signature = (*, records=100))]
    fn all_invoices(&self, py: Python<'_>, records: u32) -> PyResult<Py<PyAny>> {
        let client = self.client()?;
        let listed = runtime::wait_read(py, async move { client.all_invoices(records).await })?;
        answer::invoice_list(py, listed.map_err(raised_call)?)
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
        self.forward(py, "fetch_auth_token", args, kwargs)
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
        self.forward(py, "regenerate_auth_token", args, kwargs)
    }

    /// Any operation the module's functions built (`paytoken.payment(...)`): its answer.
    fn send(&self, py: Python<'_>, operation: &Bound<'_, Operation>) -> PyResult<Py<PyAny>> {
        self.call(py, operation.get().operation.clone())
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
    /// The client of this process: the one built here, or a new one in a forked child,
    /// whose parent's (pool, connections, auth token) is left as it is, never dropped.
    fn client(&self) -> PyResult<paytoken_hyper::Client> {
        let pid = std::process::id();
        let mut built = self.built.lock().unwrap_or_else(PoisonError::into_inner);
        if built.pid != pid {
            let client = build(self.builder.clone())?;
            let parents = std::mem::replace(&mut *built, Built { pid, client });
            std::mem::forget(parents);
        }
        Ok(built.client.clone())
    }

    /// The operation the module's function `name` makes of `args`, sent.
    fn forward(
        &self,
        py: Python<'_>,
        name: &str,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        let made = py
            .import("paytoken._paytoken")?
            .getattr(name)?
            .call(args, kwargs)?;
        let operation = made.cast::<Operation>()?.get().operation.clone();
        self.call(py, operation)
    }

    /// `operation` sent with the client of this process: its answer as Python sees it.
    fn call(&self, py: Python<'_>, mut operation: AnyOperation) -> PyResult<Py<PyAny>> {
        named(&mut operation);
        let client = self.client()?;
        let kind = operation.kind();
        let done = if kind.is_retry_safe() {
            runtime::wait_read(py, async move { client.send(&operation).await })?
        } else {
            let (what, then) = interrupted(&operation);
            let future = async move { client.send(&operation).await };
            runtime::wait_change(py, future, what, &then, outcome)?
        };
        answer::reading(py, done.map_err(raised_call)?, None)
    }
}

/// A token payment or repeat without an order id given one, so that the exception of an
/// interrupted or lost call can name it.
fn named(operation: &mut AnyOperation) {
    match operation {
        AnyOperation::TokenPayment(payment) if payment.merchant_transaction_id.is_none() => {
            payment.merchant_transaction_id = Some(paytoken_hyper::new_merchant_transaction_id());
        }
        AnyOperation::RepeatPayment(payment) if payment.merchant_transaction_id.is_none() => {
            payment.merchant_transaction_id = Some(paytoken_hyper::new_merchant_transaction_id());
        }
        _ => {}
    }
}

/// What an interrupted call is, for the log, and what settles it, for the exception.
fn interrupted(operation: &AnyOperation) -> (String, String) {
    let name = operation.kind().name();
    let order = match operation {
        AnyOperation::Payment(payment) => Some(&payment.merchant_transaction_id),
        AnyOperation::TokenPayment(payment) => payment.merchant_transaction_id.as_ref(),
        AnyOperation::RepeatPayment(payment) => payment.merchant_transaction_id.as_ref(),
        _ => None,
    };
    let payment = match operation {
        AnyOperation::Capture(capture) => Some(&capture.payment_id),
        AnyOperation::Refund(refund) => Some(&refund.payment_id),
        AnyOperation::Cancel(cancel) => Some(&cancel.payment_id),
        _ => None,
    };
    match (order, payment) {
        (Some(order), _) => (
            format!("{name} of order {order}"),
            format!("client.reconcile({:?}) says how it went", order.as_str()),
        ),
        (None, Some(payment)) => (
            format!("{name} of payment {payment}"),
            format!(
                "client.inquiry(payment_id={:?}) says how it went",
                payment.to_string()
            ),
        ),
        (None, None) => (
            name.to_owned(),
            "its outcome is logged under the paytoken logger".to_owned(),
        ),
    }
}

/// How a call that went on after an interruption ended, in words for the log.
fn outcome(done: &Result<Reading, call::Error>) -> String {
    match done {
        Ok(Reading::Transaction(paid)) => {
            format!("{} (payment {})", paid.status.name(), paid.payment_id)
        }
        Ok(_) => "done".to_owned(),
        Err(error) => error.to_string(),
    }
}

/// The client `builder` builds, in the runtime (whose timer and I/O its pool uses).
fn build(builder: ClientBuilder) -> PyResult<paytoken_hyper::Client> {
    let _entered = runtime()?.enter();
    builder.build().map_err(raised_call)
}

/// `value`, else the environment's `variable` when set and not blank.
fn given(value: Option<String>, variable: &str) -> Option<String> {
    value.or_else(|| {
        std::env::var(variable)
            .ok()
            .filter(|set| !set.trim().is_empty())
    })
}

/// `InvalidInput` for a required setting neither given nor in the environment.
fn missing(field: &'static str, variable: &str) -> PyErr {
    let raised = InvalidInput::new_err(format!(
        "{field}: is required: give {field}= or set {variable}"
    ));
    Python::attach(|py| {
        let value = raised.value(py);
        let facts = value
            .setattr("field", field)
            .and_then(|()| value.setattr("may_have_been_processed", false));
        match facts {
            Ok(()) => raised,
            Err(failed) => failed,
        }
    })
}

/// A duration of `seconds`, longer than zero.
fn duration(seconds: f64, field: &'static str) -> PyResult<Duration> {
    Duration::try_from_secs_f64(seconds)
        .ok()
        .filter(|duration| !duration.is_zero())
        .ok_or_else(|| crate::errors::invalid_field(field, "is a number of seconds above zero"))
}

/// The proxy setting: `None` (the environment's `HTTPS_PROXY` and `NO_PROXY`), `False`
/// (none), or a proxy's URL.
fn proxy(proxy: Option<&Bound<'_, PyAny>>) -> PyResult<Proxy> {
    match proxy {
        None => Ok(Proxy::FromEnvironment),
        Some(off) if off.is_instance_of::<PyBool>() && !off.is_truthy()? => Ok(Proxy::Direct),
        Some(url) => match url.cast::<PyString>() {
            Ok(url) => Ok(Proxy::Url(url.to_cow()?.into_owned())),
            Err(_) => Err(crate::errors::invalid_field(
                "proxy",
                "is a proxy's URL, or False for none",
            )),
        },
    }
}

/// The PEM texts of the root certificates to trust besides the built-in ones: the file
/// given, else the files `PAYTOKEN_ROOT_CERTIFICATE` and `SSL_CERT_FILE` name.
fn root_certificate_files(given: Option<PathBuf>) -> PyResult<Vec<Vec<u8>>> {
    let files: Vec<PathBuf> = match given {
        Some(path) => vec![path],
        None => [environment::ROOT_CERTIFICATE, SSL_CERT_FILE]
            .into_iter()
            .filter_map(|variable| self::given(None, variable))
            .map(PathBuf::from)
            .collect(),
    };
    files
        .into_iter()
        .map(|path| {
            let cannot = |reason: String| {
                InvalidInput::new_err(format!(
                    "root_certificates: cannot read {}: {reason}",
                    path.display()
                ))
            };
            let file = std::fs::File::open(&path).map_err(|error| cannot(error.to_string()))?;
            let mut pem = Vec::new();
            file.take(ROOT_CERTIFICATES_BYTES + 1)
                .read_to_end(&mut pem)
                .map_err(|error| cannot(error.to_string()))?;
            if u64::try_from(pem.len()).unwrap_or(u64::MAX) > ROOT_CERTIFICATES_BYTES {
                return Err(cannot("larger than 4 MiB".to_owned()));
            }
            Ok(pem)
        })
        .collect()
}
