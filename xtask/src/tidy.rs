//! The conventions a newcomer can rely on, checked (as rust-analyzer's tidy test does):
//!
//! - every crate's root (`src/lib.rs`, or `src/main.rs` for a program) opens with its docs;
//! - no unfinished or debugging macro (`todo`, `unimplemented`, `dbg`) in any source;
//! - no test file with lint allowances of its own: integration tests are one binary per
//!   crate whose `main.rs` says `#![cfg(test)]`, so `clippy.toml`'s test settings cover
//!   them; an allowance a test needs goes on the item, with its reason;
//! - no source file over [`MAX_LINES`] lines;
//! - plumbing with one home ([`ONE_HOME`]) written nowhere else;
//! - one decider of what is secret: only the table of fields ([`TABLE_OF_FIELDS`]) asks a
//!   name's sensitivity or matches on it ([`DECIDING`]); everyone else asks it
//!   (`sensitive::is_secret`, `shown`, `structure_shown`, `id_shown`) or the one redactor
//!   of free text (`paytoken_protocol::redact`).
//!
//! Run by `cargo xtask ci` and by `cargo test -p xtask`.

use std::fs;
use std::path::{Path, PathBuf};

use paytoken_types::internal::fields::WIRE_SECRETS;

/// The longest a source file may be. A module past a thousand lines holds more than one
/// concept and is split; the longest today (the JSON reader with its tests) is under 900.
const MAX_LINES: usize = 1_000;

/// Plumbing that has one home: where it is written (a folder), what marks it, the
/// modules it may be written in, and what to use instead. Tests, benches and examples are
/// free of it.
const ONE_HOME: &[(&str, &str, &[&str], &str)] = &[
    (
        "crates/paytoken-sandbox/src/",
        "VecDeque",
        &[
            "crates/paytoken-sandbox/src/bounded_log.rs",
            // A queue of directives waiting for their request, not a log.
            "crates/paytoken-sandbox/src/faults.rs",
        ],
        "a log of its own: use bounded_log::BoundedLog, with the keeping rule its use needs",
    ),
    (
        "crates/",
        ".accept()",
        &["crates/paytoken-sandbox/src/edge.rs"],
        "an accept loop of its own: serve on the sandbox's one server edge (edge.rs)",
    ),
    (
        "crates/",
        "http1::handshake",
        CLIENT_HANDSHAKES,
        "a client handshake of its own: use paytoken_hyper's conn::handshake",
    ),
    (
        "crates/",
        "http2::handshake",
        CLIENT_HANDSHAKES,
        "a client handshake of its own: use paytoken_hyper's conn::handshake",
    ),
];

/// Where a hyper client handshake is made: the client's one module, and the sandbox's
/// deliveries, which take nothing of the client.
const CLIENT_HANDSHAKES: &[&str] = &[
    "crates/paytoken-hyper/src/conn.rs",
    "crates/paytoken-sandbox/src/notifications/delivery.rs",
];

/// The folders that hold the project's Rust sources, from the project's root.
const SOURCE_FOLDERS: [&str; 4] = ["crates", "tests", "xtask", "fuzz"];

/// Folders never looked into: build output and fuzzing data.
const SKIPPED: [&str; 4] = ["target", "corpus", "artifacts", "coverage"];

/// Macros that mark unfinished or debugging code; written in two halves so that this
/// file does not name them itself.
const FORBIDDEN_MACROS: [&str; 3] = [
    concat!("todo", "!("),
    concat!("unimplemented", "!("),
    concat!("dbg", "!("),
];

/// Inner attributes that would give a test file its own lint allowances.
const FILE_ALLOWANCES: [&str; 2] = [concat!("#!", "[allow("), concat!("#!", "[expect(")];

/// The modules that name what is secret (the table of fields) and how it is masked.
const TABLE_OF_FIELDS: [&str; 2] = [
    "crates/paytoken-types/src/fields.rs",
    "crates/paytoken-types/src/sensitive.rs",
];

/// What marks a module that decides for itself what is secret: reading a name's
/// sensitivity, or matching on it, or a predicate of its own (written in halves so that
/// this file does not hold them itself).
const DECIDING: [&str; 4] = [
    concat!("Sensitivity", "::"),
    concat!("sensitive::", "of("),
    concat!("fields::", "sensitivity("),
    concat!("fn is_", "secret"),
];

/// Where [`DECIDING`] may be written but for the table: the test oracle that holds every
/// mask to the table's answer, which must not ask the masks it checks.
const DECIDING_ORACLES: [&str; 1] = ["crates/paytoken-test-support/src/shown.rs"];

/// The markers a masked value is shown with, spelled only by the table (written in two
/// halves so that this file does not spell them itself).
const MARKERS: [&str; 2] = [concat!("\"[red", "acted]\""), concat!("\"[per", "sonal]\"")];

