//! Property tests: every rule equals MD5 of the joined text, computed by a second MD5
//! implementation (the `md5` crate) over a `format!`-joined string.

use paytoken_checksum::{Checksum, Credentials, Error, SecureKey, rules, verify};
use paytoken_types::{
    Amount, Bic, CardNumber, Email, MemberId, MerchantTransactionId, PartnerId, PaymentId,
    RegistrationId,
};
use proptest::prelude::*;

fn oracle(joined: &str) -> String {
    format!("{:x}", md5_oracle::compute(joined.as_bytes()))
}

fn credentials() -> impl Strategy<Value = (Credentials, String)> {
    ("[A-Za-z0-9]{1,32}", "[^|]{1,40}", any::<bool>()).prop_map(|(id, key, partner)| {
        let secure_key = SecureKey::new(key.clone()).unwrap();
        let credentials = if partner {
            Credentials::partner(PartnerId::new(&id).unwrap(), secure_key)
        } else {
            Credentials::merchant(MemberId::new(&id).unwrap(), secure_key)
        };
        (credentials, format!("{id}|{key}"))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn id_based_rules_match_the_oracle(
        (credentials, head) in credentials(),
        id in "[A-Za-z0-9]{1,32}",
        minor in any::<u64>(),
    ) {
        let amount = Amount::from_minor_units(minor);
        let registration = RegistrationId::new(&id).unwrap();
        let transaction = MerchantTransactionId::new(&id).unwrap();
        let payment = PaymentId::new(&id).unwrap();
        let cases = [
            (rules::payment(&credentials, &transaction, amount), format!("{head}|{id}|{amount}")),
            (rules::token_payment(&credentials, &registration, amount), format!("{head}|{id}|{amount}")),
            (rules::delete_token(&credentials, &registration), format!("{head}|{id}")),
            (rules::installments(&credentials, &registration), format!("{head}|{id}")),
            (rules::inquiry_by_payment_id(&credentials, &payment), format!("{head}|{id}")),
            (rules::inquiry_by_merchant_transaction_id(&credentials, &transaction), format!("{head}|{id}")),
            (rules::capture(&credentials, &payment, amount), format!("{head}|{id}|{amount}")),
            (rules::refund(&credentials, &payment, amount), format!("{head}|{id}|{amount}")),
            (rules::cancel(&credentials, &payment), format!("{head}|{id}")),
            (rules::repeat_payment(&credentials, &payment, amount), format!("{head}|{id}|{amount}")),
            (rules::cards_and_accounts(&credentials), head.clone()),
            (rules::invoice_list(&credentials), head.clone()),
        ];
        for (input, joined) in cases {
            let checksum = input.compute();
            prop_assert_eq!(checksum.to_string(), oracle(&joined));
            prop_assert!(verify(&oracle(&joined), &checksum));
        }
    }

    #[test]
    fn registration_rules_match_the_oracle(
        (credentials, head) in credentials(),
        digits in "[0-9]{15}",
        bic in "[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?",
    ) {
        // Complete the number with its Luhn digit: the one of ten that is accepted.
        let number = (0..10)
            .find_map(|d| CardNumber::new(&format!("{digits}{d}")).ok())
            .unwrap();
        let card = rules::card_registration(&credentials, &number).compute();
        prop_assert_eq!(card.to_string(), oracle(&format!("{head}|{}", number.expose_digits())));
        let bic = Bic::new(&bic).unwrap();
        let account = rules::bank_account_registration(&credentials, &bic).compute();
        prop_assert_eq!(account.to_string(), oracle(&format!("{head}|{bic}")));
    }

    #[test]
    fn customer_signup_matches_the_oracle_for_any_unicode_names(
        (credentials, head) in credentials(),
        given in "[^|]{1,20}",
        surname in "[^|]{1,20}",
        local in "[a-zA-Z0-9.+_-]{1,20}",
    ) {
        let email = Email::new(&format!("{local}@example.com")).unwrap();
        let input = rules::customer_signup(&credentials, &given, &surname, &email).unwrap();
        let joined = format!("{head}|{given}|{surname}|{email}");
        prop_assert_eq!(input.compute().to_string(), oracle(&joined));
    }

    #[test]
    fn a_separator_in_a_name_is_refused(
        (credentials, _) in credentials(),
        before in "[^|]{0,8}",
        after in "[^|]{0,8}",
    ) {
        let email = Email::new("a@example.com").unwrap();
        let name = format!("{before}|{after}");
        prop_assert_eq!(
            rules::customer_signup(&credentials, &name, "Doe", &email).map(|_| ()),
            Err(Error::Separator { field: "customer.givenName" })
        );
        prop_assert_eq!(
            rules::customer_signup(&credentials, "Jo", &name, &email).map(|_| ()),
            Err(Error::Separator { field: "customer.surname" })
        );
    }

    #[test]
    fn hex_round_trips_and_verify_refuses_any_other_text(bytes in any::<[u8; 16]>(), other in "[0-9a-f]{32}") {
        let checksum = Checksum::from_bytes(bytes);
        let hex = checksum.to_string();
        prop_assert_eq!(Checksum::from_hex(&hex), Ok(checksum));
        prop_assert_eq!(verify(&other, &checksum), other == hex);
    }
}

#[test]
fn keys_and_emails_with_the_separator_are_refused() {
    assert_eq!(
        SecureKey::new("a|b"),
        Err(Error::Separator { field: "secureKey" })
    );
    assert_eq!(SecureKey::new(""), Err(Error::EmptyKey));
    let credentials =
        Credentials::merchant(MemberId::new("1").unwrap(), SecureKey::new("k").unwrap());
    let email = Email::new("a|b@example.com").unwrap();
    assert_eq!(
        rules::customer_signup(&credentials, "Jo", "Doe", &email).map(|_| ()),
        Err(Error::Separator {
            field: "customer.email"
        })
    );
}

#[test]
fn secure_key_debug_is_redacted() {
    let key = SecureKey::new("super-secret-key-123").unwrap();
    assert_eq!(format!("{key:?}"), "SecureKey(***)");
    let credentials = Credentials::merchant(MemberId::new("11344").unwrap(), key);
    assert!(!format!("{credentials:?}").contains("super-secret"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_notification_rule_matches_the_oracle(
        payment in "[A-Za-z0-9]{1,32}",
        order in "[^|]{1,40}",
        amount in "[0-9]{1,6}(\\.[0-9]{2})?",
        status in "Y|N|P|3D|C",
        key in "[^|]{1,40}",
    ) {
        let secure_key = SecureKey::new(key.clone()).unwrap();
        let checksum = rules::notification(&secure_key, &payment, &order, &amount, &status).unwrap();
        prop_assert_eq!(checksum.to_string(), oracle(&format!("{payment}|{order}|{amount}|{status}|{key}")));
    }
}
