//! Answers as JSON with the gateway's field names: what `--json` prints, and what the
//! readable output is made from. Card data shows as the gateway gives it (BIN and last
//! four), never more.

use std::fmt::Display;

use paytoken::Transaction;
use paytoken::ops::auth_token::AuthTokenGrant;
use paytoken::ops::cards_and_accounts::StoredRegistrations;
use paytoken::ops::customer_signup::SignedUp;
use paytoken::ops::delete_token::Deleted;
use paytoken::ops::installments::InstallmentPlans;
use paytoken::ops::registration::Registered;
use paytoken::protocol::redact::Redactor;
use paytoken::protocol::{CardSummary, Invoice, Owner, PaymentStatus};
use paytoken::types::GatewayResult;
use serde_json::{Map, Value, json};

/// A JSON object built field by field; absent values are left out.
#[derive(Default)]
pub(crate) struct Object(Map<String, Value>);

impl Object {
    pub(crate) fn text(mut self, name: &str, value: Option<impl Display>) -> Self {
        if let Some(value) = value {
            self.0
                .insert(name.to_owned(), Value::String(value.to_string()));
        }
        self
    }

    pub(crate) fn value(mut self, name: &str, value: Value) -> Self {
        self.0.insert(name.to_owned(), value);
        self
    }

    pub(crate) fn done(self) -> Value {
        Value::Object(self.0)
    }
}

/// The most characters of a gateway's description the command shows.
pub(crate) const SHOWN_DESCRIPTION: usize = 1024;

/// A result, its description as the one redactor shows free text: the ids the answer
/// carries as its own (`ids`) stay whole, whatever else could be a secret is masked.
fn result(result: &GatewayResult, ids: &[&str]) -> Value {
    json!({ "code": result.code.as_str(), "description": description(&result.description, ids) })
}

/// A gateway's free text as the command shows it (see [`result`]).
pub(crate) fn description(text: &str, ids: &[&str]) -> String {
    ids.iter()
        .fold(Redactor::new(), |redactor, id| redactor.knowing(id))
        .redact(text, SHOWN_DESCRIPTION)
}

fn owner(object: Object, owner: Option<&Owner>) -> Object {
    match owner {
        Some(Owner::Member(id)) => object.text("memberId", Some(id)),
        Some(Owner::Partner(id)) => object.text("partnerId", Some(id)),
        _ => object,
    }
}

fn card(card: &CardSummary) -> Value {
    Object::default()
        .text("bin", card.bin.as_ref())
        .text("last4Digits", card.last_four.as_ref())
        .text("holder", card.holder.as_ref())
        .text("expiryMonth", card.expiry_month.as_ref())
        .text("expiryYear", card.expiry_year.as_ref())
        .done()
}

/// A payment's, token payment's or inquiry's transaction.
pub(crate) fn transaction(transaction: &Transaction) -> Value {
    let mut object = Object::default()
        .text("paymentId", Some(&transaction.payment_id))
        .text("registrationId", transaction.registration_id.as_ref())
        .text(
            "merchantTransactionId",
            transaction.merchant_transaction_id.as_ref(),
        )
        .text("amount", transaction.amount.as_ref())
        .text("currency", transaction.currency.as_ref())
        .text("paymentType", transaction.payment_type.as_ref())
        .text("paymentBrand", transaction.payment_brand.as_ref())
        .text("paymentMode", transaction.payment_mode.as_ref())
        .text("transactionStatus", transaction.transaction_status.as_ref())
        .text("status", transaction.state.as_ref())
        .text("descriptor", transaction.descriptor.as_ref())
        .text("remark", transaction.remark.as_ref())
        .text("tmpl_amount", transaction.tmpl_amount.as_ref())
        .text("tmpl_currency", transaction.tmpl_currency.as_ref())
        .text("timestamp", transaction.timestamp.as_ref())
        .value(
            "result",
            result(
                &transaction.result,
                &[
                    transaction.payment_id.as_str(),
                    transaction
                        .registration_id
                        .as_ref()
                        .map_or("", |id| id.raw()),
                ],
            ),
        );
    if let Some(summary) = &transaction.card {
        object = object.value("card", card(summary));
    }
    if let PaymentStatus::ThreeDSecure {
        redirect: Some(redirect),
    } = &transaction.status
    {
        let parameters: Vec<Value> = redirect
            .parameters
            .iter()
            .map(|p| json!({ "name": p.name, "value": p.value }))
            .collect();
        let redirect = Object::default()
            .text("url", Some(&redirect.url))
            .text("method", Some(&redirect.method))
            .text("target", redirect.target.as_ref())
            .value("parameters", parameters.into())
            .done();
        object = object.value("redirect", redirect);
    }
    object.done()
}

