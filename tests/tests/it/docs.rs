//! What README and the sandbox's manual say that the code says too: the test cards, listed
//! in both (README names them for a newcomer, the manual gives each one's codes), are the
//! sandbox's, all of them; and the manual's table of result codes is the codes the sandbox
//! answers with (one constant each in `codes.rs`), all of them.

use std::collections::BTreeSet;
use std::path::Path;

use paytoken_sandbox::cards;

/// The text of `file`, from the project's root.
fn read(file: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    std::fs::read_to_string(root.join(file)).unwrap()
}

/// The card numbers of `doc`'s tables: a row's first cell, 12 to 19 digits in backticks.
fn card_rows(doc: &str) -> BTreeSet<String> {
    read(doc)
        .lines()
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

/// The (code, description) rows of the result codes' table in `lines`; a `*name*`
/// placeholder left out.
fn code_rows<'a>(lines: impl Iterator<Item = &'a str>) -> BTreeSet<(String, String)> {
    lines
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|row| {
            let (code, rest) = row.split_once("` | ")?;
            let (description, _) = rest.split_once(" | ")?;
            let digits = code.bytes().all(|b| b.is_ascii_digit());
            digits.then(|| {
                (
                    code.to_owned(),
                    description.replace("*name*", "").trim_end().to_owned(),
                )
            })
        })
        .collect()
}

#[test]
fn the_manual_lists_every_result_code_the_sandbox_answers() {
    // Every `code("30007", "Missing field: ")` of codes.rs, one to a constant, however
    // rustfmt wrapped it.
    let source = read("crates/paytoken-sandbox/src/codes.rs");
    let flat = source.split_whitespace().collect::<Vec<_>>().join(" ");
    let answered: BTreeSet<(String, String)> = flat
        .split("code(")
        .skip(1)
        .filter_map(|rest| {
            let rest = rest.trim_start().strip_prefix('"')?;
            let (code, rest) = rest.split_once("\", \"")?;
            let (description, _) = rest.split_once('"')?;
            Some((code.to_owned(), description.trim_end().to_owned()))
        })
        .collect();
    assert!(answered.len() > 40, "{answered:?}");
    let manual = read("docs/SANDBOX.md");
    let section = manual.split("## Result codes").nth(1).unwrap();
    assert_eq!(code_rows(section.lines()), answered, "docs/SANDBOX.md");
}
