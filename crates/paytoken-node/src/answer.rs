//! The answers, as JavaScript objects: what decides them, and the incidental fields as the
//! gateway sent them. Each has a `kind` saying which answer it is.

use napi::bindgen_prelude::{Either8, Env, Object};
use napi_derive::napi;
use paytoken_protocol::ops::auth_token::AuthTokenGrant as Grant;
use paytoken_protocol::ops::cards_and_accounts::StoredRegistrations as Listed;
use paytoken_protocol::ops::customer_signup::SignedUp as Created;
use paytoken_protocol::ops::delete_token::Deleted as Gone;
use paytoken_protocol::ops::installments::InstallmentPlans as Plans;
use paytoken_protocol::ops::invoice_list::InvoicePage as Page;
use paytoken_protocol::ops::registration::Registered as Stored;
use paytoken_protocol::recorded::Reading;
use paytoken_protocol::redact;
use paytoken_protocol::{Context, FieldValue as _, PaymentStatus, Transaction as Paid};
use paytoken_types::GatewayResult;

use crate::errors::thrown;
use crate::raw;

/// An answer: a `Transaction` (the payments, the back office's moves, an inquiry), an
/// `AuthTokenGrant`, `Registered`, `SignedUp`, `Deleted`, `InstallmentCounts`,
/// `StoredRegistrations` or `InvoicePage`; `kind` tells them apart. (The functions that
/// return one spell it out: napi-rs writes their TypeScript from what they spell.)
pub(crate) type Answer = Either8<
    Transaction,
    AuthTokenGrant,
    Registered,
    SignedUp,
    Deleted,
    InstallmentCounts,
    StoredRegistrations,
    InvoicePage,
>;

/// The answer a reading gives, as the object JavaScript receives: its description (where
/// it has one) redacted, the secure key and auth token of `context` (the request's) among
/// what is masked, and the text as the gateway sent it behind `rawResultDescription()`.
pub(crate) fn reading<'env>(
    env: &'env Env,
    reading: Reading,
    context: Option<&Context>,
) -> napi::Result<Object<'env>> {
    let shown = |result: &GatewayResult| redact::description(&result.description, context);
    let (answer, raw): (Answer, Option<String>) = match reading {
        Reading::Transaction(paid) => {
            let description = shown(&paid.result);
            let raw = paid.result.description.clone();
            (Either8::A(transaction(*paid, description)), Some(raw))
        }
        Reading::AuthToken(made) => (Either8::B(AuthTokenGrant(made)), None),
        Reading::Registered(stored) => {
            let description = shown(&stored.result);
            let raw = stored.result.description.clone();
            (Either8::C(registered(stored, description)), Some(raw))
        }
        Reading::SignedUp(created) => {
            let description = shown(&created.result);
            let raw = created.result.description.clone();
            (Either8::D(signed_up(created, description)), Some(raw))
        }
        Reading::Deleted(gone) => {
            let description = shown(&gone.result);
            let raw = gone.result.description.clone();
            (Either8::E(deleted(gone, description)), Some(raw))
        }
        Reading::Installments(plans) => (Either8::F(installments(plans)), None),
        Reading::CardsAndAccounts(listed) => (Either8::G(stored(listed)), None),
        Reading::Invoices(page) => (Either8::H(invoices(page)), None),
        _ => {
            let unknown = paytoken_protocol::Error::Invalid {
                field: "operation",
                reason: "an answer of an operation this version of the binding does not know",
            };
            return Err(thrown(env, &unknown));
        }
    };
    let mut object = as_object(env, answer)?;
    if let Some(raw) = raw {
        raw::attach(env, &mut object, "rawResultDescription", raw)?;
    }
    Ok(object)
}

/// `answer` as the JavaScript object napi-rs makes of it, which it makes where the value
/// is stored: set on a holder, and read back.
fn as_object(env: &Env, answer: Answer) -> napi::Result<Object<'_>> {
    let mut holder = Object::new(env)?;
    holder.set("answer", answer)?;
    (holder.get::<Object<'_>>("answer")?)
        .ok_or_else(|| napi::Error::from_reason("an answer napi-rs did not convert"))
}

