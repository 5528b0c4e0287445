//! Whether an answer is about the transaction its request was about.
//!
//! An answer may echo what its request sent. An echo that disagrees means the answer is
//! about another transaction (a proxy that mixed up connections, a gateway bug): whatever
//! it says, it is not the verdict on this request, and the request itself may have been
//! processed. Which fields each operation checks, and how:
//!
//! | operation | echoed field | compared |
//! |---|---|---|
//! | payment | `merchantTransactionId`, `amount`, `currency` | byte for byte; as money (`50`, `50.0`, `50.00` agree; `-50.00` and a number too large for any amount do not); ignoring case |
//! | token payment | the same, and `registrationId` | as above; the id byte for byte, around blanks |
//! | inquiry by payment id | `paymentId` | byte for byte, around blanks |
//! | inquiry by merchant transaction id | `merchantTransactionId` | byte for byte |
//! | delete, installments | `registrationId` | byte for byte, around blanks |
//! | cards and accounts of a customer | `customerId` | byte for byte, around blanks |
//!
//! An echo that is missing, blank, `"-"` or unreadable is no contradiction: many answers echo
//! nothing (the short answer of a REPEATED token payment), and an amount that is no plain
//! decimal (`NaN`, `true`, `10,00`) says nothing about which transaction it was.

use paytoken_types::internal::sensitive;
use paytoken_types::{Amount, Currency, MerchantTransactionId, RegistrationId};

use crate::answer::Field;
use crate::{Error, OperationKind};

/// How much of an echoed value an error keeps, in characters.
const ECHO_CHARS: usize = 100;

/// What a request sent that its answer may echo back.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Sent<'a> {
    pub(crate) merchant_transaction_id: Option<&'a MerchantTransactionId>,
    pub(crate) amount: Option<Amount>,
    pub(crate) currency: Option<Currency>,
    /// The id the call was about (`paymentId`, `registrationId` or `customerId`).
    pub(crate) id: Option<(&'static str, &'a str)>,
}

/// What an answer echoed, as it came.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Echoed<'a> {
    pub(crate) merchant_transaction_id: Option<&'a str>,
    pub(crate) amount: Option<&'a Field<Amount>>,
    pub(crate) currency: Option<&'a Field<Currency>>,
    /// The answer's text of the field named in [`Sent::id`].
    pub(crate) id: Option<&'a str>,
}

/// What a call about one registration sent: its id.
pub(crate) fn echo_of_registration(id: &RegistrationId) -> Sent<'_> {
    Sent {
        id: Some((RegistrationId::FIELD, id.as_str())),
        ..Sent::default()
    }
}

impl<'a> Echoed<'a> {
    /// An answer that echoes only the id.
    pub(crate) fn id(id: Option<&'a str>) -> Self {
        Self {
            id,
            ..Self::default()
        }
    }
}

impl Sent<'_> {
    /// The first echoed field that contradicts what was sent, as an error.
    pub(crate) fn check(&self, operation: OperationKind, echoed: &Echoed<'_>) -> Result<(), Error> {
        // Shown as the table of fields shows them: a card number a merchant put in an
        // order id is masked in the error as in any log.
        let contradiction = |field: &'static str, sent: &str, answered: &str| {
            Err(Error::Contradiction {
                operation,
                field,
                sent: bounded(&sensitive::shown(field, sent, true)),
                answered: bounded(&sensitive::shown(field, answered, true)),
            })
        };
        if let (Some(sent), Some(answered)) =
            (self.merchant_transaction_id, echoed.merchant_transaction_id)
            && sent.as_str() != answered
        {
            return contradiction(MerchantTransactionId::FIELD, sent.as_str(), answered);
        }
        if let (Some(sent), Some(answered)) = (self.amount, echoed.amount)
            && answered.value().map_or_else(
                || other_decimal(answered.raw(), sent),
                |amount| *amount != sent,
            )
        {
            return contradiction("amount", sent.to_wire().as_str(), answered.raw());
        }
        if let (Some(sent), Some(answered)) = (self.currency, echoed.currency)
            && answered.value().is_some_and(|currency| *currency != sent)
        {
            return contradiction("currency", sent.as_str(), answered.raw());
        }
        // `"-"` is the gateway's "no id", not another one.
        if let (Some((field, sent)), Some(answered)) = (self.id, echoed.id)
            && !matches!(answered.trim(), "-" | "")
            && sent != answered.trim()
        {
            return contradiction(field, sent, answered);
        }
        Ok(())
    }
}

