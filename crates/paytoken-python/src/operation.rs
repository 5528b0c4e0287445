//! The operations: each made from keyword arguments by a function of the module
//! (`paytoken.payment(...)`), all one class, [`Operation`], holding the protocol crate's
//! `AnyOperation`: its `request` builds the signed request, its `parse` reads the answer.

use paytoken_protocol::ops::auth_token::{FetchAuthToken, RegenerateAuthToken};
use paytoken_protocol::ops::cancel::Cancel;
use paytoken_protocol::ops::capture::Capture;
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;
use paytoken_protocol::ops::customer_signup::CustomerSignup;
use paytoken_protocol::ops::delete_token::DeleteToken;
use paytoken_protocol::ops::inquiry::Inquiry;
use paytoken_protocol::ops::installments::Installments;
use paytoken_protocol::ops::invoice_list::InvoiceList;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::ops::refund::Refund;
use paytoken_protocol::ops::registration::Registration;
use paytoken_protocol::ops::repeat_payment::RepeatPayment;
use paytoken_protocol::ops::token_payment::TokenPayment;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use paytoken_protocol::recorded::AnyOperation;
use paytoken_protocol::{AuthToken, Username};
use paytoken_types::{
    BankAccount, Currency, Customer, Email, MerchantTransactionId, PaymentType, RecurringType,
};
use pyo3::prelude::*;

use crate::answer;
use crate::credentials::Context;
use crate::errors::{invalid, invalid_field, raised, raised_holding};
use crate::request::Request;
use crate::values::{self, Card};

/// One operation of the interface, its values checked: `request(context)` gives the signed
/// request to send with any HTTP client, `parse(status, body)` reads the answer to it.
#[pyclass(frozen, module = "paytoken")]
#[derive(Debug)]
pub(crate) struct Operation {
    pub(crate) operation: AnyOperation,
    /// The context of the last `request(context)`: whose secrets `parse` masks in the
    /// gateway's text when it is given no context of its own.
    requested_in: Mutex<Option<Arc<paytoken_protocol::Context>>>,
}

impl Operation {
    /// `operation`, not requested yet.
    pub(crate) fn of(operation: AnyOperation) -> Self {
        Self {
            operation,
            requested_in: Mutex::new(None),
        }
    }

    /// The context of the last request, whatever a panic elsewhere left of the lock.
    fn requested_in(&self) -> MutexGuard<'_, Option<Arc<paytoken_protocol::Context>>> {
        self.requested_in
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

#[pymethods]
impl Operation {
    /// The operation's name, as the command and the conformance kit say it: `pay`,
    /// `pay_with_token`, `inquiry`...
    #[getter]
    fn name(&self) -> &'static str {
        self.operation.kind().name()
    }

    /// The signed request, for the caller's HTTP client to send. The context's secure key
    /// and auth token are what `parse` masks in the answer's text.
    ///
    /// Raises `InvalidInput` naming the field a value does not fit; nothing is built then.
    fn request(&self, context: &Context) -> PyResult<Request> {
        let request = (self.operation.request(&context.0)).map_err(|error| raised(&error))?;
        *self.requested_in() = Some(Arc::new(context.0.clone()));
        Ok(Request(request))
    }

    /// The answer to the request: a `Transaction` (the payments, the back office's moves,
    /// an inquiry), an `AuthTokenGrant`, `Registered`, `SignedUp`, `Deleted`,
    /// `StoredRegistrations`, `InvoicePage`, or the installment counts as a list.
    ///
    /// A description (the answer's `result_description`, a refusal's `description` and
    /// text) is redacted, the secure key and auth token of `context` (else of the last
    /// `request(context)`) masked with card numbers and IBANs;
    /// `raw_result_description()` and `raw_description()` return it as it came.
    ///
    /// Raises `Refused` when the gateway refused before it created anything,
    /// `OutcomeUnknown` (`Unreadable`, `Contradiction`) when the request may have been
    /// processed.
    #[pyo3(signature = (status, body, *, context=None))]
    fn parse(
        &self,
        py: Python<'_>,
        status: u16,
        body: &[u8],
        context: Option<&Context>,
    ) -> PyResult<Py<PyAny>> {
        // Its own handle, so that no lock is held while Python runs (a finalizer may call
        // back).
        let requested_in = match context {
            Some(_) => None,
            None => self.requested_in().clone(),
        };
        let context = context.map(|given| &given.0).or(requested_in.as_deref());
        let reading =
            (self.operation.parse(status, body)).map_err(|error| raised_holding(error, context))?;
        answer::reading(py, reading, context)
    }

