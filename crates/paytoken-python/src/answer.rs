//! The answers, as Python objects: what decides them, and the incidental fields as the
//! gateway sent them.

use paytoken_protocol::Context;
use paytoken_protocol::ops::auth_token::AuthTokenGrant as Grant;
use paytoken_protocol::ops::cards_and_accounts::StoredRegistrations as Listed;
use paytoken_protocol::ops::customer_signup::SignedUp as Created;
use paytoken_protocol::ops::delete_token::Deleted as Gone;
use paytoken_protocol::ops::installments::InstallmentPlans as Plans;
use paytoken_protocol::ops::invoice_list::InvoicePage as Page;
use paytoken_protocol::ops::registration::Registered as Stored;
use paytoken_protocol::recorded::Reading;
use paytoken_protocol::redact;
use paytoken_protocol::{FieldValue as _, Transaction as Paid};
use pyo3::prelude::*;

use crate::errors::PaytokenError;

/// An answer as Python sees it: a `Transaction` (the payments, the back office's moves, an
/// inquiry), an `AuthTokenGrant`, `Registered`, `SignedUp`, `Deleted`,
/// `StoredRegistrations`, `InvoicePage`, or the installment counts as a list.
///
/// A description is redacted, the secure key and auth token of `context` (the request's)
/// among what is masked; its `raw_result_description()` returns it as the gateway sent it.
pub(crate) fn reading(
    py: Python<'_>,
    reading: Reading,
    context: Option<&Context>,
) -> PyResult<Py<PyAny>> {
    match reading {
        Reading::Transaction(paid) => transaction(py, *paid, context),
        Reading::AuthToken(made) => grant(py, made),
        Reading::Registered(stored) => registered(py, stored, context),
        Reading::SignedUp(created) => signed_up(py, created, context),
        Reading::Deleted(gone) => deleted(py, gone, context),
        Reading::Installments(plans) => installments(py, plans),
        Reading::CardsAndAccounts(listed) => stored(py, listed),
        Reading::Invoices(page) => invoices(py, page),
        _ => Err(PaytokenError::new_err(
            "an answer of an operation this version of the binding does not know",
        )),
    }
}

/// A transaction the gateway created: a payment, a token payment, a capture, refund or
/// cancel, or the one an inquiry found.
#[pyclass(frozen, module = "paytoken")]
#[derive(Debug, Clone)]
pub(crate) struct Transaction {
    /// `paymentId`.
    #[pyo3(get)]
    payment_id: String,
    /// What became of it: `approved`, `pending`, `three_d_secure`, `declined`,
    /// `cancelled`, `refunded`, `charged_back` or `unknown`.
    #[pyo3(get)]
    status: &'static str,
    /// Whether the money moved (or is reserved) and stays with the merchant: the one
    /// ship / don't-ship decision.
    #[pyo3(get)]
    is_approved: bool,
    /// The result code (`00001`...), empty when the answer had none.
    #[pyo3(get)]
    result_code: String,
    /// The result's description, redacted: the secure key, the auth token, card numbers
    /// and IBANs masked, cut to 200 characters.
    #[pyo3(get)]
    result_description: String,
    /// The description as the gateway sent it: `raw_result_description()`.
    raw_result_description: String,
    /// `transactionStatus`, the short status (`Y`, `N`, `P`, `3D`, `C`), when it came.
    #[pyo3(get)]
    transaction_status: Option<String>,
    /// `merchantTransactionId`: the shop's own order id.
    #[pyo3(get)]
    merchant_transaction_id: Option<String>,
    /// `registrationId`: the token a payment stored, as it came.
    #[pyo3(get)]
    registration_id: Option<String>,
    /// `amount`, as it came.
    #[pyo3(get)]
    amount: Option<String>,
    /// `currency`, as it came.
    #[pyo3(get)]
    currency: Option<String>,
    /// Where to send the cardholder's browser, for a payment waiting for 3-D Secure.
    #[pyo3(get)]
    redirect: Option<Redirect>,
}

