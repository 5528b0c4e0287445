//! The sandbox's own 3-D Secure challenge page, where a 3-D Secure payment's redirect
//! leads: visiting it (GET or POST, as a browser would) approves the payment, which an
//! inquiry then shows. It is not part of the interface, and like a bank's page it asks for
//! no auth token: whoever holds the redirect can complete it.

use crate::exchange::{Answer, HTML};
use crate::gateway::Gateway;
use crate::invoices;
use crate::state::{State, Status};

pub(crate) fn complete(gateway: &Gateway, state: &mut State, payment_id: &str) -> Answer {
    let index = state.payment_index(payment_id);
    let Some(payment) = index.and_then(|index| state.payments.get_mut(index)) else {
        return Answer::text(404, "not found: no such payment\n");
    };
    let body = if payment.status == Status::ThreeDSecure {
        payment.status = Status::Approved;
        let payment = payment.clone();
        invoices::record_payment(state, &payment, gateway.clock.unix_seconds());
        "<!doctype html><title>3-D Secure</title><p>Authenticated: the payment is approved.</p>\n"
    } else {
        "<!doctype html><title>3-D Secure</title><p>Nothing to authenticate for this payment.</p>\n"
    };
    Answer {
        content_type: HTML,
        ..Answer::text(200, body)
    }
}
