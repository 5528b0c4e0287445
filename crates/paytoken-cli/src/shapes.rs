//! How an answer's shape differs from the interface's samples: what `doctor` names for a
//! deployment. paytoken reads every one of these shapes (`docs/LIBRARY.md`, "Tolerance");
//! they are named so that an integrator learns their deployment's habits, not because
//! they fail.

use std::collections::BTreeSet;

use paytoken::types::internal::fields::{self, Field, Sample};
use serde_json::Value;

/// The most shapes named for one answer: past it, the answer is odd enough as it is.
const MAX_SHAPES: usize = 50;

/// One way an answer differs from the samples: where (`cards.card[].expiryYear`, list
/// positions folded), and how.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Shape {
    pub(crate) field: String,
    pub(crate) shape: &'static str,
}

/// The shapes of `answer` that the samples do not have, each once, at most [`MAX_SHAPES`].
pub(crate) fn unusual(answer: &Value) -> Vec<Shape> {
    let mut found = BTreeSet::new();
    walk(answer, "", &mut found);
    found.into_iter().take(MAX_SHAPES).collect()
}

fn walk(value: &Value, path: &str, found: &mut BTreeSet<Shape>) {
    match value {
        Value::Object(members) => {
            for (name, member) in members {
                let name_trimmed = name.trim();
                // A position map (`{"0": {...}, "1": {...}}`) is a list by other means:
                // its positions are folded as a list's are.
                let positional = !name_trimmed.is_empty()
                    && name_trimmed.bytes().all(|byte| byte.is_ascii_digit());
                let field = match (positional, path.is_empty()) {
                    (true, _) => format!("{path}[]"),
                    (false, true) => name.clone(),
                    (false, false) => format!("{path}.{name}"),
                };
                if positional {
                    walk(member, &field, found);
                    continue;
                }
                if let Some(sampled) = in_samples(name_trimmed) {
                    member_shape(sampled, member, &field, found);
                } else {
                    note(found, &field, "a field the samples do not have");
                }
                walk(member, &field, found);
            }
        }
        Value::Array(items) => {
            let field = format!("{path}[]");
            for item in items {
                walk(item, &field, found);
            }
        }
        _ => {}
    }
}

/// The table's row for `name` when the interface's sample answers hold a field spelt so.
fn in_samples(name: &str) -> Option<&'static Field> {
    fields::find(name).filter(|row| row.name == name && row.sample != Sample::Absent)
}

/// The shape of one member's value against what the samples hold under its name.
fn member_shape(sampled: &Field, value: &Value, field: &str, found: &mut BTreeSet<Shape>) {
    let structured = sampled.sample == Sample::Structured;
    match value {
        Value::Null => note(found, field, "null"),
        Value::Number(_) => note(found, field, "a JSON number where the samples have text"),
        Value::Bool(_) => note(found, field, "a JSON boolean where the samples have text"),
        Value::String(text) => {
            if structured && !text.trim().is_empty() {
                note(
                    found,
                    field,
                    "text where the samples have an object or list",
                );
            } else if is_iso_date_time(text) {
                note(
                    found,
                    field,
                    "an ISO 8601 date (the samples: yyyy-MM-dd HH:mm:ss)",
                );
            } else if sampled.sample == Sample::UpperCase && text.chars().any(char::is_lowercase) {
                note(found, field, "lower case where the samples have upper case");
            }
        }
        Value::Array(items) if !structured => {
            let shape = if items.len() == 1 {
                "a one-element list where the samples have text"
            } else {
                "a list where the samples have text"
            };
            note(found, field, shape);
        }
        Value::Object(_) if !structured => {
            note(found, field, "an object where the samples have text");
        }
        Value::Array(_) | Value::Object(_) => {}
    }
}

fn note(found: &mut BTreeSet<Shape>, field: &str, shape: &'static str) {
    if found.len() < MAX_SHAPES {
        found.insert(Shape {
            field: field.to_owned(),
            shape,
        });
    }
}

