//! The file store (`SandboxBuilder::state_file`): what one sandbox remembered, the next on
//! the same file finds; a file that is not a sandbox's, of a newer schema, or in use, is
//! refused with a message that names it, and never overwritten.

use std::path::PathBuf;

use crate::common;

use common::*;
use paytoken_protocol::ops::capture::Capture;
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;
use paytoken_protocol::ops::customer_signup::CustomerSignup;
use paytoken_protocol::ops::inquiry::Inquiry;
use paytoken_protocol::ops::invoice_list::InvoiceList;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::ops::refund::Refund;
use paytoken_protocol::ops::token_payment::TokenPayment;
use paytoken_protocol::{PaymentStatus, Transaction};
use paytoken_sandbox::{Error, SEEDED_INVOICES_PER_MERCHANT, Sandbox, cards};
use paytoken_types::{Customer, Email, PaymentType, RecurringType};

/// A fresh path in the system's temporary folder, removed (with SQLite's files beside it)
/// when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str) -> Self {
        let path = std::env::temp_dir().join(format!(
            "paytoken-{name}-{}-{}.db",
            std::process::id(),
            order_id()
        ));
        Self(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = paytoken_sandbox::remove_state_file(&self.0);
    }
}

async fn on_file(file: &TempFile) -> Sandbox {
    Sandbox::builder()
        .state_file(&file.0)
        .start()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_second_sandbox_on_the_file_finds_what_the_first_remembered() {
    let file = TempFile::new("restart");
    let sandbox = on_file(&file).await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let signup = CustomerSignup::new(Customer {
        given_name: Some("Ada".into()),
        surname: Some("Lovelace".into()),
        email: Some(Email::new("ada@example.com").unwrap()),
        ..Customer::default()
    });
    let customer = call(&sandbox, &context, &signup).await.unwrap().customer_id;
    let order = order_id();
    let pay = Payment::new(
        order.parse().unwrap(),
        "50.00".parse().unwrap(),
        "EUR".parse().unwrap(),
        card(cards::APPROVED),
    )
    .store_card()
    .recurring(RecurringType::Initial);
    let paid = call(&sandbox, &context, &pay).await.unwrap();
    let token = *paid.registration_id.as_ref().unwrap().value().unwrap();
    let mut authorisation = Payment::new(
        order_id().parse().unwrap(),
        "30.00".parse().unwrap(),
        "EUR".parse().unwrap(),
        card(cards::APPROVED),
    );
    authorisation.payment_type = PaymentType::PreAuthorization;
    let authorised = call(&sandbox, &context, &authorisation).await.unwrap();
    let capture = Capture::new(
        authorised.payment_id,
        "30.00".parse().unwrap(),
        "EUR".parse().unwrap(),
    );
    call(&sandbox, &context, &capture).await.unwrap();
    let refund = Refund::new(
        authorised.payment_id,
        "10.00".parse().unwrap(),
        "EUR".parse().unwrap(),
    );
    call(&sandbox, &context, &refund).await.unwrap();
    let books_before = sandbox.books();
    sandbox.shutdown().await;

    let sandbox = on_file(&file).await;
    // The auth token it issued still works: no new sign-in.
    let repeated = TokenPayment::new(token, "9.99".parse().unwrap(), "EUR".parse().unwrap())
        .recurring(RecurringType::Repeated);
    let again = call(&sandbox, &context, &repeated).await.unwrap();
    assert_eq!(
        again.status,
        PaymentStatus::Approved,
        "the series INITIAL opened goes on"
    );
    assert_ne!(again.payment_id, paid.payment_id, "ids go on counting");
    let signed_up = CardsAndAccounts::of_customer(customer);
    assert!(
        call(&sandbox, &context, &signed_up).await.is_ok(),
        "the customer is known"
    );
    let listed = call(&sandbox, &context, &CardsAndAccounts::all())
        .await
        .unwrap();
    assert!(
        listed
            .cards
            .iter()
            .any(|card| card.registration_id.as_ref().and_then(|id| id.value()) == Some(&token))
    );
    let used = call(&sandbox, &context, &pay).await.unwrap_err();
    assert_eq!(
        used.refusal().unwrap().result.code.as_str(),
        "30006",
        "a used order id"
    );
    let found = call(&sandbox, &context, &Inquiry::ByPaymentId(paid.payment_id))
        .await
        .unwrap();
    assert_eq!(found.status, PaymentStatus::Approved);
    let invoices = call(&sandbox, &context, &InvoiceList::new(1, 100))
        .await
        .unwrap();
    assert!(
        invoices.invoices.len() > SEEDED_INVOICES_PER_MERCHANT,
        "seeded and paid ones"
    );
    let books_after = sandbox.books();
    assert_eq!(books_after[..books_before.len()], books_before[..]);
    // Another sandbox may not open the file while this one holds it.
    let second = Sandbox::builder()
        .state_file(&file.0)
        .start()
        .await
        .unwrap_err();
    assert!(matches!(second, Error::State { .. }), "{second}");
    assert!(second.to_string().contains("in use"), "{second}");
    // SQLite's own error is the source, not a part of the message.
    let cause = std::error::Error::source(&second).expect("SQLite's error");
    assert!(!second.to_string().contains(&cause.to_string()), "{second}");
    assert!(
        second.to_string().contains(&file.0.display().to_string()),
        "{second}"
    );
    sandbox.shutdown().await;
}

/// Starts a sandbox on `file`, which must be refused as not a sandbox's.
async fn refused_as_foreign(file: &TempFile) {
    let error = Sandbox::builder()
        .state_file(&file.0)
        .start()
        .await
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("not a paytoken sandbox state file"),
        "{error}"
    );
}

