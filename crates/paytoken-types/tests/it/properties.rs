//! Property tests: the form encoder against an independent decoder (`serde_urlencoded`),
//! money round trips, and parsers that never panic.

use paytoken_types::internal::{FormValue, FormWriter, decode};
use paytoken_types::{
    Amount, Bic, BirthDate, CardNumber, CountryCode, Currency, Cvv, Email, Error, ExpiryMonth,
    ExpiryYear, Iban, LanguageCode, MemberId, PaymentBrand, PaymentMode, PaymentType, Phone,
    RecurringType, RegistrationId, ResultCode, Sex, TelephoneCountryCode, TextRule, Timestamp,
    Tolerant,
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

/// Text around what the text rules look for: blanks, ASCII and C1 controls, `0xC2` that
/// leads other characters, white space beyond ASCII, and URL-ish text.
fn text_for_rules() -> impl Strategy<Value = String> {
    prop_oneof![
        any_text(),
        "[ a-z\\x00-\\x1f\\x7f\\u{80}-\\u{a9}\\u{2003}]{0,6}",
        "(https?|HTTPS?|ftp)(://)?[a-z. /?#\\x07\\u{85}\\u{a0}\\u{3000}]{0,12}",
        "[a-zA-Zé ]{250,260}",
    ]
}

/// The rules, said again with the standard library's own predicates: the oracle of the
/// writer's checks, which note classes of bytes as they escape them.
fn rule_oracle(rule: TextRule, text: &str) -> bool {
    let free_text = !text.trim().is_empty() && !text.chars().any(char::is_control);
    match rule {
        TextRule::FreeText => free_text,
        TextRule::FreeTextUpTo(max) => free_text && text.chars().count() <= max,
        TextRule::Url => {
            let lower = text.to_ascii_lowercase();
            let rest = lower
                .strip_prefix("https://")
                .or_else(|| lower.strip_prefix("http://"));
            rest.is_some_and(|rest| {
                !rest.is_empty()
                    && !rest.starts_with(['/', '?', '#'])
                    && text.len() <= paytoken_types::MAX_URL_LEN
                    && !text.chars().any(|c| c.is_whitespace() || c.is_control())
            })
        }
        _ => unreachable!("a rule this test does not know"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn checked_text_is_written_as_plain_text_and_refused_as_the_oracle_says(
        text in text_for_rules(),
        rule in prop_oneof![
            Just(TextRule::FreeText),
            Just(TextRule::FreeTextUpTo(255)),
            Just(TextRule::Url),
        ],
    ) {
        let mut checked = Vec::new();
        let mut form = FormWriter::new(&mut checked);
        form.optional_text("f", Some(text.as_str()), rule);
        let verdict = form.finish();
        let mut plain = Vec::new();
        FormWriter::new(&mut plain).field("f", text.as_str());
        prop_assert_eq!(&checked, &plain);
        prop_assert_eq!(verdict.is_ok(), rule_oracle(rule, &text), "{:?}", verdict);
        if let Err(refusal) = verdict {
            prop_assert_eq!(refusal.field(), Some("f"));
        }
    }

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
    fn a_currency_is_read_tolerantly_as_three_letters_in_either_case(
        text in prop_oneof![any_text(), "[ a-zA-Z0-9é\\t]{0,5}"],
    ) {
        let trimmed = text.trim();
        let oracle = (trimmed.len() == 3 && trimmed.chars().all(|c| c.is_ascii_alphabetic()))
            .then(|| Currency::new(&trimmed.to_ascii_uppercase()).unwrap());
        prop_assert_eq!(Currency::read_tolerant(&text), oracle);
    }

    #[test]
    fn an_amount_is_read_tolerantly_as_the_two_pass_reading_did(
        text in prop_oneof![
            any_text(),
            "[ 0-9.]{0,8}",
            "[0-9]{15,21}(\\.[0-9]{0,4})?",
            "\\.?[0-9]{0,3}\\.?[0-9]{0,4}",
        ],
    ) {
        prop_assert_eq!(
            Amount::read_tolerant(&text).map(Amount::minor_units),
            two_pass_amount(&text)
        );
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

    /// An id is 1 to 32 ASCII letters and digits, kept as given; anything else is refused
    /// with the error the checks in order name (the length, else the first bad character).
    #[test]
    fn ids_are_accepted_exactly_when_short_ascii_alphanumerics(
        text in prop_oneof![any_text(), "[0-9A-Za-z]{0,34}", "[0-9a-f]{30,33}[ -~]?"]
    ) {
        let valid = (1..=32).contains(&text.chars().count())
            && text.chars().all(|c| c.is_ascii_alphanumeric());
        match RegistrationId::new(&text) {
            Ok(id) => {
                prop_assert!(valid, "{text:?} accepted");
                prop_assert_eq!(id.as_str(), text.as_str());
            }
            Err(error) => {
                prop_assert!(!valid, "{text:?} refused: {error}");
                let len = text.chars().count();
                let expected = if len == 0 {
                    "Empty"
                } else if len > 32 {
                    "Length"
                } else {
                    "InvalidCharacter"
                };
                prop_assert!(format!("{error:?}").starts_with(expected), "{error:?}");
            }
        }
    }

    /// A value whose type says it is plain (`FormValue::is_plain`, copied without a look
    /// at its bytes) is plain, for whatever text its type accepts: the oracle is the
    /// unreserved set said again with `char` predicates.
    #[test]
    fn values_said_to_be_plain_are_plain(
        text in prop_oneof![
            any_text(),
            "[0-9A-Za-z]{1,33}",
            "[0-9]{3,20}",
            "[A-Za-z]{2,3}",
            "[A-Za-z.*_-]{1,12}",
        ],
        minor in any::<u64>(),
        date in (1900_u16..2100, 1_u8..13, 1_u8..29),
    ) {
        fn holds(value: &dyn FormValue) -> Result<(), TestCaseError> {
            if value.is_plain() {
                let text = value.form_text();
                prop_assert!(
                    text.chars().all(|c| c.is_ascii_alphanumeric() || "*-._".contains(c)),
                    "{text:?} is said to be plain"
                );
                prop_assert_eq!(value.form_bytes(), text.as_bytes());
            }
            Ok(())
        }
        fn if_taken<T: FormValue>(value: Result<T, Error>) -> Result<(), TestCaseError> {
            value.map_or(Ok(()), |value| holds(&value))
        }
        if_taken(MemberId::new(&text))?;
        if_taken(RegistrationId::new(&text))?;
        if_taken(text.parse::<Currency>())?;
        if_taken(CountryCode::new(&text))?;
        if_taken(LanguageCode::new(&text))?;
        if_taken(Phone::new(&text))?;
        if_taken(TelephoneCountryCode::new(&text))?;
        if_taken(CardNumber::new(&text))?;
        if_taken(Cvv::new(&text))?;
        holds(&PaymentType::from_wire(&text))?;
        holds(&PaymentBrand::from_wire(&text))?;
        holds(&PaymentMode::from_wire(&text))?;
        holds(&RecurringType::from_wire(&text))?;
        holds(&Sex::from_wire(&text))?;
        holds(&Amount::from_minor_units(minor).to_wire())?;
        let (year, month, day) = date;
        holds(&BirthDate::new(year, month, day).unwrap().to_wire())?;
        holds(&ExpiryMonth::new(month).unwrap().to_wire())?;
        if let Ok(year) = ExpiryYear::new(year) {
            holds(&year.to_wire())?;
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
/// The tolerant amount reading as it was written before its one-pass form: split at the
/// point, check both parts, scale to cents. The oracle of the reading now.
fn two_pass_amount(text: &str) -> Option<u64> {
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    let (cents, rest) = fraction.split_at(fraction.len().min(2));
    if rest.bytes().any(|b| b != b'0') {
        return None;
    }
    let mut total: u64 = 0;
    let padded = cents
        .bytes()
        .chain(std::iter::repeat_n(b'0', 2 - cents.len()));
    for b in whole.bytes().chain(padded) {
        total = total.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
    }
    Some(total)
}

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

/// `digits` with its last digit set so the Luhn check holds (checked by the oracle).
fn luhn_valid(digits: &str) -> String {
    (0..10)
        .map(|last| format!("{}{last}", &digits[..digits.len() - 1]))
        .find(|number| luhn_oracle(number))
        .unwrap()
}

proptest! {
    /// However a card number is written into text (grouped by spaces, dashes, `+` or
    /// `%20`, between any characters but digits), the masked text never holds it,
    /// and text with no such number comes back as it was.
    #[test]
    fn a_card_number_in_any_text_never_survives_the_scan(
        digits in "[1-9][0-9]{11,18}",
        groups in proptest::collection::vec(1..6_usize, 0..5),
        separator in prop_oneof![Just(" "), Just("-"), Just("+"), Just("%20")],
        before in "[ a-zA-Z/=&:,.#?\\[\\](){}\"_+;é€]{0,6}",
        after in "[ a-zA-Z/=&:,.#?\\[\\](){}\"_+;é€]{0,6}",
        other in "[ a-zA-Z/=&:,.é]{0,40}",
    ) {
        use paytoken_types::internal::sensitive::mask_in_text;
        let number = luhn_valid(&digits);
        let mut written = String::new();
        let mut at = 0;
        for group in &groups {
            if at >= number.len() {
                break;
            }
            let end = (at + group).min(number.len());
            written.push_str(&number[at..end]);
            if end < number.len() {
                written.push_str(separator);
            }
            at = end;
        }
        written.push_str(&number[at..]);
        let text = format!("{before}{written}{after}");
        let shown = mask_in_text(&text);
        let shown_digits: String = shown
            .replace("%20", "")
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        prop_assert!(!shown_digits.contains(&number), "{text} -> {shown}");
        let unchanged = mask_in_text(&other);
        prop_assert_eq!(unchanged.as_ref(), other.as_str());
    }
}
