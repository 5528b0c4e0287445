//! The sandbox keeps secrets as the gateway must: keys never in `Debug` or errors, card
//! numbers and CVVs never in an answer.

use crate::common;

use common::*;
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;
use paytoken_protocol::ops::inquiry::Inquiry;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::{Operation, Transaction};
use paytoken_sandbox::{
    DEFAULT_MERCHANT_SECURE_KEY, DEFAULT_PARTNER_SECURE_KEY, OTHER_MERCHANT_SECURE_KEY,
    SandboxConfig, cards,
};

#[tokio::test]
async fn keys_stay_out_of_debug() {
    let sandbox = sandbox().await;
    let shown = format!(
        "{sandbox:?} {:?} {:?}",
        sandbox.config(),
        SandboxConfig::default()
    );
    for key in [
        DEFAULT_MERCHANT_SECURE_KEY,
        OTHER_MERCHANT_SECURE_KEY,
        DEFAULT_PARTNER_SECURE_KEY,
    ] {
        assert!(!shown.contains(key), "{shown}");
    }
}

#[tokio::test]
async fn answers_never_carry_the_card_number_or_the_cvv() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let payment = Payment::new(
        order_id().parse().unwrap(),
        "10.00".parse().unwrap(),
        "EUR".parse().unwrap(),
        card(cards::INSTALLMENTS),
    )
    .store_card();
    let raw = send(&sandbox, &payment.request(&context).unwrap()).await;
    let transaction: Transaction = payment.parse(raw.status, &raw.body).unwrap();
    let inquiry = Inquiry::ByPaymentId(transaction.payment_id);
    let answers = [
        raw.text(),
        send(&sandbox, &inquiry.request(&context).unwrap())
            .await
            .text(),
        send(
            &sandbox,
            &CardsAndAccounts::all().request(&context).unwrap(),
        )
        .await
        .text(),
    ];
    for answer in answers {
        assert!(!answer.contains(cards::INSTALLMENTS), "{answer}");
        assert!(!answer.contains("\"123\""), "the CVV: {answer}");
        assert!(
            answer.contains("1111"),
            "the last four digits are shown: {answer}"
        );
    }
}
