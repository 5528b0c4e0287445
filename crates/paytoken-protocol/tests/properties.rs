//! Property tests: no parser panics on any bytes or any JSON; a built request's body
//! decodes, through `serde_urlencoded` (the independent oracle), to exactly the fields given.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::std_instead_of_core,
    clippy::std_instead_of_alloc
)]

mod common;

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
