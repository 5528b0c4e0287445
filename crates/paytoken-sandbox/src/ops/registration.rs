//! A stand-alone registration (`registrations`) of a card or, with `bankAccount.*`, a bank
//! account. The checksum hashes the card number, or the BIC for a bank account.

use paytoken_types::{Bic, CustomerId, Iban};

use super::card_input;
use crate::codes;
use crate::exchange::{Answer, Call};
use crate::form::Form;
use crate::gateway::{Caller, Gateway};
use crate::json;
use crate::problem::{Problem, Problems};
use crate::state::{Instrument, Registration, State};

/// Reads the card or bank account, stores it and answers its token.
pub(super) fn handle(
    gateway: &Gateway,
    state: &mut State,
    call: &Call<'_, '_>,
) -> Result<Answer, Problems> {
    let caller = gateway.authenticate(state, call)?;
    gateway.check_room(state)?;
    let form = call.form;
    let bank = verify(gateway, &caller, form)?;
    let mut problems = Problems::default();
    let instrument = read_instrument(gateway, form, bank, &mut problems);
    let brand = form.required("paymentBrand", &mut problems);
    if let Some(Instrument::Card(card)) = &instrument {
        card_input::check_brand(card, brand, &mut problems);
    }
    let mode = form.required("paymentMode", &mut problems);
    if form
        .get("createRegistration")
        .is_some_and(|flag| flag != "true")
    {
        problems.push(Problem::invalid("createRegistration"));
    }
    let customer_id = form.get("customer.customerId");
    if customer_id.is_some_and(|id| !state.customer_visible(caller.principal, id)) {
        problems.push(codes::CUSTOMER_NOT_FOUND);
    }
    let ((instrument, brand), mode) = problems.or_values(instrument.zip(brand).zip(mode))?;
    let id = state.entropy.registration_id();
    state.insert_registration(Registration {
        id,
        owner: caller.principal,
        // Checked above: only a customer the caller knows gets here.
        customer_id: customer_id.and_then(|id| CustomerId::new(id).ok()),
        instrument,
        active: true,
        recurring: false,
    });
    Ok(Answer::json(json::object(|answer| {
        answer
            .field("registrationId", id)
            .field(caller.id_key, caller.id)
            .field("paymentBrand", brand)
            .field("paymentMode", mode)
            .code(codes::REGISTRATION_SUCCESSFUL)
            .field("timestamp", gateway.now_text());
    })))
}

/// Checks the checksum: over the BIC when the form registers a bank account (it has a
/// `bankAccount.*` field), over the card number otherwise. Says whether it is a bank account.
fn verify(gateway: &Gateway, caller: &Caller<'_>, form: &Form<'_>) -> Result<bool, Problems> {
    let bank = form.get("bankAccount.iban").is_some() || form.get("bankAccount.bic").is_some();
    let (rule, field) = if bank {
        ("bank_account_registration", "bankAccount.bic")
    } else {
        ("card_registration", "card.number")
    };
    let [signed] = form.required_all([field])?;
    gateway.verify_checksum(caller, form, rule, &[(field, signed)])?;
    Ok(bank)
}

/// The bank account or card the form registers, a problem for each field wrong.
fn read_instrument(
    gateway: &Gateway,
    form: &Form<'_>,
    bank: bool,
    problems: &mut Problems,
) -> Option<Instrument> {
    if bank {
        let iban: Option<Iban> = form.parsed_required("bankAccount.iban", problems);
        let bic: Option<Bic> = form.parsed_required("bankAccount.bic", problems);
        iban.zip(bic).map(|(iban, bic)| Instrument::BankAccount {
            masked_iban: iban.masked(),
            bic: bic.as_str().to_owned(),
        })
    } else {
        card_input::read(form, false, gateway.clock.now(), problems).map(Instrument::Card)
    }
}