/// A transaction the gateway created: a payment, a token payment, a capture, refund or
/// cancel, or the one an inquiry found.
#[napi(object, object_from_js = false)]
#[derive(Debug, Clone)]
pub struct Transaction {
    /// `transaction`.
    #[napi(ts_type = "'transaction'")]
    pub kind: &'static str,
    /// `paymentId`.
    pub payment_id: String,
    /// What became of it.
    #[napi(
        ts_type = "'approved' | 'pending' | 'three_d_secure' | 'declined' | 'cancelled' | 'refunded' | 'charged_back' | 'unknown'"
    )]
    pub status: &'static str,
    /// Whether the money moved (or is reserved) and stays with the merchant: the one
    /// ship / don't-ship decision.
    pub is_approved: bool,
    /// The result code (`00001`...), empty when the answer had none.
    pub result_code: String,
    /// The result's description, redacted: the secure key, the auth token, card numbers
    /// and IBANs masked, cut to 200 characters. `rawResultDescription()` returns it as the
    /// gateway sent it.
    pub result_description: String,
    /// `transactionStatus`, the short status (`Y`, `N`, `P`, `3D`, `C`), when it came.
    pub transaction_status: Option<String>,
    /// `merchantTransactionId`: the shop's own order id.
    pub merchant_transaction_id: Option<String>,
    /// `registrationId`: the token a payment stored, as it came.
    pub registration_id: Option<String>,
    /// `amount`, as it came.
    pub amount: Option<String>,
    /// `currency`, as it came.
    pub currency: Option<String>,
    /// Where to send the cardholder's browser, for a payment waiting for 3-D Secure.
    pub redirect: Option<Redirect>,
}

/// Where a payment waiting for 3-D Secure sends the cardholder's browser: `method` (`GET`
/// or `POST`) to `url`, with `parameters` (`[name, value]` pairs, in order) as its form or
/// query, in the window `target` names.
#[napi(object, object_from_js = false)]
#[derive(Debug, Clone)]
pub struct Redirect {
    /// `url`.
    pub url: String,
    /// `method`, as it came.
    pub method: String,
    /// `target`, such as `_self`, when it came.
    pub target: Option<String>,
    /// `parameters`: the fields to send along, in order.
    pub parameters: Vec<(String, String)>,
}

