//! What the console shows, as JSON: the books, the request log, the notifications and
//! the clock with the auth tokens' expiries. Card numbers as BIN and last four, IBANs
//! masked, keys and token values never.

use paytoken_types::Timestamp;
use serde_json::{Value, json};

use crate::config::SandboxConfig;
use crate::faults::FaultQueue;
use crate::gateway::Gateway;
use crate::notifications::Attempt;
use crate::state::{Instrument, Principal};

/// `yyyy-MM-dd HH:mm:ss` of seconds on the sandbox's clock.
fn time(seconds: i64) -> String {
    Timestamp::from_unix_seconds(seconds).map_or_else(String::new, |time| time.to_string())
}

/// The partner and member ids of a record's owner.
fn owner(config: &SandboxConfig, principal: Principal) -> Value {
    let partner = config.partners.get(principal.partner());
    let partner_id = partner.map(|partner| partner.partner_id.to_string());
    match principal {
        Principal::Merchant { merchant, .. } => {
            let member_id = partner
                .and_then(|partner| partner.merchants.get(merchant))
                .map(|merchant| merchant.member_id.to_string());
            json!({ "partnerId": partner_id, "memberId": member_id })
        }
        Principal::Partner { .. } => json!({ "partnerId": partner_id, "memberId": null }),
    }
}

/// Every record the sandbox holds.
pub(super) fn books(gateway: &Gateway) -> Value {
    let state = gateway.lock();
    let config = &gateway.config;
    let payments: Vec<Value> = state
        .payments()
        .iter()
        .map(|payment| {
            json!({
                "paymentId": payment.payment_id.as_str(),
                "merchantTransactionId": payment.merchant_transaction_id.as_ref().map(|id| id.as_str()),
                "owner": owner(config, payment.owner),
                "paymentType": payment.payment_type.to_string(),
                "amount": payment.amount.to_wire().as_str(),
                "currency": payment.currency.as_str(),
                "transactionStatus": payment.status.short().as_str(),
                "status": payment.long_status().as_str(),
                "registrationId": payment.registration_id.as_ref().map(|id| id.as_str()),
                "card": payment.card.as_ref().map(|card| json!({ "bin": card.bin, "last4Digits": card.last_four })),
                "madeAt": time(payment.made_at),
                "captured": payment.moves.captured.map(|amount| amount.to_wire().as_str().to_owned()),
                "refunded": payment.moves.refunded.to_wire().as_str(),
                "cancelled": payment.moves.cancelled,
            })
        })
        .collect();
    let registrations: Vec<Value> = state
        .registrations_in_order()
        .map(|registration| {
            let instrument = match &registration.instrument {
                Instrument::Card(card) => json!({
                    "card": {
                        "brand": card.brand,
                        "bin": card.bin,
                        "last4Digits": card.last_four,
                        "expiryMonth": card.expiry_month,
                        "expiryYear": card.expiry_year,
                    }
                }),
                Instrument::BankAccount { masked_iban, bic } => {
                    json!({ "bankAccount": { "iban": masked_iban, "bic": bic } })
                }
            };
            let mut entry = json!({
                "registrationId": registration.id.as_str(),
                "owner": owner(config, registration.owner),
                "customerId": registration.customer_id.as_ref().map(|id| id.as_str()),
                "active": registration.active,
                "recurring": registration.recurring,
            });
            if let (Some(entry), Value::Object(instrument)) = (entry.as_object_mut(), instrument) {
                entry.extend(instrument);
            }
            entry
        })
        .collect();
    let customers: Vec<Value> = state
        .customers()
        .into_iter()
        .map(|(id, principal)| json!({ "customerId": id.as_str(), "owner": owner(config, principal) }))
        .collect();
    let invoices: Vec<Value> = state
        .invoices()
        .iter()
        .map(|invoice| {
            json!({
                "systemInvoiceId": invoice.system_invoice_id,
                "owner": owner(config, invoice.owner),
                "orderId": invoice.order_id,
                "amount": invoice.amount.to_wire().as_str(),
                "currency": invoice.currency.as_str(),
                "invoiceStatus": invoice.status.as_str(),
                "createdDate": invoice.created,
            })
        })
        .collect();
    json!({
        "payments": payments,
        "registrations": registrations,
        "customers": customers,
        "invoices": invoices,
    })
}

/// The request log's entries numbered above `after`, and the last number there is.
pub(super) fn requests(gateway: &Gateway, after: u64) -> Value {
    let entries = gateway.requests.after(after);
    let last = entries.last().map_or(after, |entry| entry.number);
    let requests: Vec<Value> = entries
        .iter()
        .map(|entry| {
            let fields: Vec<Value> = entry
                .fields
                .iter()
                .map(|(name, value)| json!({ "name": name, "value": value }))
                .collect();
            json!({
                "number": entry.number,
                "time": time(entry.at),
                "method": entry.method,
                "path": entry.path,
                "operation": entry.operation,
                "caller": entry.caller,
                "status": entry.status,
                "resultCode": entry.result_code,
                "explanation": entry.explanation,
                "fields": fields,
            })
        })
        .collect();
    json!({ "requests": requests, "last": last })
}

/// Every notification kept, numbered, with its attempts.
pub(super) fn notifications(gateway: &Gateway) -> Value {
    let notifications: Vec<Value> = gateway
        .outbox
        .numbered()
        .into_iter()
        .map(|(number, sent)| {
            let attempts: Vec<Value> = sent
                .attempts
                .iter()
                .map(|attempt| match attempt {
                    Attempt::Answered(status) => json!({ "outcome": "answered", "status": status }),
                    Attempt::Failed(reason) => json!({ "outcome": "failed", "reason": reason }),
                    Attempt::NotSent(reason) => json!({ "outcome": "not_sent", "reason": reason }),
                    Attempt::Resent => json!({ "outcome": "resent" }),
                })
                .collect();
            json!({
                "number": number,
                "paymentId": sent.payment_id,
                "url": sent.url,
                "fault": sent.fault.map(|fault| format!("notify={}", fault.name())),
                "delivered": sent.delivered,
                "attempts": attempts,
                "body": sent.body,
            })
        })
        .collect();
    json!({ "notifications": notifications })
}

/// The sandbox's time, how far the console moved it, and the auth tokens it decides on:
/// each one's owner and expiry, and whether it is still live (never its value).
pub(super) fn clock(gateway: &Gateway) -> Value {
    let now = gateway.clock.now();
    let issued = gateway.lock().issued_tokens();
    let tokens: Vec<Value> = issued
        .into_iter()
        .map(|token| {
            json!({
                "owner": owner(&gateway.config, token.principal),
                "expiresAt": time(token.expires_at),
                "live": now < token.expires_at,
            })
        })
        .collect();
    json!({
        "unixSeconds": now,
        "time": time(now),
        "advancedSeconds": gateway.clock.advanced_millis() / 1000,
        "authTokens": tokens,
    })
}

/// The faults waiting for the next requests, in order: each one's directives and the
/// requests it waits for (`target`).
pub(super) fn faults(queue: &FaultQueue) -> Value {
    let next: Vec<Value> = queue
        .waiting()
        .into_iter()
        .map(|(target, directives)| json!({ "directives": directives, "target": target.name() }))
        .collect();
    json!({ "next": next })
}
