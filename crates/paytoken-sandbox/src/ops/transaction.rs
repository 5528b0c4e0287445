//! The answer for a payment the gateway created, shared by payments, token payments and
//! inquiries; and the duplicate check on `merchantTransactionId`.

use paytoken_types::{Amount, MerchantTransactionId};

use crate::cards::Behaviour;
use crate::codes;
use crate::exchange::Answer;
use crate::gateway::{Caller, Gateway};
use crate::invoices;
use crate::json::{self, Object};
use crate::ops::THREE_D_SECURE_PREFIX;
use crate::problem::Problems;
use crate::state::{Payment, State, Status};

/// Which answer a payment gets, as the documentation shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum View {
    /// The answer to a payment or a token payment: every field.
    Full,
    /// The short answer to a REPEATED token payment: `paymentId`, `paymentType`, `result`,
    /// `timestamp`, nothing else.
    Repeated,
    /// An inquiry's answer: every field, with the long `status` and "record found".
    Inquiry,
}

/// Writes `payment` as `view` shows it.
pub(super) fn render(
    gateway: &Gateway,
    caller: &Caller<'_>,
    payment: &Payment,
    view: View,
) -> String {
    let result = match view {
        View::Inquiry => codes::RECORD_FOUND,
        View::Full | View::Repeated => payment.status.code(),
    };
    if view == View::Repeated {
        return json::object(|answer| {
            answer
                .field("paymentId", payment.payment_id)
                .field("paymentType", &payment.payment_type)
                .code(result)
                .field("timestamp", &payment.timestamp);
        });
    }
    let amount = payment.amount.to_wire();
    json::object(|answer| {
        answer
            .field("paymentId", payment.payment_id)
            .field(caller.id_key, caller.id)
            .optional("registrationId", payment.registration_id.as_ref())
            .field("paymentType", &payment.payment_type)
            .optional("paymentBrand", payment.brand.as_ref())
            .optional("paymentMode", payment.mode.as_ref())
            .field("amount", amount.as_str())
            .field("currency", payment.currency)
            .optional("descriptor", payment.descriptor.as_deref())
            .code(result);
        if let Some(card) = &payment.card {
            answer.object("card", |object| {
                object
                    .field("bin", &card.bin)
                    .field("last4Digits", &card.last_four)
                    .optional("holder", card.holder.as_deref())
                    .field("expiryMonth", &card.expiry_month)
                    .field("expiryYear", &card.expiry_year);
            });
        }
        answer
            .field("timestamp", &payment.timestamp)
            .optional(
                "merchantTransactionId",
                payment.merchant_transaction_id.as_ref(),
            )
            .optional("remark", payment.status.remark())
            .field("transactionStatus", payment.status.short().as_str());
        if view == View::Inquiry {
            answer.field("status", payment.long_status().as_str());
            write_moves(answer, payment);
        }
        if payment.status == Status::ThreeDSecure {
            write_redirect(answer, gateway, payment);
        }
    })
}

/// The sandbox's own extension of an inquiry's answer, which no client may rely on: what
/// the back office has moved (`docs/SANDBOX.md`, "The back office").
fn write_moves(answer: &mut Object<'_>, payment: &Payment) {
    let captured = payment.moves.captured.map(Amount::to_wire);
    let refunded = payment.moves.refunded;
    answer
        .optional(
            "sandboxCapturedAmount",
            captured.as_ref().map(|amount| amount.as_str()),
        )
        .optional(
            "sandboxRefundedAmount",
            (refunded != Amount::ZERO)
                .then(|| refunded.to_wire())
                .as_ref()
                .map(|amount| amount.as_str()),
        );
}

/// Where a payment waiting for 3-D Secure sends the cardholder's browser.
fn write_redirect(answer: &mut Object<'_>, gateway: &Gateway, payment: &Payment) {
    let url = format!(
        "{}{}{}",
        gateway.base_url.trim_end_matches('/'),
        THREE_D_SECURE_PREFIX,
        payment.payment_id
    );
    let mut parameters = vec![("MD", payment.payment_id.as_str())];
    if let Some(back) = &payment.redirect_back {
        parameters.push(("TermUrl", back));
    }
    answer.object("redirect", |redirect| {
        redirect
            .field("url", &url)
            .field("method", "POST")
            .field("target", "_self")
            .one_or_many("parameters", &parameters, |parameter, (name, value)| {
                parameter.field("name", name).field("value", value);
            });
    });
}

/// Keeps a payment the gateway created, raises its invoice when approved, and answers it;
/// the time-out card's answer is withheld.
pub(super) fn settle(
    gateway: &Gateway,
    state: &mut State,
    caller: &Caller<'_>,
    payment: Payment,
    behaviour: Behaviour,
    view: View,
) -> Answer {
    let body = render(gateway, caller, &payment, view);
    invoices::record_payment(state, &payment, payment.made_at);
    if payment.status == Status::Pending {
        state.add_pending(payment.made_at, state.payments().len());
    }
    state.insert_payment(payment);
    Answer {
        withheld: behaviour == Behaviour::TimeOut,
        ..Answer::json(body)
    }
}

/// Refuses a `merchantTransactionId` the caller used before.
pub(super) fn check_unused(
    state: &State,
    caller: &Caller<'_>,
    merchant_transaction_id: Option<&str>,
) -> Result<(), Problems> {
    let used = merchant_transaction_id
        .and_then(|id| MerchantTransactionId::new(id).ok())
        .is_some_and(|id| state.transaction_id_used(caller.principal, id));
    if used {
        Err(codes::DUPLICATE_TRANSACTION.into())
    } else {
        Ok(())
    }
}
