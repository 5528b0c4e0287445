//! The back office through the client against the sandbox, over TCP: a pre-authorisation
//! captured and refunded in parts, another cancelled, each move refused where the
//! sandbox's state machine says so, 64 concurrent refunds that never refund more than was
//! taken, and a recurring series repeated by its first payment's id.

use std::sync::Arc;

use paytoken::ops::cancel::Cancel;
use paytoken::ops::capture::Capture;
use paytoken::ops::inquiry::Inquiry;
use paytoken::ops::payment::Payment;
use paytoken::ops::refund::Refund;
use paytoken::ops::repeat_payment::RepeatPayment;
use paytoken::types::RecurringType;
use paytoken::types::TransactionState;
use paytoken::{Client, Currency, Error, FieldValue, PaymentId, PaymentStatus};
use paytoken_sandbox::{OTHER_MERCHANT_ID, Sandbox, cards};

use crate::common::{card, client_for, order_id};

fn eur() -> Currency {
    Currency::EUR
}

/// An approved payment of `amount` EUR: a pre-authorisation or a debit.
async fn paid(client: &Client, amount: &str, preauthorization: bool) -> PaymentId {
    let mut payment = Payment::new(
        order_id(),
        amount.parse().unwrap(),
        eur(),
        card(cards::APPROVED),
    );
    if preauthorization {
        payment = payment.preauthorization();
    }
    let transaction = client.pay(&payment).await.unwrap();
    assert_eq!(transaction.status, PaymentStatus::Approved);
    transaction.payment_id
}

/// The long status the inquiry shows.
async fn status_of(client: &Client, id: PaymentId) -> Option<TransactionState> {
    let found = client.inquiry(&Inquiry::ByPaymentId(id)).await.unwrap();
    found.state.value().cloned()
}

fn refused_with(result: Result<paytoken::Transaction, Error>, code: &str) {
    let error = result.unwrap_err();
    let refusal = error
        .refusal()
        .unwrap_or_else(|| panic!("a refusal: {error}"));
    assert!(refusal.contains(code), "{code}: {refusal}");
    assert!(!error.may_have_been_processed());
}

fn refund(id: PaymentId, amount: &str) -> Refund {
    Refund::new(id, amount.parse().unwrap(), eur())
}

