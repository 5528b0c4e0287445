//! The operations: each made by a function of the module (`paytoken.payment(...)`), all
//! one class, [`Operation`], holding the protocol crate's `AnyOperation`: its `request`
//! builds the signed request, its `parse` reads the answer.

use napi::bindgen_prelude::{Either, Either8, Env, Uint8Array};
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

use crate::answer::{
    self, AuthTokenGrant, Deleted, InstallmentCounts, InvoicePage, Registered, SignedUp,
    StoredRegistrations, Transaction,
};
use crate::credentials::Context;
use crate::errors::{invalid, invalid_field, thrown};
use crate::request::Request;
use crate::values::{Card, bytes_of};

/// One operation of the interface, its values checked: `request(context)` gives the signed
/// request to send with `fetch` (or any HTTP client), `parse(status, body)` reads the
/// answer to it.
#[napi]
#[derive(Debug, Clone)]
pub struct Operation(pub(crate) AnyOperation);

#[napi]
impl Operation {
    /// The operation's name, as the command and the conformance kit say it: `pay`,
    /// `pay_with_token`, `inquiry`...
    #[napi(getter)]
    pub fn name(&self) -> &'static str {
        self.0.kind().name()
    }

    /// The signed request, for the caller's HTTP client to send.
    ///
    /// Throws `PAYTOKEN_INVALID_INPUT` naming the field a value does not fit; nothing is
    /// built then.
    #[napi]
    pub fn request(&self, env: &Env, context: &Context) -> napi::Result<Request> {
        (self.0.request(&context.0))
            .map(Request)
            .map_err(|error| thrown(env, &error))
    }

    /// The answer to the request, from its HTTP status and body (a string, or the bytes
    /// as they came): an object whose `kind` says which (`transaction` for the payments,
    /// the back office's moves and an inquiry).
    ///
    /// Throws `PAYTOKEN_REFUSED` when the gateway refused before it created anything, and
    /// an error with `mayHaveBeenProcessed` (`PAYTOKEN_UNREADABLE`,
    /// `PAYTOKEN_CONTRADICTION`) when the request may have been processed: settle that by
    /// an inquiry, never by sending the request again.
    #[napi]
    #[allow(
        clippy::type_complexity,
        reason = "napi-rs writes the TypeScript union from the type spelled out here"
    )]
    pub fn parse(
        &self,
        env: &Env,
        status: u16,
        body: Either<String, Uint8Array>,
    ) -> napi::Result<
        Either8<
            Transaction,
            AuthTokenGrant,
            Registered,
            SignedUp,
            Deleted,
            InstallmentCounts,
            StoredRegistrations,
            InvoicePage,
        >,
    > {
        let reading =
            (self.0.parse(status, bytes_of(&body))).map_err(|error| thrown(env, &error))?;
        answer::reading(env, reading)
    }

    /// `Operation(<name>)`.
    #[napi(js_name = "toString")]
    pub fn shown(&self) -> String {
        format!("Operation({})", self.name())
    }
}

fn amount(env: &Env, text: &str) -> napi::Result<Amount> {
    text.parse().map_err(|error| invalid(env, error))
}

fn currency(env: &Env, text: &str) -> napi::Result<Currency> {
    text.parse().map_err(|error| invalid(env, error))
}

fn order_id(env: &Env, text: &str) -> napi::Result<MerchantTransactionId> {
    MerchantTransactionId::new(text).map_err(|error| invalid(env, error))
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
    partner_id: String,
    username: String,
) -> napi::Result<Operation> {
    let partner_id = partner_id.parse().map_err(|error| invalid(env, error))?;
    let username = Username::new(username).map_err(|error| invalid(env, error))?;
    Ok(Operation(AnyOperation::FetchAuthToken(
        FetchAuthToken::new(partner_id, username),
    )))
}

