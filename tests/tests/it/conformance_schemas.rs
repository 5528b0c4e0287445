//! The JSON Schemas of the conformance kit (`fixtures/conformance/schemas/`) held to the
//! vectors: every file is valid by its schema, and a schema rejects a vector with a field
//! taken away, added or of another type, so the schemas cannot go soft unnoticed.
//!
//! The validator is the `jsonschema` crate's (`paytoken_test_support::schema`); CI's
//! Python checks read the same schemas with Python's `jsonschema`.

use std::path::{Path, PathBuf};

use paytoken_test_support::schema::Schema;
use serde_json::{Map, Value, json};

const FILES: &[&str] = &[
    "checksum-rules",
    "checksum-vectors",
    "request-vectors",
    "answer-vectors",
    "notification-vectors",
    "negative-vectors",
    "scenarios",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/conformance")
}

fn read(path: PathBuf) -> Value {
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

fn validate(schema: &Schema, value: &Value) -> Vec<String> {
    schema.errors(value)
}

fn schema(name: &str) -> Schema {
    Schema::read(&root().join(format!("schemas/{name}.schema.json")))
}

#[test]
fn every_conformance_file_is_valid_by_its_schema() {
    for name in FILES {
        let errors = validate(&schema(name), &read(root().join(format!("{name}.json"))));
        assert!(errors.is_empty(), "{name}.json:\n{}", errors.join("\n"));
    }
}

#[test]
fn every_json_file_of_the_kit_has_a_schema_and_every_schema_a_file() {
    for entry in std::fs::read_dir(root()).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        if let Some(stem) = file.strip_suffix(".json") {
            assert!(FILES.contains(&stem), "{file} has no schema in schemas/");
        }
    }
    for entry in std::fs::read_dir(root().join("schemas")).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        let stem = file.strip_suffix(".schema.json").unwrap();
        // `answers` describes the gateway's answers, `conform-protocol` the messages of
        // `paytoken conform` and `conform-report` its `--json` report (its tests hold
        // them to both).
        assert!(
            FILES.contains(&stem)
                || ["answers", "conform-protocol", "conform-report"].contains(&stem),
            "schemas/{file} describes no file"
        );
    }
}

/// The key of a file's list: its rules, scenarios or vectors.
fn list_of(name: &str) -> &'static str {
    match name {
        "checksum-rules" => "rules",
        "scenarios" => "scenarios",
        _ => "vectors",
    }
}

/// The first vector (or rule) of a file, changed by `change`, must break the schema.
fn breaks(name: &str, change: impl Fn(&mut Map<String, Value>)) -> bool {
    let mut file = read(root().join(format!("{name}.json")));
    change(file[list_of(name)][0].as_object_mut().unwrap());
    !validate(&schema(name), &file).is_empty()
}

#[test]
fn each_schema_rejects_a_vector_missing_a_field_with_an_extra_one_or_a_wrong_type() {
    for name in FILES {
        let first = read(root().join(format!("{name}.json")));
        let keys: Vec<String> = first[list_of(name)][0]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        for key in &keys {
            assert!(
                breaks(name, |v| drop(v.remove(key))),
                "{name}: without {key}"
            );
            assert!(
                breaks(name, |v| drop(
                    v.insert(key.clone(), json!({ "unexpected": [1] }))
                )),
                "{name}: {key} as an object"
            );
        }
        assert!(
            breaks(name, |v| drop(v.insert("surplus".into(), json!("x")))),
            "{name}: a surplus field"
        );
    }
    // The deeper rules: a checksum in upper case, a verdict that says two things.
    assert!(breaks("checksum-vectors", |v| drop(v.insert(
        "checksum".into(),
        json!("8548608614DA60BF307EB2B5C5A1B06E")
    ))));
    assert!(breaks("answer-vectors", |v| drop(v.insert(
        "verdict".into(),
        json!({ "outcome": "refused", "resultCode": "20001", "mayHaveBeenProcessed": true })
    ))));
    assert!(breaks("notification-vectors", |v| drop(v.insert(
        "verdict".into(),
        json!({ "verifies": true, "reason": "checksum_mismatch" })
    ))));
}

#[test]
fn a_verdict_s_keys_are_its_operation_s_every_one_and_no_other() {
    let answers = read(root().join("answer-vectors.json"));
    let approved = answers["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|vector| vector["id"] == "answer/payment/approved")
        .unwrap();
    let schema = schema("answer-vectors");
    let with_verdict = |verdict: Value| {
        let mut vector = approved.clone();
        vector["verdict"] = verdict;
        schema.errors_of("vector", &vector)
    };
    let verdict = approved["verdict"].clone();
    assert_eq!(with_verdict(verdict.clone()), Vec::<String>::new());
    // transactionStatus is present, null when absent; no key more; another operation's
    // shape is not a payment's.
    let mut without = verdict.clone();
    without.as_object_mut().unwrap().remove("transactionStatus");
    let mut surplus = verdict.clone();
    surplus["description"] = json!("Transaction succeeded");
    let registration = json!({ "outcome": "ok", "registrationId": "8a82", "resultCode": "00001" });
    for wrong in [without, surplus, registration] {
        assert!(!with_verdict(wrong.clone()).is_empty(), "{wrong}");
    }
    let mut none = verdict;
    none["transactionStatus"] = Value::Null;
    assert_eq!(with_verdict(none), Vec::<String>::new());
}

/// The definition in `schemas/answers.schema.json` of an operation's answer.
pub(crate) fn answer_definition(operation: &str) -> &'static str {
    match operation {
        "pay" | "pay_with_token" | "repeat_payment" | "inquiry" | "capture" | "refund"
        | "cancel" => "transaction",
        "register" => "registration",
        "customer_signup" => "customerSignup",
        "delete_token" => "deleteToken",
        "installments" => "installments",
        "cards_and_accounts" => "cardsAndAccounts",
        "invoices" => "invoiceList",
        "fetch_auth_token" | "regenerate_auth_token" => "authToken",
        other => panic!("an operation without an answer definition: {other}"),
    }
}

