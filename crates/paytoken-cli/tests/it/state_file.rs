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
        for suffix in ["", "-wal", "-shm"] {
            let mut path = self.0.clone().into_os_string();
            path.push(suffix);
            let _ = std::fs::remove_file(path);
        }
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
        "--register",
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
