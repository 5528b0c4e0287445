//! The `card.*` fields of payments and registrations, checked and kept as the gateway shows
//! them: brand, BIN, last four digits, expiry. The number and CVV are not kept.

use paytoken_types::{CardNumber, Cvv, ExpiryMonth, ExpiryYear, PaymentBrand, Timestamp};

use crate::cards::Behaviour;
use crate::codes;
use crate::form::Form;
use crate::problem::{Problem, Problems};
use crate::state::StoredCard;

/// The last expiry year accepted while the clock is before 2079. A real gateway refuses
/// years no card carries (cards are issued for at most a few years); the sandbox accepts
/// up to 2099 so that the tests and examples of today, which use 2099 to outlive the
/// sandbox's clock, keep working.
const LAST_EXPIRY_YEAR: u16 = 2099;

/// How many years past the clock's own an expiry year may be: the clock may move a century
/// (`MAX_CLOCK_ADVANCE`), and cards must still be able to pay there.
const EXPIRY_YEARS_AHEAD: u16 = 20;

/// The last expiry year accepted in `today`'s year: 2099, or 20 years past it once the
/// clock is moved beyond 2079.
fn last_expiry_year(today: Option<&Timestamp>) -> u16 {
    let ahead = today.map_or(0, |today| today.year().saturating_add(EXPIRY_YEARS_AHEAD));
    LAST_EXPIRY_YEAR.max(ahead)
}

/// Checks that `paymentBrand` (read as the platform reads brand names) is the brand of the
/// card's number.
pub(super) fn check_brand(card: &StoredCard, brand: Option<&str>, problems: &mut Problems) {
    use paytoken_types::Tolerant as _;
    if let Some(sent) = brand.and_then(PaymentBrand::read_tolerant)
        && sent.as_str() != card.brand
    {
        problems.push(codes::BRAND_MISMATCH);
    }
}

/// Reads the card, adding a problem for each field that is missing or wrong, and for a
/// card that expired before the month of `now` (unix seconds), whose number belongs to no
/// brand, or whose expiry year is past the last one accepted (2099, or 20 years past the
/// clock's year once that is later).
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
        form.parsed::<Cvv>(Cvv::FIELD, Problem::invalid(Cvv::FIELD), problems);
    }
    let (number, month, year) = (number?, month?, year?);
    let Some(brand) = number.brand() else {
        // A number of no card brand's range (0000000000000000 passes Luhn).
        problems.push(codes::INVALID_CARD_NUMBER);
        return None;
    };
    let today = Timestamp::from_unix_seconds(now);
    if year.get() > last_expiry_year(today.as_ref()) {
        problems.push(codes::IMPLAUSIBLE_EXPIRY);
        return None;
    }
    if let Some(today) = today
        && (year.get(), month.get()) < (today.year(), today.month())
    {
        problems.push(codes::CARD_EXPIRED);
        return None;
    }
    let digits = number.expose_digits();
    Some(StoredCard {
        brand: brand.as_str().to_owned(),
        bin: number.bin().to_owned(),
        last_four: number.last_four().to_owned(),
        expiry_month: month.to_wire().as_str().to_owned(),
        expiry_year: year.to_wire().as_str().to_owned(),
        holder: form.get("card.holder").map(str::to_owned),
        behaviour: Behaviour::of(digits),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_can_pay_wherever_the_clock_may_stand() {
        let year = |year| Timestamp::new(year, 6, 1, 0, 0, 0).ok();
        assert_eq!(last_expiry_year(year(2026).as_ref()), 2099);
        assert_eq!(last_expiry_year(None), 2099);
        // The clock moved its century from today: cards expiring after it still pay.
        assert_eq!(last_expiry_year(year(2127).as_ref()), 2147);
        assert_eq!(last_expiry_year(year(9999).as_ref()), 10_019);
    }
}
