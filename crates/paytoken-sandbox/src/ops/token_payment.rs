//! `paywithtoken/{id}`: a payment with a stored token (`DB` or `PA`, plain, `INITIAL`,
//! `REPEATED`, with an installment count) or its deletion (`DL`).

use paytoken_types::{Amount, Currency, Cvv, MerchantTransactionId, PaymentType, RegistrationId};

use super::payment::{parse_amount, read_currency};
use super::urls::Returns;
use super::{transaction, urls};
use crate::cards::{self, Behaviour};
use crate::codes;
use crate::exchange::{Answer, Call};
use crate::gateway::{Caller, Gateway};
use crate::json;
use crate::problem::{Problem, Problems};
use crate::state::{Instrument, Moves, Payment, Registration, State, Status, StoredCard};

pub(super) fn handle(
    gateway: &Gateway,
    state: &mut State,
    call: &Call<'_, '_>,
) -> Result<Answer, Problems> {
    let caller = gateway.authenticate(state, call)?;
    let registration_id = registration_id(call.path_id)?;
    match call.form.get("paymentType") {
        Some("DL") => delete(gateway, state, call, &caller, registration_id),
        Some("DB" | "PA") => pay(gateway, state, call, &caller, registration_id),
        Some(_) => Err(codes::INVALID_PAYMENT_TYPE.into()),
        None => Err(Problem::missing("paymentType").into()),
    }
}

/// The `{id}` of the path, which must be a registration id (alphanumeric, 1 to 32).
pub(super) fn registration_id(path_id: Option<&str>) -> Result<&str, Problems> {
    path_id
        .filter(|id| RegistrationId::new(id).is_ok())
        .ok_or_else(|| codes::INVALID_REGISTRATION_ID.into())
}

/// The caller's active registration with this id. Another member's registration is "not
/// found", as an unknown one: the answer does not tell that it exists. A read: a caller
/// that changes it takes it with `State::registration_mut`, which journals the change.
pub(super) fn active_registration<'s>(
    state: &'s State,
    caller: &Caller<'_>,
    id: &str,
) -> Result<&'s Registration, Problems> {
    let id = RegistrationId::new(id).map_err(|_| codes::REGISTRATION_NOT_FOUND)?;
    let registration = state
        .registration(&id)
        .filter(|registration| caller.principal.can_see(registration.owner))
        .ok_or(codes::REGISTRATION_NOT_FOUND)?;
    if !registration.active {
        return Err(codes::REGISTRATION_INACTIVE.into());
    }
    Ok(registration)
}

/// Reads the payment, decides it on the token's card, records it and answers it.
fn pay(
    gateway: &Gateway,
    state: &mut State,
    call: &Call<'_, '_>,
    caller: &Caller<'_>,
    registration_id: &str,
) -> Result<Answer, Problems> {
    gateway.check_room(state)?;
    let asked = read(gateway, call, caller, registration_id)?;
    transaction::check_unused(state, caller, asked.charge.transaction_id)?;
    let registration = active_registration(state, caller, registration_id)?;
    let (card, behaviour) = decide(registration, &asked)?;
    let status = Status::of(behaviour);
    let registration_id = registration.id;
    if asked.recurring == Some("INITIAL")
        && status == Status::Approved
        && let Some(registration) = state.registration_mut(&registration_id)
    {
        registration.recurring = true;
    }
    let view = if asked.recurring == Some("REPEATED") {
        transaction::View::Repeated
    } else {
        transaction::View::Full
    };
    let payment = asked
        .charge
        .into_payment(gateway, state, caller, registration_id, card, status);
    Ok(transaction::settle(
        gateway, state, caller, payment, behaviour, view,
    ))
}

/// What a payment on a stored token charges, every field checked: a token payment's, or a
/// repeat's (which has no return URLs).
pub(super) struct Charge<'f> {
    pub(super) payment_type: &'f str,
    pub(super) amount: Amount,
    pub(super) currency: Currency,
    pub(super) transaction_id: Option<&'f str>,
    pub(super) returns: Returns,
}

impl Charge<'_> {
    /// The payment as the sandbox keeps it, on the token `registration_id`.
    pub(super) fn into_payment(
        self,
        gateway: &Gateway,
        state: &mut State,
        caller: &Caller<'_>,
        registration_id: RegistrationId,
        card: Option<StoredCard>,
        status: Status,
    ) -> Payment {
        Payment {
            payment_id: state.next_payment_id(),
            owner: caller.principal,
            // Checked when read: an id that is not one was refused.
            merchant_transaction_id: self
                .transaction_id
                .and_then(|id| MerchantTransactionId::new(id).ok()),
            payment_type: PaymentType::from_wire(self.payment_type),
            brand: None,
            mode: None,
            amount: self.amount,
            currency: self.currency,
            status,
            registration_id: Some(registration_id),
            card,
            descriptor: None,
            redirect_back: self.returns.redirect_back,
            notify: self.returns.notify,
            timestamp: gateway.now_text(),
            made_at: gateway.clock.now(),
            moves: Moves::default(),
        }
    }
}