    fn __repr__(&self) -> String {
        format!("Operation({})", self.name())
    }
}

fn currency(text: &str) -> PyResult<Currency> {
    text.parse().map_err(invalid)
}

fn order_id(text: &str) -> PyResult<MerchantTransactionId> {
    MerchantTransactionId::new(text).map_err(invalid)
}

/// `DB` (a debit, the default) or `PA` (a pre-authorisation).
fn charge_type(text: &str) -> PyResult<PaymentType> {
    match text {
        "DB" => Ok(PaymentType::Debit),
        "PA" => Ok(PaymentType::PreAuthorization),
        _ => Err(invalid_field("paymentType", "is DB or PA")),
    }
}

/// `INITIAL` or `REPEATED`.
fn recurring(text: Option<&str>) -> PyResult<Option<RecurringType>> {
    text.map(|text| match text {
        "INITIAL" => Ok(RecurringType::Initial),
        "REPEATED" => Ok(RecurringType::Repeated),
        _ => Err(invalid_field("recurringType", "is INITIAL or REPEATED")),
    })
    .transpose()
}

/// An auth token for `username` under `partner_id` (the partner's own, or its merchant's).
#[pyfunction]
pub(crate) fn fetch_auth_token(partner_id: &str, username: &str) -> PyResult<Operation> {
    let partner_id = partner_id.parse().map_err(invalid)?;
    let username = Username::new(username).map_err(invalid)?;
    Ok(Operation::of(AnyOperation::FetchAuthToken(
        FetchAuthToken::new(partner_id, username),
    )))
}

/// A fresh auth token for `token`, still valid, under `partner_id`; the old one stops
/// working.
#[pyfunction]
pub(crate) fn regenerate_auth_token(partner_id: &str, token: &str) -> PyResult<Operation> {
    let partner_id = partner_id.parse().map_err(invalid)?;
    let token = AuthToken::new(token).map_err(invalid)?;
    Ok(Operation::of(AnyOperation::RegenerateAuthToken(
        RegenerateAuthToken::new(partner_id, token),
    )))
}

/// A payment with a card: a debit (`DB`) or a pre-authorisation (`PA`), storing the card
/// as a token when `store_card`.
///
/// >>> card = paytoken.Card("4000000000000051", "12", "2030", "745")
/// >>> payment = paytoken.payment("order-7", "50.00", "EUR", card, store_card=True)
/// >>> key = paytoken.SecureKey("key")
/// >>> context = paytoken.Context(paytoken.Credentials.merchant("11344", key), auth_token="t0ken")
/// >>> request = payment.request(context)
/// >>> request.method, request.url("https://gateway.example")
/// ('POST', 'https://gateway.example/transactionServices/REST/v1/payments')
/// >>> b"card.number=4000000000000051" in request.body, "4000000000000051" in repr(request)
/// (True, False)
#[pyfunction]
#[pyo3(signature = (
    merchant_transaction_id, amount, currency, card, *, payment_type="DB", store_card=false,
    recurring=None, notification_url=None, merchant_redirect_url=None,
))]
#[expect(
    clippy::too_many_arguments,
    reason = "Python's keyword arguments: each is a field of the payment"
)]
pub(crate) fn payment(
    merchant_transaction_id: &str,
    amount: &Bound<'_, PyAny>,
    currency: &str,
    card: &Card,
    payment_type: &str,
    store_card: bool,
    recurring: Option<&str>,
    notification_url: Option<String>,
    merchant_redirect_url: Option<String>,
) -> PyResult<Operation> {
    let mut payment = Payment::new(
        order_id(merchant_transaction_id)?,
        values::amount(amount, "amount")?,
        self::currency(currency)?,
        card.0.clone(),
    );
    payment.payment_type = charge_type(payment_type)?;
    payment.create_registration = store_card;
    payment.recurring_type = self::recurring(recurring)?;
    payment.notification_url = notification_url;
    payment.merchant_redirect_url = merchant_redirect_url;
    Ok(Operation::of(AnyOperation::Payment(Box::new(payment))))
}

