//! The operations: each made by a function of the module (`paytoken.payment(...)`), all
//! one class, [`Operation`], holding the protocol crate's `AnyOperation`: its `request`
//! builds the signed request, its `parse` reads the answer.

use std::cell::RefCell;
use std::rc::Rc;
use std::str::FromStr;

use napi::bindgen_prelude::{ClassInstance, Env, Object};
use napi_derive::napi;
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
use paytoken_protocol::recorded::AnyOperation;
use paytoken_protocol::{AuthToken, Username};
use paytoken_types::{
    Amount, BankAccount, Currency, Customer, Email, MerchantTransactionId, PaymentType,
    RecurringType,
};

use crate::answer;
use crate::args::{self, Given, GivenBody};
use crate::credentials::Context;
use crate::errors::{invalid, invalid_field, thrown, thrown_holding};
use crate::request::Request;
use crate::values::Card;

/// One operation of the interface, its values checked: `request(context)` gives the signed
/// request to send with `fetch` (or any HTTP client), `parse(status, body)` reads the
/// answer to it.
#[napi]
#[derive(Debug, Clone)]
pub struct Operation {
    pub(crate) operation: AnyOperation,
    /// The context of the last `request(context)`: whose secrets `parse` masks in the
    /// gateway's text when it is given no context of its own.
    requested_in: RefCell<Option<Rc<paytoken_protocol::Context>>>,
}

impl Operation {
    /// `operation`, not requested yet.
    pub(crate) fn of(operation: AnyOperation) -> Self {
        Self {
            operation,
            requested_in: RefCell::new(None),
        }
    }
}

#[napi]
impl Operation {
    /// The operation's name, as the command and the conformance kit say it: `pay`,
    /// `pay_with_token`, `inquiry`...
    #[napi(getter)]
    pub fn name(&self) -> &'static str {
        self.operation.kind().name()
    }

    /// The signed request, for the caller's HTTP client to send. The context's secure key
    /// and auth token are what `parse` masks in the answer's text.
    ///
    /// Throws `PAYTOKEN_INVALID_INPUT` naming the field a value does not fit; nothing is
    /// built then.
    #[napi]
    pub fn request(
        &self,
        env: &Env,
        #[napi(ts_arg_type = "Context")] context: Given<'_, ClassInstance<'_, Context>>,
    ) -> napi::Result<Request> {
        let context = args::instance(env, context, "context", "expected a Context")?;
        let request = (self.operation.request(&context.0)).map_err(|error| thrown(env, &error))?;
        *self.requested_in.borrow_mut() = Some(Rc::new(context.0.clone()));
        Ok(Request(request))
    }

    /// The answer to the request, from its HTTP status and body (a string, or the bytes
    /// as they came): an object whose `kind` says which (`transaction` for the payments,
    /// the back office's moves and an inquiry). Its `resultDescription` and an error's
    /// `description` and `message` are redacted, the secure key and auth token of
    /// `context` (else of the last `request(context)`) masked with card numbers and IBANs;
    /// `rawResultDescription()` and `rawDescription()` return the gateway's text as it came.
    ///
    /// Throws `PAYTOKEN_REFUSED` when the gateway refused before it created anything, and
    /// an error with `mayHaveBeenProcessed` (`PAYTOKEN_UNREADABLE`,
    /// `PAYTOKEN_CONTRADICTION`) when the request may have been processed: settle that by
    /// an inquiry, never by sending the request again.
    #[napi(
        ts_return_type = "Transaction | AuthTokenGrant | Registered | SignedUp | Deleted | InstallmentCounts | StoredRegistrations | InvoicePage"
    )]
    pub fn parse<'env>(
        &self,
        env: &'env Env,
        #[napi(ts_arg_type = "number")] status: Given<'_, f64>,
        #[napi(ts_arg_type = "string | Uint8Array")] body: GivenBody<'_>,
        #[napi(ts_arg_type = "Context | undefined | null")] context: Option<
            Given<'_, ClassInstance<'_, Context>>,
        >,
    ) -> napi::Result<Object<'env>> {
        let status = args::status(env, status)?;
        let body = args::body(env, body, "body")?;
        let given = context
            .map(|context| args::instance(env, context, "context", "expected a Context"))
            .transpose()?;
        // Its own handle, so that no borrow is held while JavaScript runs (it may call
        // `request`).
        let requested_in = match given {
            Some(_) => None,
            None => self.requested_in.borrow().clone(),
        };
        let context = given
            .as_ref()
            .map(|given| &given.0)
            .or(requested_in.as_deref());
        let reading = (self.operation.parse(status, body.bytes()))
            .map_err(|error| thrown_holding(env, error, context))?;
        answer::reading(env, reading, context)
    }

    /// `Operation(<name>)`.
    #[napi(js_name = "toString")]
    pub fn shown(&self) -> String {
        format!("Operation({})", self.name())
    }
}

