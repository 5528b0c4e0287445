//! The sandbox under hostile clients: connections that never finish their request, fault
//! directives that ask for forever, bodies of thousands of fields, fields of any length,
//! values no gateway would take, and a client that never stops storing. Each test asserts
//! behaviour; times appear only as generous guards against a hang.

use crate::common;

use std::time::Duration;

use common::*;
use paytoken_protocol::Operation as _;
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;
use paytoken_sandbox::{FAULT_HEADER, Sandbox};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A connection that sends its headers and ten bytes of a hundred-byte body, then waits.
async fn slow_body(sandbox: &Sandbox) -> TcpStream {
    let mut stream = TcpStream::connect(sandbox.address()).await.unwrap();
    let head = "POST /transactionServices/REST/v1/getCardsAndAccounts HTTP/1.1\r\nHost: s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nauthentica";
    stream.write_all(head.as_bytes()).await.unwrap();
    stream
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_slow_bodies_starve_nobody_and_are_closed_at_their_deadline() {
    let sandbox = Sandbox::builder()
        .request_deadline(Duration::from_millis(500))
        .start()
        .await
        .unwrap();
    let mut slow = Vec::new();
    for _ in 0..1000 {
        slow.push(slow_body(&sandbox).await);
    }
    // A normal request, while all of them hold their connections.
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let started = std::time::Instant::now();
    let list = tokio::time::timeout(
        Duration::from_secs(30),
        call(&sandbox, &context, &CardsAndAccounts::all()),
    )
    .await
    .expect("the normal request is answered")
    .unwrap();
    assert!(list.cards.is_empty());
    println!(
        "1,000 slow bodies open: a normal request answered in {:.2} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );
    // Past the deadline, every slow one is answered 408 and closed.
    for stream in &mut slow {
        let mut answer = Vec::new();
        tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut answer))
            .await
            .expect("closed, not left open")
            .unwrap();
        assert!(
            answer.starts_with(b"HTTP/1.1 408"),
            "{:?}",
            String::from_utf8_lossy(&answer)
        );
    }
}

#[tokio::test]
async fn headers_that_never_end_are_closed_at_the_deadline() {
    let sandbox = Sandbox::builder()
        .request_deadline(Duration::from_millis(300))
        .start()
        .await
        .unwrap();
    let mut stream = TcpStream::connect(sandbox.address()).await.unwrap();
    stream
        .write_all(b"POST /x HTTP/1.1\r\nHost: s\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut answer))
        .await
        .expect("closed, not left open")
        .unwrap();
}

#[tokio::test]
async fn connections_past_the_cap_are_closed_and_the_sandbox_still_serves() {
    let sandbox = Sandbox::builder()
        .max_connections(8)
        .request_deadline(Duration::from_millis(400))
        .start()
        .await
        .unwrap();
    let mut held = Vec::new();
    for _ in 0..8 {
        held.push(slow_body(&sandbox).await);
    }
    // The ninth is closed at once, without an answer.
    let mut ninth = TcpStream::connect(sandbox.address()).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(30), ninth.read_to_end(&mut answer))
        .await
        .expect("closed at once");
    assert!(answer.is_empty());
    // Once the held ones reach their deadline, the sandbox serves again.
    drop(held);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    call(&sandbox, &context, &CardsAndAccounts::all())
        .await
        .unwrap();
}

#[tokio::test]
async fn a_fault_directive_cannot_ask_for_forever() {
    let sandbox = Sandbox::start().await.unwrap();
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let request = CardsAndAccounts::all().request(&context).unwrap();
    for directive in [
        "latency=18446744073709551615s",
        "stall=301s",
        "latency=999999ms",
    ] {
        let raw = tokio::time::timeout(
            Duration::from_secs(30),
            send_with(&sandbox, &request, &[(FAULT_HEADER, directive)]),
        )
        .await
        .expect("refused at once, not waited out");
        assert_eq!(raw.status, 400, "{directive}: {}", raw.text());
        assert!(raw.text().contains("300s"), "{}", raw.text());
    }
}

/// The codes of a refusal of `operation`, sent by the protocol crate.
async fn refused<O: paytoken_protocol::Operation>(
    sandbox: &Sandbox,
    context: &paytoken_protocol::Context,
    operation: &O,
) -> String
where
    O::Response: std::fmt::Debug,
{
    let error = call(sandbox, context, operation).await.unwrap_err();
    error
        .refusal()
        .unwrap_or_else(|| panic!("not a refusal: {error}"))
        .result
        .code
        .to_string()
}

