//! Property tests: the form encoder against an independent decoder (`serde_urlencoded`),
//! money round trips, and parsers that never panic.

use paytoken_types::form::{FormWriter, decode};
use paytoken_types::{
    Amount, Bic, BirthDate, CardNumber, Currency, Email, Iban, MemberId, RegistrationId,
    ResultCode, Timestamp,
};
use proptest::prelude::*;

/// Any Unicode text, including `&`, `=`, `+`, `%`, spaces and control characters.
fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[ &=+%/?#a-zA-Z0-9*._~-]{0,24}",
        proptest::collection::vec(any::<char>(), 0..16).prop_map(|c| c.into_iter().collect()),
        // Longer than the encoder's chunk of escaped text, across its boundaries.
        "[ &=%/é€a-z0-9]{60,200}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn encoded_forms_decode_through_serde_urlencoded_to_the_same_pairs(
        pairs in proptest::collection::vec((any_text(), any_text()), 0..12)
    ) {
        let mut body = Vec::new();
        let mut form = FormWriter::new(&mut body);
        for (name, value) in &pairs {
            // Names are `'static` (the interface's are constants); leaked here, in a test,
            // to try every text a name could hold, escapes included.
            let name: &'static str = Box::leak(name.clone().into_boxed_str());
            form.field(name, value);
        }
        // A pair with an empty name and value is written as "=", which both decoders keep
        // (only empty pieces between two "&" are skipped).
        let oracle: Vec<(String, String)> = serde_urlencoded::from_bytes(&body).unwrap();
        prop_assert_eq!(&oracle, &pairs);
        let ours: Vec<(String, String)> = decode(&body)
            .map(|pair| pair.map(|(n, v)| (n.into_owned(), v.into_owned())))
            .collect::<Result<_, _>>()
            .unwrap();
        prop_assert_eq!(&ours, &pairs);
    }

    #[test]
    fn encoded_bytes_are_only_the_unreserved_set_escapes_and_separators(value in any_text()) {
        let mut body = Vec::new();
        FormWriter::new(&mut body).field("n", &value);
        prop_assert!(body.iter().all(|b| b.is_ascii_alphanumeric() || b"*-._+%=&".contains(b)));
    }

    #[test]
    fn trimmed_is_trim(text in prop_oneof![any_text(), "[\\x00-\\x20\\x7f\\u{85}\\u{a0}a]{0,4}"]) {
        prop_assert_eq!(paytoken_types::trimmed(&text), text.trim());
    }

    #[test]
    fn amounts_print_and_parse_back(minor in any::<u64>()) {
        let amount = Amount::from_minor_units(minor);
        let text = amount.to_wire();
        prop_assert_eq!(text.as_str(), amount.to_string());
        prop_assert_eq!(text.as_str().parse::<Amount>(), Ok(amount));
        // An independent oracle: integer division, formatted by `format!`.
        prop_assert_eq!(text.as_str(), format!("{}.{:02}", minor / 100, minor % 100));
    }

    #[test]
    fn amount_text_that_parses_is_the_one_canonical_form(text in "[0-9.]{1,24}") {
        if let Ok(amount) = text.parse::<Amount>() {
            prop_assert_eq!(amount.to_string(), text);
        }
    }

    #[test]
    fn card_numbers_are_accepted_exactly_when_luhn_valid(digits in "[0-9]{12,19}") {
        prop_assert_eq!(CardNumber::new(&digits).is_ok(), luhn_oracle(&digits));
    }

    #[test]
    fn timestamps_print_as_they_parse(seconds in -62_135_596_800i64..253_402_300_799) {
        let timestamp = Timestamp::from_unix_seconds(seconds).unwrap();
        prop_assert_eq!(timestamp.unix_seconds(), seconds);
        let text = timestamp.to_string();
        prop_assert_eq!(text.parse::<Timestamp>(), Ok(timestamp));
    }

    #[test]
    fn no_parser_panics_on_arbitrary_text(text in any_text()) {
        let _ = text.parse::<Amount>();
        let _ = text.parse::<Timestamp>();
        let _ = text.parse::<Currency>();
        let _ = text.parse::<BirthDate>();
        let _ = CardNumber::new(&text);
        let _ = Iban::new(&text);
        let _ = Bic::new(&text);
        let _ = Email::new(&text);
        let _ = MemberId::new(&text);
        let _ = RegistrationId::new(&text);
        let code = ResultCode::new(text.as_str());
        let _ = (code.family(), code.codes().count());
        let _ = serde_json::from_str::<Timestamp>(&text);
    }

    #[test]
    fn the_form_decoder_never_panics(body in proptest::collection::vec(any::<u8>(), 0..256)) {
        for pair in decode(&body) {
            let _ = pair;
        }
    }
}

/// Luhn by another route: digit sums of the doubled digits taken from their decimal text.
fn luhn_oracle(digits: &str) -> bool {
    let total: u32 = digits
        .chars()
        .rev()
        .enumerate()
        .map(|(i, c)| {
            let d = c.to_digit(10).unwrap();
            let d = if i % 2 == 1 { d * 2 } else { d };
            d.to_string()
                .chars()
                .map(|c| c.to_digit(10).unwrap())
                .sum::<u32>()
        })
        .sum();
    total.is_multiple_of(10)
}
