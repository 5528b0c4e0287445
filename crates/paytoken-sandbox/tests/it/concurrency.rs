//! Many clients at once: nothing acknowledged is lost, nothing is duplicated.

use crate::common;

use std::collections::BTreeSet;

use common::*;
use paytoken_protocol::PaymentStatus;
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;
use paytoken_protocol::ops::delete_token::DeleteToken;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::ops::registration::Registration;
use paytoken_protocol::ops::token_payment::TokenPayment;
use paytoken_sandbox::cards;

const CLIENTS: usize = 64;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_four_clients_registering_paying_and_deleting_at_once() {
    let sandbox = std::sync::Arc::new(sandbox().await);
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let mut tasks = tokio::task::JoinSet::new();
    for client in 0..CLIENTS {
        let (sandbox, context) = (sandbox.clone(), context.clone());
        tasks.spawn(async move {
            let stored = call(
                &sandbox,
                &context,
                &Registration::card(card(cards::APPROVED)),
            )
            .await
            .unwrap()
            .registration_id;
            let paid = Payment::new(
                order_id().parse().unwrap(),
                "3.00".parse().unwrap(),
                "EUR".parse().unwrap(),
                card(cards::MASTERCARD_APPROVED),
            )
            .store_card();
            let kept = call(&sandbox, &context, &paid)
                .await
                .unwrap()
                .registration_id
                .unwrap();
            let use_it = TokenPayment::new(stored, "1.00".parse().unwrap(), "EUR".parse().unwrap());
            let used = call(&sandbox, &context, &use_it).await.unwrap();
            assert_eq!(used.status, PaymentStatus::Approved);
            // Every other client deletes the token it just used.
            let deleted = client % 2 == 0;
            if deleted {
                call(&sandbox, &context, &DeleteToken::new(stored))
                    .await
                    .unwrap();
            }
            (stored, kept, deleted)
        });
    }
    let (mut active, mut inactive) = (BTreeSet::new(), BTreeSet::new());
    while let Some(outcome) = tasks.join_next().await {
        let (stored, kept, deleted) = outcome.unwrap();
        assert!(
            active.insert(kept.to_string()),
            "a registration id handed out twice"
        );
        let set = if deleted { &mut inactive } else { &mut active };
        assert!(
            set.insert(stored.to_string()),
            "a registration id handed out twice"
        );
    }

    let list = call(&sandbox, &context, &CardsAndAccounts::all())
        .await
        .unwrap();
    assert_eq!(
        list.cards.len(),
        2 * CLIENTS,
        "every acknowledged registration, once"
    );
    let listed = |status: &str| -> BTreeSet<String> {
        list.cards
            .iter()
            .filter(|card| card.registration_status.as_ref().unwrap().raw() == status)
            .map(|card| card.registration_id.as_ref().unwrap().to_string())
            .collect()
    };
    assert_eq!(listed("Y"), active);
    assert_eq!(listed("N"), inactive);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn of_fifty_racing_duplicates_exactly_one_is_approved() {
    let sandbox = std::sync::Arc::new(sandbox().await);
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let payment = Payment::new(
        order_id().parse().unwrap(),
        "5.00".parse().unwrap(),
        "EUR".parse().unwrap(),
        card(cards::APPROVED),
    );
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..50 {
        let (sandbox, context, payment) = (sandbox.clone(), context.clone(), payment.clone());
        tasks.spawn(async move { call(&sandbox, &context, &payment).await });
    }
    let (mut approved, mut duplicates) = (0, 0);
    while let Some(outcome) = tasks.join_next().await {
        match outcome.unwrap() {
            Ok(transaction) if transaction.status == PaymentStatus::Approved => approved += 1,
            Err(error)
                if error
                    .refusal()
                    .is_some_and(|r| r.result.code.as_str() == "30006") =>
            {
                duplicates += 1;
            }
            other => panic!("neither approved nor a duplicate: {other:?}"),
        }
    }
    assert_eq!((approved, duplicates), (1, 49));
    assert_eq!(sandbox.books().len(), 1, "one payment in the books");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_refunds_never_sum_above_the_capture() {
    use paytoken_protocol::ops::capture::Capture;
    use paytoken_protocol::ops::refund::Refund;
    use paytoken_types::PaymentType;

    let sandbox = std::sync::Arc::new(sandbox().await);
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let mut authorisation = Payment::new(
        order_id().parse().unwrap(),
        "10.00".parse().unwrap(),
        "EUR".parse().unwrap(),
        card(cards::APPROVED),
    );
    authorisation.payment_type = PaymentType::PreAuthorization;
    let id = call(&sandbox, &context, &authorisation)
        .await
        .unwrap()
        .payment_id;
    let capture = Capture::new(id, "10.00".parse().unwrap(), "EUR".parse().unwrap());
    call(&sandbox, &context, &capture).await.unwrap();
    let refund = Refund::new(id, "1.00".parse().unwrap(), "EUR".parse().unwrap());
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..32 {
        let (sandbox, context, refund) = (sandbox.clone(), context.clone(), refund.clone());
        tasks.spawn(async move { call(&sandbox, &context, &refund).await.is_ok() });
    }
    let mut refunded = 0;
    while let Some(ok) = tasks.join_next().await {
        refunded += usize::from(ok.unwrap());
    }
    assert_eq!(refunded, 10, "ten of 1.00 on 10.00");
    let books = sandbox.books();
    assert_eq!(books[0].refunded.to_string(), "10.00", "{books:?}");
}