#[tokio::test]
async fn a_file_that_is_not_a_sandbox_s_is_refused_and_left_as_it_was() {
    let file = TempFile::new("foreign");
    let text = b"not a database, just someone's notes\n".repeat(200);
    std::fs::write(&file.0, &text).unwrap();
    refused_as_foreign(&file).await;
    assert_eq!(std::fs::read(&file.0).unwrap(), text, "never overwritten");
}

/// Regression: `journal_mode=WAL` and a write transaction ran before the file was known to
/// be a sandbox's, so another program's SQLite database changed (its bytes, its journal
/// mode) before it was refused.
#[tokio::test]
async fn another_program_s_database_is_refused_unchanged_by_hash_and_journal_mode() {
    let file = TempFile::new("another-program");
    {
        let connection = rusqlite::Connection::open(&file.0).unwrap();
        connection
            .execute_batch(
                "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine, not the sandbox''s');",
            )
            .unwrap();
    }
    let digest = |bytes: &[u8]| format!("{:x}", md5_oracle::compute(bytes));
    let before = digest(&std::fs::read(&file.0).unwrap());
    refused_as_foreign(&file).await;
    assert_eq!(
        digest(&std::fs::read(&file.0).unwrap()),
        before,
        "unchanged"
    );
    let connection = rusqlite::Connection::open(&file.0).unwrap();
    let journal: String = connection
        .query_row("PRAGMA journal_mode", [], |row| row.get(0))
        .unwrap();
    assert_eq!(journal, "delete", "its journal mode as it was");
}

#[tokio::test]
async fn the_readme_s_queries_read_the_file() {
    let (file, paid) = a_file_with_a_stored_card("queries", "12.34").await;

    let readme = include_str!("../../../../docs/SANDBOX.md");
    let queries: Vec<&str> = readme
        .split("```sql")
        .skip(1)
        .filter_map(|block| block.split("```").next())
        .flat_map(|block| block.split(';'))
        .filter(|query| {
            query
                .lines()
                .any(|line| !line.trim().is_empty() && !line.trim().starts_with("--"))
        })
        .collect();
    assert_eq!(queries.len(), 3, "{queries:?}");
    let connection = rusqlite::Connection::open(&file.0).unwrap();
    let mut found = Vec::new();
    for query in &queries {
        let mut statement = connection
            .prepare(query)
            .unwrap_or_else(|e| panic!("{e}: {query}"));
        let columns = statement.column_count();
        let rows: Vec<Vec<String>> = statement
            .query_map([], |row| {
                (0..columns)
                    .map(|column| {
                        row.get::<_, rusqlite::types::Value>(column)
                            .map(|value| format!("{value:?}"))
                    })
                    .collect()
            })
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        found.push(rows);
    }
    assert_eq!(found[0].len(), 1, "the merchant's token: {:?}", found[0]);
    assert!(
        found[1]
            .iter()
            .any(|row| row.iter().any(|value| value.contains("12.34"))),
        "{:?}",
        found[1]
    );
    assert!(
        found[1]
            .iter()
            .any(|row| row[0].contains(&paid.payment_id.to_string())),
        "{:?}",
        found[1]
    );
}

/// An auth token a file of an older version kept as itself.
const KEPT_TOKEN: &str = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvbGQifQ.a2VwdC1ieS12MQ";

