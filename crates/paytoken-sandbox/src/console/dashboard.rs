//! The dashboard: the console as one server-rendered page at the sandbox's root path. The
//! clock with an advance control and the auth tokens' expiries, the faults waiting for the
//! next requests, the request log newest first (a refusal's explanation beside it), the
//! notifications with their attempts and a resend button, and the books. Every value is HTML-escaped; the page's
//! one script sends the console's JSON actions with `fetch` and reads no value from the
//! page but the `data-` attributes of the button pressed.

use std::fmt::Write as _;

use paytoken_types::internal::sensitive;
use serde_json::Value;

use super::views::{self, Page};
use crate::faults::{FaultQueue, FaultTarget};
use crate::gateway::Gateway;
use crate::html::escape;

/// The most rows of each list the page shows, newest first; the console's JSON pages
/// through all of them.
const SHOWN: usize = 200;

/// The page, as it stands now.
pub(super) fn page(gateway: &Gateway, faults: &FaultQueue) -> String {
    let mut body = String::with_capacity(64 * 1024);
    clock(&mut body, &views::clock(gateway));
    faults_section(&mut body, &faults.waiting());
    requests(&mut body, &views::requests(gateway, Page::Newest(SHOWN)));
    notifications(
        &mut body,
        &views::notifications(gateway, Page::Newest(SHOWN)),
    );
    books(&mut body, &views::books(gateway, Page::Newest(SHOWN)));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>paytoken sandbox</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>paytoken sandbox</h1>\n{body}<script>{SCRIPT}</script>\n</body>\n</html>\n"
    )
}

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;margin-bottom:1.5em}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}.refused{color:#a00}.muted{color:#666}";

/// Sends the action of the pressed button (`data-action`, and `data-body` as JSON, or the
/// form beside it) to the console, then shows the page again; a refusal in an alert.
const SCRIPT: &str = r#"
async function act(path, body) {
  const answer = await fetch('/sandbox/console/' + path, {
    method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)
  });
  if (!answer.ok) { alert((await answer.json()).error || answer.status); return; }
  location.reload();
}
document.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-action]');
  if (!button) return;
  const action = button.dataset.action;
  if (action === 'resend') act('notifications/' + button.dataset.number + '/resend', {});
  if (action === 'advance') act('clock/advance', {seconds: Number(document.getElementById('advance-seconds').value)});
  if (action === 'fault') act('faults', {directives: document.getElementById('fault-directives').value, count: Number(document.getElementById('fault-count').value)});
  if (action === 'clear') act('faults/clear', {});
});
"#;

/// A JSON value as text for a cell, escaped; `-` for null.
fn cell(value: &Value) -> String {
    match value {
        Value::Null => "-".to_owned(),
        Value::String(text) => escape(text),
        other => escape(&other.to_string()),
    }
}

fn field<'v>(value: &'v Value, name: &str) -> &'v Value {
    value.get(name).unwrap_or(&Value::Null)
}

fn list(value: &Value, name: &str) -> Vec<Value> {
    field(value, name).as_array().cloned().unwrap_or_default()
}

fn clock(out: &mut String, clock: &Value) {
    let _ = write!(
        out,
        "<h2>Clock</h2>\n<p id=\"clock\">{} on the sandbox's clock (advanced by {} s)</p>\n<p><input id=\"advance-seconds\" type=\"number\" min=\"1\" value=\"3600\"> seconds <button data-action=\"advance\">Advance</button></p>\n",
        cell(field(clock, "time")),
        cell(field(clock, "advancedSeconds"))
    );
    let tokens = list(clock, "authTokens");
    out.push_str("<table id=\"auth-tokens\">\n<tr><th>auth token of</th><th>expires</th><th>state</th></tr>\n");
    for token in &tokens {
        let owner = field(token, "owner");
        let state = if field(token, "live").as_bool() == Some(true) {
            "live"
        } else {
            "expired"
        };
        let _ = writeln!(
            out,
            "<tr><td>partner {} member {}</td><td>{}</td><td class=\"token-state\">{state}</td></tr>",
            cell(field(owner, "partnerId")),
            cell(field(owner, "memberId")),
            cell(field(token, "expiresAt")),
        );
    }
    if tokens.is_empty() {
        out.push_str("<tr><td colspan=\"3\" class=\"muted\">none issued</td></tr>\n");
    }
    out.push_str("</table>\n");
}

