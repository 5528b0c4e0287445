//! Customer sign-up: a merchant or a partner registers a customer and gets its `customerId`.

use paytoken_types::{BirthDate, Email};

use crate::codes;
use crate::exchange::{Answer, Call};
use crate::gateway::Gateway;
use crate::json;
use crate::problem::{Problem, Problems};
use crate::state::State;

pub(super) fn handle(
    gateway: &Gateway,
    state: &mut State,
    call: &Call<'_, '_>,
) -> Result<Answer, Problems> {
    let caller = gateway.authenticate(state, call)?;
    gateway.check_room(state)?;
    let form = call.form;
    let [given_name, surname, email] =
        form.required_all(["customer.givenName", "customer.surname", "customer.email"])?;
    gateway.verify_checksum(
        &caller,
        form,
        "customer_signup",
        &[
            ("customer.givenName", given_name),
            ("customer.surname", surname),
            ("customer.email", email),
        ],
    )?;
    let mut problems = Problems::default();
    if email.parse::<Email>().is_err() {
        problems.push(Problem::invalid("customer.email"));
    }
    form.parsed::<BirthDate>(
        "customer.birthDate",
        Problem::invalid("customer.birthDate"),
        &mut problems,
    );
    problems.into_result()?;
    let customer_id = state.next_customer_id();
    state.insert_customer(customer_id, caller.principal);
    Ok(Answer::json(json::object(|answer| {
        answer
            .field(caller.id_key, caller.id)
            .field("customerId", customer_id)
            .code(codes::CARDHOLDER_REGISTERED)
            .field("timestamp", gateway.now_text());
    })))
}
