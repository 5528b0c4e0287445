//! `TestGateway`: a payment, a 3-D Secure challenge approved and declined, and a fault on
//! the next request settled by inquiry.

use paytoken::prelude::*;
use paytoken::sandbox::{FaultTarget, Faults, TestGateway, cards};

fn payment(gateway: &TestGateway, card: &str) -> Payment {
    Payment::new(
        gateway.order_id(),
        Amount::from_minor_units(2500),
        Currency::EUR,
        gateway.card(card),
    )
}

#[tokio::test]
async fn a_challenge_approved_or_declined_settles_the_payment() {
    let gateway = TestGateway::start().await.unwrap();
    for (approve, expected) in [
        (true, TransactionStatus::Approved),
        (false, TransactionStatus::Declined),
    ] {
        let waiting = gateway
            .client()
            .pay(&payment(&gateway, cards::THREE_D_SECURE))
            .await
            .unwrap();
        assert!(matches!(waiting.status, PaymentStatus::ThreeDSecure { .. }));
        let decided = if approve {
            gateway.approve_3ds(&waiting)
        } else {
            gateway.decline_3ds(&waiting)
        };
        assert!(decided);
        // Decided once: the page has nothing left to authenticate.
        assert!(!gateway.approve_3ds(&waiting));
        let settled = gateway
            .client()
            .inquiry(&Inquiry::ByPaymentId(waiting.payment_id))
            .await
            .unwrap();
        assert_eq!(
            settled.transaction_status,
            Some(expected),
            "approve: {approve}"
        );
    }
    // An approved payment has no challenge to decide.
    let approved = gateway
        .client()
        .pay(&payment(&gateway, cards::APPROVED))
        .await
        .unwrap();
    assert!(!gateway.decline_3ds(&approved));
    gateway.shutdown().await;
}

#[tokio::test]
async fn a_lost_answer_is_an_unknown_outcome_that_an_inquiry_settles() {
    let gateway = TestGateway::start().await.unwrap();
    let client = gateway.client();
    // Not signed in yet: the auth-token fetch before the payment passes the fault by.
    gateway.fault_next(
        FaultTarget::MONEY_MOVING,
        Faults::parse("drop=after").unwrap(),
    );
    let lost = payment(&gateway, cards::APPROVED);
    let error = client.pay(&lost).await.unwrap_err();
    assert!(error.is_outcome_unknown(), "{error}");
    let settled = client
        .reconcile(&lost.merchant_transaction_id)
        .await
        .unwrap();
    assert!(settled.is_approved());
    assert_eq!(
        gateway.sandbox().books().len(),
        1,
        "processed once, not sent again"
    );
    gateway.shutdown().await;
}