fn faults_section(out: &mut String, next: &[(FaultTarget, String)]) {
    out.push_str("<h2>Faults for the next requests</h2>\n");
    if next.is_empty() {
        out.push_str("<p class=\"muted\" id=\"faults\">none</p>\n");
    } else {
        let shown: Vec<String> = next
            .iter()
            .map(|(target, faults)| format!("{} (next {})", escape(faults), target.name()))
            .collect();
        let _ = writeln!(out, "<p id=\"faults\">{}</p>", shown.join("; "));
    }
    out.push_str("<p><input id=\"fault-directives\" value=\"drop=after\"> for <input id=\"fault-count\" type=\"number\" min=\"1\" max=\"100\" value=\"1\"> money-moving request(s) <button data-action=\"fault\">Queue</button> <button data-action=\"clear\">Clear</button></p>\n");
}

fn requests(out: &mut String, log: &Value) {
    let entries = list(log, "requests");
    let _ = writeln!(
        out,
        "<h2>Requests (the newest {} of {})</h2>",
        entries.len(),
        cell(field(log, "last"))
    );
    out.push_str("<table id=\"requests\">\n<tr><th>#</th><th>time</th><th>operation</th><th>caller</th><th>order id</th><th>status</th><th>result</th><th>why refused</th></tr>\n");
    for entry in entries.iter().rev() {
        let explanation = field(entry, "explanation");
        let class = if explanation.is_null() {
            ""
        } else {
            " class=\"refused\""
        };
        let _ = writeln!(
            out,
            "<tr{class}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            cell(field(entry, "number")),
            cell(field(entry, "time")),
            cell(field(entry, "operation")),
            cell(field(entry, "caller")),
            cell(field(entry, "orderId")),
            cell(field(entry, "status")),
            cell(field(entry, "resultCode")),
            if explanation.is_null() {
                String::new()
            } else {
                cell(explanation)
            },
        );
    }
    out.push_str("</table>\n");
}

fn notifications(out: &mut String, all: &Value) {
    let sent = list(all, "notifications");
    let _ = writeln!(
        out,
        "<h2>Notifications (the newest {} of {})</h2>",
        sent.len(),
        cell(field(all, "last"))
    );
    out.push_str("<table id=\"notifications\">\n<tr><th>#</th><th>payment</th><th>to</th><th>delivered</th><th>attempts</th><th></th></tr>\n");
    for notification in sent.iter().rev() {
        let attempts: Vec<String> = list(notification, "attempts")
            .iter()
            .map(|attempt| match field(attempt, "status").as_u64() {
                Some(status) => status.to_string(),
                None => {
                    let reason = field(attempt, "reason").as_str().unwrap_or_default();
                    let outcome = field(attempt, "outcome").as_str().unwrap_or("?");
                    if reason.is_empty() {
                        escape(outcome)
                    } else {
                        format!("{} ({})", escape(outcome), escape(reason))
                    }
                }
            })
            .collect();
        let number = cell(field(notification, "number"));
        let _ = writeln!(
            out,
            "<tr><td>{number}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><button data-action=\"resend\" data-number=\"{number}\">Resend</button></td></tr>",
            cell(field(notification, "paymentId")),
            cell(field(notification, "url")),
            cell(field(notification, "delivered")),
            if attempts.is_empty() {
                "none yet".to_owned()
            } else {
                attempts.join(", ")
            },
        );
    }
    out.push_str("</table>\n");
}

fn books(out: &mut String, books: &Value) {
    let payments = list(books, "payments");
    let totals = field(books, "totals");
    let _ = writeln!(
        out,
        "<h2>Books</h2>\n<p>{} payment(s), {} registration(s), {} customer(s), {} invoice(s); the newest {} payment(s) below</p>",
        cell(field(totals, "payments")),
        cell(field(totals, "registrations")),
        cell(field(totals, "customers")),
        cell(field(totals, "invoices")),
        payments.len(),
    );
    out.push_str("<table id=\"payments\">\n<tr><th>payment</th><th>order</th><th>type</th><th>amount</th><th>status</th><th>card</th><th>captured</th><th>refunded</th></tr>\n");
    for payment in payments.iter().rev() {
        let card = field(payment, "card");
        let card = if card.is_null() {
            "-".to_owned()
        } else {
            sensitive::card_from_parts(&cell(field(card, "bin")), &cell(field(card, "last4Digits")))
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{} {}</td><td>{} ({})</td><td>{card}</td><td>{}</td><td>{}</td></tr>",
            cell(field(payment, "paymentId")),
            cell(field(payment, "merchantTransactionId")),
            cell(field(payment, "paymentType")),
            cell(field(payment, "amount")),
            cell(field(payment, "currency")),
            cell(field(payment, "transactionStatus")),
            cell(field(payment, "status")),
            cell(field(payment, "captured")),
            cell(field(payment, "refunded")),
        );
    }
    out.push_str("</table>\n");
}
