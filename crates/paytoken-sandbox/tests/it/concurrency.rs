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