/// Where a payment waiting for 3-D Secure sends the cardholder's browser: `method` (`GET`
/// or `POST`) to `url`, with `parameters` (`[(name, value), ...]`, in order) as its form
/// or query, in the window `target` names.
#[pyclass(frozen, get_all, module = "paytoken")]
#[derive(Debug, Clone)]
pub(crate) struct Redirect {
    /// `url`.
    url: String,
    /// `method`, as it came.
    method: String,
    /// `target`, such as `_self`, when it came.
    target: Option<String>,
    /// `parameters`: the fields to send along, in order.
    parameters: Vec<(String, String)>,
}

#[pymethods]
impl Redirect {
    fn __repr__(&self) -> String {
        format!("Redirect({} {})", self.method, self.url)
    }
}

#[pymethods]
impl Transaction {
    fn __repr__(&self) -> String {
        format!("Transaction({}, {})", self.payment_id, self.status)
    }

    /// The result's description as the gateway sent it: it may hold what
    /// `result_description` masks.
    fn raw_result_description(&self) -> &str {
        &self.raw_result_description
    }
}

pub(crate) fn transaction(
    py: Python<'_>,
    paid: Paid,
    context: Option<&Context>,
) -> PyResult<Py<PyAny>> {
    let redirect = match &paid.status {
        paytoken_protocol::PaymentStatus::ThreeDSecure {
            redirect: Some(redirect),
        } => Some(Redirect {
            url: redirect.url.clone(),
            method: redirect.method.clone(),
            target: redirect.target.clone(),
            parameters: (redirect.parameters.iter())
                .map(|parameter| (parameter.name.clone(), parameter.value.clone()))
                .collect(),
        }),
        _ => None,
    };
    let made = Transaction {
        payment_id: paid.payment_id.to_string(),
        status: paid.status.name(),
        is_approved: paid.is_approved(),
        result_code: paid.result.code.as_str().to_owned(),
        result_description: redact::description(&paid.result.description, context),
        raw_result_description: paid.result.description.clone(),
        transaction_status: paid
            .transaction_status
            .as_ref()
            .map(|status| status.as_str().to_owned()),
        merchant_transaction_id: paid.merchant_transaction_id.map(|id| id.to_string()),
        registration_id: paid.registration_id.raw().map(str::to_owned),
        amount: paid.amount.raw().map(str::to_owned),
        currency: paid.currency.raw().map(str::to_owned),
        redirect,
    };
    Py::new(py, made).map(Py::into_any)
}

/// An auth token fetched: the token, shown by its length only.
#[pyclass(frozen, module = "paytoken")]
#[derive(Debug)]
pub(crate) struct AuthTokenGrant(Grant);

#[pymethods]
impl AuthTokenGrant {
    /// The token, for `Context(auth_token=...)`.
    #[getter]
    fn token(&self) -> &str {
        self.0.token.expose_secret()
    }

    /// The result code (`200` when fetched).
    #[getter]
    fn result_code(&self) -> &str {
        self.0.result.code.as_str()
    }

    fn __repr__(&self) -> String {
        format!(
            "AuthTokenGrant(token=*** ({} characters))",
            self.0.token.expose_secret().len()
        )
    }
}

pub(crate) fn grant(py: Python<'_>, grant: Grant) -> PyResult<Py<PyAny>> {
    Py::new(py, AuthTokenGrant(grant)).map(Py::into_any)
}

/// A card or account the gateway stored: its token.
#[pyclass(frozen, module = "paytoken")]
#[derive(Debug, Clone)]
pub(crate) struct Registered {
    /// `registrationId`: the token for later payments.
    #[pyo3(get)]
    registration_id: String,
    /// The result code.
    #[pyo3(get)]
    result_code: String,
    /// The result's description, redacted: the secure key, the auth token, card numbers
    /// and IBANs masked, cut to 200 characters.
    #[pyo3(get)]
    result_description: String,
    /// The description as the gateway sent it: `raw_result_description()`.
    raw_result_description: String,
}

#[pymethods]
impl Registered {
    /// The result's description as the gateway sent it: it may hold what
    /// `result_description` masks.
    fn raw_result_description(&self) -> &str {
        &self.raw_result_description
    }
}

