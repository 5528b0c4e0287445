//! Property tests: no parser panics on any bytes or any JSON; a built request's body
//! decodes, through `serde_urlencoded` (the independent oracle), to exactly the fields given.

use crate::common;

use paytoken_protocol::ops::auth_token::FetchAuthToken;
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;
use paytoken_protocol::ops::customer_signup::CustomerSignup;
use paytoken_protocol::ops::delete_token::DeleteToken;
use paytoken_protocol::ops::inquiry::Inquiry;
use paytoken_protocol::ops::installments::Installments;
use paytoken_protocol::ops::invoice_list::InvoiceList;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::ops::registration::Registration;
use paytoken_protocol::{InvoicePager, Operation};
use paytoken_types::{Amount, Customer, Email, Shipping};
use proptest::prelude::*;
use serde_json::{Map, Value};

/// Every parser, on one answer. None may panic; the results do not matter here.
fn parse_with_every_operation(status: u16, body: &[u8]) {
    let registration = || common::REGISTRATION.parse().unwrap();
    let _ = common::full_payment().parse(status, body);
    let _ = common::token_payment()
        .merchant_transaction_id("order 7".parse().unwrap())
        .parse(status, body);
    let _ = Inquiry::ByPaymentId("54279".parse().unwrap()).parse(status, body);
    let _ = Inquiry::ByMerchantTransactionId("order 7".parse().unwrap()).parse(status, body);
    let _ = Registration::card(common::card()).parse(status, body);
    let _ = DeleteToken::new(registration()).parse(status, body);
    let _ = Installments::new(registration()).parse(status, body);
    let _ = CardsAndAccounts::all().parse(status, body);
    let _ = CardsAndAccounts::of_customer("1250".parse().unwrap()).parse(status, body);
    let _ = InvoiceList::new(1, 10).parse(status, body);
    let _ = CustomerSignup::new(common::customer()).parse(status, body);
    let _ = FetchAuthToken::new(
        "100".parse().unwrap(),
        paytoken_protocol::Username::new("shop").unwrap(),
    )
    .parse(status, body);
    let _ = InvoicePager::new(3).unwrap().parse(status, body);
}

/// Keys the parsers look for, so that arbitrary JSON reaches deep into them.
const KEYS: &[&str] = &[
    "paymentId",
    "registrationId",
    "result",
    "code",
    "description",
    "transactionStatus",
    "redirect",
    "parameters",
    "name",
    "value",
    "url",
    "card",
    "bin",
    "last4Digits",
    "lastFourDigits",
    "amount",
    "currency",
    "timestamp",
    "installment",
    "cards",
    "bankaccounts",
    "bankaccount",
    "invoiceList",
    "statusInvoiceResult",
    "customerDetails",
    "invoiceDetails",
    "createdDate",
    "orderId",
    "0",
    " 1",
    "memberId",
    "partnerId",
    "customerId",
    "AuthToken",
    "expiryMonth",
    "expiryYear",
    "registrationStatus",
    "iban",
];

