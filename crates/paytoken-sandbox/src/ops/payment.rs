//! A payment with card data (`payments`), debit or pre-authorisation, storing the card when
//! `createRegistration=true`.

use paytoken_types::{
    Amount, Currency, CustomerId, MerchantTransactionId, PaymentBrand, PaymentMode, PaymentType,
};

use super::{card_input, transaction, urls};
use crate::codes;
use crate::currencies;
use crate::entropy;
use crate::exchange::{Answer, Call};
use crate::explain::Signed;
use crate::form::Form;
use crate::gateway::Gateway;
use crate::problem::{Problem, Problems};
use crate::state::{Instrument, Moves, Payment, Registration, State, Status};

pub(super) fn handle(
    gateway: &Gateway,
    state: &mut State,
    call: &Call<'_, '_>,
) -> Result<Answer, Problems> {
    let caller = gateway.authenticate(state, call)?;
    gateway.check_room(state)?;
    let form = call.form;
    let [transaction_id, amount_text] = form.required_all(["merchantTransactionId", "amount"])?;
    gateway.verify_checksum(
        &caller,
        form,
        Signed {
            rule: "payment",
            parts: &[
                ("merchantTransactionId", transaction_id),
                ("amount", amount_text),
            ],
        },
    )?;

    let mut problems = Problems::default();
    if MerchantTransactionId::new(transaction_id).is_err() {
        problems.push(Problem::invalid("merchantTransactionId"));
    }
    let amount = parse_amount(amount_text, &mut problems);
    let currency = read_currency(form, &mut problems);
    let payment_type = form.required("paymentType", &mut problems);
    if payment_type.is_some_and(|kind| !matches!(kind, "DB" | "PA")) {
        problems.push(codes::INVALID_PAYMENT_TYPE);
    }
    let brand = form.required("paymentBrand", &mut problems);
    let mode = form.required("paymentMode", &mut problems);
    let card = card_input::read(form, true, gateway.clock.unix_seconds(), &mut problems);
    if let Some(card) = &card {
        card_input::check_brand(card, brand, &mut problems);
    }
    let store = form.flag("createRegistration", &mut problems);
    let initial = match form.get("recurringType") {
        None => false,
        Some("INITIAL") => true,
        // REPEATED payments use a stored token (`paywithtoken`), never card data.
        Some(_) => {
            problems.push(Problem::invalid("recurringType"));
            false
        }
    };
    let returns = urls::returns(call, &mut problems);
    let customer_id = form.get("customer.customerId");
    if customer_id.is_some_and(|id| !state.customer_visible(caller.principal, id)) {
        problems.push(codes::CUSTOMER_NOT_FOUND);
    }
    problems.into_result()?;
    let (Some(amount), Some(currency), Some(payment_type), Some(card)) =
        (amount, currency, payment_type, card)
    else {
        // Each `None` above pushed a problem, so `into_result` returned already.
        return Err(codes::MALFORMED_BODY.into());
    };
    transaction::check_unused(state, &caller, Some(transaction_id))?;

    let status = Status::of(card.behaviour);
    let registration_id = (store && !matches!(status, Status::Declined { .. })).then(|| {
        let id = entropy::registration_id();
        state.insert_registration(Registration {
            id,
            owner: caller.principal,
            // Checked above: only a customer the caller knows gets here.
            customer_id: customer_id.and_then(|id| CustomerId::new(id).ok()),
            instrument: Instrument::Card(card.clone()),
            active: true,
            recurring: initial && status == Status::Approved,
        });
        id
    });
    let payment = Payment {
        payment_id: state.next_payment_id(),
        owner: caller.principal,
        // Checked above: an id that is not one was refused.
        merchant_transaction_id: MerchantTransactionId::new(transaction_id).ok(),
        payment_type: PaymentType::from_wire(payment_type),
        brand: brand.map(PaymentBrand::from_wire),
        mode: mode.map(PaymentMode::from_wire),
        amount,
        currency,
        status,
        registration_id,
        card: Some(card.clone()),
        descriptor: form.get("orderDescriptor").map(str::to_owned),
        redirect_back: returns.redirect_back,
        notify: returns.notify,
        timestamp: gateway.now_text(),
        made_at: gateway.clock.unix_seconds(),
        moves: Moves::default(),
    };
    Ok(transaction::settle(
        gateway,
        state,
        &caller,
        payment,
        card.behaviour,
        transaction::View::Full,
    ))
}

/// The largest amount the sandbox takes: a real gateway has a ceiling too.
const MAX_AMOUNT: Amount = Amount::from_minor_units(100_000_000_000);

/// The amount as the wire writes it (`digits.dd`), above zero and at most 1,000,000,000.00.
pub(super) fn parse_amount(text: &str, problems: &mut Problems) -> Option<Amount> {
    let amount = text
        .parse::<Amount>()
        .ok()
        .filter(|amount| *amount != Amount::ZERO);
    match amount {
        None => problems.push(codes::INVALID_AMOUNT),
        Some(amount) if amount > MAX_AMOUNT => {
            problems.push(codes::AMOUNT_ABOVE_LIMIT);
            return None;
        }
        Some(_) => {}
    }
    amount
}

/// `currency`: required, three upper-case letters, and an ISO 4217 code in use.
pub(super) fn read_currency(form: &Form<'_>, problems: &mut Problems) -> Option<Currency> {
    let currency: Currency = form.parsed_required("currency", problems)?;
    if !currencies::is_known(currency.as_str()) {
        problems.push(codes::UNKNOWN_CURRENCY);
        return None;
    }
    Some(currency)
}