/// A form of 14,000 distinct fields, names of one to three characters without values:
/// 52 KiB, under the body limit.
fn huge_form() -> String {
    let digits = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let name = |mut n: usize| {
        let mut name = String::new();
        loop {
            name.push(char::from(digits[n % 62]));
            n /= 62;
            if n == 0 {
                break name;
            }
            n -= 1;
        }
    };
    let body: String = (0..14_000).map(|i| name(i) + "&").collect();
    assert!(body.len() < 64 * 1024, "{} bytes", body.len());
    body
}

#[tokio::test]
async fn a_body_of_fourteen_thousand_fields_is_refused_with_its_code() {
    let sandbox = Sandbox::start().await.unwrap();
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let token = context
        .auth_token
        .as_ref()
        .unwrap()
        .expose_secret()
        .to_owned();
    let body = huge_form();
    let raw = exchange(
        sandbox.address(),
        "POST",
        "/transactionServices/REST/v1/getCardsAndAccounts",
        &[
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("AuthToken", &token),
        ],
        body.as_bytes(),
    )
    .await
    .unwrap();
    assert_eq!(raw.status, 200);
    assert_eq!(raw.json()["result"]["code"], "30014", "{}", raw.text());
}

#[tokio::test]
async fn values_no_gateway_would_take_are_refused_each_with_its_code() {
    use paytoken_protocol::ops::payment::Payment;
    use paytoken_protocol::ops::registration::Registration;
    use paytoken_types::{Amount, CardNumber, PaymentBrand};

    let sandbox = Sandbox::start().await.unwrap();
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let pay = |amount: Amount, currency: &str, card: paytoken_types::Card| {
        Payment::new(
            order_id().parse().unwrap(),
            amount,
            currency.parse().unwrap(),
            card,
        )
    };
    let fifty = Amount::from_minor_units(5000);
    let huge = Amount::from_minor_units(u64::MAX);
    assert_eq!(
        refused(
            &sandbox,
            &context,
            &pay(huge, "EUR", card(paytoken_sandbox::cards::APPROVED))
        )
        .await,
        "30017"
    );
    assert_eq!(
        refused(
            &sandbox,
            &context,
            &pay(fifty, "XYZ", card(paytoken_sandbox::cards::APPROVED))
        )
        .await,
        "30016"
    );
    let zeros = paytoken_types::Card {
        number: CardNumber::new("0000000000000000").unwrap(),
        ..card(paytoken_sandbox::cards::APPROVED)
    };
    let zeros = pay(fifty, "EUR", zeros).brand(PaymentBrand::Visa);
    assert_eq!(refused(&sandbox, &context, &zeros).await, "30002");
    let far = paytoken_types::Card {
        expiry_year: "9999".parse().unwrap(),
        ..card(paytoken_sandbox::cards::APPROVED)
    };
    assert_eq!(
        refused(&sandbox, &context, &pay(fifty, "EUR", far)).await,
        "30019"
    );
    let visa_as_mc =
        pay(fifty, "EUR", card(paytoken_sandbox::cards::APPROVED)).brand(PaymentBrand::Mastercard);
    assert_eq!(refused(&sandbox, &context, &visa_as_mc).await, "30018");
    let registration =
        Registration::card(card(paytoken_sandbox::cards::APPROVED)).brand(PaymentBrand::Amex);
    assert_eq!(refused(&sandbox, &context, &registration).await, "30018");
    // The platform's names for a brand are the brand: MASTERCARD for an MC card is fine.
    let named = pay(
        fifty,
        "EUR",
        card(paytoken_sandbox::cards::MASTERCARD_APPROVED),
    )
    .brand(PaymentBrand::Other("MASTERCARD".into()));
    call(&sandbox, &context, &named).await.unwrap();
}

