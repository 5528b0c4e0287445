//! One name per operation, the client's half: each operation's one name
//! ([`OperationKind::name`]) is a method of the client, the `operation` of the span of its
//! call, and the start of its errors' text. The command's half (the subcommand and its
//! JSON) is `crates/paytoken-cli/tests/it/names.rs`.

use std::collections::BTreeSet;

use paytoken::OperationKind;
use paytoken::prelude::*;
use paytoken::protocol::Error as ProtocolError;
use paytoken_sandbox::{DEFAULT_MERCHANT_ID, Sandbox, cards};

use crate::common::{Capture as Traces, card, client_for, order_id};

#[test]
fn every_operation_s_method_and_error_text_say_its_one_name() {
    let api = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../api/paytoken-hyper.txt"
    ))
    .unwrap();
    for kind in OperationKind::ALL {
        let name = kind.name();
        assert!(
            api.contains(&format!("pub async fn {name}("))
                || api.contains(&format!("pub fn {name}(")),
            "the client has no method {name}"
        );
        let error = ProtocolError::UnexpectedStatus {
            operation: kind,
            status: 502,
            excerpt: String::new(),
        };
        assert!(
            error.to_string().starts_with(&format!("{name}: ")),
            "{error}"
        );
        assert_eq!(kind.to_string(), name);
    }
}

#[test]
fn every_operation_s_span_says_its_one_name() {
    let capture = Traces::default();
    capture.run(every_operation());
    let spans: BTreeSet<String> = capture
        .text()
        .lines()
        .filter(|line| line.starts_with("span paytoken.call "))
        .filter_map(|line| {
            let (_, rest) = line.split_once(" paytoken.operation=\"")?;
            Some(rest.split_once('"')?.0.to_owned())
        })
        .collect();
    let names: BTreeSet<String> = OperationKind::ALL.map(|kind| kind.name().to_owned()).into();
    assert_eq!(spans, names);
}

/// Calls every operation once, through the client, against a sandbox.
async fn every_operation() {
    let sandbox = Sandbox::start().await.unwrap();
    let client = client_for(&sandbox).build().unwrap();
    let config = sandbox.config();
    let partner = config.partners[0].partner_id;
    let username = config
        .merchant(DEFAULT_MERCHANT_ID)
        .unwrap()
        .username
        .clone();
    let eur = || Currency::EUR;
    let amount = |text: &str| text.parse::<Amount>().unwrap();

    let grant = client
        .fetch_auth_token(&FetchAuthToken::new(partner, username))
        .await
        .unwrap();
    client
        .regenerate_auth_token(&RegenerateAuthToken::new(partner, grant.token))
        .await
        .unwrap();
    let customer = Customer {
        given_name: Some("Ada".into()),
        surname: Some("Lovelace".into()),
        email: Some(Email::new("ada@example.com").unwrap()),
        ..Customer::default()
    };
    client
        .customer_signup(&CustomerSignup::new(customer))
        .await
        .unwrap();
    let opening = Payment::new(order_id(), amount("12.00"), eur(), card(cards::APPROVED))
        .store_card()
        .recurring(RecurringType::Initial);
    let opened = client.pay(&opening).await.unwrap();
    let token = *opened.registration_id.value().unwrap();
    let registered = client
        .register(&Registration::card(card(cards::INSTALLMENTS)))
        .await
        .unwrap();
    client
        .pay_with_token(&TokenPayment::new(token, amount("1.00"), eur()))
        .await
        .unwrap();
    client
        .installments(&Installments::new(registered.registration_id))
        .await
        .unwrap();
    client
        .cards_and_accounts(&CardsAndAccounts::all())
        .await
        .unwrap();
    client.all_invoices(10).await.unwrap();
    client
        .inquiry(&Inquiry::ByPaymentId(opened.payment_id))
        .await
        .unwrap();
    client
        .repeat_payment(&RepeatPayment::new(
            opened.payment_id,
            amount("12.00"),
            eur(),
        ))
        .await
        .unwrap();
    let reserve = || {
        Payment::new(order_id(), amount("5.00"), eur(), card(cards::APPROVED)).preauthorization()
    };
    let reserved = client.pay(&reserve()).await.unwrap().payment_id;
    client
        .capture(&Capture::new(reserved, amount("5.00"), eur()))
        .await
        .unwrap();
    client
        .refund(&Refund::new(reserved, amount("1.00"), eur()))
        .await
        .unwrap();
    let other = client.pay(&reserve()).await.unwrap().payment_id;
    client.cancel(&Cancel::new(other)).await.unwrap();
    client.delete_token(&DeleteToken::new(token)).await.unwrap();
    sandbox.shutdown().await;
}