pub(crate) fn registered(
    py: Python<'_>,
    stored: Stored,
    context: Option<&Context>,
) -> PyResult<Py<PyAny>> {
    let made = Registered {
        registration_id: stored.registration_id.to_string(),
        result_code: stored.result.code.as_str().to_owned(),
        result_description: redact::description(&stored.result.description, context),
        raw_result_description: stored.result.description,
    };
    Py::new(py, made).map(Py::into_any)
}

/// A customer the gateway created: the id to send from now on.
#[pyclass(frozen, module = "paytoken")]
#[derive(Debug, Clone)]
pub(crate) struct SignedUp {
    /// `customerId`.
    #[pyo3(get)]
    customer_id: String,
    /// The result code.
    #[pyo3(get)]
    result_code: String,
    /// The result's description, redacted: the secure key, the auth token, card numbers
    /// and IBANs masked, cut to 200 characters.
    #[pyo3(get)]
    result_description: String,
    /// The description as the gateway sent it: `raw_result_description()`.
    raw_result_description: String,
}

#[pymethods]
impl SignedUp {
    /// The result's description as the gateway sent it: it may hold what
    /// `result_description` masks.
    fn raw_result_description(&self) -> &str {
        &self.raw_result_description
    }
}

pub(crate) fn signed_up(
    py: Python<'_>,
    created: Created,
    context: Option<&Context>,
) -> PyResult<Py<PyAny>> {
    let made = SignedUp {
        customer_id: created.customer_id.to_string(),
        result_code: created.result.code.as_str().to_owned(),
        result_description: redact::description(&created.result.description, context),
        raw_result_description: created.result.description,
    };
    Py::new(py, made).map(Py::into_any)
}

/// A token deleted: payments with it are refused from now on.
#[pyclass(frozen, module = "paytoken")]
#[derive(Debug, Clone)]
pub(crate) struct Deleted {
    /// `registrationId`, when the answer repeats it.
    #[pyo3(get)]
    registration_id: Option<String>,
    /// The result code.
    #[pyo3(get)]
    result_code: String,
    /// The result's description, redacted: the secure key, the auth token, card numbers
    /// and IBANs masked, cut to 200 characters.
    #[pyo3(get)]
    result_description: String,
    /// The description as the gateway sent it: `raw_result_description()`.
    raw_result_description: String,
}

#[pymethods]
impl Deleted {
    /// The result's description as the gateway sent it: it may hold what
    /// `result_description` masks.
    fn raw_result_description(&self) -> &str {
        &self.raw_result_description
    }
}

pub(crate) fn deleted(
    py: Python<'_>,
    gone: Gone,
    context: Option<&Context>,
) -> PyResult<Py<PyAny>> {
    let made = Deleted {
        registration_id: gone.registration_id.raw().map(str::to_owned),
        result_code: gone.result.code.as_str().to_owned(),
        result_description: redact::description(&gone.result.description, context),
        raw_result_description: gone.result.description,
    };
    Py::new(py, made).map(Py::into_any)
}

/// The installment counts a token may be charged in, in the gateway's order.
pub(crate) fn installments(py: Python<'_>, plans: Plans) -> PyResult<Py<PyAny>> {
    plans
        .counts
        .into_pyobject(py)
        .map(|list| list.into_any().unbind())
}

/// A stored card, as the list shows it (never its whole number).
#[pyclass(frozen, get_all, module = "paytoken")]
#[derive(Debug, Clone)]
pub(crate) struct StoredCard {
    /// `registrationId`: its token, as it came.
    registration_id: Option<String>,
    /// `registrationStatus`, as it came (`ACTIVE`...).
    registration_status: Option<String>,
    /// The card's first six digits.
    bin: Option<String>,
    /// Its last four digits.
    last_four: Option<String>,
    /// `expiryMonth`, as it came.
    expiry_month: Option<String>,
    /// `expiryYear`, as it came.
    expiry_year: Option<String>,
}

