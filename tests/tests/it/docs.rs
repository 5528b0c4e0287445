//! What README and the sandbox's manual say that the code says too: the test cards, listed
//! in both (README names them for a newcomer, the manual gives each one's codes), are the
//! sandbox's, all of them.

use std::collections::BTreeSet;
use std::path::Path;

use paytoken_sandbox::cards;

/// The card numbers of `doc`'s tables: a row's first cell, 12 to 19 digits in backticks.
fn card_rows(doc: &str) -> BTreeSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let text = std::fs::read_to_string(root.join(doc)).unwrap();
    text.lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split_once('`'))
        .map(|(cell, _)| cell)
        .filter(|cell| (12..=19).contains(&cell.len()) && cell.bytes().all(|b| b.is_ascii_digit()))
        .map(str::to_owned)
        .collect()
}

#[test]
fn readme_and_the_sandbox_manual_list_every_test_card_and_no_other() {
    let sandbox: BTreeSet<String> = [
        cards::APPROVED,
        cards::THREE_D_SECURE,
        cards::DECLINED,
        cards::INSUFFICIENT_FUNDS,
        cards::PENDING,
        cards::TIMEOUT,
        cards::MASTERCARD_APPROVED,
        cards::INSTALLMENTS,
    ]
    .map(str::to_owned)
    .into();
    for doc in ["README.md", "docs/SANDBOX.md"] {
        assert_eq!(card_rows(doc), sandbox, "{doc}");
    }
}
