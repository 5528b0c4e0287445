//! `payments/{id}` with `recurringType=REPEATED` and `paymentType` `DB` or `PA`: a new
//! payment on the card of a recurring series, named by its first payment's id instead of
//! the token.
//!
//! The sandbox's rules (the platform's are not published): the first payment must be the
//! caller's, approved, and have stored a card whose series was opened by an approved
//! `INITIAL` payment (`30012` otherwise), and that token must still be active (`90011`).
//! A repeat is never challenged by 3-D Secure, as a `REPEATED` token payment is not.

use paytoken_types::{MerchantTransactionId, RegistrationId};

use super::payment::{parse_amount, read_currency};
use super::token_payment::{Charge, active_registration};
use super::transaction;
use super::urls::Returns;
use crate::cards::Behaviour;
use crate::codes;
use crate::exchange::{Answer, Call};
use crate::form::Form;
use crate::gateway::{Caller, Gateway};
use crate::problem::{Problem, Problems};
use crate::state::{Instrument, State, Status, StoredCard};

/// Reads the repeat, finds its series' token, records the payment and answers it.
pub(super) fn handle(
    gateway: &Gateway,
    state: &mut State,
    call: &Call<'_, '_>,
) -> Result<Answer, Problems> {
    let caller = gateway.authenticate(state, call)?;
    gateway.check_room(state)?;
    let first_id = call.path_id.unwrap_or_default();
    let charge = read(gateway, call.form, &caller, first_id)?;
    transaction::check_unused(state, &caller, charge.transaction_id)?;
    let (registration_id, card) = series_card(state, &caller, first_id)?;
    let behaviour = match card.as_ref().map(|card| card.behaviour) {
        Some(Behaviour::ThreeDSecure) | None => Behaviour::Approve,
        Some(behaviour) => behaviour,
    };
    let payment = charge.into_payment(
        gateway,
        state,
        &caller,
        registration_id,
        card,
        Status::of(behaviour),
    );
    Ok(transaction::settle(
        gateway,
        state,
        &caller,
        payment,
        behaviour,
        transaction::View::Full,
    ))
}

/// Checks the checksum, then every field, with a problem for each one wrong.
fn read<'f>(
    gateway: &Gateway,
    form: &'f Form<'_>,
    caller: &Caller<'_>,
    first_id: &str,
) -> Result<Charge<'f>, Problems> {
    let [amount_text, payment_type] = form.required_all(["amount", "paymentType"])?;
    gateway.verify_checksum(
        caller,
        form,
        "repeat_payment",
        &[("paymentId", first_id), ("amount", amount_text)],
    )?;
    let mut problems = Problems::default();
    let amount = parse_amount(amount_text, &mut problems);
    let currency = read_currency(form, &mut problems);
    let transaction_id = form.get(MerchantTransactionId::FIELD);
    if transaction_id.is_some_and(|id| MerchantTransactionId::new(id).is_err()) {
        problems.push(Problem::invalid(MerchantTransactionId::FIELD));
    }
    if !matches!(payment_type, "DB" | "PA") {
        problems.push(codes::INVALID_PAYMENT_TYPE);
    }
    let (amount, currency) = problems.or_values(amount.zip(currency))?;
    Ok(Charge {
        payment_type,
        amount,
        currency,
        transaction_id,
        // A repeat has no return URLs: its outcome is its answer.
        returns: Returns::default(),
    })
}

/// The token of the series `first_id` opened, and its card (none for a bank account): the
/// first payment must be the caller's and approved, its token active and recurring.
fn series_card(
    state: &State,
    caller: &Caller<'_>,
    first_id: &str,
) -> Result<(RegistrationId, Option<StoredCard>), Problems> {
    let first = state
        .payment_index(first_id)
        .and_then(|index| state.payments().get(index))
        .filter(|payment| caller.principal.can_see(payment.owner))
        .ok_or(codes::NO_RECORD)?;
    let registration_id = first
        .registration_id
        .filter(|_| first.status == Status::Approved)
        .ok_or(codes::NO_INITIAL_PAYMENT)?;
    let registration = active_registration(state, caller, registration_id.as_str())?;
    if !registration.recurring {
        return Err(codes::NO_INITIAL_PAYMENT.into());
    }
    let card = match &registration.instrument {
        Instrument::Card(card) => Some(card.clone()),
        Instrument::BankAccount { .. } => None,
    };
    Ok((registration_id, card))
}
