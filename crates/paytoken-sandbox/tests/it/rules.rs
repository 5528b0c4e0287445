//! Every refusal rule: checksums, auth tokens, isolation between merchants, the token life
//! cycle, duplicate orders and field validation. Requests the protocol crate would refuse
//! to build are written by hand here and signed with the `md5` crate.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::*;
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;
use paytoken_protocol::ops::customer_signup::CustomerSignup;
use paytoken_protocol::ops::delete_token::DeleteToken;
use paytoken_protocol::ops::inquiry::Inquiry;
use paytoken_protocol::ops::installments::Installments;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::ops::registration::Registration;
use paytoken_protocol::ops::token_payment::TokenPayment;
use paytoken_protocol::{Context, Operation};
use paytoken_sandbox::{ManualClock, Sandbox, cards};
use paytoken_types::{Customer, Email, RecurringType, RegistrationId};
use serde_json::Value;

const PAYMENTS: &str = "/transactionServices/REST/v1/payments";
const SECURE_KEY: &str = paytoken_sandbox::DEFAULT_MERCHANT_SECURE_KEY;

/// The code of a refusal read raw, checking that nothing was created.
fn refused(raw: &Raw) -> (String, String) {
    let answer = raw.json();
    if let Some(id) = answer.get("paymentId") {
        assert_eq!(id, "-", "{answer}");
    }
    let code = answer["result"]["code"].as_str().unwrap().to_owned();
    let description = answer["result"]["description"].as_str().unwrap().to_owned();
    (code, description)
}

async fn refused_code<O: Operation>(sandbox: &Sandbox, context: &Context, operation: &O) -> String {
    refused(&send(sandbox, &operation.request(context).unwrap()).await).0
}

fn pay(number: &str) -> Payment {
    Payment::new(
        order_id().parse().unwrap(),
        "10.00".parse().unwrap(),
        "EUR".parse().unwrap(),
        card(number),
    )
}

/// A payment's fields written by hand, signed over `merchantTransactionId|amount` as sent.
fn payment_fields<'a>(
    order: &'a str,
    amount: &'a str,
    checksum: &'a str,
) -> Vec<(&'a str, &'a str)> {
    vec![
        ("authentication.memberId", "11344"),
        ("authentication.checksum", checksum),
        ("merchantTransactionId", order),
        ("amount", amount),
        ("currency", "EUR"),
        ("paymentBrand", "VISA"),
        ("paymentMode", "CC"),
        ("paymentType", "DB"),
        ("card.number", cards::APPROVED),
        ("card.expiryMonth", "12"),
        ("card.expiryYear", "2099"),
        ("card.cvv", "123"),
    ]
}

/// A hand-built payment with `edits` applied (`None` removes the field), signed over the
/// order and the amount as sent.
async fn hand_payment(
    sandbox: &Sandbox,
    token: &str,
    edits: &[(&str, Option<&str>)],
) -> (String, String) {
    let order = order_id();
    let mut fields: Vec<(String, String)> = payment_fields(&order, "10.00", "")
        .into_iter()
        .map(|(name, value)| (name.to_owned(), value.to_owned()))
        .collect();
    for (name, value) in edits {
        fields.retain(|(field, _)| field != name);
        if let Some(value) = value {
            fields.push(((*name).to_owned(), (*value).to_owned()));
        }
    }
    let amount = fields
        .iter()
        .find(|(name, _)| name == "amount")
        .map_or(String::new(), |(_, v)| v.clone());
    let checksum = sign(&["11344", SECURE_KEY, &order, &amount]);
    for field in &mut fields {
        if field.0 == "authentication.checksum" {
            field.1.clone_from(&checksum);
        }
    }
    let borrowed: Vec<(&str, &str)> = fields
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    refused(&post(sandbox, PAYMENTS, Some(token), &borrowed).await)
}

