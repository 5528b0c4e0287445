//! No secret reaches a log line or an error: the whole life cycle and a run of failures
//! with tracing captured at every level, every error shown with `Display` and `Debug`.

use crate::common;

use std::fmt::Write as _;

use common::life_cycle::life_cycle;
use common::{Capture, card, client_for, order_id};
use paytoken::ops::cards_and_accounts::CardsAndAccounts;
use paytoken::ops::delete_token::DeleteToken;
use paytoken::ops::inquiry::Inquiry;
use paytoken::ops::installments::Installments;
use paytoken::ops::invoice_list::InvoiceList;
use paytoken::ops::payment::Payment;
use paytoken::ops::registration::Registration;
use paytoken::ops::token_payment::TokenPayment;
use paytoken::types::MerchantTransactionId;
use paytoken::{Credentials, FieldValue, SecureKey};
use paytoken_sandbox::{DEFAULT_MERCHANT_ID, FaultTarget, Faults, Sandbox, cards};

#[test]
fn no_secret_reaches_a_log_line_or_an_error() {
    let capture = Capture::default();
    let shown = capture.run(async {
        let sandbox = Sandbox::start().await.unwrap();
        let builder = client_for(&sandbox);
        let mut shown = format!("{builder:?}\n");
        let client = builder.build().unwrap();
        writeln!(shown, "{client:?}").unwrap();
        life_cycle(&client, &sandbox).await;

        let pay = || {
            Payment::new(
                order_id(),
                "10.00".parse().unwrap(),
                "EUR".parse().unwrap(),
                card(cards::APPROVED),
            )
        };
        // Every kind of answer, shown with `Debug` (answers have no `Display`).
        let stored = client.pay(&pay().store_card()).await.unwrap();
        writeln!(shown, "{stored:?}").unwrap();
        let token = *stored.registration_id.value().unwrap();
        let charge = TokenPayment::new(token, "1.00".parse().unwrap(), "EUR".parse().unwrap())
            .merchant_transaction_id(order_id());
        writeln!(shown, "{:?}", client.pay_with_token(&charge).await.unwrap()).unwrap();
        let registered = client
            .register(&Registration::card(card(cards::INSTALLMENTS)))
            .await;
        writeln!(shown, "{registered:?}").unwrap();
        let plans = client
            .installments(&Installments::new(registered.unwrap().registration_id))
            .await;
        writeln!(shown, "{plans:?}").unwrap();
        writeln!(
            shown,
            "{:?}",
            client.cards_and_accounts(&CardsAndAccounts::all()).await
        )
        .unwrap();
        writeln!(
            shown,
            "{:?}",
            client.invoice_page(&InvoiceList::new(1, 5)).await
        )
        .unwrap();
        writeln!(
            shown,
            "{:?}",
            client
                .inquiry(&Inquiry::ByPaymentId(stored.payment_id))
                .await
        )
        .unwrap();
        writeln!(
            shown,
            "{:?}",
            client.delete_token(&DeleteToken::new(token)).await
        )
        .unwrap();
        let refused = client.pay_with_token(&charge).await.unwrap_err();
        writeln!(shown, "{refused}\n{refused:?}").unwrap();
        let declined = client
            .pay(&Payment::new(
                order_id(),
                "2.00".parse().unwrap(),
                "EUR".parse().unwrap(),
                card(cards::DECLINED),
            ))
            .await;
        writeln!(shown, "{declined:?}").unwrap();
        // A merchant who puts a card number in an order id: the log masks it.
        let carrying = Payment::new(
            MerchantTransactionId::new(&format!("order-{}", cards::APPROVED)).unwrap(),
            "3.00".parse().unwrap(),
            "EUR".parse().unwrap(),
            card(cards::APPROVED),
        );
        assert!(client.pay(&carrying).await.is_ok());

        let mut errors = Vec::new();
        for fault in [
            "drop=after",
            "status=502",
            "body=truncated",
            "body=malformed",
        ] {
            sandbox.fault_next(FaultTarget::MONEY_MOVING, Faults::parse(fault).unwrap());
            errors.push(client.pay(&pay()).await.unwrap_err());
        }
        let merchant = sandbox.config().merchant(DEFAULT_MERCHANT_ID).unwrap();
        let wrong_key = client_for(&sandbox)
            .credentials(Credentials::merchant(
                merchant.member_id,
                SecureKey::new("not-the-key").unwrap(),
            ))
            .build()
            .unwrap();
        errors.push(
            wrong_key
                .cards_and_accounts(&CardsAndAccounts::all())
                .await
                .unwrap_err(),
        );
        for error in &errors {
            writeln!(shown, "{error}\n{error:?}").unwrap();
        }
        shown
    });

    assert!(
        shown.contains("Approved") && shown.contains("last_four"),
        "{shown}"
    );
    let logs = capture.text();
    assert!(
        logs.contains("span paytoken.call otel.name=\"pay\" paytoken.operation=\"pay\""),
        "{logs}"
    );
    assert!(logs.contains("paytoken.result_code=\"00001\""), "{logs}");
    // One `debug` event a call, which names the order and the payment it was about.
    let answered = logs
        .lines()
        .find(|line| {
            line.starts_with("event DEBUG paytoken")
                && line.contains("message=call answered")
                && line.contains("operation=\"pay\"")
        })
        .unwrap_or_else(|| panic!("no closing event of a payment: {logs}"));
    for field in [
        "merchant_transaction_id=\"",
        "payment_id=\"",
        "result_code=\"00001\"",
        "attempts=1",
        "elapsed_us=",
    ] {
        assert!(answered.contains(field), "{field}: {answered}");
    }
    assert!(
        logs.lines().any(
            |line| line.contains("message=call failed") && line.contains("outcome=\"refused\"")
        ),
        "{logs}"
    );
    assert!(logs.contains("outcome=\"outcome_unknown\""), "{logs}");
    assert!(
        logs.contains("merchant_transaction_id=\"order-400000******0051\""),
        "{logs}"
    );
    for (name, text) in [("logs", &logs), ("errors", &shown)] {
        common::assert_no_secret(name, text);
    }
}
