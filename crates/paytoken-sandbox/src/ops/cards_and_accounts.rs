//! `getCardsAndAccounts`: the registrations the caller may see, of one customer when
//! `customer.customerId` is sent. Deleted ones stay listed, with `registrationStatus` `N`.
//! With none at all the answer is the gateway's error result "Invalid Recurring Type."
//! (sic), which clients read as an empty list; its code there is not public, so the
//! sandbox's, `30025`, is its own.

use paytoken_types::CustomerId;

use crate::codes;
use crate::exchange::{Answer, Call};
use crate::gateway::Gateway;
use crate::json;
use crate::problem::Problems;
use crate::state::{Instrument, Registration, State};

pub(super) fn handle(
    gateway: &Gateway,
    state: &mut State,
    call: &Call<'_, '_>,
) -> Result<Answer, Problems> {
    let caller = gateway.authenticate(state, call)?;
    gateway.verify_checksum(&caller, call.form, "cards_and_accounts", &[])?;
    let customer_id = call.form.get("customer.customerId");
    if customer_id.is_some_and(|id| !state.customer_visible(caller.principal, id)) {
        return Err(codes::CUSTOMER_NOT_FOUND.into());
    }
    let (mut cards, mut accounts) = (Vec::new(), Vec::new());
    let listed = state
        .registrations_in_order()
        .filter(|registration| caller.principal.can_see(registration.owner))
        .filter(|registration| {
            customer_id.is_none()
                || registration.customer_id.as_ref().map(CustomerId::as_str) == customer_id
        });
    for registration in listed {
        match registration.instrument {
            Instrument::Card(_) => cards.push(registration),
            Instrument::BankAccount { .. } => accounts.push(registration),
        }
    }
    if cards.is_empty() && accounts.is_empty() {
        return Err(codes::NO_REGISTRATIONS.into());
    }
    Ok(Answer::json(json::object(|answer| {
        answer
            .field(caller.id_key, caller.id)
            .optional("customerId", customer_id)
            .code(codes::LIST_PROCESSED);
        if !cards.is_empty() {
            answer.object("cards", |list| {
                list.one_or_many("card", &cards, |entry, registration| {
                    write_entry(entry, registration);
                });
            });
        }
        if !accounts.is_empty() {
            answer.object("bankaccounts", |list| {
                list.one_or_many("bankaccount", &accounts, |entry, registration| {
                    write_entry(entry, registration);
                });
            });
        }
    })))
}

fn write_entry(entry: &mut json::Object<'_>, registration: &Registration) {
    entry.field("registrationId", registration.id).field(
        "registrationStatus",
        if registration.active { "Y" } else { "N" },
    );
    match &registration.instrument {
        Instrument::Card(card) => {
            entry
                .field("cardType", &card.brand)
                .field("bin", &card.bin)
                .field("last4Digits", &card.last_four)
                .field("expiryMonth", &card.expiry_month)
                .field("expiryYear", &card.expiry_year);
        }
        Instrument::BankAccount { masked_iban, bic } => {
            entry.field("iban", masked_iban).field("bic", bic);
        }
    }
    entry.optional("customerId", registration.customer_id.as_ref());
}
