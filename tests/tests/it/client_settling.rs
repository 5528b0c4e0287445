//! A client that settles lost answers (`ClientBuilder::settle_lost_answers`), against a
//! sandbox that loses them: each outcome the setting defines, and never a payment sent
//! again.

use crate::common;

use common::{QUICK, client_for, payment_with, signed_in_client};
use paytoken::ops::capture::Capture;
use paytoken::ops::payment::PATH as PAYMENTS;
use paytoken::ops::refund::Refund;
use paytoken::{Client, Error, Finding, PaymentStatus};
use paytoken_sandbox::{FaultTarget, Faults, Sandbox, cards};

/// A sandbox and a client that settles lost answers (`settles`) or not, already holding its
/// auth token, so that the next request the sandbox sees is the test's own.
async fn signed_in(settles: bool) -> (Sandbox, Client) {
    let sandbox = Sandbox::start().await.unwrap();
    let builder = client_for(&sandbox)
        .retry_policy(QUICK)
        .settle_lost_answers(settles);
    (sandbox, signed_in_client(builder).await)
}

fn lose(sandbox: &Sandbox, operation: &str, directives: &str) {
    sandbox.fault_next(
        FaultTarget::parse(operation).unwrap(),
        Faults::parse(directives).unwrap(),
    );
}

fn payments_seen(sandbox: &Sandbox) -> usize {
    sandbox
        .received()
        .iter()
        .filter(|received| received.path == PAYMENTS)
        .count()
}

#[tokio::test]
async fn a_lost_answer_is_settled_to_the_transaction_the_gateway_holds() {
    let (sandbox, client) = signed_in(true).await;
    lose(&sandbox, "pay", "drop=after");
    let paid = client.pay(&payment_with(cards::APPROVED)).await.unwrap();
    assert_eq!(paid.status, PaymentStatus::Approved);
    assert_eq!(sandbox.books().len(), 1, "paid once");
    assert_eq!(payments_seen(&sandbox), 1, "never sent again");
}

#[tokio::test]
async fn a_payment_the_gateway_never_got_stays_unknown_and_is_not_sent_again() {
    let (sandbox, client) = signed_in(true).await;
    lose(&sandbox, "pay", "drop=before");
    let sent = payment_with(cards::APPROVED);
    let error = client.pay(&sent).await.unwrap_err();
    assert!(
        matches!(
            error,
            Error::StillUnknown {
                finding: Finding::NoSuchPayment,
                ..
            }
        ),
        "{error}"
    );
    assert!(error.is_outcome_unknown());
    assert_eq!(
        error.merchant_transaction_id(),
        Some(&sent.merchant_transaction_id)
    );
    assert!(
        error
            .to_string()
            .contains("the gateway holds no such payment"),
        "{error}"
    );
    assert!(
        sandbox.books().is_empty(),
        "nothing paid, nothing sent again"
    );
}

#[tokio::test]
async fn a_payment_still_under_way_stays_unknown_with_its_order_id() {
    for card_number in [cards::PENDING, cards::THREE_D_SECURE] {
        let (sandbox, client) = signed_in(true).await;
        lose(&sandbox, "pay", "drop=after");
        let sent = payment_with(card_number);
        let error = client.pay(&sent).await.unwrap_err();
        assert!(
            matches!(
                error,
                Error::StillUnknown {
                    finding: Finding::UnderWay,
                    ..
                }
            ),
            "{card_number}: {error}"
        );
        assert_eq!(
            error.merchant_transaction_id(),
            Some(&sent.merchant_transaction_id)
        );
        assert_eq!(sandbox.books().len(), 1);
    }
}

#[tokio::test]
async fn a_lost_inquiry_leaves_the_unknown_outcome_as_it_was() {
    let (sandbox, client) = signed_in(true).await;
    lose(&sandbox, "pay", "drop=after");
    // Every attempt of the inquiry that would settle it is lost too.
    for _ in 0..QUICK.max_attempts {
        lose(&sandbox, "inquiry", "drop=before");
    }
    let error = client
        .pay(&payment_with(cards::APPROVED))
        .await
        .unwrap_err();
    assert!(matches!(error, Error::OutcomeUnknown { .. }), "{error}");
    assert_eq!(sandbox.books().len(), 1, "paid once, not sent again");
}

#[tokio::test]
async fn a_lost_capture_is_settled_and_a_lost_refund_stays_unknown_with_its_payment() {
    let (sandbox, client) = signed_in(true).await;
    let authorised = client
        .pay(&payment_with(cards::APPROVED).preauthorization())
        .await
        .unwrap();
    let amount = "25.00".parse().unwrap();
    let currency = "EUR".parse().unwrap();
    lose(&sandbox, "capture", "drop=after");
    let captured = client
        .capture(&Capture::new(authorised.payment_id, amount, currency))
        .await
        .unwrap();
    assert_eq!(captured.payment_id, authorised.payment_id);
    lose(&sandbox, "refund", "drop=after");
    let error = client
        .refund(&Refund::new(
            authorised.payment_id,
            "5.00".parse().unwrap(),
            currency,
        ))
        .await
        .unwrap_err();
    assert!(matches!(error, Error::Unsettled { .. }), "{error}");
    assert_eq!(error.payment_id(), Some(&authorised.payment_id));
    let books = sandbox.books();
    assert_eq!(books[0].refunded.to_string(), "5.00", "refunded once");
}

#[tokio::test]
async fn without_the_setting_a_lost_answer_is_the_caller_s_to_settle() {
    let (sandbox, client) = signed_in(false).await;
    lose(&sandbox, "pay", "drop=after");
    let error = client
        .pay(&payment_with(cards::APPROVED))
        .await
        .unwrap_err();
    assert!(matches!(error, Error::OutcomeUnknown { .. }), "{error}");
    assert_eq!(payments_seen(&sandbox), 1);
}

#[tokio::test]
async fn an_operation_sent_whole_takes_its_method_s_path_settling_included() {
    use paytoken::protocol::recorded::{AnyOperation, Reading};

    let (sandbox, client) = signed_in(true).await;
    let payment = payment_with(cards::APPROVED);
    let order = payment.merchant_transaction_id.clone();
    lose(&sandbox, "pay", "drop=after");
    let paid = client
        .send(&AnyOperation::Payment(Box::new(payment)))
        .await
        .unwrap();
    let Reading::Transaction(paid) = paid else {
        panic!("a payment answers a transaction: {paid:?}");
    };
    assert_eq!(paid.status, PaymentStatus::Approved, "settled by inquiry");
    assert_eq!(payments_seen(&sandbox), 1, "never sent again");
    let inquiry = paytoken::ops::inquiry::Inquiry::ByMerchantTransactionId(order);
    let found = client.send(&AnyOperation::Inquiry(inquiry)).await.unwrap();
    assert!(matches!(found, Reading::Transaction(found) if found.payment_id == paid.payment_id));
}