/// What a token payment asks for, every field checked.
struct Asked<'f> {
    charge: Charge<'f>,
    /// `INITIAL` or `REPEATED`.
    recurring: Option<&'f str>,
    installment: Option<u32>,
}

/// Checks the checksum, then every field, with a problem for each one wrong.
fn read<'f>(
    gateway: &Gateway,
    call: &Call<'f, '_>,
    caller: &Caller<'_>,
    registration_id: &str,
) -> Result<Asked<'f>, Problems> {
    let form = call.form;
    let [amount_text] = form.required_all(["amount"])?;
    gateway.verify_checksum(
        caller,
        form,
        "token_payment",
        &[("registrationId", registration_id), ("amount", amount_text)],
    )?;
    let mut problems = Problems::default();
    let amount = parse_amount(amount_text, &mut problems);
    let currency = read_currency(form, &mut problems);
    let transaction_id = form.get("merchantTransactionId");
    if transaction_id.is_some_and(|id| MerchantTransactionId::new(id).is_err()) {
        problems.push(Problem::invalid("merchantTransactionId"));
    }
    form.parsed::<Cvv>(Cvv::FIELD, Problem::invalid(Cvv::FIELD), &mut problems);
    let returns = urls::returns(call, &mut problems);
    let recurring = form.get("recurringType");
    if recurring.is_some_and(|kind| !matches!(kind, "INITIAL" | "REPEATED")) {
        problems.push(Problem::invalid("recurringType"));
    }
    // A count in plain digits: `+3` is not one, though Rust's parser would take it.
    let installment: Option<u32> = match form.get("installment") {
        Some(count) if !count.bytes().all(|b| b.is_ascii_digit()) => {
            problems.push(Problem::invalid("installment"));
            None
        }
        _ => form.parsed(
            "installment",
            Problem::invalid("installment"),
            &mut problems,
        ),
    };
    let (amount, currency) = problems.or_values(amount.zip(currency))?;
    Ok(Asked {
        charge: Charge {
            payment_type: form.get("paymentType").unwrap_or("DB"),
            amount,
            currency,
            transaction_id,
            returns,
        },
        recurring,
        installment,
    })
}

/// The token's card (none for a bank account) and how the payment goes: refused when it
/// repeats a token with no initial payment, or asks for installments its card is not
/// offered.
fn decide(
    registration: &Registration,
    asked: &Asked<'_>,
) -> Result<(Option<StoredCard>, Behaviour), Problems> {
    let repeated = asked.recurring == Some("REPEATED");
    if repeated && !registration.recurring {
        return Err(codes::NO_INITIAL_PAYMENT.into());
    }
    let card = match &registration.instrument {
        Instrument::Card(card) => Some(card.clone()),
        Instrument::BankAccount { .. } => None,
    };
    if let Some(count) = asked.installment {
        let offered = card
            .as_ref()
            .and_then(|card| cards::installment_plan(&card.bin))
            .is_some_and(|plan| plan.split(',').any(|n| n.parse() == Ok(count)));
        if !offered {
            return Err(codes::INSTALLMENT_NOT_OFFERED.into());
        }
    }
    let behaviour = match card.as_ref().map(|card| card.behaviour) {
        // A merchant-initiated REPEATED payment is not challenged again.
        Some(Behaviour::ThreeDSecure) if repeated => Behaviour::Approve,
        Some(behaviour) => behaviour,
        None => Behaviour::Approve,
    };
    Ok((card, behaviour))
}

/// Deletes the token: it becomes inactive for good.
fn delete(
    gateway: &Gateway,
    state: &mut State,
    call: &Call<'_, '_>,
    caller: &Caller<'_>,
    registration_id: &str,
) -> Result<Answer, Problems> {
    gateway.verify_checksum(
        caller,
        call.form,
        "delete_token",
        &[("registrationId", registration_id)],
    )?;
    let id = active_registration(state, caller, registration_id)?.id;
    if let Some(registration) = state.registration_mut(&id) {
        registration.active = false;
    }
    Ok(Answer::json(json::object(|answer| {
        answer
            .field("registrationId", registration_id)
            .code(codes::REGISTRATION_DELETED)
            .field("timestamp", gateway.now_text());
    })))
}
