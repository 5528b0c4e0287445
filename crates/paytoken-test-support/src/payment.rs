//! The protocol's sample contexts and the full payment, shared by the protocol's tests and
//! the benchmarks of the protocol and the client.

use std::net::{IpAddr, Ipv4Addr};

use paytoken_checksum::{Credentials, SecureKey};
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::{AuthToken, Context};
use paytoken_types::{
    Billing, Card, CardNumber, Customer, Cvv, Email, Phone, RecurringType, Sex, Shipping,
    TelephoneCountryCode,
};

/// The sample merchant's secure key.
pub const SECURE_KEY: &str = "l6N2Yd7x0Qy9GSMHmOcW3aBq5tRz8Kpj";
/// The sample partner's secure key.
pub const PARTNER_KEY: &str = "Pk7pX2mVq9Lr4Tn8Ws1Yz6Ab3Cd5Ef0G";
/// The sample auth token.
pub const TOKEN: &str = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzaG9wIn0.c2lnbmF0dXJl";
/// A sample registration id.
pub const REGISTRATION: &str = "8a82944a4cc25ebf014cc2c782423202";

/// Merchant 11344 with account 5521, terminal 2541 and an auth token.
pub fn merchant() -> Context {
    Context {
        account_id: Some("5521".parse().unwrap()),
        terminal_id: Some("2541".parse().unwrap()),
        auth_token: Some(AuthToken::new(TOKEN).unwrap()),
        ..Context::new(Credentials::merchant(
            "11344".parse().unwrap(),
            SecureKey::new(SECURE_KEY).unwrap(),
        ))
    }
}

/// Partner 100 with an auth token.
pub fn partner() -> Context {
    Context {
        auth_token: Some(AuthToken::new(TOKEN).unwrap()),
        ..Context::new(Credentials::partner(
            "100".parse().unwrap(),
            SecureKey::new(PARTNER_KEY).unwrap(),
        ))
    }
}

/// A VISA test card whose holder's name needs escaping.
pub fn card() -> Card {
    Card {
        number: CardNumber::new(" 4000000000000051").unwrap(),
        expiry_month: "06".parse().unwrap(),
        expiry_year: "2030".parse().unwrap(),
        cvv: Cvv::new("745").unwrap(),
        holder: Some("Zoë O'Neil".into()),
    }
}

/// A customer with every field.
pub fn customer() -> Customer {
    Customer {
        given_name: Some("Zoë".into()),
        surname: Some("O'Neil".into()),
        sex: Some(Sex::Female),
        email: Some(Email::new("zoe.oneil@example.com").unwrap()),
        phone: Some(Phone::new("9876543210").unwrap()),
        telnocc: Some(TelephoneCountryCode::new("+49").unwrap()),
        birth_date: Some("19840229".parse().unwrap()),
        ip: Some(IpAddr::V4(Ipv4Addr::new(192, 0, 2, 17))),
        customer_id: Some("1250".parse().unwrap()),
    }
}

/// A shipping address with every field but the names.
pub fn shipping() -> Shipping {
    Shipping {
        country: Some("DE".parse().unwrap()),
        city: Some("München".into()),
        state: Some("BY".into()),
        postcode: Some("80331".into()),
        street1: Some("Marienplatz 1".into()),
        language: Some("de".parse().unwrap()),
        given_name: None,
        surname: None,
    }
}

/// The full payment of the golden request (every optional block and field): the one the
/// benchmarks build.
pub fn full_payment() -> Payment {
    Payment::new(
        "order20261122A".parse().unwrap(),
        "1250.50".parse().unwrap(),
        "EUR".parse().unwrap(),
        card(),
    )
    .customer(customer())
    .shipping(shipping())
    .billing(Billing {
        country: Some("DE".parse().unwrap()),
        street: Some("Marienplatz 1".into()),
        ..Billing::default()
    })
    .store_card()
    .recurring(RecurringType::Initial)
    .order_descriptor("Order #1001: 2× coffee & cake")
    .merchant_redirect_url("https://shop.example/return?order=1001&lang=de")
    .notification_url("https://shop.example/hooks/payment")
    .template("1250.50".parse().unwrap(), "EUR".parse().unwrap())
}