/// Checks every rule under `root`, reporting every breach at once.
pub(crate) fn check(root: &Path) -> Result<(), String> {
    let mut files = Vec::new();
    for folder in SOURCE_FOLDERS {
        files_with("rs", &root.join(folder), &mut files)?;
    }
    let mut breaches = Vec::new();
    for path in &files {
        let text =
            fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))?;
        let shown = path
            .strip_prefix(root)
            .unwrap_or(path)
            .display()
            .to_string();
        breaches.extend(breaches_in(&shown, &text));
    }
    breaches.extend(undocumented_crate_roots(root)?);
    if breaches.is_empty() {
        Ok(())
    } else {
        Err(format!("tidy:\n  {}", breaches.join("\n  ")))
    }
}

/// What one file breaks: its path decides whether it is a test file.
fn breaches_in(shown: &str, text: &str) -> Vec<String> {
    let mut breaches = Vec::new();
    let lines = text.lines().count();
    if lines > MAX_LINES {
        breaches.push(format!(
            "{shown}: {lines} lines, more than {MAX_LINES}: split it"
        ));
    }
    let is_test_file = (shown.split('/').any(|part| part == "tests")
        && !shown.starts_with("tests/src/"))
        || shown.ends_with("/tests.rs");
    let is_table = TABLE_OF_FIELDS.contains(&shown);
    // A module that asks the table masks or reads fields by it: it names no secret field
    // itself.
    let masks = text.contains("internal::sensitive") || text.contains("internal::fields");
    let mut in_unit_tests = false;
    for (number, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        in_unit_tests |= code.starts_with("mod tests");
        let shows = !is_test_file && !is_table && !in_unit_tests;
        if shows && let Some(marker) = MARKERS.iter().find(|marker| code.contains(*marker)) {
            breaches.push(format!(
                "{shown}:{}: {marker} spelled here: ask the table (sensitive::REDACTED, PERSONAL)",
                number + 1
            ));
        }
        let lower = code.to_ascii_lowercase();
        let quoted = |name: &str| lower.contains(&format!("\"{}\"", name.to_ascii_lowercase()));
        if shows
            && masks
            && let Some(name) = WIRE_SECRETS.iter().find(|name| quoted(name))
        {
            breaches.push(format!(
                "{shown}:{}: the secret field \"{name}\" named where values are masked: ask the table",
                number + 1
            ));
        }
        let decides = shows && !DECIDING_ORACLES.contains(&shown);
        if decides && let Some(mark) = DECIDING.iter().find(|mark| code.contains(*mark)) {
            breaches.push(format!(
                "{shown}:{}: `{mark}` decides here what is secret: ask the table (sensitive::is_secret, shown) or the redactor",
                number + 1
            ));
        }
        for (folder, mark, homes, instead) in ONE_HOME {
            // Library and program sources only: benches and examples stand alone.
            let source = shown.starts_with(folder) && shown.contains("/src/");
            if shows && source && !homes.contains(&shown) && code.contains(mark) {
                breaches.push(format!("{shown}:{}: {instead}", number + 1));
            }
        }
        if let Some(name) = FORBIDDEN_MACROS.iter().find(|name| code.contains(*name)) {
            breaches.push(format!("{shown}:{}: `{name}` left in", number + 1));
        }
        if is_test_file
            && FILE_ALLOWANCES
                .iter()
                .any(|attribute| code.starts_with(attribute))
        {
            breaches.push(format!(
                "{shown}:{}: a test file's own lint allowance (put it on the item, with a reason)",
                number + 1
            ));
        }
    }
    breaches
}

/// The crate roots under `crates/` (and the `tests` and `xtask` packages) that do not open
/// with their docs.
fn undocumented_crate_roots(root: &Path) -> Result<Vec<String>, String> {
    let mut packages = crate::layered_crates(root);
    packages.push(root.join("tests"));
    let mut breaches = Vec::new();
    for package in packages {
        let lib = package.join("src/lib.rs");
        let crate_root = if lib.exists() {
            lib
        } else {
            package.join("src/main.rs")
        };
        let text = fs::read_to_string(&crate_root)
            .map_err(|error| format!("{}: {error}", crate_root.display()))?;
        if !text.starts_with("//!") {
            let shown = crate_root.strip_prefix(root).unwrap_or(&crate_root);
            breaches.push(format!(
                "{}: does not open with the crate's docs (`//!`)",
                shown.display()
            ));
        }
    }
    Ok(breaches)
}