#[tokio::test]
async fn a_file_of_schema_version_1_is_migrated_and_its_books_still_serve() {
    let file = TempFile::new("v1");
    {
        let connection = rusqlite::Connection::open(&file.0).unwrap();
        connection
            .execute_batch(include_str!("../fixtures/state-v1.sql"))
            .unwrap();
        // A token the file kept as itself, as versions before 4 did.
        connection
            .execute(
                "INSERT INTO tokens VALUES (?1, '100', '11344', 4102444800)",
                [KEPT_TOKEN],
            )
            .unwrap();
    }
    let sandbox = on_file(&file).await;
    // The token the old file kept still signs its merchant in.
    let kept = paytoken_protocol::Context {
        auth_token: Some(paytoken_protocol::AuthToken::new(KEPT_TOKEN).unwrap()),
        ..merchant(&sandbox).context()
    };
    call(&sandbox, &kept, &CardsAndAccounts::all())
        .await
        .unwrap();
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let token = "6f1e0b2c9d8a7b6c5d4e3f2a1b0c9d8e".parse().unwrap();
    let repeated = TokenPayment::new(token, "9.99".parse().unwrap(), "EUR".parse().unwrap())
        .recurring(RecurringType::Repeated);
    let charged = call(&sandbox, &context, &repeated).await.unwrap();
    assert_eq!(
        charged.status,
        PaymentStatus::Approved,
        "the v1 series goes on"
    );
    assert_eq!(
        charged.payment_id.to_string(),
        "60002",
        "ids go on from the file's"
    );
    let found = call(
        &sandbox,
        &context,
        &Inquiry::ByMerchantTransactionId("order v1 1".parse().unwrap()),
    )
    .await
    .unwrap();
    assert_eq!(found.payment_id.to_string(), "60001");
    let signup = CustomerSignup::new(Customer {
        given_name: Some("Ben".into()),
        surname: Some("Next".into()),
        email: Some(Email::new("next@example.com").unwrap()),
        ..Customer::default()
    });
    let next = call(&sandbox, &context, &signup).await.unwrap().customer_id;
    assert_eq!(
        next.to_string(),
        "1251",
        "customer ids go on from the file's"
    );
    sandbox.shutdown().await;

    let connection = rusqlite::Connection::open(&file.0).unwrap();
    let version: String = connection
        .query_row(
            "SELECT value FROM meta WHERE key = 'schema_version'",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(version, "4");
    let digests: Vec<String> = connection
        .prepare("SELECT digest FROM tokens")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(digests.len() >= 2, "{digests:?}");
    assert!(
        digests
            .iter()
            .all(|digest| digest.len() == 32 && digest != KEPT_TOKEN),
        "tokens are kept as digests only: {digests:?}"
    );
    let notifications: i64 = connection
        .query_row("SELECT count(*) FROM notifications", [], |row| row.get(0))
        .unwrap();
    assert_eq!(notifications, 0, "the table version 2 adds");
    let requests: i64 = connection
        .query_row("SELECT count(*) FROM requests", [], |row| row.get(0))
        .unwrap();
    assert!(
        requests > 0,
        "the table version 3 adds, kept from the migrated sandbox's calls"
    );
}

#[tokio::test]
async fn a_file_of_a_newer_schema_is_refused_and_left_as_it_was() {
    let file = TempFile::new("newer");
    on_file(&file).await.shutdown().await;
    {
        let connection = rusqlite::Connection::open(&file.0).unwrap();
        connection
            .execute(
                "UPDATE meta SET value = '99' WHERE key = 'schema_version'",
                [],
            )
            .unwrap();
    }
    let before = std::fs::read(&file.0).unwrap();
    let error = Sandbox::builder()
        .state_file(&file.0)
        .start()
        .await
        .unwrap_err();
    assert!(error.to_string().contains("newer"), "{error}");
    assert_eq!(std::fs::read(&file.0).unwrap(), before, "never overwritten");
}

#[tokio::test]
async fn notifications_and_their_attempts_outlive_the_sandbox() {
    let file = TempFile::new("notified");
    let listener = listener::Listener::start(&[503]).await;
    let sandbox = Sandbox::builder()
        .state_file(&file.0)
        .notifications(paytoken_sandbox::NotificationPolicy {
            first_retry_after: std::time::Duration::from_millis(10),
            ..paytoken_sandbox::NotificationPolicy::default()
        })
        .start()
        .await
        .unwrap();
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let pay = Payment::new(
        order_id().parse().unwrap(),
        "50.00".parse().unwrap(),
        "EUR".parse().unwrap(),
        card(cards::THREE_D_SECURE),
    )
    .notification_url(listener.url());
    let waiting = call(&sandbox, &context, &pay).await.unwrap();
    let page = format!("/sandbox/3ds/{}", waiting.payment_id);
    let headers = [("Content-Type", "application/x-www-form-urlencoded")];
    exchange(
        sandbox.address(),
        "POST",
        &page,
        &headers,
        b"decision=approve",
    )
    .await
    .unwrap();
    listener.bodies(2).await;
    for _ in 0..500 {
        if sandbox
            .notifications()
            .first()
            .is_some_and(|sent| sent.delivered)
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let before = sandbox.notifications();
    sandbox.shutdown().await;

    let sandbox = on_file(&file).await;
    let after = sandbox.notifications();
    assert_eq!(after, before);
    assert_eq!(
        after[0].attempts,
        [
            paytoken_sandbox::notifications::Attempt::Answered(503),
            paytoken_sandbox::notifications::Attempt::Answered(200)
        ]
    );
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_damaged_file_is_refused_and_left_as_it_was() {
    let file = TempFile::new("damaged");
    let sandbox = on_file(&file).await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    for _ in 0..20 {
        let pay = Payment::new(
            order_id().parse().unwrap(),
            "1.00".parse().unwrap(),
            "EUR".parse().unwrap(),
            card(cards::APPROVED),
        );
        call(&sandbox, &context, &pay).await.unwrap();
    }
    sandbox.shutdown().await;
    {
        // Fold the WAL into the file, so that the damage below is in what is read.
        let connection = rusqlite::Connection::open(&file.0).unwrap();
        connection
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .unwrap();
    }
    let mut bytes = std::fs::read(&file.0).unwrap();
    assert!(bytes.len() > 8192, "more than two pages");
    // Scribble over the second page: a table's page, past the header.
    for byte in &mut bytes[4096..4096 + 512] {
        *byte = 0xA5;
    }
    std::fs::write(&file.0, &bytes).unwrap();
    let error = Sandbox::builder()
        .state_file(&file.0)
        .start()
        .await
        .unwrap_err();
    assert!(matches!(error, Error::State { .. }), "{error}");
    assert_eq!(std::fs::read(&file.0).unwrap(), bytes, "never overwritten");
}

/// A state file of a sandbox that made one approved payment of `amount`, storing its card,
/// and stopped; and the payment.
async fn a_file_with_a_stored_card(name: &str, amount: &str) -> (TempFile, Transaction) {
    let file = TempFile::new(name);
    let sandbox = on_file(&file).await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let pay = Payment::new(
        order_id().parse().unwrap(),
        amount.parse().unwrap(),
        "EUR".parse().unwrap(),
        card(cards::APPROVED),
    )
    .store_card();
    let paid = call(&sandbox, &context, &pay).await.unwrap();
    sandbox.shutdown().await;
    (file, paid)
}

#[tokio::test]
async fn a_column_holding_what_no_sandbox_writes_is_refused_by_its_name() {
    // Each value an SQL literal.
    for (table, column, value) in [
        ("payments", "status", "'Q'"),
        ("payments", "refunded_minor", "-1"),
        ("payments", "captured_minor", "-5"),
        ("payments", "card_behaviour", "'stolen'"),
        ("registrations", "card_bin", "NULL"),
    ] {
        let (file, _) = a_file_with_a_stored_card("column", "1.00").await;
        let changed = rusqlite::Connection::open(&file.0)
            .unwrap()
            .execute(&format!("UPDATE {table} SET {column} = {value}"), [])
            .unwrap();
        assert_eq!(changed, 1, "{table}.{column}");
        let error = Sandbox::builder()
            .state_file(&file.0)
            .start()
            .await
            .unwrap_err();
        let refusal = format!("{table}.{column} holds a value the sandbox never writes");
        assert!(error.to_string().contains(&refusal), "{error}");
    }
}

#[tokio::test]
async fn the_file_holds_no_card_number_and_no_key() {
    // No column holds a CVV (schema.sql); a number or the key would show as text.
    let file = TempFile::new("secrets");
    let sandbox = on_file(&file).await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    for number in [
        cards::APPROVED,
        cards::MASTERCARD_APPROVED,
        cards::INSTALLMENTS,
    ] {
        let pay = Payment::new(
            order_id().parse().unwrap(),
            "1.00".parse().unwrap(),
            "EUR".parse().unwrap(),
            card(number),
        )
        .store_card();
        call(&sandbox, &context, &pay).await.unwrap();
    }
    let key = merchant(&sandbox).secure_key.expose_secret().to_owned();
    sandbox.shutdown().await;
    let mut everything = Vec::new();
    for suffix in ["", "-wal"] {
        let mut path = file.0.clone().into_os_string();
        path.push(suffix);
        everything.extend(std::fs::read(path).unwrap_or_default());
    }
    let text = String::from_utf8_lossy(&everything);
    for secret in [
        cards::APPROVED,
        cards::MASTERCARD_APPROVED,
        cards::INSTALLMENTS,
        key.as_str(),
    ] {
        assert!(!text.contains(secret), "the file holds {secret}");
    }
    assert!(
        text.contains("400000"),
        "the BIN is kept, as the gateway shows it"
    );
}