#[tokio::test]
async fn a_wrong_or_missing_checksum_is_refused_before_anything_happens() {
    let sandbox = sandbox().await;
    let token = merchant_token(&sandbox, merchant(&sandbox)).await;
    let order = order_id();
    let wrong = sign(&["11344", "not-the-key", &order, "10.00"]);
    let raw = post(
        &sandbox,
        PAYMENTS,
        Some(token.expose_secret()),
        &payment_fields(&order, "10.00", &wrong),
    )
    .await;
    assert_eq!(refused(&raw), ("20010".into(), "Checksum mismatch".into()));

    let mut fields = payment_fields(&order, "10.00", "");
    fields.retain(|(name, _)| *name != "authentication.checksum");
    let raw = post(&sandbox, PAYMENTS, Some(token.expose_secret()), &fields).await;
    assert_eq!(refused(&raw).1, "Missing field: authentication.checksum");

    // The right checksum over the same fields is accepted: the refusal was the checksum's.
    let right = sign(&["11344", SECURE_KEY, &order, "10.00"]);
    let raw = post(
        &sandbox,
        PAYMENTS,
        Some(token.expose_secret()),
        &payment_fields(&order, "10.00", &right),
    )
    .await;
    assert_eq!(raw.json()["result"]["code"], "00001");
}

#[tokio::test]
async fn auth_tokens_missing_unknown_expired_or_of_another_member_are_refused() {
    let clock = Arc::new(ManualClock::at_unix_seconds(1_795_000_000));
    let sandbox = builder().clock(clock.clone()).start().await.unwrap();
    let list = CardsAndAccounts::all();
    let merchant = merchant(&sandbox);

    assert_eq!(
        refused_code(&sandbox, &merchant.context(), &list).await,
        "20003"
    );
    let forged = Context {
        auth_token: Some(paytoken_protocol::AuthToken::new("eyJ.forged.token").unwrap()),
        ..merchant.context()
    };
    assert_eq!(refused_code(&sandbox, &forged, &list).await, "20002");

    let theirs = merchant_token(&sandbox, other_merchant(&sandbox)).await;
    let mixed = Context {
        auth_token: Some(theirs),
        ..merchant.context()
    };
    assert_eq!(refused_code(&sandbox, &mixed, &list).await, "20004");

    let context = signed_in(&sandbox, merchant).await;
    clock.advance(Duration::from_secs(3599));
    send(&sandbox, &list.request(&context).unwrap())
        .await
        .json();
    assert_eq!(
        call(&sandbox, &context, &list)
            .await
            .unwrap()
            .result
            .code
            .as_str(),
        "30025",
        "valid until the hour is up: the (empty) list, in the gateway's no-registrations answer"
    );
    clock.advance(Duration::from_secs(1));
    assert_eq!(refused_code(&sandbox, &context, &list).await, "20002");
}

#[tokio::test]
async fn unknown_members_and_wrong_keys_cannot_sign_in() {
    let sandbox = sandbox().await;
    let path = "/transactionServices/REST/v1/authToken";
    for (partner, user, key) in [
        ("100", "shop.admin", "wrong-key"),
        ("100", "nobody", SECURE_KEY),
        ("999", "shop.admin", SECURE_KEY),
        // The other merchant's user name with this merchant's key.
        ("100", "other.admin", SECURE_KEY),
    ] {
        let fields = [
            ("authentication.partnerId", partner),
            ("merchant.username", user),
            ("authentication.sKey", key),
        ];
        let (code, description) = refused(&post(&sandbox, path, None, &fields).await);
        assert_eq!(
            (code.as_str(), description.as_str()),
            ("20001", "Invalid login credentials")
        );
    }
    let unknown_member = [
        ("authentication.memberId", "99999"),
        ("authentication.checksum", "x"),
    ];
    let raw = post(
        &sandbox,
        "/transactionServices/REST/v1/getCardsAndAccounts",
        Some("t"),
        &unknown_member,
    )
    .await;
    assert_eq!(refused(&raw).0, "20001");
}