#[test]
fn the_answer_schemas_describe_every_answer_fixture_and_notification() {
    let schema = schema("answers");
    let answers = read(root().join("answer-vectors.json"));
    let mut checked = 0;
    for vector in answers["vectors"].as_array().unwrap() {
        let id = vector["id"].as_str().unwrap();
        // Every answer a gateway sent with 200 that is JSON, the varied copies too.
        let Ok(body) = serde_json::from_str::<Value>(vector["body"].as_str().unwrap()) else {
            continue;
        };
        if vector["status"] != 200 {
            continue;
        }
        let definition = answer_definition(vector["asked"]["operation"].as_str().unwrap());
        let out = schema.errors_of(definition, &body);
        assert!(out.is_empty(), "{id}: {}", out.join("\n"));
        checked += 1;
    }
    assert!(checked >= 180, "{checked} answers");
    let notifications = read(root().join("notification-vectors.json"));
    for vector in notifications["vectors"].as_array().unwrap() {
        if vector["format"] != "json" || vector["verdict"]["verifies"] != true {
            continue;
        }
        let body: Value = serde_json::from_str(vector["body"].as_str().unwrap()).unwrap();
        let out = schema.errors_of("notification", &body);
        assert!(out.is_empty(), "{}: {}", vector["id"], out.join("\n"));
    }
    // Deciding fields of the wrong kind are caught: a payment id that is an object.
    let out = schema.errors_of("transaction", &json!({ "paymentId": { "id": 1 } }));
    assert!(!out.is_empty());
}

#[test]
fn every_file_names_the_kit_s_version_and_no_id_is_used_twice() {
    let kit = read(root().join("checksum-rules.json"))["kit"].clone();
    let version = kit["version"].as_str().unwrap();
    let mut ids = std::collections::BTreeSet::new();
    for name in FILES {
        let file = read(root().join(format!("{name}.json")));
        assert_eq!(file["kit"], kit, "{name}.json");
        for vector in file["vectors"].as_array().into_iter().flatten() {
            let id = vector["id"].as_str().unwrap().to_owned();
            assert!(ids.insert(id.clone()), "{id} is used twice");
        }
    }
    let openapi = std::fs::read_to_string(root().join("openapi.yaml")).unwrap();
    assert!(
        openapi.contains(&format!("  version: \"{version}\"\nx-kit:")),
        "openapi.yaml names another version"
    );
    let changelog = std::fs::read_to_string(root().join("CHANGELOG.md")).unwrap();
    assert!(
        changelog.contains(&format!("\n## {version}\n")),
        "CHANGELOG.md has no entry for {version}"
    );
}

/// The definitions of the answers' schemas: the tolerant ones by name, each with its strict
/// one (`{name}Strict`).
const ANSWER_KINDS: &[&str] = &[
    "transaction",
    "registration",
    "customerSignup",
    "deleteToken",
    "installments",
    "cardsAndAccounts",
    "invoiceList",
    "authToken",
];

#[test]
fn each_answer_schema_rejects_its_negative_examples_and_the_samples_meet_the_strict_layer() {
    let schema = schema("answers");
    let definitions = schema.root()["$defs"].as_object().unwrap().clone();
    let mut rejected = 0;
    for (name, definition) in &definitions {
        for example in definition["x-rejects"].as_array().into_iter().flatten() {
            assert!(
                !schema.errors_of(name, example).is_empty(),
                "{name} accepts {example}, which it lists as rejected"
            );
            rejected += 1;
        }
    }
    assert!(rejected >= 30, "{rejected} negative examples");
    for kind in ANSWER_KINDS {
        let strict = format!("{kind}Strict");
        assert!(definitions.contains_key(&strict), "no {strict}");
        for example in definitions[*kind]["x-rejects"].as_array().unwrap() {
            assert!(
                example.as_object().unwrap().is_empty()
                    || !schema.errors_of(&strict, example).is_empty(),
                "{strict} accepts {example}, which the tolerant {kind} rejects"
            );
        }
    }
    // The layers differ: an amount as a number is a shape a reader accepts and the samples
    // do not show.
    let varied = json!({
        "paymentId": "54279",
        "result": { "code": "00001", "description": "Transaction succeeded" },
        "amount": 50
    });
    assert!(schema.errors_of("transaction", &varied).is_empty());
    assert!(!schema.errors_of("transactionStrict", &varied).is_empty());
    // What the specification shows meets the strict layer.
    let answers = read(root().join("answer-vectors.json"));
    let mut strict_checked = 0;
    for vector in answers["vectors"].as_array().unwrap() {
        if vector["source"]["kind"] != "specification" {
            continue;
        }
        let body: Value = serde_json::from_str(vector["body"].as_str().unwrap()).unwrap();
        let strict = format!(
            "{}Strict",
            answer_definition(vector["asked"]["operation"].as_str().unwrap())
        );
        let out = schema.errors_of(&strict, &body);
        assert!(out.is_empty(), "{}: {}", vector["id"], out.join("\n"));
        strict_checked += 1;
    }
    assert!(strict_checked >= 7, "{strict_checked}");
}