/// A fresh auth token for `token`, still valid, under `partnerId`; the old one stops
/// working.
#[napi]
pub fn regenerate_auth_token(
    env: &Env,
    partner_id: String,
    token: String,
) -> napi::Result<Operation> {
    let partner_id = partner_id.parse().map_err(|error| invalid(env, error))?;
    let token = AuthToken::new(token).map_err(|error| invalid(env, error))?;
    Ok(Operation(AnyOperation::RegenerateAuthToken(
        RegenerateAuthToken::new(partner_id, token),
    )))
}

/// A payment's optional fields.
#[napi(object, object_to_js = false)]
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
    merchant_transaction_id: String,
    amount: String,
    currency: String,
    card: &Card,
    options: Option<PaymentOptions>,
) -> napi::Result<Operation> {
    let options = options.unwrap_or_default();
    let mut payment = Payment::new(
        order_id(env, &merchant_transaction_id)?,
        self::amount(env, &amount)?,
        self::currency(env, &currency)?,
        card.0.clone(),
    );
    payment.payment_type = charge_type(env, options.payment_type.as_deref())?;
    payment.create_registration = options.store_card.unwrap_or(false);
    payment.recurring_type = recurring(env, options.recurring.as_deref())?;
    payment.notification_url = options.notification_url;
    payment.merchant_redirect_url = options.merchant_redirect_url;
    Ok(Operation(AnyOperation::Payment(Box::new(payment))))
}

/// A token payment's optional fields.
#[napi(object, object_to_js = false)]
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
    registration_id: String,
    amount: String,
    currency: String,
    options: Option<TokenPaymentOptions>,
) -> napi::Result<Operation> {
    let options = options.unwrap_or_default();
    let mut payment = TokenPayment::new(
        registration_id
            .parse()
            .map_err(|error| invalid(env, error))?,
        self::amount(env, &amount)?,
        self::currency(env, &currency)?,
    );
    payment.merchant_transaction_id = (options.merchant_transaction_id.as_deref())
        .map(|id| order_id(env, id))
        .transpose()?;
    payment.payment_type = charge_type(env, options.payment_type.as_deref())?;
    payment.recurring_type = recurring(env, options.recurring.as_deref())?;
    Ok(Operation(AnyOperation::TokenPayment(payment)))
}

/// A capture of `amount` of the pre-authorisation `paymentId`.
#[napi]
pub fn capture(
    env: &Env,
    payment_id: String,
    amount: String,
    currency: String,
) -> napi::Result<Operation> {
    let capture = Capture::new(
        payment_id.parse().map_err(|error| invalid(env, error))?,
        self::amount(env, &amount)?,
        self::currency(env, &currency)?,
    );
    Ok(Operation(AnyOperation::Capture(capture)))
}

/// A refund of `amount` of the payment `paymentId`.
#[napi]
pub fn refund(
    env: &Env,
    payment_id: String,
    amount: String,
    currency: String,
) -> napi::Result<Operation> {
    let refund = Refund::new(
        payment_id.parse().map_err(|error| invalid(env, error))?,
        self::amount(env, &amount)?,
        self::currency(env, &currency)?,
    );
    Ok(Operation(AnyOperation::Refund(refund)))
}

/// A cancel (void) of the pre-authorisation `paymentId`.
#[napi]
pub fn cancel(env: &Env, payment_id: String) -> napi::Result<Operation> {
    let cancel = Cancel::new(payment_id.parse().map_err(|error| invalid(env, error))?);
    Ok(Operation(AnyOperation::Cancel(cancel)))
}

