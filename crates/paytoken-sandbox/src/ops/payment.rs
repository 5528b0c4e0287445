//! A payment with card data (`payments`), debit or pre-authorisation, storing the card when
//! `createRegistration=true`.

use paytoken_types::{
    Amount, Currency, CustomerId, MerchantTransactionId, PaymentBrand, PaymentMode, PaymentType,
};

use super::urls::Returns;
use super::{card_input, transaction, urls};
use crate::codes;
use crate::currencies;
use crate::exchange::{Answer, Call};
use crate::form::Form;
use crate::gateway::{Caller, Gateway};
use crate::problem::{Problem, Problems};
use crate::state::{Instrument, Moves, Payment, Registration, State, Status, StoredCard};

/// Reads the payment, records it (and the card, when asked to store it), and answers it.
pub(super) fn handle(
    gateway: &Gateway,
    state: &mut State,
    call: &Call<'_, '_>,
) -> Result<Answer, Problems> {
    let caller = gateway.authenticate(state, call)?;
    gateway.check_room(state)?;
    let asked = read(gateway, state, &caller, call)?;
    transaction::check_unused(state, &caller, Some(asked.transaction_id))?;
    let behaviour = asked.card.behaviour;
    let payment = record(gateway, state, &caller, asked);
    Ok(transaction::settle(
        gateway,
        state,
        &caller,
        payment,
        behaviour,
        transaction::View::Full,
    ))
}

/// What a payment asks for, every field checked.
struct Asked<'f> {
    transaction_id: &'f str,
    amount: Amount,
    currency: Currency,
    payment_type: &'f str,
    brand: Option<&'f str>,
    mode: Option<&'f str>,
    card: StoredCard,
    store: bool,
    initial: bool,
    returns: Returns,
    customer_id: Option<&'f str>,
    descriptor: Option<&'f str>,
}

/// Checks the checksum, then every field, with a problem for each one wrong.
fn read<'f>(
    gateway: &Gateway,
    state: &State,
    caller: &Caller<'_>,
    call: &Call<'f, '_>,
) -> Result<Asked<'f>, Problems> {
    let form = call.form;
    let [transaction_id, amount_text] = verify(gateway, caller, form)?;
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
    let card = card_input::read(form, true, gateway.clock.now(), &mut problems);
    if let Some(card) = &card {
        card_input::check_brand(card, brand, &mut problems);
    }
    let store = form.flag("createRegistration", &mut problems);
    // REPEATED payments use a stored token (`paywithtoken`), never card data.
    let initial = form.get("recurringType") == Some("INITIAL");
    if form
        .get("recurringType")
        .is_some_and(|kind| kind != "INITIAL")
    {
        problems.push(Problem::invalid("recurringType"));
    }
    let returns = urls::returns(call, &mut problems);
    let customer_id = form.get("customer.customerId");
    if customer_id.is_some_and(|id| !state.customer_visible(caller.principal, id)) {
        problems.push(codes::CUSTOMER_NOT_FOUND);
    }
    let (((amount, currency), payment_type), card) =
        problems.or_values(amount.zip(currency).zip(payment_type).zip(card))?;
    Ok(Asked {
        transaction_id,
        amount,
        currency,
        payment_type,
        brand,
        mode,
        card,
        store,
        initial,
        returns,
        customer_id,
        descriptor: form.get("orderDescriptor"),
    })
}

/// Checks the checksum, which signs the transaction id and the amount as they were sent;
/// returns them.
fn verify<'f>(
    gateway: &Gateway,
    caller: &Caller<'_>,
    form: &'f Form<'_>,
) -> Result<[&'f str; 2], Problems> {
    let [transaction_id, amount_text] = form.required_all(["merchantTransactionId", "amount"])?;
    gateway.verify_checksum(
        caller,
        form,
        "payment",
        &[
            ("merchantTransactionId", transaction_id),
            ("amount", amount_text),
        ],
    )?;
    Ok([transaction_id, amount_text])
}

/// The payment as the sandbox keeps it, and the card's registration when it is stored and
/// not declined.
fn record(gateway: &Gateway, state: &mut State, caller: &Caller<'_>, asked: Asked<'_>) -> Payment {
    let status = Status::of(asked.card.behaviour);
    // Checked by `read`: only a customer the caller knows gets here.
    let customer_id = asked.customer_id.and_then(|id| CustomerId::new(id).ok());
    let registration_id = (asked.store && !matches!(status, Status::Declined { .. })).then(|| {
        let id = state.entropy.registration_id();
        state.insert_registration(Registration {
            id,
            owner: caller.principal,
            customer_id,
            instrument: Instrument::Card(asked.card.clone()),
            active: true,
            recurring: asked.initial && status == Status::Approved,
        });
        id
    });
    Payment {
        payment_id: state.next_payment_id(),
        owner: caller.principal,
        // Checked by `read`: an id that is not one was refused.
        merchant_transaction_id: MerchantTransactionId::new(asked.transaction_id).ok(),
        payment_type: PaymentType::from_wire(asked.payment_type),
        brand: asked.brand.map(PaymentBrand::from_wire),
        mode: asked.mode.map(PaymentMode::from_wire),
        amount: asked.amount,
        currency: asked.currency,
        status,
        registration_id,
        card: Some(asked.card),
        descriptor: asked.descriptor.map(str::to_owned),
        redirect_back: asked.returns.redirect_back,
        notify: asked.returns.notify,
        timestamp: gateway.now_text(),
        made_at: gateway.clock.now(),
        moves: Moves::default(),
    }
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