fn amount(env: &Env, given: Given<'_, String>) -> napi::Result<Amount> {
    args::text(env, given, "amount")?
        .parse()
        .map_err(|error| invalid(env, error))
}

fn currency(env: &Env, given: Given<'_, String>) -> napi::Result<Currency> {
    args::text(env, given, "currency")?
        .parse()
        .map_err(|error| invalid(env, error))
}

fn order_id(env: &Env, text: &str) -> napi::Result<MerchantTransactionId> {
    MerchantTransactionId::new(text).map_err(|error| invalid(env, error))
}

/// A gateway id (`paymentId`, `registrationId`, `partnerId`...) passed as `field`.
fn id<T: FromStr>(env: &Env, given: Given<'_, String>, field: &'static str) -> napi::Result<T>
where
    paytoken_protocol::Error: From<T::Err>,
{
    args::text(env, given, field)?
        .parse()
        .map_err(|error| invalid(env, error))
}

/// `DB` (a debit, the default) or `PA` (a pre-authorisation).
fn charge_type(env: &Env, text: Option<&str>) -> napi::Result<PaymentType> {
    match text {
        None | Some("DB") => Ok(PaymentType::Debit),
        Some("PA") => Ok(PaymentType::PreAuthorization),
        Some(_) => Err(invalid_field(env, "paymentType", "is DB or PA")),
    }
}

/// `INITIAL` or `REPEATED`.
fn recurring(env: &Env, text: Option<&str>) -> napi::Result<Option<RecurringType>> {
    text.map(|text| match text {
        "INITIAL" => Ok(RecurringType::Initial),
        "REPEATED" => Ok(RecurringType::Repeated),
        _ => Err(invalid_field(
            env,
            "recurringType",
            "is INITIAL or REPEATED",
        )),
    })
    .transpose()
}

/// An auth token for `username` under `partnerId` (the partner's own, or its merchant's).
#[napi]
pub fn fetch_auth_token(
    env: &Env,
    #[napi(ts_arg_type = "string")] partner_id: Given<'_, String>,
    #[napi(ts_arg_type = "string")] username: Given<'_, String>,
) -> napi::Result<Operation> {
    let partner_id = id(env, partner_id, "partnerId")?;
    let username = args::text(env, username, "username")?;
    let username = Username::new(username).map_err(|error| invalid(env, error))?;
    Ok(Operation::of(AnyOperation::FetchAuthToken(
        FetchAuthToken::new(partner_id, username),
    )))
}

/// A fresh auth token for `token`, still valid, under `partnerId`; the old one stops
/// working.
#[napi]
pub fn regenerate_auth_token(
    env: &Env,
    #[napi(ts_arg_type = "string")] partner_id: Given<'_, String>,
    #[napi(ts_arg_type = "string")] token: Given<'_, String>,
) -> napi::Result<Operation> {
    let partner_id = id(env, partner_id, "partnerId")?;
    let token = args::text(env, token, AuthToken::FIELD)?;
    let token = AuthToken::new(token).map_err(|error| invalid(env, error))?;
    Ok(Operation::of(AnyOperation::RegenerateAuthToken(
        RegenerateAuthToken::new(partner_id, token),
    )))
}