/// A payment with a stored card or account (`registration_id`, its token).
#[pyfunction]
#[pyo3(signature = (
    registration_id, amount, currency, *, merchant_transaction_id=None, payment_type="DB",
    recurring=None,
))]
pub(crate) fn token_payment(
    registration_id: &str,
    amount: &Bound<'_, PyAny>,
    currency: &str,
    merchant_transaction_id: Option<&str>,
    payment_type: &str,
    recurring: Option<&str>,
) -> PyResult<Operation> {
    let mut payment = TokenPayment::new(
        registration_id.parse().map_err(invalid)?,
        values::amount(amount, "amount")?,
        self::currency(currency)?,
    );
    payment.merchant_transaction_id = merchant_transaction_id.map(order_id).transpose()?;
    payment.payment_type = charge_type(payment_type)?;
    payment.recurring_type = self::recurring(recurring)?;
    Ok(Operation::of(AnyOperation::TokenPayment(payment)))
}

/// A capture of `amount` of the pre-authorisation `payment_id`.
#[pyfunction]
pub(crate) fn capture(
    payment_id: &str,
    amount: &Bound<'_, PyAny>,
    currency: &str,
) -> PyResult<Operation> {
    let capture = Capture::new(
        payment_id.parse().map_err(invalid)?,
        values::amount(amount, "amount")?,
        self::currency(currency)?,
    );
    Ok(Operation::of(AnyOperation::Capture(capture)))
}

/// A refund of `amount` of the payment `payment_id`.
#[pyfunction]
pub(crate) fn refund(
    payment_id: &str,
    amount: &Bound<'_, PyAny>,
    currency: &str,
) -> PyResult<Operation> {
    let refund = Refund::new(
        payment_id.parse().map_err(invalid)?,
        values::amount(amount, "amount")?,
        self::currency(currency)?,
    );
    Ok(Operation::of(AnyOperation::Refund(refund)))
}

/// A cancel (void) of the pre-authorisation `payment_id`.
#[pyfunction]
pub(crate) fn cancel(payment_id: &str) -> PyResult<Operation> {
    let cancel = Cancel::new(payment_id.parse().map_err(invalid)?);
    Ok(Operation::of(AnyOperation::Cancel(cancel)))
}

/// An inquiry: by the gateway's `payment_id`, or by the shop's own
/// `merchant_transaction_id`. Its transaction's `is_approved` is the ship / don't-ship
/// decision.
///
/// >>> inquiry = paytoken.inquiry(merchant_transaction_id="order-7")
/// >>> found = inquiry.parse(200, b"""{"paymentId": "54279", "merchantTransactionId": "order-7",
/// ...     "transactionStatus": "Y", "result": {"code": "00001", "description": "ok"}}""")
/// >>> found.status, found.is_approved
/// ('approved', True)
#[pyfunction]
#[pyo3(signature = (*, payment_id=None, merchant_transaction_id=None))]
pub(crate) fn inquiry(
    payment_id: Option<&str>,
    merchant_transaction_id: Option<&str>,
) -> PyResult<Operation> {
    let inquiry = match (payment_id, merchant_transaction_id) {
        (Some(id), None) => Inquiry::ByPaymentId(id.parse().map_err(invalid)?),
        (None, Some(id)) => Inquiry::ByMerchantTransactionId(order_id(id)?),
        _ => {
            return Err(invalid_field(
                "idType",
                "give payment_id or merchant_transaction_id, one of them",
            ));
        }
    };
    Ok(Operation::of(AnyOperation::Inquiry(inquiry)))
}

