//! The kit's rules in prose (`fixtures/conformance/RULES.md`) held to its vectors: every
//! rule names the vectors that hold it, every id or pattern it names matches a vector of
//! the kit, and every group of vectors is named by some rule.

use std::path::{Path, PathBuf};

use serde_json::Value;

fn kit() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/conformance")
}

/// Every vector and scenario id of the kit's files.
fn ids() -> Vec<String> {
    let mut ids = Vec::new();
    let files = ["checksum", "request", "answer", "notification", "negative"]
        .map(|group| (format!("{group}-vectors.json"), "vectors"));
    let scenarios = ("scenarios.json".to_owned(), "scenarios");
    for (file, list) in files.into_iter().chain([scenarios]) {
        let text = std::fs::read_to_string(kit().join(file)).unwrap();
        let file: Value = serde_json::from_str(&text).unwrap();
        for vector in file[list].as_array().unwrap() {
            ids.push(vector["id"].as_str().unwrap().to_owned());
        }
    }
    ids
}

/// Whether `id` matches `pattern`, in which `*` stands for any text.
fn matches(pattern: &str, id: &str) -> bool {
    let mut pieces = pattern.split('*');
    let first = pieces.next().unwrap_or_default();
    let Some(mut rest) = id.strip_prefix(first) else {
        return false;
    };
    let pieces: Vec<&str> = pieces.collect();
    for (index, piece) in pieces.iter().enumerate() {
        if index == pieces.len() - 1 {
            return rest.ends_with(piece);
        }
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// The rules of the page: each rule's name (`A9`) and its text, to the next rule.
fn rules(page: &str) -> Vec<(String, String)> {
    let mut rules: Vec<(String, String)> = Vec::new();
    for paragraph in page.split("\n\n") {
        let named = paragraph
            .strip_prefix("**")
            .and_then(|rest| rest.split_once(". "));
        match named {
            Some((name, _)) if name.len() <= 3 => {
                rules.push((name.to_owned(), paragraph.to_owned()));
            }
            _ => {}
        }
    }
    rules
}

#[test]
fn every_rule_names_vectors_of_the_kit_and_every_group_is_named() {
    let page = std::fs::read_to_string(kit().join("RULES.md")).unwrap();
    let ids = ids();
    let rules = rules(&page);
    assert!(rules.len() >= 25, "{} rules", rules.len());
    let mut named = Vec::new();
    for (name, text) in &rules {
        let (_, vectors) = text
            .split_once("Vectors:")
            .unwrap_or_else(|| panic!("{name} names no vectors"));
        let cited: Vec<&str> = vectors
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|cited| cited.contains('/'))
            .collect();
        assert!(!cited.is_empty(), "{name} names no vectors");
        for pattern in cited {
            assert!(
                ids.iter().any(|id| matches(pattern, id)),
                "{name} names {pattern}, which no vector of the kit is"
            );
            named.push(pattern.to_owned());
        }
    }
    for group in ["checksum", "request", "answer", "notification", "negative"] {
        assert!(
            named
                .iter()
                .any(|pattern| pattern.starts_with(&format!("{group}/"))),
            "no rule names a {group} vector"
        );
    }
    // The matcher itself.
    assert!(matches(
        "answer/*/*-as-*",
        "answer/payment/approved/amount-as-1"
    ));
    assert!(!matches("answer/*/refused*", "answer/payment/approved"));
    assert!(matches("negative/*", "negative/latin-1"));
    assert!(!matches("checksum/payment/3", "checksum/payment/31"));
}