/// Which transaction an inquiry asks about: one of the two ids.
#[napi(object, object_to_js = false)]
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
pub fn inquiry(env: &Env, target: InquiryTarget) -> napi::Result<Operation> {
    let inquiry = match (target.payment_id, target.merchant_transaction_id) {
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
    Ok(Operation(AnyOperation::Inquiry(inquiry)))
}

/// A repeat's optional fields.
#[napi(object, object_to_js = false)]
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
    first_payment_id: String,
    amount: String,
    currency: String,
    options: Option<RepeatOptions>,
) -> napi::Result<Operation> {
    let options = options.unwrap_or_default();
    let mut payment = RepeatPayment::new(
        first_payment_id
            .parse()
            .map_err(|error| invalid(env, error))?,
        self::amount(env, &amount)?,
        self::currency(env, &currency)?,
    );
    payment.merchant_transaction_id = (options.merchant_transaction_id.as_deref())
        .map(|id| order_id(env, id))
        .transpose()?;
    payment.payment_type = charge_type(env, options.payment_type.as_deref())?;
    Ok(Operation(AnyOperation::RepeatPayment(payment)))
}

/// Whose stored card or account: a customer's, when given.
#[napi(object, object_to_js = false)]
#[derive(Debug, Default)]
pub struct OwnerOptions {
    /// The gateway's `customerId`.
    pub customer_id: Option<String>,
}

/// A card stored as a token without a payment, for the customer `customerId` when given.
#[napi]
pub fn register_card(
    env: &Env,
    card: &Card,
    options: Option<OwnerOptions>,
) -> napi::Result<Operation> {
    let customer_id = options.and_then(|options| options.customer_id);
    registered(env, Registration::card(card.0.clone()), customer_id)
}

/// A bank account's optional fields.
#[napi(object, object_to_js = false)]
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
    iban: String,
    bic: String,
    options: Option<BankAccountOptions>,
) -> napi::Result<Operation> {
    let options = options.unwrap_or_default();
    let account = BankAccount {
        iban: iban.parse().map_err(|error| invalid(env, error))?,
        bic: bic.parse().map_err(|error| invalid(env, error))?,
        holder: options.holder,
    };
    registered(
        env,
        Registration::bank_account(account),
        options.customer_id,
    )
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
    Ok(Operation(AnyOperation::Registration(Box::new(
        registration,
    ))))
}

/// A customer signed up: their names and email address.
#[napi]
pub fn customer_signup(
    env: &Env,
    given_name: String,
    surname: String,
    email: String,
) -> napi::Result<Operation> {
    let customer = Customer {
        given_name: Some(given_name),
        surname: Some(surname),
        email: Some(Email::new(&email).map_err(|error| invalid(env, error))?),
        ..Customer::default()
    };
    Ok(Operation(AnyOperation::CustomerSignup(Box::new(
        CustomerSignup::new(customer),
    ))))
}

/// The token `registrationId` deleted: payments with it are refused from then on.
#[napi]
pub fn delete_token(env: &Env, registration_id: String) -> napi::Result<Operation> {
    let id = registration_id
        .parse()
        .map_err(|error| invalid(env, error))?;
    Ok(Operation(AnyOperation::DeleteToken(DeleteToken::new(id))))
}

/// The installment counts the token `registrationId` may be charged in.
#[napi]
pub fn installments(env: &Env, registration_id: String) -> napi::Result<Operation> {
    let id = registration_id
        .parse()
        .map_err(|error| invalid(env, error))?;
    Ok(Operation(AnyOperation::Installments(Installments::new(id))))
}

/// The stored cards and bank accounts: all the caller sees, or one customer's.
#[napi]
pub fn cards_and_accounts(env: &Env, options: Option<OwnerOptions>) -> napi::Result<Operation> {
    let list = match options.and_then(|options| options.customer_id) {
        Some(id) => CardsAndAccounts::of_customer(id.parse().map_err(|error| invalid(env, error))?),
        None => CardsAndAccounts::all(),
    };
    Ok(Operation(AnyOperation::CardsAndAccounts(list)))
}

/// One page of the invoice list: `page` from 1, `records` a page.
#[napi]
pub fn invoice_list(page: u32, records: u32) -> Operation {
    Operation(AnyOperation::InvoiceList(InvoiceList::new(page, records)))
}
