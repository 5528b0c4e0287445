//! What the console shows, as JSON: the books, the request log, the notifications and
//! the clock with the auth tokens' expiries. Card numbers as BIN and last four, IBANs
//! masked, keys and token values never.
//!
//! Every list is read a page at a time ([`Page`]): under the state's lock (or a log's)
//! only the page's rows are built, so a console read holds a gateway call up for the
//! time of [`PAGE_LIMIT`] rows at most, however full the sandbox.

use paytoken_types::Timestamp;
use paytoken_types::internal::sensitive;
use serde_json::{Value, json};

use crate::config::SandboxConfig;
use crate::faults::FaultQueue;
use crate::gateway::Gateway;
use crate::node::Node;
use crate::notifications::Attempt;
use crate::state::{Instrument, Principal};

/// The most rows of a list one answer holds, and how many it holds unless asked for
/// fewer.
pub(crate) const PAGE_LIMIT: usize = 100;

/// Which rows of a list to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Page {
    /// At most `limit` (up to [`PAGE_LIMIT`]) rows after the row numbered `after` (a
    /// request's or a notification's number; a record's position from 1 in the books).
    After { after: u64, limit: usize },
    /// The newest `limit` rows: the dashboard's.
    Newest(usize),
}

impl Page {
    /// Where the page starts in a list of `total` rows, and how many rows it takes.
    fn window(self, total: usize) -> (usize, usize) {
        match self {
            Self::After { after, limit } => {
                let start = usize::try_from(after).unwrap_or(usize::MAX).min(total);
                (start, limit.min(PAGE_LIMIT))
            }
            Self::Newest(limit) => (total.saturating_sub(limit), limit),
        }
    }
}

/// A count as the numbers of rows are written.
fn count(rows: usize) -> u64 {
    u64::try_from(rows).unwrap_or(u64::MAX)
}

/// `object` with what a page says besides its rows: `last`, the `after` that asks for
/// the next page, and `more`, whether one follows.
fn with_paging(mut object: Value, after_last: u64, more: bool) -> Value {
    if let Some(fields) = object.as_object_mut() {
        fields.insert("last".to_owned(), json!(after_last));
        fields.insert("more".to_owned(), json!(more));
    }
    object
}

/// Holds a console read here, its rows taken and every lock let go, while a test
/// proves the gateway answers meanwhile.
#[cfg(test)]
fn held(gateway: &Gateway) {
    if let Some(barrier) = gateway.held_reads.lock().unwrap().clone() {
        barrier.wait();
        barrier.wait();
    }
}

#[cfg(not(test))]
const fn held(_: &Gateway) {}

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

/// A page of each of the sandbox's four lists of records (the same window of each), and
/// how many each holds in all.
pub(super) fn books(gateway: &Gateway, page: Page) -> Value {
    let state = gateway.lock();
    let config = &gateway.config;
    let totals = [
        state.payments().len(),
        state.registration_count(),
        state.customer_count(),
        state.invoices().len(),
    ];
    let windows = totals.map(|total| page.window(total));
    let [payments_at, registrations_at, customers_at, invoices_at] = windows;
    let payments: Vec<Value> = state
        .payments()
        .iter()
        .skip(payments_at.0)
        .take(payments_at.1)
        .map(|payment| {
            json!({
                "paymentId": payment.payment_id.as_str(),
                "merchantTransactionId": payment.merchant_transaction_id.as_ref().map(|id| sensitive::id_shown(id.as_str())),
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
        .registrations_page(registrations_at.0, registrations_at.1)
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
        .customers_page(customers_at.0, customers_at.1)
        .into_iter()
        .map(|(id, principal)| json!({ "customerId": id.as_str(), "owner": owner(config, principal) }))
        .collect();
    let invoices: Vec<Value> = state
        .invoices()
        .iter()
        .skip(invoices_at.0)
        .take(invoices_at.1)
        .map(|invoice| {
            json!({
                "systemInvoiceId": invoice.system_invoice_id,
                "owner": owner(config, invoice.owner),
                "orderId": sensitive::id_shown(&invoice.order_id),
                "amount": invoice.amount.to_wire().as_str(),
                "currency": invoice.currency.as_str(),
                "invoiceStatus": invoice.status.as_str(),
                "createdDate": invoice.created,
            })
        })
        .collect();
    drop(state);
    held(gateway);
    let more = windows
        .iter()
        .zip(totals)
        .any(|((start, taken), total)| start + taken < total);
    let after_last = match page {
        Page::After { after, limit } => after.saturating_add(count(limit.min(PAGE_LIMIT))),
        Page::Newest(_) => count(totals.iter().copied().max().unwrap_or(0)),
    };
    with_paging(
        json!({
            "payments": payments,
            "registrations": registrations,
            "customers": customers,
            "invoices": invoices,
            "totals": {
                "payments": totals[0],
                "registrations": totals[1],
                "customers": totals[2],
                "invoices": totals[3],
            },
        }),
        after_last,
        more,
    )
}

/// A page of the request log's entries, the number of its last, and whether more follow.
pub(super) fn requests(gateway: &Gateway, page: Page) -> Value {
    let (after, limit) = match page {
        Page::After { after, limit } => (after, limit.min(PAGE_LIMIT)),
        Page::Newest(limit) => (gateway.requests.last().saturating_sub(count(limit)), limit),
    };
    let (entries, more) = gateway.requests.page(after, limit);
    held(gateway);
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
                "orderId": entry.order_id(),
                "status": entry.status,
                "resultCode": entry.result_code,
                "explanation": entry.explanation,
                "fields": fields,
            })
        })
        .collect();
    with_paging(json!({ "requests": requests }), last, more)
}