/// A payment's optional fields.
#[napi(object, object_from_js = false, object_to_js = false)]
#[allow(
    dead_code,
    reason = "declares the TypeScript interface; `args::options` reads the object by its keys"
)]
#[derive(Debug, Default)]
pub struct PaymentOptions {
    /// `DB` (a debit, the default) or `PA` (a pre-authorisation).
    #[napi(ts_type = "'DB' | 'PA'")]
    pub payment_type: Option<String>,
    /// Whether to store the card as a token (`createRegistration`).
    pub store_card: Option<bool>,
    /// `INITIAL` to start a recurring series.
    #[napi(ts_type = "'INITIAL' | 'REPEATED'")]
    pub recurring: Option<String>,
    /// Where the gateway posts the outcome.
    pub notification_url: Option<String>,
    /// Where the cardholder returns after 3-D Secure.
    pub merchant_redirect_url: Option<String>,
}

/// A payment with a card: a debit (`DB`) or a pre-authorisation (`PA`), storing the card
/// as a token when `storeCard`.
///
/// ```js
/// const card = new paytoken.Card('4000000000000051', '12', '2030', '745')
/// const payment = paytoken.payment('order-7', '50.00', 'EUR', card, { storeCard: true })
/// ```
#[napi]
pub fn payment(
    env: &Env,
    #[napi(ts_arg_type = "string")] merchant_transaction_id: Given<'_, String>,
    #[napi(ts_arg_type = "string")] amount: Given<'_, String>,
    #[napi(ts_arg_type = "string")] currency: Given<'_, String>,
    #[napi(ts_arg_type = "Card")] card: Given<'_, ClassInstance<'_, Card>>,
    #[napi(ts_arg_type = "PaymentOptions | undefined | null")] options: Option<
        Given<'_, Object<'_>>,
    >,
) -> napi::Result<Operation> {
    let order = args::text(env, merchant_transaction_id, "merchantTransactionId")?;
    let mut payment = Payment::new(
        order_id(env, &order)?,
        self::amount(env, amount)?,
        self::currency(env, currency)?,
        args::instance(env, card, "card", "expected a Card")?
            .0
            .clone(),
    );
    const KEYS: &[&str] = &[
        "paymentType",
        "storeCard",
        "recurring",
        "notificationUrl",
        "merchantRedirectUrl",
    ];
    if let Some(options) = args::options(env, options, "options", KEYS)? {
        payment.payment_type = charge_type(env, options.text("paymentType")?.as_deref())?;
        payment.create_registration = options.flag("storeCard")?.unwrap_or(false);
        payment.recurring_type = recurring(env, options.text("recurring")?.as_deref())?;
        payment.notification_url = options.text("notificationUrl")?;
        payment.merchant_redirect_url = options.text("merchantRedirectUrl")?;
    }
    Ok(Operation::of(AnyOperation::Payment(Box::new(payment))))
}

/// A token payment's optional fields.
#[napi(object, object_from_js = false, object_to_js = false)]
#[allow(
    dead_code,
    reason = "declares the TypeScript interface; `args::options` reads the object by its keys"
)]
#[derive(Debug, Default)]
pub struct TokenPaymentOptions {
    /// The shop's own order id.
    pub merchant_transaction_id: Option<String>,
    /// `DB` (a debit, the default) or `PA` (a pre-authorisation).
    #[napi(ts_type = "'DB' | 'PA'")]
    pub payment_type: Option<String>,
    /// `INITIAL` or `REPEATED`.
    #[napi(ts_type = "'INITIAL' | 'REPEATED'")]
    pub recurring: Option<String>,
}

