//! The sandbox's own 3-D Secure challenge page, where a 3-D Secure payment's redirect
//! leads. It is not part of the interface, and like a bank's page it asks for no auth
//! token: whoever holds the redirect can complete it.
//!
//! - A visit (`GET`, or the redirect's `POST` of `MD` and `TermUrl`) shows the payment and
//!   two buttons, approve and decline.
//! - A `POST` of `decision=approve` or `decision=decline` settles the payment (approved, or
//!   declined with the remark "3-D Secure authentication failed"), notifies its
//!   `notificationUrl`, and sends the browser back to the payment's `merchantRedirectUrl`
//!   with the outcome's fields, signed like a notification, in a form that submits itself.
//!   The URL is the one the payment was made with (checked then to be `http` or `https`),
//!   never one the browser brings: the page is no open redirect.
//!
//! Every value the pages show or carry is HTML-escaped.

use crate::exchange::{Answer, HTML};
use crate::form::Form;
use crate::gateway::Gateway;
use crate::html::escape;
use crate::invoices;
use crate::notifications::browser_return_fields;
use crate::ops::THREE_D_SECURE_PREFIX;
use crate::state::{AUTHENTICATION_FAILED, Payment, State, Status};

/// Answers a visit to the page of `payment_id`; `body` is the form a `POST` sent (empty
/// for a `GET`).
pub(crate) fn page(gateway: &Gateway, state: &mut State, payment_id: &str, body: &[u8]) -> Answer {
    let Some((index, payment)) = state
        .payment_index(payment_id)
        .and_then(|index| Some((index, state.payments().get(index)?)))
    else {
        return Answer::text(404, "not found: no such payment\n");
    };
    if payment.status != Status::ThreeDSecure {
        return html(
            "<p>Nothing to authenticate for this payment.</p>".to_owned(),
            "",
        );
    }
    let form = Form::parse(body).ok();
    let approved = match form.as_ref().and_then(|form| form.get("decision")) {
        Some("approve") => true,
        Some("decline") => false,
        _ => return html(challenge(payment), ""),
    };
    let Some(payment) = decide(gateway, state, index, approved) else {
        return Answer::text(404, "not found: no such payment\n");
    };
    let verdict = if approved {
        "<p>Authenticated: the payment is approved.</p>"
    } else {
        "<p>Not authenticated: the payment is declined.</p>"
    };
    let back = payment
        .redirect_back
        .as_deref()
        .zip(gateway.key_of(payment.owner));
    let Some((url, key)) = back else {
        return html(verdict.to_owned(), "");
    };
    let mut body = format!(
        "{verdict}\n<p>Returning to the shop.</p>\n<form id=\"return\" method=\"post\" action=\"{}\">\n",
        escape(url)
    );
    for (name, value) in browser_return_fields(&payment, key, &gateway.now_text()) {
        body.push_str(&format!(
            "<input type=\"hidden\" name=\"{}\" value=\"{}\">\n",
            escape(name),
            escape(&value)
        ));
    }
    body.push_str("<button type=\"submit\" id=\"continue\">Continue</button>\n</form>");
    html(
        body,
        " onload=\"document.getElementById('return').submit()\"",
    )
}

/// Settles the payment at `index`, waiting for 3-D Secure, as its cardholder decided:
/// approved (and invoiced) or declined; notifies it. The payment as settled.
fn decide(gateway: &Gateway, state: &mut State, index: usize, approved: bool) -> Option<Payment> {
    let status = if approved {
        Status::Approved
    } else {
        Status::Declined {
            remark: AUTHENTICATION_FAILED,
        }
    };
    let payment = state.payment_mut(index)?;
    payment.status = status;
    let payment = payment.clone();
    if approved {
        invoices::record_payment(state, &payment, gateway.clock.now());
    }
    gateway.notify(&payment);
    Some(payment)
}

/// [`decide`] for the payment `payment_id`, when it waits for 3-D Secure: what the page's
/// buttons do, for a test in the sandbox's process. Whether it was waiting.
pub(crate) fn decide_waiting(
    gateway: &Gateway,
    state: &mut State,
    payment_id: &str,
    approved: bool,
) -> bool {
    let waiting = state.payment_index(payment_id).filter(|&index| {
        state
            .payments()
            .get(index)
            .is_some_and(|payment| payment.status == Status::ThreeDSecure)
    });
    waiting.is_some_and(|index| decide(gateway, state, index, approved).is_some())
}

/// The challenge: what is being paid, and the two buttons.
fn challenge(payment: &Payment) -> String {
    let card = payment.card.as_ref().map_or_else(String::new, |card| {
        format!(", card ending {}", escape(&card.last_four))
    });
    format!(
        "<p>Payment {id}: {amount} {currency}{card}.</p>\n<p>The sandbox's challenge: approve or decline.</p>\n<form method=\"post\" action=\"{prefix}{id}\">\n<button type=\"submit\" name=\"decision\" value=\"approve\" id=\"approve\">Approve</button>\n<button type=\"submit\" name=\"decision\" value=\"decline\" id=\"decline\">Decline</button>\n</form>",
        id = escape(payment.payment_id.as_str()),
        amount = escape(payment.amount.to_wire().as_str()),
        currency = escape(payment.currency.as_str()),
        prefix = THREE_D_SECURE_PREFIX,
    )
}

/// A whole page around `body`; `attributes` go on `<body>`.
fn html(body: String, attributes: &str) -> Answer {
    let page = format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>3-D Secure</title></head>\n<body{attributes}>\n<h1>3-D Secure</h1>\n{body}\n</body></html>\n"
    );
    Answer {
        content_type: HTML,
        ..Answer::text(200, &page)
    }
}