/// A stored bank account, as the list shows it.
#[pyclass(frozen, get_all, module = "paytoken")]
#[derive(Debug, Clone)]
pub(crate) struct StoredBankAccount {
    /// `registrationId`: its token, as it came.
    registration_id: Option<String>,
    /// `registrationStatus`, as it came.
    registration_status: Option<String>,
    /// The IBAN as the gateway masks it.
    masked_iban: Option<String>,
    /// `bic`.
    bic: Option<String>,
}

/// The stored cards and bank accounts, of the merchant or of one customer.
#[pyclass(frozen, get_all, module = "paytoken")]
#[derive(Debug, Clone)]
pub(crate) struct StoredRegistrations {
    /// The cards, in the gateway's order.
    cards: Vec<StoredCard>,
    /// The bank accounts, in the gateway's order.
    bank_accounts: Vec<StoredBankAccount>,
    /// The result code.
    result_code: String,
}

pub(crate) fn stored(py: Python<'_>, listed: Listed) -> PyResult<Py<PyAny>> {
    let cards = listed
        .cards
        .into_iter()
        .map(|card| StoredCard {
            registration_id: card.registration_id.raw().map(str::to_owned),
            registration_status: card.registration_status.raw().map(str::to_owned),
            bin: card.bin,
            last_four: card.last_four,
            expiry_month: card.expiry_month.raw().map(str::to_owned),
            expiry_year: card.expiry_year.raw().map(str::to_owned),
        })
        .collect();
    let bank_accounts = listed
        .bank_accounts
        .into_iter()
        .map(|account| StoredBankAccount {
            registration_id: account.registration_id.raw().map(str::to_owned),
            registration_status: account.registration_status.raw().map(str::to_owned),
            masked_iban: account.masked_iban,
            bic: account.bic,
        })
        .collect();
    let made = StoredRegistrations {
        cards,
        bank_accounts,
        result_code: listed.result.code.as_str().to_owned(),
    };
    Py::new(py, made).map(Py::into_any)
}

/// One invoice of the list, its fields as they came.
#[pyclass(frozen, get_all, module = "paytoken")]
#[derive(Debug, Clone)]
pub(crate) struct Invoice {
    /// `orderId`.
    order_id: Option<String>,
    /// `amount`, as it came.
    amount: Option<String>,
    /// `currency`, as it came.
    currency: Option<String>,
    /// `invoiceStatus`.
    invoice_status: Option<String>,
    /// `transactionStatus`, as it came.
    transaction_status: Option<String>,
    /// `createdDate`, as it came.
    created_date: Option<String>,
    /// `systemInvoiceId`.
    system_invoice_id: Option<String>,
}

/// One page of the invoice list.
#[pyclass(frozen, get_all, module = "paytoken")]
#[derive(Debug, Clone)]
pub(crate) struct InvoicePage {
    /// The invoices of the page, in the gateway's order (none past the last page).
    invoices: Vec<Invoice>,
    /// The result code, when the gateway sent a result.
    result_code: Option<String>,
}

pub(crate) fn invoices(py: Python<'_>, page: Page) -> PyResult<Py<PyAny>> {
    let made = InvoicePage {
        invoices: page.invoices.into_iter().map(invoice).collect(),
        result_code: page.result.map(|result| result.code.as_str().to_owned()),
    };
    Py::new(py, made).map(Py::into_any)
}

/// Every invoice of a list, as a Python `list` of `Invoice`.
pub(crate) fn invoice_list(
    py: Python<'_>,
    listed: Vec<paytoken_protocol::Invoice>,
) -> PyResult<Py<PyAny>> {
    let made: Vec<Invoice> = listed.into_iter().map(invoice).collect();
    Ok(made.into_pyobject(py)?.into_any().unbind())
}

fn invoice(invoice: paytoken_protocol::Invoice) -> Invoice {
    Invoice {
        order_id: invoice.order_id,
        amount: invoice.amount.raw().map(str::to_owned),
        currency: invoice.currency.raw().map(str::to_owned),
        invoice_status: invoice.invoice_status,
        transaction_status: invoice.transaction_status.raw().map(str::to_owned),
        created_date: invoice.created_date.raw().map(str::to_owned),
        system_invoice_id: invoice.system_invoice_id,
    }
}