/// A payment with a stored card or account (`registrationId`, its token).
#[napi]
pub fn token_payment(
    env: &Env,
    #[napi(ts_arg_type = "string")] registration_id: Given<'_, String>,
    #[napi(ts_arg_type = "string")] amount: Given<'_, String>,
    #[napi(ts_arg_type = "string")] currency: Given<'_, String>,
    #[napi(ts_arg_type = "TokenPaymentOptions | undefined | null")] options: Option<
        Given<'_, Object<'_>>,
    >,
) -> napi::Result<Operation> {
    let mut payment = TokenPayment::new(
        id(env, registration_id, "registrationId")?,
        self::amount(env, amount)?,
        self::currency(env, currency)?,
    );
    const KEYS: &[&str] = &["merchantTransactionId", "paymentType", "recurring"];
    if let Some(options) = args::options(env, options, "options", KEYS)? {
        payment.merchant_transaction_id = (options.text("merchantTransactionId")?.as_deref())
            .map(|id| order_id(env, id))
            .transpose()?;
        payment.payment_type = charge_type(env, options.text("paymentType")?.as_deref())?;
        payment.recurring_type = recurring(env, options.text("recurring")?.as_deref())?;
    }
    Ok(Operation::of(AnyOperation::TokenPayment(payment)))
}

/// A capture of `amount` of the pre-authorisation `paymentId`.
#[napi]
pub fn capture(
    env: &Env,
    #[napi(ts_arg_type = "string")] payment_id: Given<'_, String>,
    #[napi(ts_arg_type = "string")] amount: Given<'_, String>,
    #[napi(ts_arg_type = "string")] currency: Given<'_, String>,
) -> napi::Result<Operation> {
    let capture = Capture::new(
        id(env, payment_id, "paymentId")?,
        self::amount(env, amount)?,
        self::currency(env, currency)?,
    );
    Ok(Operation::of(AnyOperation::Capture(capture)))
}

/// A refund of `amount` of the payment `paymentId`.
#[napi]
pub fn refund(
    env: &Env,
    #[napi(ts_arg_type = "string")] payment_id: Given<'_, String>,
    #[napi(ts_arg_type = "string")] amount: Given<'_, String>,
    #[napi(ts_arg_type = "string")] currency: Given<'_, String>,
) -> napi::Result<Operation> {
    let refund = Refund::new(
        id(env, payment_id, "paymentId")?,
        self::amount(env, amount)?,
        self::currency(env, currency)?,
    );
    Ok(Operation::of(AnyOperation::Refund(refund)))
}

/// A cancel (void) of the pre-authorisation `paymentId`.
#[napi]
pub fn cancel(
    env: &Env,
    #[napi(ts_arg_type = "string")] payment_id: Given<'_, String>,
) -> napi::Result<Operation> {
    let cancel = Cancel::new(id(env, payment_id, "paymentId")?);
    Ok(Operation::of(AnyOperation::Cancel(cancel)))
}

/// Which transaction an inquiry asks about: one of the two ids.
#[napi(object, object_from_js = false, object_to_js = false)]
#[allow(
    dead_code,
    reason = "declares the TypeScript interface; `args::options` reads the object by its keys"
)]
#[derive(Debug, Default)]
pub struct InquiryTarget {
    /// The gateway's `paymentId`.
    pub payment_id: Option<String>,
    /// The shop's own order id.
    pub merchant_transaction_id: Option<String>,
}

/// An inquiry: by the gateway's `paymentId`, or by the shop's own
/// `merchantTransactionId`. Its transaction's `isApproved` is the ship / don't-ship
/// decision.
///
/// ```js
/// const inquiry = paytoken.inquiry({ merchantTransactionId: 'order-7' })
/// ```
#[napi]
pub fn inquiry(
    env: &Env,
    #[napi(ts_arg_type = "InquiryTarget")] target: Given<'_, Object<'_>>,
) -> napi::Result<Operation> {
    const KEYS: &[&str] = &["paymentId", "merchantTransactionId"];
    let target = args::options(env, Some(target), "target", KEYS)?;
    let (payment_id, order) = match &target {
        Some(target) => (
            target.text("paymentId")?,
            target.text("merchantTransactionId")?,
        ),
        None => (None, None),
    };
    let inquiry = match (payment_id, order) {
        (Some(id), None) => Inquiry::ByPaymentId(id.parse().map_err(|error| invalid(env, error))?),
        (None, Some(id)) => Inquiry::ByMerchantTransactionId(order_id(env, &id)?),
        _ => {
            return Err(invalid_field(
                env,
                "idType",
                "give paymentId or merchantTransactionId, one of them",
            ));
        }
    };
    Ok(Operation::of(AnyOperation::Inquiry(inquiry)))
}