/// `2026-11-22T10:18:00`, with or without seconds' fractions or a zone: a date, a `T`,
/// a time.
fn is_iso_date_time(text: &str) -> bool {
    let bytes = text.trim().as_bytes();
    let digits = |range: core::ops::Range<usize>| {
        bytes
            .get(range)
            .is_some_and(|part| part.iter().all(u8::is_ascii_digit))
    };
    digits(0..4)
        && bytes.get(4) == Some(&b'-')
        && digits(5..7)
        && bytes.get(7) == Some(&b'-')
        && digits(8..10)
        && bytes.get(10).is_some_and(|t| t.eq_ignore_ascii_case(&b'T'))
        && digits(11..13)
        && bytes.get(13) == Some(&b':')
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn shapes(answer: &Value) -> Vec<(String, &'static str)> {
        unusual(answer)
            .into_iter()
            .map(|shape| (shape.field, shape.shape))
            .collect()
    }

    #[test]
    fn every_field_of_the_wire_fixtures_is_known() {
        let root =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/responses");
        let mut read = 0;
        for operation in std::fs::read_dir(&root).unwrap() {
            for sample in std::fs::read_dir(operation.unwrap().path()).unwrap() {
                let path = sample.unwrap().path();
                let Ok(answer) = serde_json::from_slice::<Value>(&std::fs::read(&path).unwrap())
                else {
                    continue; // a truncated body or an HTML page: no fields to know
                };
                read += 1;
                let unknown: Vec<_> = shapes(&answer)
                    .into_iter()
                    .filter(|(_, shape)| *shape == "a field the samples do not have")
                    .collect();
                assert!(unknown.is_empty(), "{}: {unknown:?}", path.display());
            }
        }
        assert!(read > 40, "{read} fixtures read");
    }

    #[test]
    fn names_the_habits_other_deployments_have() {
        let answer = json!({
            "paymentId": "60001",
            "amount": 50,
            "currency": "eur",
            "descriptor": null,
            "timestamp": "2026-11-22T10:18:00Z",
            "remark": {"text": "x"},
            "card": [{"bin": "400000", "expiryYear": 2030}],
            "result": {"code": "00001", "description": "ok"},
            "surprise": "1"
        });
        assert_eq!(
            shapes(&answer),
            [
                (
                    "amount".to_owned(),
                    "a JSON number where the samples have text"
                ),
                (
                    "card[].expiryYear".to_owned(),
                    "a JSON number where the samples have text"
                ),
                (
                    "currency".to_owned(),
                    "lower case where the samples have upper case"
                ),
                ("descriptor".to_owned(), "null"),
                ("remark".to_owned(), "an object where the samples have text"),
                ("remark.text".to_owned(), "a field the samples do not have"),
                ("surprise".to_owned(), "a field the samples do not have"),
                (
                    "timestamp".to_owned(),
                    "an ISO 8601 date (the samples: yyyy-MM-dd HH:mm:ss)"
                ),
            ]
        );
    }

    #[test]
    fn a_usual_answer_has_no_unusual_shape_and_a_huge_one_is_cut() {
        let usual = json!({"paymentId": "1", "result": {"code": "00001", "description": "ok"}, "timestamp": "2026-11-22 10:18:00"});
        assert!(shapes(&usual).is_empty());
        let positions = json!({"invoiceList": {"0": {"amount": 5}, " 1": {"amount": "5.00"}}});
        assert_eq!(
            shapes(&positions),
            [(
                "invoiceList[].amount".to_owned(),
                "a JSON number where the samples have text"
            )]
        );
        let huge: serde_json::Map<String, Value> =
            (0..500).map(|n| (format!("extra{n}"), json!(n))).collect();
        assert_eq!(unusual(&Value::Object(huge)).len(), MAX_SHAPES);
    }
}
