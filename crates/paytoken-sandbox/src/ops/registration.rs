//! A stand-alone registration (`registrations`) of a card or, with `bankAccount.*`, a bank
//! account. The checksum hashes the card number, or the BIC for a bank account.

use paytoken_types::{Bic, CustomerId, Iban};

use super::card_input;
use crate::codes;
use crate::entropy;
use crate::exchange::{Answer, Call};
use crate::explain::Signed;
use crate::gateway::Gateway;
use crate::json;
use crate::problem::{Problem, Problems};
use crate::state::{Instrument, Registration, State};

pub(super) fn handle(
    gateway: &Gateway,
    state: &mut State,
    call: &Call<'_, '_>,
) -> Result<Answer, Problems> {
    let caller = gateway.authenticate(state, call)?;
    gateway.check_room(state)?;
    let form = call.form;
    let bank = form.get("bankAccount.iban").is_some() || form.get("bankAccount.bic").is_some();
    let [signed] = form.required_all([if bank {
        "bankAccount.bic"
    } else {
        "card.number"
    }])?;
    let rule = if bank {
        ("bank_account_registration", "bankAccount.bic")
    } else {
        ("card_registration", "card.number")
    };
    gateway.verify_checksum(
        &caller,
        form,
        Signed {
            rule: rule.0,
            parts: &[(rule.1, signed)],
        },
    )?;

    let mut problems = Problems::default();
    let instrument = if bank {
        let iban: Option<Iban> = form.parsed_required("bankAccount.iban", &mut problems);
        let bic: Option<Bic> = form.parsed_required("bankAccount.bic", &mut problems);
        iban.zip(bic).map(|(iban, bic)| Instrument::BankAccount {
            masked_iban: mask_iban(&iban),
            bic: bic.as_str().to_owned(),
        })
    } else {
        card_input::read(form, false, gateway.clock.unix_seconds(), &mut problems)
            .map(Instrument::Card)
    };
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
    problems.into_result()?;
    let (Some(instrument), Some(brand), Some(mode)) = (instrument, brand, mode) else {
        // Each `None` above pushed a problem, so `into_result` returned already.
        return Err(codes::MALFORMED_BODY.into());
    };
    let id = entropy::registration_id();
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

/// The IBAN as the list shows it: `X` for every character but the last four.
fn mask_iban(iban: &Iban) -> String {
    let text = iban.expose_str();
    let hidden = text.len().saturating_sub(4);
    let mut masked = "X".repeat(hidden);
    masked.push_str(iban.last_four());
    masked
}