/// A repeat's optional fields.
#[napi(object, object_from_js = false, object_to_js = false)]
#[allow(
    dead_code,
    reason = "declares the TypeScript interface; `args::options` reads the object by its keys"
)]
#[derive(Debug, Default)]
pub struct RepeatOptions {
    /// The shop's own order id.
    pub merchant_transaction_id: Option<String>,
    /// `DB` (a debit, the default) or `PA` (a pre-authorisation).
    #[napi(ts_type = "'DB' | 'PA'")]
    pub payment_type: Option<String>,
}

/// A repeat of a recurring series by its first payment's id (`REPEATED`).
#[napi]
pub fn repeat_payment(
    env: &Env,
    #[napi(ts_arg_type = "string")] first_payment_id: Given<'_, String>,
    #[napi(ts_arg_type = "string")] amount: Given<'_, String>,
    #[napi(ts_arg_type = "string")] currency: Given<'_, String>,
    #[napi(ts_arg_type = "RepeatOptions | undefined | null")] options: Option<
        Given<'_, Object<'_>>,
    >,
) -> napi::Result<Operation> {
    let mut payment = RepeatPayment::new(
        id(env, first_payment_id, "firstPaymentId")?,
        self::amount(env, amount)?,
        self::currency(env, currency)?,
    );
    const KEYS: &[&str] = &["merchantTransactionId", "paymentType"];
    if let Some(options) = args::options(env, options, "options", KEYS)? {
        payment.merchant_transaction_id = (options.text("merchantTransactionId")?.as_deref())
            .map(|id| order_id(env, id))
            .transpose()?;
        payment.payment_type = charge_type(env, options.text("paymentType")?.as_deref())?;
    }
    Ok(Operation::of(AnyOperation::RepeatPayment(payment)))
}

/// Whose stored card or account: a customer's, when given.
#[napi(object, object_from_js = false, object_to_js = false)]
#[allow(
    dead_code,
    reason = "declares the TypeScript interface; `args::options` reads the object by its keys"
)]
#[derive(Debug, Default)]
pub struct OwnerOptions {
    /// The gateway's `customerId`.
    pub customer_id: Option<String>,
}

/// The `customerId` of an [`OwnerOptions`] given as `options`.
fn owner(env: &Env, options: Option<Given<'_, Object<'_>>>) -> napi::Result<Option<String>> {
    match args::options(env, options, "options", &["customerId"])? {
        Some(options) => options.text("customerId"),
        None => Ok(None),
    }
}

/// A card stored as a token without a payment, for the customer `customerId` when given.
#[napi]
pub fn register_card(
    env: &Env,
    #[napi(ts_arg_type = "Card")] card: Given<'_, ClassInstance<'_, Card>>,
    #[napi(ts_arg_type = "OwnerOptions | undefined | null")] options: Option<Given<'_, Object<'_>>>,
) -> napi::Result<Operation> {
    let card = args::instance(env, card, "card", "expected a Card")?
        .0
        .clone();
    let customer_id = owner(env, options)?;
    registered(env, Registration::card(card), customer_id)
}

/// A bank account's optional fields.
#[napi(object, object_from_js = false, object_to_js = false)]
#[allow(
    dead_code,
    reason = "declares the TypeScript interface; `args::options` reads the object by its keys"
)]
#[derive(Debug, Default)]
pub struct BankAccountOptions {
    /// The account holder's name.
    pub holder: Option<String>,
    /// The gateway's `customerId`.
    pub customer_id: Option<String>,
}