/// Whether `raw`, an echoed amount no [`Amount`] reads (negative, too large, with more
/// decimals than a currency has), is a plain decimal of another value than `sent`: a
/// number is compared as money whatever its sign or size. Text that is no plain decimal
/// (`NaN`, `true`, `10,00`, `+10`, `1e3`) says nothing about which transaction it was.
fn other_decimal(raw: &str, sent: Amount) -> bool {
    let wire = sent.to_wire();
    match (plain_decimal(raw.trim()), plain_decimal(wire.as_str())) {
        (Some(answered), Some(sent)) => answered != sent,
        _ => false,
    }
}

/// A plain decimal (`-?` then digits with at most one `.`) as its sign, its whole digits
/// without leading zeros and its decimals without trailing zeros: equal values, equal
/// parts, whatever their size.
fn plain_decimal(text: &str) -> Option<(bool, &str, &str)> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, decimals) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
    if (whole.is_empty() && decimals.is_empty()) || !all_digits(whole) || !all_digits(decimals) {
        return None;
    }
    let whole = whole.trim_start_matches('0');
    let decimals = decimals.trim_end_matches('0');
    let zero = whole.is_empty() && decimals.is_empty();
    Some((negative && !zero, whole, decimals))
}

/// An echoed value cut to [`ECHO_CHARS`] characters, so an error stays small whatever the
/// answer held.
fn bounded(text: &str) -> String {
    match text.char_indices().nth(ECHO_CHARS) {
        Some((end, _)) => format!("{}…", text.get(..end).unwrap_or_default()),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(text: &str) -> MerchantTransactionId {
        MerchantTransactionId::new(text).unwrap()
    }

    #[test]
    fn equivalent_echoes_agree_and_missing_ones_say_nothing() {
        let mti = id("Rest Transaction 01");
        let sent = Sent {
            merchant_transaction_id: Some(&mti),
            amount: Some(Amount::from_minor_units(5000)),
            currency: Some(Currency::EUR),
            id: Some(("registrationId", "8a82944a4cc25ebf014cc2c782423202")),
        };
        for amount in ["50", "50.0", "50.00", "fifty"] {
            let amount = Field::read(amount);
            let currency = Field::read("eur");
            let echoed = Echoed {
                merchant_transaction_id: Some("Rest Transaction 01"),
                amount: Some(&amount),
                currency: Some(&currency),
                id: Some(" 8a82944a4cc25ebf014cc2c782423202"),
            };
            assert!(sent.check(OperationKind::TokenPayment, &echoed).is_ok());
        }
        assert!(
            sent.check(OperationKind::TokenPayment, &Echoed::default())
                .is_ok()
        );
    }

    #[test]
    fn each_field_that_differs_is_a_contradiction() {
        let mti = id("order_17");
        let sent = Sent {
            merchant_transaction_id: Some(&mti),
            amount: Some(Amount::from_minor_units(5000)),
            currency: Some(Currency::EUR),
            id: Some(("paymentId", "54279")),
        };
        let amount = Field::read("50.01");
        let currency = Field::read("usd");
        for (echoed, field) in [
            (
                Echoed {
                    merchant_transaction_id: Some("order_17 "),
                    ..Echoed::default()
                },
                "merchantTransactionId",
            ),
            (
                Echoed {
                    amount: Some(&amount),
                    ..Echoed::default()
                },
                "amount",
            ),
            (
                Echoed {
                    currency: Some(&currency),
                    ..Echoed::default()
                },
                "currency",
            ),
            (
                Echoed {
                    id: Some("54280"),
                    ..Echoed::default()
                },
                "paymentId",
            ),
        ] {
            let error = sent.check(OperationKind::Payment, &echoed).unwrap_err();
            assert!(
                matches!(error, Error::Contradiction { field: f, .. } if f == field),
                "{error:?}"
            );
            assert!(error.may_have_been_processed());
        }
        let long = "x".repeat(500);
        let error = sent
            .check(
                OperationKind::Payment,
                &Echoed {
                    merchant_transaction_id: Some(&long),
                    ..Echoed::default()
                },
            )
            .unwrap_err();
        assert!(error.to_string().chars().count() < 400, "{error}");
    }

    #[test]
    fn a_card_number_in_a_contradicted_order_id_is_masked() {
        let mti = id("order-4000000000000051");
        let sent = Sent {
            merchant_transaction_id: Some(&mti),
            ..Sent::default()
        };
        let error = sent
            .check(
                OperationKind::Payment,
                &Echoed {
                    merchant_transaction_id: Some("other 4000 0000 0000 0051"),
                    ..Echoed::default()
                },
            )
            .unwrap_err();
        for shown in [error.to_string(), format!("{error:?}")] {
            assert!(!shown.contains("0000000000"), "{shown}");
            assert!(shown.contains("order-400000******0051"), "{shown}");
            assert!(shown.contains("other 400000******0051"), "{shown}");
        }
    }
}
