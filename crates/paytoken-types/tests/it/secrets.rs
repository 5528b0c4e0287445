//! Secrets redact themselves: `Debug` of every secret-bearing type shows neither the
//! secret nor any digits of a card number beyond its first six and last four.

use paytoken_types::{BankAccount, Bic, Card, CardNumber, Cvv, ExpiryMonth, ExpiryYear, Iban};
use proptest::prelude::*;

/// A Luhn-valid card number of `len` digits from random leading digits.
fn card_number(len: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = String> {
    len.prop_flat_map(|len| proptest::collection::vec(0u32..10, len - 1))
        .prop_map(|mut digits| {
            let sum: u32 = digits
                .iter()
                .rev()
                .enumerate()
                .map(|(i, &d)| {
                    // Reversed, the check digit will stand at 0, so even places here double.
                    let value = if i % 2 == 0 { d * 2 } else { d };
                    if value > 9 { value - 9 } else { value }
                })
                .sum();
            digits.push((10 - sum % 10) % 10);
            digits
                .iter()
                .map(|d| char::from_digit(*d, 10).unwrap())
                .collect()
        })
}

/// The runs of ASCII digits in `text`.
fn digit_runs(text: &str) -> Vec<&str> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|run| !run.is_empty())
        .collect()
}

proptest! {
    #[test]
    fn a_card_number_debug_shows_at_most_the_first_six_and_last_four(
        number in card_number(12..=19),
        cvv in "[0-9]{3,4}",
    ) {
        let card = Card {
            number: CardNumber::new(&number).unwrap(),
            expiry_month: ExpiryMonth::new(12).unwrap(),
            expiry_year: ExpiryYear::new(2099).unwrap(),
            cvv: Cvv::new(&cvv).unwrap(),
            holder: None,
        };
        let debug = format!("{card:?} {:?} {}", card.number, card.number.masked());
        prop_assert!(!debug.contains(&number));
        let (head, tail) = (&number[..6], &number[number.len() - 4..]);
        for run in digit_runs(&debug) {
            // Every digit shown belongs to the first six, the last four, or the expiry.
            prop_assert!(
                run == head || run == tail || run == "12" || run == "2099",
                "{run} in {debug}"
            );
        }
        if number.len() < 16 {
            prop_assert!(!debug.contains(head), "short numbers show only the last four");
        }
        let middle = &number[6..number.len() - 4];
        let head_and_middle = format!("{head}{middle}");
        prop_assert!(!debug.contains(&head_and_middle));
        let cvv_debug = format!("{:?}", card.cvv);
        prop_assert!(!cvv_debug.contains(&cvv));
    }
}

#[test]
fn cvv_debug_shows_no_digit() {
    for cvv in ["745", "237", "1234"] {
        let debug = format!("{:?}", Cvv::new(cvv).unwrap());
        assert!(!debug.chars().any(|c| c.is_ascii_digit()), "{debug}");
    }
}

#[test]
fn an_iban_debug_shows_only_its_country_and_last_four() {
    let account = BankAccount {
        iban: Iban::new("DE89370400440532013000").unwrap(),
        bic: Bic::new("DEUTDEFF").unwrap(),
        holder: None,
    };
    let debug = format!("{account:?}");
    assert!(!debug.contains("370400440532"), "{debug}");
    assert_eq!(digit_runs(&debug), ["3000"]);
}