/// A bank account (`iban`, `bic`) stored as a token, for the customer `customerId` when
/// given.
#[napi]
pub fn register_bank_account(
    env: &Env,
    #[napi(ts_arg_type = "string")] iban: Given<'_, String>,
    #[napi(ts_arg_type = "string")] bic: Given<'_, String>,
    #[napi(ts_arg_type = "BankAccountOptions | undefined | null")] options: Option<
        Given<'_, Object<'_>>,
    >,
) -> napi::Result<Operation> {
    let iban = id(env, iban, "iban")?;
    let bic = id(env, bic, "bic")?;
    let (holder, customer_id) =
        match args::options(env, options, "options", &["holder", "customerId"])? {
            Some(options) => (options.text("holder")?, options.text("customerId")?),
            None => (None, None),
        };
    let account = BankAccount { iban, bic, holder };
    registered(env, Registration::bank_account(account), customer_id)
}

fn registered(
    env: &Env,
    mut registration: Registration,
    customer_id: Option<String>,
) -> napi::Result<Operation> {
    if let Some(id) = customer_id {
        registration.customer = Some(Customer {
            customer_id: Some(id.parse().map_err(|error| invalid(env, error))?),
            ..Customer::default()
        });
    }
    Ok(Operation::of(AnyOperation::Registration(Box::new(
        registration,
    ))))
}

/// A customer signed up: their names and email address.
#[napi]
pub fn customer_signup(
    env: &Env,
    #[napi(ts_arg_type = "string")] given_name: Given<'_, String>,
    #[napi(ts_arg_type = "string")] surname: Given<'_, String>,
    #[napi(ts_arg_type = "string")] email: Given<'_, String>,
) -> napi::Result<Operation> {
    let given_name = args::text(env, given_name, "givenName")?;
    let surname = args::text(env, surname, "surname")?;
    let email = args::text(env, email, "email")?;
    let customer = Customer {
        given_name: Some(given_name),
        surname: Some(surname),
        email: Some(Email::new(&email).map_err(|error| invalid(env, error))?),
        ..Customer::default()
    };
    Ok(Operation::of(AnyOperation::CustomerSignup(Box::new(
        CustomerSignup::new(customer),
    ))))
}

/// The token `registrationId` deleted: payments with it are refused from then on.
#[napi]
pub fn delete_token(
    env: &Env,
    #[napi(ts_arg_type = "string")] registration_id: Given<'_, String>,
) -> napi::Result<Operation> {
    let id = id(env, registration_id, "registrationId")?;
    Ok(Operation::of(AnyOperation::DeleteToken(DeleteToken::new(
        id,
    ))))
}

/// The installment counts the token `registrationId` may be charged in.
#[napi]
pub fn installments(
    env: &Env,
    #[napi(ts_arg_type = "string")] registration_id: Given<'_, String>,
) -> napi::Result<Operation> {
    let id = id(env, registration_id, "registrationId")?;
    Ok(Operation::of(AnyOperation::Installments(
        Installments::new(id),
    )))
}

/// The stored cards and bank accounts: all the caller sees, or one customer's.
#[napi]
pub fn cards_and_accounts(
    env: &Env,
    #[napi(ts_arg_type = "OwnerOptions | undefined | null")] options: Option<Given<'_, Object<'_>>>,
) -> napi::Result<Operation> {
    let list = match owner(env, options)? {
        Some(id) => CardsAndAccounts::of_customer(id.parse().map_err(|error| invalid(env, error))?),
        None => CardsAndAccounts::all(),
    };
    Ok(Operation::of(AnyOperation::CardsAndAccounts(list)))
}

/// One page of the invoice list: `page` from 1, `records` a page (1 to 1000).
#[napi]
pub fn invoice_list(
    env: &Env,
    #[napi(ts_arg_type = "number")] page: Given<'_, f64>,
    #[napi(ts_arg_type = "number")] records: Given<'_, f64>,
) -> napi::Result<Operation> {
    const EXPECTED: &str = "expected a whole number from 0 to 4294967295";
    let page = args::whole(env, page, "page", EXPECTED)?;
    let records = args::whole(env, records, "records", EXPECTED)?;
    let list = InvoiceList::new(page, records);
    list.validate().map_err(|error| thrown(env, &error))?;
    Ok(Operation::of(AnyOperation::InvoiceList(list)))
}