#[tokio::test]
async fn an_installment_count_is_plain_digits_and_a_long_value_is_refused() {
    let sandbox = Sandbox::start().await.unwrap();
    let merchant = merchant(&sandbox);
    let context = signed_in(&sandbox, merchant).await;
    let token = context
        .auth_token
        .as_ref()
        .unwrap()
        .expose_secret()
        .to_owned();
    let key = merchant.secure_key.expose_secret();
    let member = merchant.member_id.as_str();
    let registration = "8a82944a4cc25ebf014cc2c782423202";
    let checksum = sign(&[member, key, registration, "5.00"]);
    let raw = post(
        &sandbox,
        &format!("/transactionServices/REST/v1/paywithtoken/{registration}"),
        Some(&token),
        &[
            ("authentication.memberId", member),
            ("authentication.checksum", &checksum),
            ("amount", "5.00"),
            ("currency", "EUR"),
            ("paymentType", "DB"),
            ("installment", "+3"),
        ],
    )
    .await;
    assert!(
        raw.json()["result"]["code"]
            .as_str()
            .unwrap()
            .contains("30008"),
        "{}",
        raw.text()
    );
    let long = "x".repeat(70_000 / 4);
    let raw = post(
        &sandbox,
        "/transactionServices/REST/v1/getCardsAndAccounts",
        Some(&token),
        &[
            ("authentication.memberId", member),
            ("orderDescriptor", &long),
        ],
    )
    .await;
    assert_eq!(raw.json()["result"]["code"], "30015", "{}", raw.text());
}

/// Five payments in a sandbox keeping five records of each kind and two live tokens.
async fn filled(
    sandbox: &Sandbox,
) -> (
    paytoken_protocol::Context,
    Vec<paytoken_protocol::Transaction>,
) {
    use paytoken_protocol::ops::payment::Payment;
    let context = signed_in(sandbox, merchant(sandbox)).await;
    let pay = || {
        Payment::new(
            order_id().parse().unwrap(),
            "1.00".parse().unwrap(),
            "EUR".parse().unwrap(),
            card(paytoken_sandbox::cards::APPROVED),
        )
    };
    let mut paid = Vec::new();
    for _ in 0..5 {
        paid.push(call(sandbox, &context, &pay()).await.unwrap());
    }
    assert_eq!(refused(sandbox, &context, &pay()).await, "90020");
    (context, paid)
}

/// Signs in afresh, then reads: an inquiry, the cards, an invoice page.
async fn reads_still_work(sandbox: &Sandbox, paid: &paytoken_protocol::Transaction) {
    use paytoken_protocol::ops::inquiry::Inquiry;
    use paytoken_protocol::ops::invoice_list::InvoiceList;
    let context = signed_in(sandbox, merchant(sandbox)).await;
    let found = call(sandbox, &context, &Inquiry::ByPaymentId(paid.payment_id))
        .await
        .unwrap();
    assert_eq!(found.payment_id, paid.payment_id);
    call(sandbox, &context, &CardsAndAccounts::all())
        .await
        .unwrap();
    call(sandbox, &context, &InvoiceList::new(1, 10))
        .await
        .unwrap();
}

/// Regression: auth tokens counted against the records' bound, so a full sandbox issued
/// no token and no client could read anything; on the file store the file was unusable
/// after a restart too. On both stores (`PAYTOKEN_TEST_STORE`).
#[tokio::test]
async fn a_full_sandbox_refuses_new_records_and_still_signs_in_and_answers_reads() {
    let clock = std::sync::Arc::new(paytoken_sandbox::ManualClock::at_unix_seconds(
        1_795_000_000,
    ));
    let sandbox = builder()
        .clock(clock.clone())
        .max_records(5)
        .max_tokens(2)
        .start()
        .await
        .unwrap();
    let (first_context, paid) = filled(&sandbox).await;
    for _ in 0..3 {
        // Each token a second after the one before: the first expires first.
        clock.advance(Duration::from_secs(1));
        reads_still_work(&sandbox, &paid[0]).await;
    }
    // Tokens have their own bound: past it, the one that expires first was let go.
    let error = call(&sandbox, &first_context, &CardsAndAccounts::all())
        .await
        .unwrap_err();
    assert_eq!(
        error
            .refusal()
            .map(|refusal| refusal.result.code.as_str().to_owned()),
        Some("20002".to_owned()),
        "{error}"
    );
}