/// Every file under `dir` whose name ends in `.{extension}`, build output, fuzzing data and
/// hidden folders left out: the one walk of xtask's checks.
pub(crate) fn files_with(
    extension: &str,
    dir: &Path,
    files: &mut Vec<PathBuf>,
) -> Result<(), String> {
    let entries = fs::read_dir(dir).map_err(|error| format!("{}: {error}", dir.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|error| format!("{}: {error}", dir.display()))?
            .path();
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or_default();
        if path.is_dir() {
            if !SKIPPED.contains(&name) && !name.starts_with('.') {
                files_with(extension, &path, files)?;
            }
        } else if path.extension().is_some_and(|ext| ext == extension) {
            files.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_project_is_tidy() {
        let root = crate::project_root();
        assert_eq!(check(&root), Ok(()));
    }

    /// Every function of the project's sources that decides what is secret, found by
    /// [`DECIDING`]'s marks: one home, the table of fields.
    #[test]
    fn one_decider_of_what_is_secret() {
        let root = crate::project_root();
        let mut files = Vec::new();
        files_with("rs", &root.join("crates"), &mut files).unwrap();
        let mut deciding: Vec<String> = files
            .iter()
            .filter_map(|path| {
                let shown = path.strip_prefix(&root).ok()?.display().to_string();
                let source = shown.contains("/src/") && !shown.contains("/tests/");
                let text = fs::read_to_string(path).ok()?;
                let code = text.split("mod tests").next().unwrap_or_default();
                (source
                    && !DECIDING_ORACLES.contains(&shown.as_str())
                    && DECIDING.iter().any(|mark| code.contains(mark)))
                .then_some(shown)
            })
            .collect();
        deciding.sort();
        assert_eq!(
            deciding, TABLE_OF_FIELDS,
            "the modules that decide what is secret"
        );
    }

    #[test]
    fn each_rule_catches_its_breach() {
        let unfinished = format!("fn f() {{ {}) }}", FORBIDDEN_MACROS[0]);
        assert_eq!(breaches_in("crates/a/src/x.rs", &unfinished).len(), 1);
        assert!(breaches_in("crates/a/src/x.rs", &format!("// {unfinished}")).is_empty());

        let allowance = format!("{}clippy::unwrap_used)]\n", FILE_ALLOWANCES[0]);
        assert_eq!(breaches_in("crates/a/tests/it/x.rs", &allowance).len(), 1);
        assert_eq!(breaches_in("tests/tests/it/x.rs", &allowance).len(), 1);
        assert!(breaches_in("crates/a/src/lib.rs", &allowance).is_empty());
        assert!(breaches_in("tests/src/lib.rs", &allowance).is_empty());

        let marker = format!("const R: &str = {};", MARKERS[0]);
        assert_eq!(breaches_in("crates/a/src/x.rs", &marker).len(), 1);
        assert!(breaches_in(TABLE_OF_FIELDS[1], &marker).is_empty());
        assert!(breaches_in("crates/a/tests/it/x.rs", &marker).is_empty());
        let masking = "use paytoken_types::internal::sensitive;\nif name == \"card.CVV\" {}\n";
        assert_eq!(breaches_in("crates/a/src/x.rs", masking).len(), 1);
        assert!(breaches_in("crates/a/src/x.rs", "if name == \"card.cvv\" {}").is_empty());
        let reading = "use paytoken_types::internal::fields;\nif name == \"sKey\" {}\n";
        assert_eq!(breaches_in("crates/a/src/x.rs", reading).len(), 1);
        assert!(breaches_in(TABLE_OF_FIELDS[0], reading).is_empty());
        let in_tests = format!("{masking}mod tests {{ {} }}", MARKERS[1]);
        assert_eq!(breaches_in("crates/a/src/x.rs", &in_tests).len(), 1);

        let (folder, mark, homes, _) = ONE_HOME[0];
        let elsewhere = format!("{folder}elsewhere.rs");
        let using = format!("use std::collections::{mark};\n");
        assert_eq!(breaches_in(&elsewhere, &using).len(), 1);
        assert!(breaches_in(homes[0], &using).is_empty());
        assert!(breaches_in(&elsewhere, &format!("mod tests {{ {using} }}")).is_empty());

        for mark in DECIDING {
            let deciding = format!("fn f(name: &str) {{ let _ = {mark}; }}");
            assert_eq!(
                breaches_in("crates/a/src/x.rs", &deciding).len(),
                1,
                "{mark}"
            );
            assert!(breaches_in(TABLE_OF_FIELDS[1], &deciding).is_empty());
            assert!(breaches_in(DECIDING_ORACLES[0], &deciding).is_empty());
            assert!(breaches_in("crates/a/tests/it/x.rs", &deciding).is_empty());
        }

        let long = "\n".repeat(MAX_LINES + 1);
        assert_eq!(breaches_in("crates/a/src/x.rs", &long).len(), 1);
        assert!(breaches_in("crates/a/src/x.rs", &"\n".repeat(MAX_LINES)).is_empty());
    }
}