pub(crate) fn signed_up(signed: &SignedUp) -> Value {
    owner(
        Object::default().text("customerId", Some(&signed.customer_id)),
        signed.owner.as_ref(),
    )
    .text("timestamp", signed.timestamp.as_ref())
    .value(
        "result",
        result(&signed.result, &[signed.customer_id.as_str()]),
    )
    .done()
}

pub(crate) fn registered(registered: &Registered) -> Value {
    owner(
        Object::default().text("registrationId", Some(&registered.registration_id)),
        registered.owner.as_ref(),
    )
    .text("paymentBrand", registered.payment_brand.as_ref())
    .text("paymentMode", registered.payment_mode.as_ref())
    .text("timestamp", registered.timestamp.as_ref())
    .value(
        "result",
        result(&registered.result, &[registered.registration_id.as_str()]),
    )
    .done()
}

pub(crate) fn deleted(deleted: &Deleted) -> Value {
    Object::default()
        .text("registrationId", deleted.registration_id.as_ref())
        .text("timestamp", deleted.timestamp.as_ref())
        .value(
            "result",
            result(
                &deleted.result,
                &[deleted.registration_id.as_ref().map_or("", |id| id.raw())],
            ),
        )
        .done()
}

pub(crate) fn installments(plans: &InstallmentPlans) -> Value {
    // Counts are numbers: scripts compare them.
    let counts: Vec<Value> = plans.counts.iter().map(|&n| n.into()).collect();
    Object::default()
        .text("registrationId", plans.registration_id.as_ref())
        .value("card", card(&plans.card))
        .value("installments", counts.into())
        .done()
}

pub(crate) fn stored(stored: &StoredRegistrations) -> Value {
    let cards: Vec<Value> = stored
        .cards
        .iter()
        .map(|c| {
            Object::default()
                .text("registrationId", c.registration_id.as_ref())
                .text("registrationStatus", c.registration_status.as_ref())
                .text("cardType", c.card_type.as_ref())
                .text("bin", c.bin.as_ref())
                .text("last4Digits", c.last_four.as_ref())
                .text("expiryMonth", c.expiry_month.as_ref())
                .text("expiryYear", c.expiry_year.as_ref())
                .text("customerId", c.customer_id.as_ref())
                .done()
        })
        .collect();
    let accounts: Vec<Value> = stored
        .bank_accounts
        .iter()
        .map(|a| {
            Object::default()
                .text("registrationId", a.registration_id.as_ref())
                .text("registrationStatus", a.registration_status.as_ref())
                .text("iban", a.masked_iban.as_ref())
                .text("bic", a.bic.as_ref())
                .text("customerId", a.customer_id.as_ref())
                .done()
        })
        .collect();
    owner(Object::default(), stored.owner.as_ref())
        .text("customerId", stored.customer_id.as_ref())
        .value("result", result(&stored.result, &[]))
        .value("cards", cards.into())
        .value("accounts", accounts.into())
        .done()
}

/// One invoice with its customer details and every field the gateway sent with it.
pub(crate) fn invoice(invoice: &Invoice) -> Value {
    let mut object = Object::default()
        .text("orderId", invoice.order_id.as_ref())
        .text("amount", invoice.amount.as_ref())
        .text("currency", invoice.currency.as_ref())
        .text("invoiceStatus", invoice.invoice_status.as_ref())
        .text("transactionStatus", invoice.transaction_status.as_ref())
        .text("createdDate", invoice.created_date.as_ref())
        .text("expirationPeriod", invoice.expiration_period.as_ref())
        .text("systemInvoiceId", invoice.system_invoice_id.as_ref())
        .text("transactionUrl", invoice.transaction_url.as_ref())
        .text("raisedBy", invoice.raised_by.as_ref())
        .text("orderDescription", invoice.order_description.as_ref())
        .text("trackingId", invoice.tracking_id.as_ref())
        .text("dtstamp", invoice.dtstamp.as_ref());
    if let Some(customer) = &invoice.customer {
        let details = Object::default()
            .text("name", customer.name.as_ref())
            .text("address", customer.address.as_ref())
            .text("mobile", customer.mobile.as_ref())
            .text("email", customer.email.as_ref())
            .done();
        object = object.value("customerDetails", details);
    }
    object.done()
}

pub(crate) fn invoices(invoices: &[Invoice]) -> Value {
    let list: Vec<Value> = invoices.iter().map(invoice).collect();
    json!({ "count": list.len(), "invoices": list })
}

/// The token is printed: fetching it is this command's job.
pub(crate) fn grant(grant: &AuthTokenGrant) -> Value {
    Object::default()
        .text("AuthToken", Some(grant.token.expose_secret()))
        .text("partnerId", grant.partner_id.as_ref())
        .text("memberId", grant.member_id.as_ref())
        .text("LoginName", grant.login_name.as_ref())
        .text("timestamp", grant.timestamp.as_ref())
        .value("result", result(&grant.result, &[]))
        .done()
}
