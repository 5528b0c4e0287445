//! What one method of a client sends, made from the method's Python arguments, and its
//! outcome as Python sees it: the one path of `Client` and `AsyncClient` alike.

use paytoken_protocol::call;
use paytoken_protocol::recorded::{AnyOperation, Reading};
use paytoken_types::MerchantTransactionId;
use pyo3::exceptions::{PyAttributeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::answer;
use crate::errors::{invalid, raised_call};
use crate::operation::Operation;

/// Each method of a client that sends one operation, and the module's function that makes
/// that operation from the method's arguments (`client.pay(...)` takes what
/// `paytoken.payment(...)` does).
const FORWARDED: [(&str, &str); 16] = [
    ("pay", "payment"),
    ("pay_with_token", "token_payment"),
    ("repeat_payment", "repeat_payment"),
    ("capture", "capture"),
    ("refund", "refund"),
    ("cancel", "cancel"),
    ("inquiry", "inquiry"),
    ("register_card", "register_card"),
    ("register_bank_account", "register_bank_account"),
    ("customer_signup", "customer_signup"),
    ("delete_token", "delete_token"),
    ("installments", "installments"),
    ("cards_and_accounts", "cards_and_accounts"),
    ("invoice_page", "invoice_list"),
    ("fetch_auth_token", "fetch_auth_token"),
    ("regenerate_auth_token", "regenerate_auth_token"),
];

/// The methods besides those: an operation already built, settling by order id, and the
/// whole invoice list.
const OWN: [&str; 3] = ["send", "reconcile", "all_invoices"];

/// Invoices a page of `all_invoices` unless it is given `records`.
const DEFAULT_RECORDS: u32 = 100;

/// Every method of a client that calls the gateway, by name: what `AsyncClient` awaits.
pub(crate) fn methods() -> Vec<&'static str> {
    FORWARDED
        .iter()
        .map(|(method, _)| *method)
        .chain(OWN)
        .collect()
}

/// What a method sends.
pub(crate) enum Call {
    /// An operation, through `Client::send`.
    Send(AnyOperation),
    /// What became of an order's payment.
    Reconcile(MerchantTransactionId),
    /// Every invoice, this many a page.
    AllInvoices(u32),
}

/// What a call answers.
pub(crate) enum Answer {
    Reading(Box<Reading>),
    Invoices(Vec<paytoken_protocol::Invoice>),
}

/// A call's outcome, as the client gives it.
pub(crate) type Outcome = Result<Answer, call::Error>;

impl Call {
    /// The call of the method `method` with `args` and `kwargs`.
    pub(crate) fn of(
        py: Python<'_>,
        method: &str,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let made_by = match FORWARDED.iter().find(|(name, _)| *name == method) {
            Some((_, made_by)) => *made_by,
            None if method == "send" => {
                let operation = the_argument(method, "operation", true, args, kwargs)?;
                let operation = operation.ok_or_else(|| missing(method, "operation"))?;
                return Ok(Self::sent(
                    operation.cast::<Operation>()?.get().operation.clone(),
                ));
            }
            None if method == "reconcile" => {
                let order = the_argument(method, "merchant_transaction_id", true, args, kwargs)?;
                let order = order.ok_or_else(|| missing(method, "merchant_transaction_id"))?;
                let order = MerchantTransactionId::new(&order.extract::<String>()?);
                return Ok(Self::Reconcile(order.map_err(invalid)?));
            }
            None if method == "all_invoices" => {
                let records = the_argument(method, "records", false, args, kwargs)?;
                let records = records.map(|records| records.extract()).transpose()?;
                return Ok(Self::AllInvoices(records.unwrap_or(DEFAULT_RECORDS)));
            }
            None => {
                return Err(PyAttributeError::new_err(format!(
                    "a client has no method {method:?}"
                )));
            }
        };
        let made = py
            .import("paytoken._paytoken")?
            .getattr(made_by)?
            .call(args, kwargs)?;
        Ok(Self::sent(
            made.cast::<Operation>()?.get().operation.clone(),
        ))
    }

    /// `operation`, a token payment or repeat without an order id given one, so that the
    /// exception of an interrupted or lost call can name it.
    fn sent(mut operation: AnyOperation) -> Self {
        match &mut operation {
            AnyOperation::TokenPayment(payment) if payment.merchant_transaction_id.is_none() => {
                payment.merchant_transaction_id =
                    Some(paytoken_hyper::new_merchant_transaction_id());
            }
            AnyOperation::RepeatPayment(payment) if payment.merchant_transaction_id.is_none() => {
                payment.merchant_transaction_id =
                    Some(paytoken_hyper::new_merchant_transaction_id());
            }
            _ => {}
        }
        Self::Send(operation)
    }

    /// Whether it changes something (a payment, a refund, a registration): such a call is
    /// never abandoned half-way, whoever stops waiting for it.
    pub(crate) fn changes(&self) -> bool {
        matches!(self, Self::Send(operation) if !operation.kind().is_retry_safe())
    }

    /// What it is, for a log (`pay of order order-7`), and what says how it went.
    pub(crate) fn described(&self) -> (String, String) {
        let Self::Send(operation) = self else {
            return ("read".to_owned(), "it may be asked again".to_owned());
        };
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

    /// Makes the call with `client`.
    pub(crate) async fn run(self, client: paytoken_hyper::Client) -> Outcome {
        match self {
            Self::Send(operation) => {
                (client.send(&operation).await).map(|reading| Answer::Reading(Box::new(reading)))
            }
            Self::Reconcile(order) => (client.reconcile(&order).await)
                .map(|found| Answer::Reading(Box::new(Reading::Transaction(Box::new(found))))),
            Self::AllInvoices(records) => client.all_invoices(records).await.map(Answer::Invoices),
        }
    }
}

/// The one argument `name` of `method`, given by keyword or (when `positional`) by
/// position, if given; a `TypeError` for any other.
fn the_argument<'py>(
    method: &str,
    name: &str,
    positional: bool,
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let keyword = kwargs
        .map(|given| given.get_item(name))
        .transpose()?
        .flatten();
    let keywords = kwargs.map_or(0, |given| given.len());
    let found = match (args.len(), keyword) {
        (0, keyword) => keyword,
        (1, None) if positional => Some(args.get_item(0)?),
        _ => None,
    };
    let expected = usize::from(found.is_some());
    if args.len() + keywords != expected {
        let how = if positional {
            "one argument"
        } else {
            "a keyword argument"
        };
        return Err(PyTypeError::new_err(format!(
            "{method}() takes {how}, {name}, and no other"
        )));
    }
    Ok(found)
}

/// The `TypeError` of a call of `method` without its argument `name`.
fn missing(method: &str, name: &str) -> PyErr {
    PyTypeError::new_err(format!("{method}() needs its argument {name}"))
}

/// How a call ended, in words for a log.
pub(crate) fn outcome_in_words(outcome: &Outcome) -> String {
    match outcome {
        Ok(Answer::Reading(reading)) => match &**reading {
            Reading::Transaction(paid) => {
                format!("{} (payment {})", paid.status.name(), paid.payment_id)
            }
            _ => "done".to_owned(),
        },
        Ok(_) => "done".to_owned(),
        Err(error) => error.to_string(),
    }
}

/// The outcome as Python sees it: the answer, or the exception to raise.
pub(crate) fn answered(py: Python<'_>, outcome: Outcome) -> PyResult<Py<PyAny>> {
    match outcome.map_err(raised_call)? {
        Answer::Reading(reading) => answer::reading(py, *reading, None),
        Answer::Invoices(invoices) => answer::invoice_list(py, invoices),
    }
}
