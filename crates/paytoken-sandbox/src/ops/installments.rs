//! `getInstallmentWithToken/{id}`: the installment counts the token's card offers, by BIN.
//! A success has no `result` object, as on the real gateway.

use super::token_payment::{active_registration, registration_id};
use crate::cards;
use crate::codes;
use crate::exchange::{Answer, Call};
use crate::gateway::Gateway;
use crate::json;
use crate::problem::Problems;
use crate::state::{Instrument, State};

pub(super) fn handle(
    gateway: &Gateway,
    state: &mut State,
    call: &Call<'_, '_>,
) -> Result<Answer, Problems> {
    let caller = gateway.authenticate(state, call)?;
    let id = registration_id(call.path_id)?;
    gateway.verify_checksum(
        &caller,
        call.form,
        "installments",
        &[("registrationId", id)],
    )?;
    let registration = active_registration(state, &caller, id)?;
    let Instrument::Card(card) = &registration.instrument else {
        return Err(codes::NO_INSTALLMENT_PLAN.into());
    };
    let plan = cards::installment_plan(&card.bin).ok_or(codes::NO_INSTALLMENT_PLAN)?;
    Ok(Answer::json(json::object(|answer| {
        answer
            .field("registrationId", id)
            .object("card", |object| {
                object
                    .field("bin", &card.bin)
                    .field("last4Digits", &card.last_four)
                    .field("lastFourDigits", &card.last_four);
            })
            .field("installment", plan);
    })))
}