/// A repeat of a recurring series by its first payment's id (`REPEATED`).
#[pyfunction]
#[pyo3(signature = (
    first_payment_id, amount, currency, *, merchant_transaction_id=None, payment_type="DB",
))]
pub(crate) fn repeat_payment(
    first_payment_id: &str,
    amount: &Bound<'_, PyAny>,
    currency: &str,
    merchant_transaction_id: Option<&str>,
    payment_type: &str,
) -> PyResult<Operation> {
    let mut payment = RepeatPayment::new(
        first_payment_id.parse().map_err(invalid)?,
        values::amount(amount, "amount")?,
        self::currency(currency)?,
    );
    payment.merchant_transaction_id = merchant_transaction_id.map(order_id).transpose()?;
    payment.payment_type = charge_type(payment_type)?;
    Ok(Operation::of(AnyOperation::RepeatPayment(payment)))
}

/// A card stored as a token without a payment, for the customer `customer_id` when given.
#[pyfunction]
#[pyo3(signature = (card, *, customer_id=None))]
pub(crate) fn register_card(card: &Card, customer_id: Option<&str>) -> PyResult<Operation> {
    registered(Registration::card(card.0.clone()), customer_id)
}

/// A bank account (`iban`, `bic`) stored as a token, for the customer `customer_id` when
/// given.
#[pyfunction]
#[pyo3(signature = (iban, bic, *, holder=None, customer_id=None))]
pub(crate) fn register_bank_account(
    iban: &str,
    bic: &str,
    holder: Option<String>,
    customer_id: Option<&str>,
) -> PyResult<Operation> {
    let account = BankAccount {
        iban: iban.parse().map_err(invalid)?,
        bic: bic.parse().map_err(invalid)?,
        holder,
    };
    registered(Registration::bank_account(account), customer_id)
}

fn registered(mut registration: Registration, customer_id: Option<&str>) -> PyResult<Operation> {
    if let Some(id) = customer_id {
        registration.customer = Some(Customer {
            customer_id: Some(id.parse().map_err(invalid)?),
            ..Customer::default()
        });
    }
    Ok(Operation::of(AnyOperation::Registration(Box::new(
        registration,
    ))))
}

/// A customer signed up: their names and email address.
#[pyfunction]
pub(crate) fn customer_signup(given_name: &str, surname: &str, email: &str) -> PyResult<Operation> {
    let customer = Customer {
        given_name: Some(given_name.to_owned()),
        surname: Some(surname.to_owned()),
        email: Some(Email::new(email).map_err(invalid)?),
        ..Customer::default()
    };
    Ok(Operation::of(AnyOperation::CustomerSignup(Box::new(
        CustomerSignup::new(customer),
    ))))
}

/// The token `registration_id` deleted: payments with it are refused from then on.
#[pyfunction]
pub(crate) fn delete_token(registration_id: &str) -> PyResult<Operation> {
    let delete = DeleteToken::new(registration_id.parse().map_err(invalid)?);
    Ok(Operation::of(AnyOperation::DeleteToken(delete)))
}

/// The installment counts the token `registration_id` may be charged in.
#[pyfunction]
pub(crate) fn installments(registration_id: &str) -> PyResult<Operation> {
    let plans = Installments::new(registration_id.parse().map_err(invalid)?);
    Ok(Operation::of(AnyOperation::Installments(plans)))
}

/// The stored cards and bank accounts: all the caller sees, or one customer's.
#[pyfunction]
#[pyo3(signature = (*, customer_id=None))]
pub(crate) fn cards_and_accounts(customer_id: Option<&str>) -> PyResult<Operation> {
    let list = match customer_id {
        Some(id) => CardsAndAccounts::of_customer(id.parse().map_err(invalid)?),
        None => CardsAndAccounts::all(),
    };
    Ok(Operation::of(AnyOperation::CardsAndAccounts(list)))
}

/// One page of the invoice list: `page` from 1, `records` a page.
#[pyfunction]
pub(crate) fn invoice_list(page: u32, records: u32) -> Operation {
    Operation::of(AnyOperation::InvoiceList(InvoiceList::new(page, records)))
}
