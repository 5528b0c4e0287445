//! Load and chaos against the sandbox: 64 clients at once, thousands of mixed operations,
//! then the books are checked. Bounded in time; the figures are printed (run with
//! `--nocapture`) and recorded in docs/RELIABILITY.md.
//!
//! - **Load**: every acknowledged registration is listed exactly once, no deleted one is
//!   active, every payment made one invoice (no money moved twice), and no call failed.
//! - **Chaos**: the same clients with faults injected into a quarter of the requests
//!   (latency, drops before and after processing, 500 and 502 pages, malformed and cut
//!   bodies): every payment ends known (approved, or refused and never made) or as an
//!   unknown outcome that an inquiry then settles; no payment is sent twice.
//!
//! Both run against a sandbox that varies its answers' incidental fields
//! (`SandboxBuilder::vary_answers`): the books must balance whatever shape they come in.

use crate::common;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use common::{card, client_for, order_id};
use paytoken::ops::cards_and_accounts::CardsAndAccounts;
use paytoken::ops::customer_signup::CustomerSignup;
use paytoken::ops::delete_token::DeleteToken;
use paytoken::ops::payment::Payment;
use paytoken::ops::token_payment::TokenPayment;
use paytoken::types::{Email, RegistrationStatus};
use paytoken::{Customer, Error, FieldValue, PaymentStatus, RegistrationId, RetryPolicy};
use paytoken_sandbox::{FaultTarget, Faults, SEEDED_INVOICES_PER_MERCHANT, Sandbox, cards};

pub(crate) const CLIENTS: usize = 64;
/// Rounds per client; each round is a sign-up, a payment storing the card, a token
/// payment, a list, and every third round a delete.
const ROUNDS: usize = 8;

/// A small deterministic generator, so a failing run can be replayed.
pub(crate) struct Dice(pub(crate) u64);