#[tokio::test]
async fn a_merchant_cannot_see_or_use_another_merchants_data() {
    let sandbox = sandbox().await;
    let mine = signed_in(&sandbox, merchant(&sandbox)).await;
    let theirs = signed_in(&sandbox, other_merchant(&sandbox)).await;
    let customer = Customer {
        given_name: Some("Ann".into()),
        surname: Some("Example".into()),
        email: Some(Email::new("ann@example.com").unwrap()),
        ..Customer::default()
    };
    let customer_id = call(&sandbox, &mine, &CustomerSignup::new(customer))
        .await
        .unwrap()
        .customer_id;
    let token = call(
        &sandbox,
        &mine,
        &Registration::card(card(cards::INSTALLMENTS)),
    )
    .await
    .unwrap()
    .registration_id;
    let paid = call(&sandbox, &mine, &pay(cards::APPROVED)).await.unwrap();

    let amount = "5.00".parse().unwrap();
    let use_it = TokenPayment::new(token, amount, "EUR".parse().unwrap());
    assert_eq!(refused_code(&sandbox, &theirs, &use_it).await, "90010");
    assert_eq!(
        refused_code(&sandbox, &theirs, &Installments::new(token)).await,
        "90010"
    );
    assert_eq!(
        refused_code(&sandbox, &theirs, &DeleteToken::new(token)).await,
        "90010"
    );
    assert_eq!(
        refused_code(
            &sandbox,
            &theirs,
            &CardsAndAccounts::of_customer(customer_id)
        )
        .await,
        "30011"
    );
    let inquiry = Inquiry::ByPaymentId(paid.payment_id);
    assert_eq!(refused_code(&sandbox, &theirs, &inquiry).await, "30040");
    let listed = call(&sandbox, &theirs, &CardsAndAccounts::all())
        .await
        .unwrap();
    assert!(listed.cards.is_empty(), "{listed:?}");

    // The partner sees its merchants' registrations, and the token still works for its owner.
    let partner = partner_signed_in(&sandbox).await;
    let all = call(&sandbox, &partner, &CardsAndAccounts::all())
        .await
        .unwrap();
    assert_eq!(all.cards.len(), 1);
    call(&sandbox, &mine, &use_it).await.unwrap();
}

#[tokio::test]
async fn a_deleted_token_is_inactive_for_good() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let token = call(
        &sandbox,
        &context,
        &pay(cards::INSTALLMENTS)
            .store_card()
            .recurring(RecurringType::Initial),
    )
    .await
    .unwrap()
    .registration_id
    .unwrap()
    .into_value()
    .unwrap();
    let repeated = TokenPayment::new(token, "5.00".parse().unwrap(), "EUR".parse().unwrap())
        .recurring(RecurringType::Repeated);
    call(&sandbox, &context, &repeated).await.unwrap();
    call(&sandbox, &context, &DeleteToken::new(token))
        .await
        .unwrap();

    assert_eq!(refused_code(&sandbox, &context, &repeated).await, "90011");
    assert_eq!(
        refused_code(&sandbox, &context, &Installments::new(token)).await,
        "90011"
    );
    assert_eq!(
        refused_code(&sandbox, &context, &DeleteToken::new(token)).await,
        "90011"
    );
    let listed = call(&sandbox, &context, &CardsAndAccounts::all())
        .await
        .unwrap();
    assert_eq!(
        listed.cards[0].registration_status.as_ref().unwrap().raw(),
        "N"
    );
}

#[tokio::test]
async fn recurring_and_installment_rules() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let register = |number| Registration::card(card(number));
    let token: RegistrationId = call(&sandbox, &context, &register(cards::INSTALLMENTS))
        .await
        .unwrap()
        .registration_id;
    let base = TokenPayment::new(token, "5.00".parse().unwrap(), "EUR".parse().unwrap());
    let repeated = base.clone().recurring(RecurringType::Repeated);
    assert_eq!(refused_code(&sandbox, &context, &repeated).await, "30012");
    assert_eq!(
        refused_code(&sandbox, &context, &base.clone().installment(6)).await,
        "30013"
    );
    call(&sandbox, &context, &base.clone().installment(3))
        .await
        .unwrap();

    let no_plan = call(&sandbox, &context, &register("4111111111111111"))
        .await
        .unwrap()
        .registration_id;
    let raw = send(
        &sandbox,
        &Installments::new(no_plan).request(&context).unwrap(),
    )
    .await;
    assert_eq!(
        refused(&raw),
        ("30050".into(), "No installment plan for this card".into())
    );
}

#[tokio::test]
async fn a_merchant_transaction_id_is_used_once_per_merchant() {
    let sandbox = sandbox().await;
    let mine = signed_in(&sandbox, merchant(&sandbox)).await;
    let theirs = signed_in(&sandbox, other_merchant(&sandbox)).await;
    let first = pay(cards::APPROVED);
    call(&sandbox, &mine, &first).await.unwrap();
    assert_eq!(refused_code(&sandbox, &mine, &first).await, "30006");
    // Even a declined payment used the id up.
    let declined = pay(cards::DECLINED);
    call(&sandbox, &mine, &declined).await.unwrap();
    assert_eq!(refused_code(&sandbox, &mine, &declined).await, "30006");
    // Another merchant's ids are its own.
    call(&sandbox, &theirs, &first).await.unwrap();
}

