//! Inquiry (`payments/{id}` with `paymentType=IN`): the stored payment, by payment id
//! (`idType=PID`, the default) or merchant transaction id (`idType=MID`). Order ids are
//! unique per member, so a partner asking by `MID` gets the first of its merchants'
//! payments with that id.

use super::transaction;
use crate::codes;
use crate::exchange::{Answer, Call};
use crate::gateway::Gateway;
use crate::problem::{Problem, Problems};
use crate::state::State;

pub(super) fn handle(
    gateway: &Gateway,
    state: &mut State,
    call: &Call<'_, '_>,
) -> Result<Answer, Problems> {
    let caller = gateway.authenticate(state, call)?;
    let form = call.form;
    let [payment_type] = form.required_all(["paymentType"])?;
    if payment_type != "IN" {
        return Err(codes::INVALID_PAYMENT_TYPE.into());
    }
    let id = call.path_id.unwrap_or_default();
    let (rule, field) = if form.get("idType") == Some("MID") {
        (
            "inquiry_by_merchant_transaction_id",
            "merchantTransactionId",
        )
    } else {
        ("inquiry_by_payment_id", "paymentId")
    };
    gateway.verify_checksum(&caller, form, rule, &[(field, id)])?;
    let index = match form.get("idType") {
        None | Some("PID") => state.payment_index(id),
        Some("MID") => state.payments().iter().position(|payment| {
            payment
                .merchant_transaction_id
                .as_ref()
                .is_some_and(|order| order.as_str() == id)
                && caller.principal.can_see(payment.owner)
        }),
        Some(_) => return Err(Problem::invalid("idType").into()),
    };
    let payment = index
        .and_then(|index| state.payments().get(index))
        .filter(|payment| caller.principal.can_see(payment.owner))
        .ok_or(codes::NO_RECORD)?;
    Ok(Answer::json(transaction::render(
        gateway,
        &caller,
        payment,
        transaction::View::Inquiry,
    )))
}