#[tokio::test]
async fn a_preauthorisation_is_captured_once_then_refunded_in_parts() {
    let sandbox = Sandbox::builder().start().await.unwrap();
    let client = client_for(&sandbox).build().unwrap();
    let id = paid(&client, "50.00", true).await;
    assert_eq!(
        status_of(&client, id).await,
        Some(TransactionState::AuthSuccessful)
    );

    refused_with(
        client
            .capture(&Capture::new(id, "50.01".parse().unwrap(), eur()))
            .await,
        "30021",
    );
    refused_with(
        client
            .capture(&Capture::new(id, "30.00".parse().unwrap(), Currency::USD))
            .await,
        "30020",
    );
    let captured = client
        .capture(&Capture::new(id, "30.00".parse().unwrap(), eur()))
        .await
        .unwrap();
    assert_eq!(captured.result.code.as_str(), "00004");
    assert_eq!(
        status_of(&client, id).await,
        Some(TransactionState::CaptureSuccess)
    );
    refused_with(
        client
            .capture(&Capture::new(id, "1.00".parse().unwrap(), eur()))
            .await,
        "90032",
    );
    refused_with(client.cancel(&Cancel::new(id)).await, "90031");

    let first = client.refund(&refund(id, "10.00")).await.unwrap();
    assert_eq!(first.result.code.as_str(), "00005");
    assert_eq!(
        status_of(&client, id).await,
        Some(TransactionState::MarkedForReversal)
    );
    refused_with(client.refund(&refund(id, "20.01")).await, "90030");
    client.refund(&refund(id, "20.00")).await.unwrap();
    assert_eq!(
        status_of(&client, id).await,
        Some(TransactionState::Reversed)
    );
    refused_with(client.refund(&refund(id, "0.01")).await, "90033");
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_cancelled_preauthorisation_refuses_every_further_move() {
    let sandbox = Sandbox::builder().start().await.unwrap();
    let client = client_for(&sandbox).build().unwrap();
    let id = paid(&client, "50.00", true).await;
    // Nothing was taken yet: nothing to refund.
    refused_with(client.refund(&refund(id, "1.00")).await, "90033");
    let cancelled = client.cancel(&Cancel::new(id)).await.unwrap();
    assert_eq!(cancelled.result.code.as_str(), "00006");
    assert_eq!(cancelled.status, PaymentStatus::Cancelled);
    assert_eq!(
        status_of(&client, id).await,
        Some(TransactionState::Cancelled)
    );
    refused_with(client.cancel(&Cancel::new(id)).await, "90031");
    refused_with(
        client
            .capture(&Capture::new(id, "1.00".parse().unwrap(), eur()))
            .await,
        "90032",
    );
    refused_with(client.refund(&refund(id, "1.00")).await, "90033");
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_debit_is_refunded_and_another_merchants_payment_is_never_found() {
    let sandbox = Sandbox::builder().start().await.unwrap();
    let client = client_for(&sandbox).build().unwrap();
    let id = paid(&client, "20.00", false).await;
    refused_with(
        client
            .capture(&Capture::new(id, "1.00".parse().unwrap(), eur()))
            .await,
        "90032",
    );
    refused_with(client.refund(&refund(id, "25.00")).await, "90030");

    let config = sandbox.config();
    let other = config.merchant(OTHER_MERCHANT_ID).unwrap();
    let other_client = Client::builder()
        .base_url(sandbox.base_url())
        .allow_http(true)
        .credentials(other.credentials())
        .fetch_auth_token(config.partners[0].partner_id, other.username.clone())
        .build()
        .unwrap();
    refused_with(other_client.refund(&refund(id, "1.00")).await, "30040");

    client.refund(&refund(id, "20.00")).await.unwrap();
    assert_eq!(
        status_of(&client, id).await,
        Some(TransactionState::Reversed)
    );
    sandbox.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_four_concurrent_refunds_never_refund_more_than_was_taken() {
    let sandbox = Sandbox::builder().start().await.unwrap();
    let client = client_for(&sandbox).build().unwrap();
    let id = paid(&client, "10.00", false).await;
    let client = Arc::new(client);
    let tasks: Vec<_> = (0..64)
        .map(|_| {
            let client = Arc::clone(&client);
            tokio::spawn(async move { client.refund(&refund(id, "1.00")).await })
        })
        .collect();
    let mut approved = 0;
    for task in tasks {
        match task.await.unwrap() {
            Ok(transaction) => {
                assert_eq!(transaction.result.code.as_str(), "00005");
                approved += 1;
            }
            Err(error) => {
                let refusal = error.refusal().expect("a refusal, nothing unknown");
                assert!(
                    refusal.contains("90030") || refusal.contains("90033"),
                    "{refusal}"
                );
            }
        }
    }
    assert_eq!(approved, 10, "ten refunds of 1.00 on a debit of 10.00");
    assert_eq!(
        status_of(&client, id).await,
        Some(TransactionState::Reversed)
    );
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_series_is_repeated_by_its_first_payments_id_and_only_so() {
    let sandbox = Sandbox::builder().start().await.unwrap();
    let client = client_for(&sandbox).build().unwrap();
    let first = Payment::new(
        order_id(),
        "9.99".parse().unwrap(),
        eur(),
        card(cards::APPROVED),
    )
    .store_card()
    .recurring(RecurringType::Initial);
    let first = client.pay(&first).await.unwrap().payment_id;
    let repeat = RepeatPayment::new(first, "9.99".parse().unwrap(), eur());
    let again = client.repeat_payment(&repeat).await.unwrap();
    assert_eq!(again.status, PaymentStatus::Approved);
    assert_ne!(again.payment_id, first, "a new payment");
    // It carries the merchant transaction id the client made up, which finds it.
    let id = again.merchant_transaction_id.clone().unwrap();
    let found = client.reconcile(&id).await.unwrap();
    assert_eq!(found.payment_id, again.payment_id);

    // A payment that opened no series cannot be repeated.
    let plain = paid(&client, "5.00", false).await;
    let error = client
        .repeat_payment(&RepeatPayment::new(plain, "5.00".parse().unwrap(), eur()))
        .await
        .unwrap_err();
    assert!(error.refusal().unwrap().contains("30012"), "{error}");
    sandbox.shutdown().await;
}
