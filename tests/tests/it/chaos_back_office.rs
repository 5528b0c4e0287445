//! Chaos for the back office: 64 clients, each authorising payments, capturing them and
//! refunding them in two parts, with a fault queued before a quarter of the calls. Every
//! capture and refund must end known or settled (by `settle` for a capture, by
//! `reconcile_move` for a refund, whose status alone cannot tell), and the sandbox's books
//! match what the clients believe to the cent (a refund sent twice would show there).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use paytoken::ops::capture::Capture;
use paytoken::ops::payment::Payment;
use paytoken::ops::refund::Refund;
use paytoken::types::TransactionState;
use paytoken::{
    Amount, Client, Currency, Error, OperationKind, PaymentId, PaymentStatus, RetryPolicy,
    Transaction,
};
use paytoken_sandbox::{FaultTarget, Faults, Sandbox, cards};

use crate::common::{card, client_for, order_id};
use crate::load::{CLIENTS, Dice, FAULTS, varying_sandbox};

/// Payments per client.
const ROUNDS: usize = 4;

/// Moves whose answer was lost and that an inquiry then settled, taken or not.
static SETTLED: AtomicU64 = AtomicU64::new(0);

/// How a move ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Moved {
    Yes,
    No,
}

/// What one client believes of one payment: captured and refunded, in minor units.
type Belief = (PaymentId, Amount, Amount);

/// Queues a fault for the next request a quarter of the time.
fn maybe_fault(sandbox: &Sandbox, dice: &mut Dice) {
    if dice.next().is_multiple_of(4) {
        let index = usize::try_from(dice.next() % u64::try_from(FAULTS.len()).unwrap()).unwrap();
        sandbox.fault_next(FaultTarget::ANY, Faults::parse(FAULTS[index]).unwrap());
    }
}

/// The long status before a move and after it.
type Change<'a> = (&'a TransactionState, &'a TransactionState);

/// A lost move settled: `settle` for a capture, the statuses before and after for a refund;
/// asked again while the faults hit the inquiry itself.
async fn settled(client: &Client, lost: Error, (before, after): Change<'_>) -> Moved {
    let operation = match &lost {
        Error::OutcomeUnknown { operation, .. } => *operation,
        other => panic!("not an unknown outcome: {other}"),
    };
    let id = *lost.payment_id().expect("a lost move carries its payment");
    let mut pending = Some(lost);
    for _ in 0..40 {
        let answer = match (operation, pending.take()) {
            (OperationKind::Capture, Some(lost)) => client.settle(lost).await,
            _ => client.reconcile_move(operation, &id, before, after).await,
        };
        match answer {
            Ok(_) => {
                SETTLED.fetch_add(1, Ordering::Relaxed);
                return Moved::Yes;
            }
            Err(Error::NotApplied { .. }) => {
                SETTLED.fetch_add(1, Ordering::Relaxed);
                return Moved::No;
            }
            Err(Error::Unsettled { state, .. }) => {
                panic!("{operation} of {id} unsettled at {state:?}")
            }
            // `settle` hands back the unknown outcome when its inquiry failed.
            Err(error @ Error::OutcomeUnknown { .. }) => pending = Some(error),
            Err(_) => {}
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("no inquiry got through in 40 tries");
}

/// A move's ending: made, settled, or not made (refused before, or never sent).
async fn ended(client: &Client, result: Result<Transaction, Error>, change: Change<'_>) -> Moved {
    match result {
        Ok(_) => Moved::Yes,
        Err(error) if error.is_outcome_unknown() => settled(client, error, change).await,
        Err(error) => {
            assert!(error.refusal().is_none(), "a move refused: {error}");
            Moved::No
        }
    }
}

async fn one_client(sandbox: Arc<Sandbox>, n: usize) -> Vec<Belief> {
    let client = client_for(&sandbox)
        .request_timeout(Duration::from_secs(5))
        .retry_policy(RetryPolicy {
            max_attempts: 4,
            initial_backoff: Duration::from_millis(2),
            max_backoff: Duration::from_millis(20),
        })
        .build()
        .unwrap();
    let mut dice = Dice(0xC0FF_EE00_D15E_A5E5 ^ (u64::try_from(n).unwrap() + 1));
    let mut beliefs = Vec::new();
    let amount = |text: &str| text.parse::<Amount>().unwrap();
    for _ in 0..ROUNDS {
        // The authorisation itself, without faults: the payments' chaos is load.rs's.
        let payment = Payment::new(
            order_id(),
            amount("10.00"),
            Currency::EUR,
            card(cards::APPROVED),
        )
        .preauthorization();
        let Ok(authorised) = client.pay(&payment).await else {
            continue;
        };
        assert_eq!(authorised.status, PaymentStatus::Approved);
        let id = authorised.payment_id;

        maybe_fault(&sandbox, &mut dice);
        let capture = client
            .capture(&Capture::new(id, amount("10.00"), Currency::EUR))
            .await;
        let mut belief = (id, Amount::ZERO, Amount::ZERO);
        let captured = (
            &TransactionState::AuthSuccessful,
            &TransactionState::CaptureSuccess,
        );
        if ended(&client, capture, captured).await == Moved::Yes {
            belief.1 = amount("10.00");
            let parts = [
                (
                    "4.00",
                    TransactionState::CaptureSuccess,
                    TransactionState::MarkedForReversal,
                ),
                (
                    "6.00",
                    TransactionState::MarkedForReversal,
                    TransactionState::Reversed,
                ),
            ];
            for (part, before, after) in parts {
                maybe_fault(&sandbox, &mut dice);
                let refund = client
                    .refund(&Refund::new(id, amount(part), Currency::EUR))
                    .await;
                if ended(&client, refund, (&before, &after)).await == Moved::No {
                    // The second part's status would be wrong after a first that never
                    // happened: stop refunding this payment.
                    break;
                }
                belief.2 = belief.2.checked_add(amount(part)).unwrap();
            }
        }
        beliefs.push(belief);
    }
    beliefs
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_faults_every_capture_and_refund_ends_known_or_settled_and_the_books_agree() {
    let sandbox = Arc::new(varying_sandbox(66).await);
    let tasks: Vec<_> = (0..CLIENTS)
        .map(|n| tokio::spawn(one_client(Arc::clone(&sandbox), n)))
        .collect();
    let mut beliefs = Vec::new();
    for task in tasks {
        let client_beliefs = tokio::time::timeout(Duration::from_secs(180), task)
            .await
            .expect("the chaos run ends within three minutes")
            .unwrap();
        beliefs.extend(client_beliefs);
    }
    let books: HashMap<String, _> = sandbox
        .books()
        .into_iter()
        .map(|entry| (entry.payment_id.clone(), entry))
        .collect();
    let (mut captured, mut refunded) = (0u64, 0u64);
    for (id, believed_captured, believed_refunded) in &beliefs {
        let entry = &books[id.as_str()];
        assert_eq!(
            entry.captured.unwrap_or(Amount::ZERO),
            *believed_captured,
            "captured, payment {id}"
        );
        assert_eq!(entry.refunded, *believed_refunded, "refunded, payment {id}");
        captured += believed_captured.minor_units();
        refunded += believed_refunded.minor_units();
    }
    let settled = SETTLED.load(Ordering::Relaxed);
    println!(
        "back-office chaos: {} payments, {captured} cents captured, {refunded} cents refunded, {settled} lost moves settled, books agree",
        beliefs.len()
    );
    assert!(
        settled > 0,
        "the run lost no move's answer: nothing was settled"
    );
    assert!(beliefs.len() >= CLIENTS * ROUNDS / 2, "{}", beliefs.len());
}