#[tokio::test]
async fn field_validation_joins_every_problem_found() {
    let sandbox = sandbox().await;
    let token = merchant_token(&sandbox, merchant(&sandbox)).await;
    let token = token.expose_secret();

    let (code, description) = hand_payment(
        &sandbox,
        token,
        &[
            ("amount", Some("50.0")),
            ("card.number", Some("4000000000000052")),
        ],
    )
    .await;
    assert_eq!(code, "30001 | 30002");
    assert_eq!(description, "Invalid amount | Invalid card number");

    let (code, description) = hand_payment(
        &sandbox,
        token,
        &[("currency", None), ("paymentBrand", None)],
    )
    .await;
    assert_eq!(code, "30007 | 30007");
    assert_eq!(
        description,
        "Missing field: currency | Missing field: paymentBrand"
    );

    for (field, value, expected) in [
        ("amount", "0.00", "30001"),
        ("amount", "-5.00", "30001"),
        ("card.expiryYear", "2020", "30003"),
        ("paymentType", "XX", "30004"),
        ("createRegistration", "yes", "30008"),
        ("recurringType", "REPEATED", "30008"),
    ] {
        let (code, _) = hand_payment(&sandbox, token, &[(field, Some(value))]).await;
        assert_eq!(code, expected, "{field}={value}");
    }
}

#[tokio::test]
async fn registration_ids_payment_types_query_strings_and_bodies_are_checked() {
    let sandbox = sandbox().await;
    let token = merchant_token(&sandbox, merchant(&sandbox)).await;
    let token = token.expose_secret();
    let prefix = "/transactionServices/REST/v1/paywithtoken/";
    let long = "a".repeat(33);
    for id in ["not-alphanumeric", long.as_str()] {
        let checksum = sign(&["11344", SECURE_KEY, id, "5.00"]);
        let fields = [
            ("authentication.memberId", "11344"),
            ("authentication.checksum", checksum.as_str()),
            ("amount", "5.00"),
            ("currency", "EUR"),
            ("paymentType", "DB"),
        ];
        let raw = post(&sandbox, &format!("{prefix}{id}"), Some(token), &fields).await;
        assert_eq!(
            refused(&raw),
            ("30005".into(), "Invalid registration id".into()),
            "{id}"
        );
    }
    let fields = [("authentication.memberId", "11344"), ("paymentType", "IN")];
    let raw = post(&sandbox, &format!("{prefix}abc"), Some(token), &fields).await;
    assert_eq!(refused(&raw).0, "30004");

    let raw = post(
        &sandbox,
        &format!("{PAYMENTS}?amount=1.00"),
        Some(token),
        &[],
    )
    .await;
    assert_eq!(
        refused(&raw),
        ("30009".into(), "Query string not accepted".into())
    );

    let twice = [
        ("authentication.memberId", "11344"),
        ("authentication.memberId", "11345"),
    ];
    let raw = post(&sandbox, PAYMENTS, Some(token), &twice).await;
    assert_eq!(refused(&raw).0, "30010");

    let not_found = exchange(sandbox.address(), "POST", "/nowhere", &[], b"")
        .await
        .unwrap();
    assert_eq!(not_found.status, 404);
    let wrong_method = exchange(sandbox.address(), "GET", PAYMENTS, &[], b"")
        .await
        .unwrap();
    assert_eq!(wrong_method.status, 405);
}

#[tokio::test]
async fn an_unknown_payment_is_not_found_by_inquiry() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let unknown = Inquiry::ByMerchantTransactionId("neverused".parse().unwrap());
    let raw = send(&sandbox, &unknown.request(&context).unwrap()).await;
    let answer: Value = raw.json();
    assert_eq!(answer["paymentId"], "-");
    assert_eq!(answer["result"]["code"], "30040");
    assert_eq!(
        answer["result"]["description"],
        "No record found for the given id"
    );
}