#[tokio::test]
async fn a_full_state_file_still_signs_in_and_answers_reads_after_a_restart() {
    let folder = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sandbox-stores");
    std::fs::create_dir_all(&folder).unwrap();
    let file = folder.join(format!("full-{}.db", order_id()));
    let start = || {
        Sandbox::builder()
            .state_file(&file)
            .max_records(5)
            .max_tokens(2)
            .start()
    };
    let sandbox = start().await.unwrap();
    let (_, paid) = filled(&sandbox).await;
    sandbox.shutdown().await;
    let sandbox = start().await.unwrap();
    reads_still_work(&sandbox, &paid[4]).await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    use paytoken_protocol::ops::payment::Payment;
    let more = Payment::new(
        order_id().parse().unwrap(),
        "1.00".parse().unwrap(),
        "EUR".parse().unwrap(),
        card(paytoken_sandbox::cards::APPROVED),
    );
    assert_eq!(refused(&sandbox, &context, &more).await, "90020");
    sandbox.shutdown().await;
    let _ = std::fs::remove_file(&file);
}

/// The median and the largest of `samples`.
fn median_and_max(mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    (samples[samples.len() / 2], *samples.last().unwrap())
}

/// A normal client's latencies over `rounds` calls.
async fn normal_latencies(sandbox: &Sandbox, rounds: usize) -> Vec<Duration> {
    let context = signed_in(sandbox, merchant(sandbox)).await;
    let mut samples = Vec::new();
    for _ in 0..rounds {
        let started = std::time::Instant::now();
        call(sandbox, &context, &CardsAndAccounts::all())
            .await
            .unwrap();
        samples.push(started.elapsed());
    }
    samples
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_flooding_huge_forms_do_not_starve_a_normal_one() {
    let sandbox = std::sync::Arc::new(Sandbox::start().await.unwrap());
    let (quiet_median, quiet_max) = median_and_max(normal_latencies(&sandbox, 50).await);
    let body = std::sync::Arc::new(huge_form());
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let attackers: Vec<_> = (0..2)
        .map(|_| {
            let (sandbox, body, stop) = (sandbox.clone(), body.clone(), stop.clone());
            tokio::spawn(async move {
                let mut refused = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let raw = exchange(
                        sandbox.address(),
                        "POST",
                        "/transactionServices/REST/v1/getCardsAndAccounts",
                        &[("Content-Type", "application/x-www-form-urlencoded")],
                        body.as_bytes(),
                    )
                    .await
                    .unwrap();
                    assert_eq!(raw.json()["result"]["code"], "30014");
                    refused += 1;
                }
                refused
            })
        })
        .collect();
    let (median, max) = median_and_max(normal_latencies(&sandbox, 50).await);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut refused = 0;
    for attacker in attackers {
        refused += attacker.await.unwrap();
    }
    assert!(refused > 0);
    println!(
        "two clients flooding 14,000-field forms ({refused} refused): normal requests {median:.2?} median, {max:.2?} max (quiet: {quiet_median:.2?}, {quiet_max:.2?})"
    );
}

/// The refusal code of a read with `context`, or `None` when it was answered.
async fn read_refused(sandbox: &Sandbox, context: &paytoken_protocol::Context) -> Option<String> {
    call(sandbox, context, &CardsAndAccounts::all())
        .await
        .err()
        .map(|error| error.refusal().unwrap().result.code.as_str().to_owned())
}

#[tokio::test]
async fn auth_tokens_have_their_own_bound_and_expire_as_documented() {
    let clock = std::sync::Arc::new(paytoken_sandbox::ManualClock::at_unix_seconds(
        1_795_000_000,
    ));
    // One record of each kind, three tokens: the records' bound does not hold tokens back.
    let sandbox = builder()
        .clock(clock.clone())
        .max_records(1)
        .max_tokens(3)
        .start()
        .await
        .unwrap();
    let mut signed = Vec::new();
    for _ in 0..4 {
        clock.advance(Duration::from_secs(1));
        signed.push(signed_in(&sandbox, merchant(&sandbox)).await);
    }
    // The fourth let go of the first, which expired first; the three others are live.
    assert_eq!(
        read_refused(&sandbox, &signed[0]).await.as_deref(),
        Some("20002")
    );
    for context in &signed[1..] {
        assert_eq!(read_refused(&sandbox, context).await, None);
    }
    // Past their lifetime they are gone, and a new one is issued.
    clock.advance(paytoken_sandbox::AUTH_TOKEN_LIFETIME);
    let fresh = signed_in(&sandbox, merchant(&sandbox)).await;
    assert_eq!(
        read_refused(&sandbox, &signed[3]).await.as_deref(),
        Some("20002")
    );
    assert_eq!(read_refused(&sandbox, &fresh).await, None);
}