impl Dice {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// What one client saw acknowledged.
#[derive(Default)]
struct Books {
    stored: Vec<RegistrationId>,
    deleted: Vec<RegistrationId>,
    payments: u64,
    operations: u64,
}

async fn customer(client: &paytoken::Client, n: usize) -> paytoken::CustomerId {
    let customer = Customer {
        given_name: Some(format!("Client{n}")),
        surname: Some("Load".into()),
        email: Some(Email::new(&format!("client{n}@example.com")).unwrap()),
        ..Customer::default()
    };
    client
        .customer_signup(&CustomerSignup::new(customer))
        .await
        .unwrap()
        .customer_id
}

/// A sandbox whose answers come in varied shapes, from `seed`.
pub(crate) async fn varying_sandbox(seed: u64) -> Sandbox {
    Sandbox::builder().vary_answers(seed).start().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_four_clients_keep_the_books_straight() {
    let sandbox = Arc::new(varying_sandbox(64).await);
    let started = Instant::now();
    let tasks: Vec<_> = (0..CLIENTS)
        .map(|n| {
            let sandbox = Arc::clone(&sandbox);
            tokio::spawn(async move {
                let client = client_for(&sandbox).build().unwrap();
                let mut books = Books::default();
                for round in 0..ROUNDS {
                    let customer_id = customer(&client, n).await;
                    let payment = Payment::new(
                        order_id(),
                        "10.00".parse().unwrap(),
                        "EUR".parse().unwrap(),
                        card(cards::APPROVED),
                    )
                    .store_card()
                    .customer(Customer {
                        customer_id: Some(customer_id),
                        ..Customer::default()
                    });
                    let paid = client.pay(&payment).await.unwrap();
                    assert_eq!(paid.status, PaymentStatus::Approved);
                    let token = *paid.registration_id.value().unwrap();
                    let charge =
                        TokenPayment::new(token, "1.00".parse().unwrap(), "EUR".parse().unwrap())
                            .merchant_transaction_id(order_id());
                    assert!(client.pay_with_token(&charge).await.unwrap().is_approved());
                    client
                        .cards_and_accounts(&CardsAndAccounts::of_customer(customer_id))
                        .await
                        .unwrap();
                    books.payments += 2;
                    books.operations += 5;
                    if round % 3 == 2 {
                        client.delete_token(&DeleteToken::new(token)).await.unwrap();
                        books.deleted.push(token);
                        books.operations += 1;
                    } else {
                        books.stored.push(token);
                    }
                }
                books
            })
        })
        .collect();
    let mut books = Books::default();
    for task in tasks {
        let one = tokio::time::timeout(Duration::from_secs(120), task)
            .await
            .expect("the load run ends within two minutes")
            .unwrap();
        books.stored.extend(one.stored);
        books.deleted.extend(one.deleted);
        books.payments += one.payments;
        books.operations += one.operations;
    }
    let elapsed = started.elapsed();

    let client = client_for(&sandbox).build().unwrap();
    let listed = client
        .cards_and_accounts(&CardsAndAccounts::all())
        .await
        .unwrap()
        .cards;
    let mut seen = HashMap::new();
    for card in &listed {
        *seen
            .entry(card.registration_id.value().copied())
            .or_insert(0) += 1;
    }
    assert!(
        seen.values().all(|&n| n == 1),
        "a registration listed twice"
    );
    let status_of = |token: &RegistrationId| {
        listed
            .iter()
            .find(|c| c.registration_id.value() == Some(token))
            .map(|c| c.registration_status.value().cloned())
    };
    for token in &books.stored {
        assert_eq!(
            status_of(token),
            Some(Some(RegistrationStatus::Active)),
            "acknowledged and active"
        );
    }
    for token in &books.deleted {
        assert_eq!(
            status_of(token),
            Some(Some(RegistrationStatus::Inactive)),
            "deleted stays inactive"
        );
    }
    assert_eq!(listed.len(), books.stored.len() + books.deleted.len());
    // One invoice per payment: no money moved twice.
    let invoices = client.all_invoices(500).await.unwrap();
    assert_eq!(
        u64::try_from(invoices.len()).unwrap(),
        u64::try_from(SEEDED_INVOICES_PER_MERCHANT).unwrap() + books.payments
    );
    let orders: HashSet<_> = invoices.iter().filter_map(|i| i.order_id.clone()).collect();
    assert_eq!(orders.len(), invoices.len(), "no order id twice");

    println!(
        "load: {CLIENTS} clients, {} operations ({} payments, {} registrations kept, {} deleted) in {:.2} s: {} operations/s",
        books.operations,
        books.payments,
        books.stored.len(),
        books.deleted.len(),
        elapsed.as_secs_f64(),
        books.operations * 1000 / u64::try_from(elapsed.as_millis().max(1)).unwrap_or(u64::MAX)
    );
}

pub(crate) const FAULTS: [&str; 7] = [
    "latency=5ms",
    "drop=before",
    "drop=after",
    "status=500",
    "status=502",
    "body=malformed",
    "body=truncated",
];

/// How one chaotic payment ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Ending {
    /// Approved at once.
    Approved,
    /// Refused or failed before the payment was sent, or failed to connect: not made.
    NotMade,
    /// The answer was lost, and the inquiry found it approved.
    SettledApproved,
    /// The answer was lost, and the inquiry found no such payment: never made.
    SettledNotMade,
}

/// Asks until the gateway answers (the faults hit inquiries too).
async fn settle(client: &paytoken::Client, payment: &Payment) -> Ending {
    for _ in 0..20 {
        match client.reconcile(&payment.merchant_transaction_id).await {
            Ok(transaction) => {
                assert_eq!(transaction.status, PaymentStatus::Approved);
                return Ending::SettledApproved;
            }
            Err(error) if error.refusal().is_some() => return Ending::SettledNotMade,
            Err(_) => tokio::time::sleep(Duration::from_millis(5)).await,
        }
    }
    panic!("no inquiry got through in 20 tries");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_faults_every_payment_ends_known_or_settled_and_none_is_sent_twice() {
    let sandbox = Arc::new(varying_sandbox(65).await);
    let faults_injected = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let tasks: Vec<_> = (0..CLIENTS)
        .map(|n| {
            let sandbox = Arc::clone(&sandbox);
            let injected = Arc::clone(&faults_injected);
            tokio::spawn(async move {
                let client = client_for(&sandbox)
                    .request_timeout(Duration::from_secs(5))
                    .retry_policy(RetryPolicy {
                        max_attempts: 4,
                        initial_backoff: Duration::from_millis(2),
                        max_backoff: Duration::from_millis(20),
                    })
                    .build()
                    .unwrap();
                let mut dice = Dice(0x9E37_79B9_7F4A_7C15 ^ (u64::try_from(n).unwrap() + 1));
                let mut endings = Vec::new();
                for _ in 0..ROUNDS * 2 {
                    // A quarter of the time, the next request to arrive (whoever sends it)
                    // meets a fault.
                    if dice.next().is_multiple_of(4) {
                        let fault = FAULTS[usize::try_from(
                            dice.next() % u64::try_from(FAULTS.len()).unwrap(),
                        )
                        .unwrap()];
                        sandbox.fault_next(FaultTarget::ANY, Faults::parse(fault).unwrap());
                        injected.fetch_add(1, Ordering::Relaxed);
                    }
                    let payment = Payment::new(
                        order_id(),
                        "3.00".parse().unwrap(),
                        "EUR".parse().unwrap(),
                        card(cards::APPROVED),
                    );
                    let ending = match client.pay(&payment).await {
                        Ok(transaction) => {
                            assert_eq!(transaction.status, PaymentStatus::Approved);
                            Ending::Approved
                        }
                        Err(error) if error.is_outcome_unknown() => {
                            assert_eq!(
                                error.merchant_transaction_id(),
                                Some(&payment.merchant_transaction_id)
                            );
                            settle(&client, &payment).await
                        }
                        // Anything else left nothing behind: a refusal, a failed token
                        // fetch before the payment went, a connection that never opened.
                        Err(error) => {
                            assert!(!matches!(error, Error::OutcomeUnknown { .. }));
                            Ending::NotMade
                        }
                    };
                    endings.push(ending);
                }
                endings
            })
        })
        .collect();
    let mut endings: HashMap<Ending, u64> = HashMap::new();
    let mut payments = 0u64;
    for task in tasks {
        for ending in tokio::time::timeout(Duration::from_secs(180), task)
            .await
            .expect("the chaos run ends within three minutes")
            .unwrap()
        {
            *endings.entry(ending).or_insert(0) += 1;
            payments += 1;
        }
    }
    let elapsed = started.elapsed();

    // Never sent twice: the sandbox saw at most one payment request per call.
    let received = sandbox
        .received()
        .iter()
        .filter(|r| r.path == paytoken::ops::payment::PATH)
        .count();
    let received = u64::try_from(received).unwrap();
    assert!(
        received <= payments,
        "{received} payment requests for {payments} payments"
    );
    // Every payment that was made is one invoice; the settled ones among them.
    let client = client_for(&sandbox).build().unwrap();
    let made = endings.get(&Ending::Approved).copied().unwrap_or(0)
        + endings.get(&Ending::SettledApproved).copied().unwrap_or(0);
    let mut invoices = None;
    for _ in 0..20 {
        if let Ok(list) = client.all_invoices(500).await {
            invoices = Some(list);
            break;
        }
    }
    let invoices = invoices.expect("the invoice list got through");
    assert_eq!(
        u64::try_from(invoices.len()).unwrap(),
        u64::try_from(SEEDED_INVOICES_PER_MERCHANT).unwrap() + made
    );
    assert!(
        endings.get(&Ending::SettledApproved).copied().unwrap_or(0) > 0,
        "the run lost some answers after the payment was made: {endings:?}"
    );
    println!(
        "chaos: {CLIENTS} clients, {payments} payments, {} faults queued, in {:.2} s: {endings:?}; {received} payment requests reached the sandbox",
        faults_injected.load(Ordering::Relaxed),
        elapsed.as_secs_f64()
    );
}
