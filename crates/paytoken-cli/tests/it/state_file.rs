//! `paytoken sandbox --state FILE` over the real binary: what a sandbox killed with SIGKILL
//! had answered, the next one on the file still knows.

use std::path::PathBuf;

use paytoken_sandbox::cards;

use crate::common::{announced_merchant, card_flags, paytoken, sandbox_process, with_flags};

/// A fresh path in the system's temporary folder, removed with SQLite's files beside it.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str) -> Self {
        let unique = paytoken_sandbox::samples::order_id(name).unwrap();
        Self(std::env::temp_dir().join(format!("paytoken-cli-{unique}.db")))
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = paytoken_sandbox::remove_state_file(&self.0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sandbox_killed_mid_life_comes_back_with_its_books() {
    let file = TempFile::new("kill");
    let (mut first, announcement) =
        sandbox_process(&["--addr", "127.0.0.1:0", "--state", file.path()]).await;
    let (flags, key) = announced_merchant(&announcement);
    let mut pay = vec![
        "pay",
        "--amount",
        "50.00",
        "--currency",
        "EUR",
        "--merchant-transaction-id",
        "order kept 1",
        "--store-card",
        "--recurring",
        "initial",
    ];
    pay.extend(card_flags(cards::APPROVED));
    let paid = with_flags(&flags, &key, &pay).await;
    assert_eq!(paid.code, 0, "{}{}", paid.stdout, paid.stderr);
    let token = paid.json()["registrationId"].as_str().unwrap().to_owned();

    // Another sandbox may not open the file while this one holds it.
    let busy = paytoken(
        &["sandbox", "--addr", "127.0.0.1:0", "--state", file.path()],
        &[],
    )
    .await;
    assert_eq!(busy.code, 2, "{}", busy.stderr);
    assert!(busy.stderr.contains("in use"), "{}", busy.stderr);
    assert!(busy.stderr.contains(file.path()), "{}", busy.stderr);

    // SIGKILL: no shutdown, no flush.
    first.kill().unwrap();
    let _ = first.wait();

    let (mut second, announcement) =
        sandbox_process(&["--addr", "127.0.0.1:0", "--state", file.path()]).await;
    let (flags, key) = announced_merchant(&announcement);
    let repeated = with_flags(
        &flags,
        &key,
        &[
            "charge",
            &token,
            "--amount",
            "9.99",
            "--currency",
            "EUR",
            "--recurring",
            "repeated",
        ],
    )
    .await;
    assert_eq!(repeated.code, 0, "{}{}", repeated.stdout, repeated.stderr);
    let cards = with_flags(&flags, &key, &["cards"]).await;
    assert_eq!(cards.code, 0, "{}", cards.stderr);
    assert!(cards.stdout.contains(&token), "{}", cards.stdout);
    let invoices = with_flags(&flags, &key, &["invoices", "--all"]).await;
    assert_eq!(invoices.code, 0, "{}", invoices.stderr);
    assert!(
        invoices.stdout.contains("order kept 1"),
        "the paid invoice: {}",
        invoices.stdout
    );
    let again = with_flags(&flags, &key, &pay).await;
    assert_eq!(
        again.code, 3,
        "a used merchant transaction id: {}",
        again.stdout
    );
    assert!(again.stdout.contains("30006"), "{}", again.stdout);
    second.kill().unwrap();
    let _ = second.wait();
}

/// A client for the merchant a `paytoken sandbox` announced.
fn client_of(announcement: &str) -> paytoken::Client {
    let announced: serde_json::Value = serde_json::from_str(announcement).unwrap();
    let text = |name: &str| announced[name].as_str().unwrap().to_owned();
    let mut builder = paytoken::Client::builder()
        .base_url(text("baseUrl"))
        .allow_http(true)
        .credentials(paytoken::Credentials::merchant(
            text("memberId").parse().unwrap(),
            paytoken::SecureKey::new(text("secureKey")).unwrap(),
        ))
        .fetch_auth_token(
            text("partnerId").parse().unwrap(),
            paytoken::Username::new(text("username")).unwrap(),
        )
        // One attempt: a payment is never sent twice anyway, and a dead sandbox is news.
        .request_timeout(std::time::Duration::from_secs(5));
    if let Some(terminal) = announced["terminalId"].as_str() {
        builder = builder.terminal_id(terminal.parse().unwrap());
    }
    builder.build().unwrap()
}

/// What a client saw of one payment.
#[derive(Debug)]
enum Seen {
    Approved(paytoken::PaymentId),
    Refused,
    Unknown,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sandbox_killed_under_load_keeps_every_payment_it_approved_once_and_no_other() {
    use paytoken::ops::inquiry::Inquiry;
    use paytoken::ops::payment::Payment;

    let file = TempFile::new("crash");
    let (mut first, announcement) =
        sandbox_process(&["--addr", "127.0.0.1:0", "--state", file.path()]).await;
    let client = std::sync::Arc::new(client_of(&announcement));
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut clients = Vec::new();
    for worker in 0..16 {
        let client = std::sync::Arc::clone(&client);
        let stop = std::sync::Arc::clone(&stop);
        clients.push(tokio::spawn(async move {
            let mut seen = Vec::new();
            for n in 0.. {
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    break;
                }
                let order: paytoken::MerchantTransactionId =
                    format!("crash {worker} {n}").parse().unwrap();
                // Every fifth is above the gateway's limit: refused, nothing made.
                let amount = if n % 5 == 4 { "2000000000.00" } else { "10.00" };
                let card = paytoken_sandbox::samples::card(cards::APPROVED).unwrap();
                let payment = Payment::new(
                    order.clone(),
                    amount.parse().unwrap(),
                    "EUR".parse().unwrap(),
                    card,
                );
                let outcome = match client.pay(&payment).await {
                    Ok(transaction) if transaction.is_approved() => {
                        Seen::Approved(transaction.payment_id)
                    }
                    Ok(other) => panic!("neither approved nor refused: {other:?}"),
                    Err(error) if error.refusal().is_some() => Seen::Refused,
                    Err(_) => Seen::Unknown,
                };
                let unknown = matches!(outcome, Seen::Unknown);
                seen.push((order, outcome));
                if unknown {
                    break;
                }
            }
            seen
        }));
    }
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    // SIGKILL in the middle of the load.
    first.kill().unwrap();
    let _ = first.wait();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut seen = Vec::new();
    for handle in clients {
        seen.extend(handle.await.unwrap());
    }

    let (mut second, announcement) =
        sandbox_process(&["--addr", "127.0.0.1:0", "--state", file.path()]).await;
    let client = client_of(&announcement);
    let (mut approved, mut refused, mut unknown) = (0, 0, 0);
    for (order, outcome) in &seen {
        let found = client
            .inquiry(&Inquiry::ByMerchantTransactionId(order.clone()))
            .await;
        match outcome {
            Seen::Approved(payment_id) => {
                approved += 1;
                let found = found.unwrap_or_else(|e| panic!("approved {order} is lost: {e}"));
                assert_eq!(found.payment_id, *payment_id, "{order}: the same payment");
                assert!(found.is_approved(), "{order}");
            }
            Seen::Refused => {
                refused += 1;
                let error = found.unwrap_err();
                assert_eq!(
                    error.refusal().unwrap().result.code.as_str(),
                    "30040",
                    "refused {order} exists"
                );
            }
            // In flight when the process died: either is right.
            Seen::Unknown => unknown += 1,
        }
    }
    second.kill().unwrap();
    let _ = second.wait();
    println!(
        "crash under load: {approved} approved and found once after the restart, {refused} refused and absent, {unknown} in flight at the kill"
    );
    assert!(approved > 16, "the load ran: {approved} approved");
}
