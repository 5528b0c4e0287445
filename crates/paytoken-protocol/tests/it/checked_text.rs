//! Every free-text field and URL a request writes is checked as it is written: a bad value
//! in any of them refuses the request, naming the field, whichever block it is in and
//! wherever in the form it stands (the billing block comes after the card).

use paytoken_protocol::ops::customer_signup::CustomerSignup;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::ops::registration::Registration;
use paytoken_protocol::{Error, Operation};
use paytoken_types::{BankAccount, Billing, Customer, Shipping};

use crate::common;

/// A payment's builder method for one of its texts.
type SetText = fn(Payment, String) -> Payment;

/// A control character: refused in free text and in URLs alike.
const BAD: &str = "Zo\u{7}ë";

/// Sets one text field of a payment's blocks, by its wire name.
fn set_in_blocks(
    field: &str,
    customer: &mut Customer,
    shipping: &mut Shipping,
    billing: &mut Billing,
    holder: &mut Option<String>,
) {
    let slot = match field {
        "customer.givenName" => &mut customer.given_name,
        "customer.surname" => &mut customer.surname,
        "shipping.city" => &mut shipping.city,
        "shipping.state" => &mut shipping.state,
        "shipping.postcode" => &mut shipping.postcode,
        "shipping.street1" => &mut shipping.street1,
        "shipping.givenName" => &mut shipping.given_name,
        "shipping.surname" => &mut shipping.surname,
        "billing.city" => &mut billing.city,
        "billing.state" => &mut billing.state,
        "billing.postcode" => &mut billing.postcode,
        "billing.street" => &mut billing.street,
        "card.holder" | "bankAccount.holder" => holder,
        other => panic!("no such field in this test: {other}"),
    };
    *slot = Some(BAD.to_owned());
}

const BLOCK_FIELDS: [&str; 13] = [
    "customer.givenName",
    "customer.surname",
    "shipping.city",
    "shipping.state",
    "shipping.postcode",
    "shipping.street1",
    "shipping.givenName",
    "shipping.surname",
    "billing.city",
    "billing.state",
    "billing.postcode",
    "billing.street",
    "card.holder",
];

fn assert_refused(result: Result<paytoken_protocol::Request, Error>, field: &str) {
    let error = result.expect_err(field);
    assert!(error.is_invalid_input(), "{field}: {error}");
    assert_eq!(error.field(), Some(field), "{error}");
}

#[test]
fn every_free_text_field_of_a_payment_is_checked_as_it_is_written() {
    let context = common::merchant();
    assert!(common::full_payment().request(&context).is_ok());
    for field in BLOCK_FIELDS {
        let mut payment: Payment = common::full_payment();
        let (mut customer, mut shipping, mut billing) = (
            payment.customer.take().unwrap_or_default(),
            payment.shipping.take().unwrap_or_default(),
            payment.billing.take().unwrap_or_default(),
        );
        set_in_blocks(
            field,
            &mut customer,
            &mut shipping,
            &mut billing,
            &mut payment.card.holder,
        );
        let payment = payment
            .customer(customer)
            .shipping(shipping)
            .billing(billing);
        assert_refused(payment.request(&context), field);
    }
    let setters: [(&str, SetText); 3] = [
        ("orderDescriptor", Payment::order_descriptor),
        ("merchantRedirectUrl", Payment::merchant_redirect_url),
        ("notificationUrl", Payment::notification_url),
    ];
    for (field, set) in setters {
        let payment = set(common::full_payment(), BAD.to_owned());
        assert_refused(payment.request(&context), field);
        let blank = set(common::full_payment(), " ".to_owned());
        assert_refused(blank.request(&context), field);
    }
    let long = common::full_payment().order_descriptor("é".repeat(256));
    assert_refused(long.request(&context), "orderDescriptor");
    let relative = common::full_payment().notification_url("/hooks/payment".to_owned());
    assert_refused(relative.request(&context), "notificationUrl");
}

#[test]
fn registrations_sign_ups_and_token_payments_check_their_text_too() {
    let context = common::merchant();
    for field in BLOCK_FIELDS {
        let (mut customer, mut shipping, mut billing, mut holder) = (
            common::customer(),
            common::shipping(),
            Billing::default(),
            common::card().holder,
        );
        set_in_blocks(
            field,
            &mut customer,
            &mut shipping,
            &mut billing,
            &mut holder,
        );
        let card = paytoken_types::Card {
            holder,
            ..common::card()
        };
        let registration = Registration::card(card)
            .customer(customer.clone())
            .shipping(shipping.clone())
            .billing(billing);
        assert_refused(registration.request(&context), field);
        if field.starts_with("customer.") || field.starts_with("shipping.") {
            let signup = CustomerSignup::new(customer).shipping(shipping);
            assert_refused(signup.request(&context), field);
        }
    }
    let account = BankAccount {
        iban: "DE89 3704 0044 0532 0130 00".parse().unwrap(),
        bic: "DEUTDEFF".parse().unwrap(),
        holder: Some(BAD.to_owned()),
    };
    assert_refused(
        Registration::bank_account(account).request(&context),
        "bankAccount.holder",
    );
    let mut token_payment = common::token_payment();
    token_payment.merchant_redirect_url = Some("shop.example/return".to_owned());
    assert_refused(token_payment.request(&context), "merchantRedirectUrl");
}