/// A page of the notifications kept, numbered, with their attempts, the number of its
/// last, and whether more follow.
pub(super) fn notifications(gateway: &Gateway, page: Page) -> Value {
    let (after, limit) = match page {
        Page::After { after, limit } => (after, limit.min(PAGE_LIMIT)),
        Page::Newest(limit) => (gateway.outbox.last().saturating_sub(count(limit)), limit),
    };
    let (numbered, more) = gateway.outbox.page(after, limit);
    held(gateway);
    let last = numbered.last().map_or(after, |(number, _)| *number);
    let notifications: Vec<Value> = numbered
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
                "body": shown_body(&sent.body),
            })
        })
        .collect();
    with_paging(json!({ "notifications": notifications }), last, more)
}

/// A notification's body as the console shows it: its checksum and what else the table
/// of fields hides, redacted.
fn shown_body(body: &str) -> String {
    match Node::parse(body) {
        Some(tree) => tree.redacted(false).to_json(body.len()),
        None => sensitive::mask_in_text(body).into_owned(),
    }
}

/// The sandbox's time, how far the console moved it, and the auth tokens it decides on:
/// how many are live and expired, and the [`PAGE_LIMIT`] soonest to expire, each one's
/// owner and expiry and whether it is still live (never its value).
pub(super) fn clock(gateway: &Gateway) -> Value {
    let now = gateway.clock.now();
    let mut issued = gateway.lock().issued_tokens();
    // Sorted with the lock let go: a full sandbox holds many.
    issued.sort_by_key(|token| token.expires_at);
    let live = issued.iter().filter(|token| now < token.expires_at).count();
    let expired = issued.len() - live;
    let tokens: Vec<Value> = issued
        .into_iter()
        .take(PAGE_LIMIT)
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
        "authTokenCounts": { "live": live, "expired": expired },
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

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Barrier};

    use super::*;
    use crate::clock::ManualClock;
    use crate::invoices::InvoiceShape;

    fn full_gateway(customers: usize) -> Arc<Gateway> {
        let gateway = Gateway::new(
            SandboxConfig::default(),
            Arc::new(ManualClock::at_unix_seconds(1_795_000_000)),
            InvoiceShape::PositionMap,
            "http://127.0.0.1:1".into(),
        );
        {
            let mut state = gateway.lock();
            for _ in 0..customers {
                let id = state.next_customer_id();
                state.insert_customer(id, Principal::Partner { partner: 0 });
            }
        }
        for _ in 0..150 {
            gateway.handle(
                "POST",
                "/transactionServices/REST/v1/payments",
                None,
                None,
                b"",
                None,
            );
        }
        Arc::new(gateway)
    }

    /// Regression: the console built the whole books under the state's lock (50,000
    /// payments: 6.4 s), and copied the whole request log under the log's, while every
    /// gateway call waited.
    #[test]
    fn a_gateway_call_completes_while_a_console_read_is_held() {
        let gateway = full_gateway(5000);
        let page = Page::After {
            after: 0,
            limit: PAGE_LIMIT,
        };
        let reads: [fn(&Gateway, Page) -> Value; 3] = [books, requests, notifications];
        for read in reads {
            let barrier = Arc::new(Barrier::new(2));
            *gateway.held_reads.lock().unwrap() = Some(Arc::clone(&barrier));
            let reader = std::thread::spawn({
                let gateway = Arc::clone(&gateway);
                move || read(&gateway, page)
            });
            barrier.wait();
            assert!(gateway.state_is_free(), "a held read holds no lock");
            let answer = gateway.handle(
                "POST",
                "/transactionServices/REST/v1/payments",
                None,
                None,
                b"",
                None,
            );
            assert_eq!(answer.status, 200, "the gateway answered meanwhile");
            barrier.wait();
            reader.join().unwrap();
        }
        *gateway.held_reads.lock().unwrap() = None;
    }

    #[test]
    fn a_page_builds_its_rows_only_and_says_how_to_go_on() {
        let gateway = full_gateway(5000);
        let first = books(
            &gateway,
            Page::After {
                after: 0,
                limit: PAGE_LIMIT,
            },
        );
        assert_eq!(first["customers"].as_array().unwrap().len(), PAGE_LIMIT);
        assert_eq!(first["totals"]["customers"], 5000);
        assert_eq!(first["more"], true);
        assert_eq!(first["last"], 100);
        let last = books(
            &gateway,
            Page::After {
                after: 4990,
                limit: PAGE_LIMIT,
            },
        );
        assert_eq!(last["customers"].as_array().unwrap().len(), 10);
        assert_eq!(last["more"], false);
        let newest = books(&gateway, Page::Newest(3));
        let ids: Vec<&Value> = newest["customers"].as_array().unwrap().iter().collect();
        assert_eq!(ids.len(), 3);

        let log = requests(
            &gateway,
            Page::After {
                after: 0,
                limit: 40,
            },
        );
        assert_eq!(log["requests"].as_array().unwrap().len(), 40);
        assert_eq!(
            (log["last"].clone(), log["more"].clone()),
            (json!(40), json!(true))
        );
        let log = requests(
            &gateway,
            Page::After {
                after: 140,
                limit: PAGE_LIMIT,
            },
        );
        assert_eq!(log["requests"].as_array().unwrap().len(), 10);
        assert_eq!(
            (log["last"].clone(), log["more"].clone()),
            (json!(150), json!(false))
        );
        let newest = requests(&gateway, Page::Newest(5));
        assert_eq!(newest["requests"][0]["number"], 146);
    }
}