fn transaction(paid: Paid, result_description: String) -> Transaction {
    let redirect = match &paid.status {
        PaymentStatus::ThreeDSecure {
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
    Transaction {
        kind: "transaction",
        payment_id: paid.payment_id.to_string(),
        status: paid.status.name(),
        is_approved: paid.is_approved(),
        result_code: paid.result.code.as_str().to_owned(),
        result_description,
        transaction_status: (paid.transaction_status.as_ref())
            .map(|status| status.as_str().to_owned()),
        merchant_transaction_id: paid.merchant_transaction_id.map(|id| id.to_string()),
        registration_id: paid.registration_id.raw().map(str::to_owned),
        amount: paid.amount.raw().map(str::to_owned),
        currency: paid.currency.raw().map(str::to_owned),
        redirect,
    }
}

/// An auth token fetched: the token, shown by its length only.
#[napi]
#[derive(Debug)]
pub struct AuthTokenGrant(Grant);

#[napi]
impl AuthTokenGrant {
    /// `authTokenGrant`.
    #[napi(getter, ts_return_type = "'authTokenGrant'")]
    pub fn kind(&self) -> &'static str {
        "authTokenGrant"
    }

    /// The token, for `new Context(credentials, { authToken })`.
    #[napi(getter)]
    pub fn token(&self) -> String {
        self.0.token.expose_secret().to_owned()
    }

    /// The result code (`200` when fetched).
    #[napi(getter)]
    pub fn result_code(&self) -> String {
        self.0.result.code.as_str().to_owned()
    }

    /// `AuthTokenGrant(token=*** (<n> characters))`.
    #[napi(js_name = "toString")]
    pub fn shown(&self) -> String {
        format!(
            "AuthTokenGrant(token=*** ({} characters))",
            self.0.token.expose_secret().len()
        )
    }

    /// The grant's JSON: its `toString`, so that no log of it shows the token.
    #[napi(js_name = "toJSON")]
    pub fn to_json(&self) -> String {
        self.shown()
    }
}

/// A card or account the gateway stored: its token.
#[napi(object, object_from_js = false)]
#[derive(Debug, Clone)]
pub struct Registered {
    /// `registered`.
    #[napi(ts_type = "'registered'")]
    pub kind: &'static str,
    /// `registrationId`: the token for later payments.
    pub registration_id: String,
    /// The result code.
    pub result_code: String,
    /// The result's description, redacted: the secure key, the auth token, card numbers
    /// and IBANs masked, cut to 200 characters. `rawResultDescription()` returns it as the
    /// gateway sent it.
    pub result_description: String,
}

fn registered(stored: Stored, result_description: String) -> Registered {
    Registered {
        kind: "registered",
        registration_id: stored.registration_id.to_string(),
        result_code: stored.result.code.as_str().to_owned(),
        result_description,
    }
}

/// A customer the gateway created: the id to send from now on.
#[napi(object, object_from_js = false)]
#[derive(Debug, Clone)]
pub struct SignedUp {
    /// `signedUp`.
    #[napi(ts_type = "'signedUp'")]
    pub kind: &'static str,
    /// `customerId`.
    pub customer_id: String,
    /// The result code.
    pub result_code: String,
    /// The result's description, redacted: the secure key, the auth token, card numbers
    /// and IBANs masked, cut to 200 characters. `rawResultDescription()` returns it as the
    /// gateway sent it.
    pub result_description: String,
}

fn signed_up(created: Created, result_description: String) -> SignedUp {
    SignedUp {
        kind: "signedUp",
        customer_id: created.customer_id.to_string(),
        result_code: created.result.code.as_str().to_owned(),
        result_description,
    }
}

/// A token deleted: payments with it are refused from now on.
#[napi(object, object_from_js = false)]
#[derive(Debug, Clone)]
pub struct Deleted {
    /// `deleted`.
    #[napi(ts_type = "'deleted'")]
    pub kind: &'static str,
    /// `registrationId`, when the answer repeats it.
    pub registration_id: Option<String>,
    /// The result code.
    pub result_code: String,
    /// The result's description, redacted: the secure key, the auth token, card numbers
    /// and IBANs masked, cut to 200 characters. `rawResultDescription()` returns it as the
    /// gateway sent it.
    pub result_description: String,
}

fn deleted(gone: Gone, result_description: String) -> Deleted {
    Deleted {
        kind: "deleted",
        registration_id: gone.registration_id.raw().map(str::to_owned),
        result_code: gone.result.code.as_str().to_owned(),
        result_description,
    }
}

/// The installment counts a token may be charged in.
#[napi(object, object_from_js = false)]
#[derive(Debug, Clone)]
pub struct InstallmentCounts {
    /// `installments`.
    #[napi(ts_type = "'installments'")]
    pub kind: &'static str,
    /// The counts, in the gateway's order.
    pub counts: Vec<u32>,
}

fn installments(plans: Plans) -> InstallmentCounts {
    InstallmentCounts {
        kind: "installments",
        counts: plans.counts.into_iter().map(u32::from).collect(),
    }
}

/// A stored card, as the list shows it (never its whole number).
#[napi(object, object_from_js = false)]
#[derive(Debug, Clone)]
pub struct StoredCard {
    /// `registrationId`: its token, as it came.
    pub registration_id: Option<String>,
    /// `registrationStatus`, as it came (`ACTIVE`...).
    pub registration_status: Option<String>,
    /// The card's first six digits.
    pub bin: Option<String>,
    /// Its last four digits.
    pub last_four: Option<String>,
    /// `expiryMonth`, as it came.
    pub expiry_month: Option<String>,
    /// `expiryYear`, as it came.
    pub expiry_year: Option<String>,
}

/// A stored bank account, as the list shows it.
#[napi(object, object_from_js = false)]
#[derive(Debug, Clone)]
pub struct StoredBankAccount {
    /// `registrationId`: its token, as it came.
    pub registration_id: Option<String>,
    /// `registrationStatus`, as it came.
    pub registration_status: Option<String>,
    /// The IBAN as the gateway masks it.
    pub masked_iban: Option<String>,
    /// `bic`.
    pub bic: Option<String>,
}

/// The stored cards and bank accounts, of the merchant or of one customer.
#[napi(object, object_from_js = false)]
#[derive(Debug, Clone)]
pub struct StoredRegistrations {
    /// `storedRegistrations`.
    #[napi(ts_type = "'storedRegistrations'")]
    pub kind: &'static str,
    /// The cards, in the gateway's order.
    pub cards: Vec<StoredCard>,
    /// The bank accounts, in the gateway's order.
    pub bank_accounts: Vec<StoredBankAccount>,
    /// The result code.
    pub result_code: String,
}

fn stored(listed: Listed) -> StoredRegistrations {
    let cards = (listed.cards.into_iter())
        .map(|card| StoredCard {
            registration_id: card.registration_id.raw().map(str::to_owned),
            registration_status: card.registration_status.raw().map(str::to_owned),
            bin: card.bin,
            last_four: card.last_four,
            expiry_month: card.expiry_month.raw().map(str::to_owned),
            expiry_year: card.expiry_year.raw().map(str::to_owned),
        })
        .collect();
    let bank_accounts = (listed.bank_accounts.into_iter())
        .map(|account| StoredBankAccount {
            registration_id: account.registration_id.raw().map(str::to_owned),
            registration_status: account.registration_status.raw().map(str::to_owned),
            masked_iban: account.masked_iban,
            bic: account.bic,
        })
        .collect();
    StoredRegistrations {
        kind: "storedRegistrations",
        cards,
        bank_accounts,
        result_code: listed.result.code.as_str().to_owned(),
    }
}

/// One invoice of the list, its fields as they came.
#[napi(object, object_from_js = false)]
#[derive(Debug, Clone)]
pub struct Invoice {
    /// `orderId`.
    pub order_id: Option<String>,
    /// `amount`, as it came.
    pub amount: Option<String>,
    /// `currency`, as it came.
    pub currency: Option<String>,
    /// `invoiceStatus`.
    pub invoice_status: Option<String>,
    /// `transactionStatus`, as it came.
    pub transaction_status: Option<String>,
    /// `createdDate`, as it came.
    pub created_date: Option<String>,
    /// `systemInvoiceId`.
    pub system_invoice_id: Option<String>,
}

/// One page of the invoice list.
#[napi(object, object_from_js = false)]
#[derive(Debug, Clone)]
pub struct InvoicePage {
    /// `invoicePage`.
    #[napi(ts_type = "'invoicePage'")]
    pub kind: &'static str,
    /// The invoices of the page, in the gateway's order (none past the last page).
    pub invoices: Vec<Invoice>,
    /// The result code, when the gateway sent a result.
    pub result_code: Option<String>,
}

fn invoices(page: Page) -> InvoicePage {
    let invoices = (page.invoices.into_iter())
        .map(|invoice| Invoice {
            order_id: invoice.order_id,
            amount: invoice.amount.raw().map(str::to_owned),
            currency: invoice.currency.raw().map(str::to_owned),
            invoice_status: invoice.invoice_status,
            transaction_status: invoice.transaction_status.raw().map(str::to_owned),
            created_date: invoice.created_date.raw().map(str::to_owned),
            system_invoice_id: invoice.system_invoice_id,
        })
        .collect();
    InvoicePage {
        kind: "invoicePage",
        invoices,
        result_code: page.result.map(|result| result.code.as_str().to_owned()),
    }
}