fn json() -> impl Strategy<Value = Value> {
    let text = prop_oneof![
        Just(String::new()),
        Just("-".to_owned()),
        Just("00001".to_owned()),
        Just("30001 | 30002".to_owned()),
        Just("50.00".to_owned()),
        Just("2026-11-22 10:15:00".to_owned()),
        Just("3,4".to_owned()),
        Just("Y".to_owned()),
        Just("3D".to_owned()),
        "\\PC{0,12}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        text.prop_map(Value::String),
    ];
    let key = prop_oneof![
        3 => proptest::sample::select(KEYS).prop_map(str::to_owned),
        1 => "\\PC{0,6}",
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((key.clone(), inner), 0..8)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn no_parser_panics_on_arbitrary_bytes(
        status in prop_oneof![Just(200u16), any::<u16>()],
        body in proptest::collection::vec(any::<u8>(), 0..512),
    ) {
        parse_with_every_operation(status, &body);
    }

    #[test]
    fn no_parser_panics_on_arbitrary_json(value in json()) {
        parse_with_every_operation(200, value.to_string().as_bytes());
        // And the same wrapped as a whole answer's field, so the top level is an object.
        for key in ["invoiceList", "result", "cards", "redirect"] {
            let wrapped = serde_json::json!({ key: value.clone(), "paymentId": "1" });
            parse_with_every_operation(200, wrapped.to_string().as_bytes());
        }
    }

    #[test]
    fn a_payment_body_decodes_to_exactly_the_fields_given(
        given in "\\PC{1,20}",
        surname in "\\PC{1,20}",
        city in "\\PC{1,20}",
        descriptor in "\\PC{1,40}",
        minor in 1u64..10_000_000_000,
        transaction in "[A-Za-z0-9]{1,32}",
        store in any::<bool>(),
    ) {
        // Free text must not be blank or hold control characters: skip what the builder
        // would rightly refuse.
        let fine = |t: &str| !t.trim().is_empty() && !t.chars().any(char::is_control);
        prop_assume!(fine(&given) && fine(&surname) && fine(&city) && fine(&descriptor));
        let amount = Amount::from_minor_units(minor);
        let mut payment = Payment::new(
            transaction.parse().unwrap(),
            amount,
            "EUR".parse().unwrap(),
            common::card(),
        )
        .customer(Customer {
            given_name: Some(given.clone()),
            surname: Some(surname.clone()),
            email: Some(Email::new("a@example.com").unwrap()),
            ..Customer::default()
        })
        .shipping(Shipping { city: Some(city.clone()), ..Shipping::default() })
        .order_descriptor(descriptor.clone());
        payment.create_registration = store;
        let request = payment.request(&common::merchant()).unwrap();
        let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(request.body()).unwrap();
        let checksum = pairs[2].1.clone();
        let mut expected: Vec<(&str, String)> = vec![
            ("authentication.memberId", "11344".into()),
            ("authentication.accountId", "5521".into()),
            ("authentication.checksum", checksum.clone()),
            ("authentication.terminalId", "2541".into()),
            ("merchantTransactionId", transaction.clone()),
            ("amount", amount.to_string()),
            ("currency", "EUR".into()),
            ("shipping.city", city),
            ("customer.givenName", given),
            ("customer.surname", surname),
            ("customer.email", "a@example.com".into()),
            ("card.number", "4000000000000051".into()),
            ("card.expiryMonth", "06".into()),
            ("card.expiryYear", "2030".into()),
            ("card.cvv", "745".into()),
            ("card.holder", "Zoë O'Neil".into()),
            ("paymentBrand", "VISA".into()),
            ("paymentMode", "CC".into()),
            ("paymentType", "DB".into()),
        ];
        if store {
            expected.push(("createRegistration", "true".into()));
        }
        expected.push(("orderDescriptor", descriptor));
        let expected: Vec<(String, String)> =
            expected.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        prop_assert_eq!(pairs, expected);
        // The checksum signs the very amount text that was sent.
        let joined = format!("11344|{}|{transaction}|{amount}", common::SECURE_KEY);
        prop_assert_eq!(checksum, format!("{:x}", md5_oracle::compute(joined.as_bytes())));
    }

    #[test]
    fn a_signup_body_decodes_to_exactly_the_fields_given(
        given in "[^|\\p{C}]{1,20}",
        surname in "[^|\\p{C}]{1,20}",
        postcode in "[A-Za-z0-9 -]{1,10}",
    ) {
        prop_assume!(!given.trim().is_empty() && !surname.trim().is_empty() && !postcode.trim().is_empty());
        let signup = CustomerSignup::new(Customer {
            given_name: Some(given.clone()),
            surname: Some(surname.clone()),
            email: Some(Email::new("z@example.com").unwrap()),
            ..Customer::default()
        })
        .shipping(Shipping { postcode: Some(postcode.clone()), ..Shipping::default() });
        let request = signup.request(&common::partner()).unwrap();
        let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(request.body()).unwrap();
        let names: Vec<&str> = pairs.iter().map(|(k, _)| k.as_str()).collect();
        prop_assert_eq!(names, [
            "authentication.partnerId", "authentication.checksum", "customer.givenName",
            "customer.surname", "customer.email", "shipping.postcode",
        ]);
        prop_assert_eq!(&pairs[2].1, &given);
        prop_assert_eq!(&pairs[3].1, &surname);
        prop_assert_eq!(&pairs[5].1, &postcode);
    }
}

/// The checksum a request carries in its form.
fn checksum_sent(request: &paytoken_protocol::Request) -> String {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(request.body()).unwrap();
    pairs
        .into_iter()
        .find(|(name, _)| name == "authentication.checksum")
        .map(|(_, value)| value)
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Each operation signs the values it sends with the rule the checksum crate states
    /// (the table of `paytoken_checksum::rules`, itself checked against an independent MD5).
    #[test]
    fn every_request_is_signed_by_its_rule(
        transaction in "[A-Za-z0-9 /:._-]{1,40}",
        minor in 1u64..10_000_000_000,
        registration in "[a-z0-9]{32}",
        given in "[A-Za-z][A-Za-z ']{0,20}",
        surname in "[A-Za-z][A-Za-z' -]{0,20}",
    ) {
        use paytoken_checksum::rules;
        use paytoken_protocol::ops::token_payment::TokenPayment;
        prop_assume!(!transaction.trim().is_empty());
        let context = common::merchant();
        let credentials = &context.credentials;
        let mti: paytoken_types::MerchantTransactionId = transaction.parse().unwrap();
        let amount = Amount::from_minor_units(minor);
        let id: paytoken_types::RegistrationId = registration.parse().unwrap();
        let card = common::card();
        let signed = |request: paytoken_protocol::Request| checksum_sent(&request);
        let hex = |input: rules::ChecksumInput<'_>| input.compute().to_hex().as_str().to_owned();

        let payment = Payment::new(mti.clone(), amount, "EUR".parse().unwrap(), card.clone());
        prop_assert_eq!(signed(payment.request(&context).unwrap()), hex(rules::payment(credentials, &mti, amount)));
        let token = TokenPayment::new(id, amount, "EUR".parse().unwrap());
        prop_assert_eq!(signed(token.request(&context).unwrap()), hex(rules::token_payment(credentials, &id, amount)));
        prop_assert_eq!(signed(DeleteToken::new(id).request(&context).unwrap()), hex(rules::delete_token(credentials, &id)));
        prop_assert_eq!(signed(Installments::new(id).request(&context).unwrap()), hex(rules::installments(credentials, &id)));
        let by_mti = Inquiry::ByMerchantTransactionId(mti.clone());
        prop_assert_eq!(signed(by_mti.request(&context).unwrap()), hex(rules::inquiry_by_merchant_transaction_id(credentials, &mti)));
        prop_assert_eq!(signed(Registration::card(card.clone()).request(&context).unwrap()), hex(rules::card_registration(credentials, &card.number)));
        prop_assert_eq!(signed(CardsAndAccounts::all().request(&context).unwrap()), hex(rules::cards_and_accounts(credentials)));
        prop_assert_eq!(signed(InvoiceList::new(1, 10).request(&context).unwrap()), hex(rules::invoice_list(credentials)));
        let email = Email::new("a@example.com").unwrap();
        let signup = CustomerSignup::new(Customer {
            given_name: Some(given.clone()),
            surname: Some(surname.clone()),
            email: Some(email.clone()),
            ..Customer::default()
        });
        prop_assert_eq!(
            signed(signup.request(&context).unwrap()),
            hex(rules::customer_signup(credentials, &given, &surname, &email).unwrap())
        );
    }

    #[test]
    fn every_back_office_move_signs_what_its_rule_names(
        payment in "[A-Za-z0-9]{1,32}",
        minor in 1u64..10_000_000_000,
    ) {
        use paytoken_checksum::rules;
        use paytoken_protocol::ops::{cancel::Cancel, capture::Capture, refund::Refund, repeat_payment::RepeatPayment};
        let context = common::merchant();
        let credentials = &context.credentials;
        let id: paytoken_types::PaymentId = payment.parse().unwrap();
        let amount = Amount::from_minor_units(minor);
        let eur: paytoken_types::Currency = "EUR".parse().unwrap();
        let signed = |request: paytoken_protocol::Request| checksum_sent(&request);
        let hex = |input: rules::ChecksumInput<'_>| input.compute().to_hex().as_str().to_owned();
        prop_assert_eq!(signed(Capture::new(id, amount, eur).request(&context).unwrap()), hex(rules::capture(credentials, &id, amount)));
        prop_assert_eq!(signed(Refund::new(id, amount, eur).request(&context).unwrap()), hex(rules::refund(credentials, &id, amount)));
        prop_assert_eq!(signed(Cancel::new(id).request(&context).unwrap()), hex(rules::cancel(credentials, &id)));
        prop_assert_eq!(signed(RepeatPayment::new(id, amount, eur).request(&context).unwrap()), hex(rules::repeat_payment(credentials, &id, amount)));
    }
}

#[test]
fn bank_accounts_and_payment_ids_are_signed_by_their_rules() {
    use paytoken_checksum::rules;
    let context = common::merchant();
    let credentials = &context.credentials;
    let payment_id: paytoken_types::PaymentId = "8ac7a4a28d3f1e2b018d3f7c5e0a1234".parse().unwrap();
    let inquiry = Inquiry::ByPaymentId(payment_id).request(&context).unwrap();
    assert_eq!(
        checksum_sent(&inquiry),
        rules::inquiry_by_payment_id(credentials, &payment_id)
            .compute()
            .to_hex()
            .as_str()
    );
    let account = paytoken_types::BankAccount {
        iban: "DE89370400440532013000".parse().unwrap(),
        bic: "COBADEFFXXX".parse().unwrap(),
        holder: None,
    };
    let request = Registration::bank_account(account.clone())
        .request(&context)
        .unwrap();
    assert_eq!(
        checksum_sent(&request),
        rules::bank_account_registration(credentials, &account.bic)
            .compute()
            .to_hex()
            .as_str()
    );
}

#[test]
fn a_separator_in_a_signed_name_is_refused_before_anything_is_built() {
    let signup = CustomerSignup::new(Customer {
        given_name: Some("Ann|e".into()),
        surname: Some("Smith".into()),
        email: Some(Email::new("a@example.com").unwrap()),
        ..Customer::default()
    });
    let error = signup.request(&common::merchant()).unwrap_err();
    assert_eq!(error.field(), Some("customer.givenName"), "{error}");
}
