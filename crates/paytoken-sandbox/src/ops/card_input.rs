//! The `card.*` fields of payments and registrations, checked and kept as the gateway shows
//! them: brand, BIN, last four digits, expiry. The number and CVV are not kept.

use paytoken_types::{CardNumber, Cvv, ExpiryMonth, ExpiryYear, Timestamp};

use crate::cards::{self, Behaviour};
use crate::codes;
use crate::form::Form;
use crate::problem::{Problem, Problems};
use crate::state::StoredCard;

/// Reads the card, adding a problem for each field that is missing or wrong, and for a
/// card that expired before the month of `now` (unix seconds).
pub(super) fn read(
    form: &Form<'_>,
    cvv_required: bool,
    now: i64,
    problems: &mut Problems,
) -> Option<StoredCard> {
    let number: Option<CardNumber> = form
        .required("card.number", problems)
        .and_then(|_| form.parsed("card.number", codes::INVALID_CARD_NUMBER, problems));
    let month: Option<ExpiryMonth> = form.parsed_required("card.expiryMonth", problems);
    let year: Option<ExpiryYear> = form.parsed_required("card.expiryYear", problems);
    if cvv_required {
        form.parsed_required::<Cvv>("card.cvv", problems);
    } else {
        form.parsed::<Cvv>("card.cvv", Problem::invalid("card.cvv"), problems);
    }
    let (number, month, year) = (number?, month?, year?);
    if let Some(today) = Timestamp::from_unix_seconds(now)
        && (year.get(), month.get()) < (today.year(), today.month())
    {
        problems.push(codes::CARD_EXPIRED);
        return None;
    }
    let digits = number.expose_digits();
    Some(StoredCard {
        brand: cards::brand_of(digits),
        bin: number.bin().to_owned(),
        last_four: number.last_four().to_owned(),
        expiry_month: month.to_wire().as_str().to_owned(),
        expiry_year: year.to_wire().as_str().to_owned(),
        holder: form.get("card.holder").map(str::to_owned),
        behaviour: Behaviour::of(digits),
    })
}
