//! The JSON Schemas of the conformance kit (`fixtures/conformance/schemas/`) held to the
//! vectors: every file is valid by its schema, and a schema rejects a vector with a field
//! taken away, added or of another type, so the schemas cannot go soft unnoticed.
//!
//! The validator here knows the keywords the schemas use (draft 2020-12: `type`,
//! `properties`, `required`, `additionalProperties`, `items`, `prefixItems`, `minItems`,
//! `maxItems`, `enum`, `const`, `minLength`, `maxLength`, `pattern`, `minimum`, `maximum`,
//! `anyOf`, `$ref` into `$defs`) and refuses a schema with any other, so that none is
//! silently ignored; any validator of the standard reads the same schemas.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

const FILES: &[&str] = &[
    "checksum-rules",
    "checksum-vectors",
    "request-vectors",
    "answer-vectors",
    "notification-vectors",
];

/// Keywords that only annotate.
const ANNOTATIONS: &[&str] = &["$schema", "$id", "$defs", "title", "description"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/conformance")
}

fn read(path: PathBuf) -> Value {
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

/// Where `value` breaks `schema`, as `path: reason` lines; none when it is valid.
fn errors(root: &Value, schema: &Value, value: &Value, at: &str, out: &mut Vec<String>) {
    let Value::Object(schema) = schema else {
        panic!("{at}: a schema must be an object");
    };
    for (keyword, rule) in schema {
        match keyword.as_str() {
            k if ANNOTATIONS.contains(&k) => {}
            "$ref" => {
                let name = rule.as_str().unwrap().strip_prefix("#/$defs/").unwrap();
                let target = &root["$defs"][name];
                assert!(target.is_object(), "{at}: no $defs/{name}");
                errors(root, target, value, at, out);
            }
            "type" => {
                let types: Vec<&str> = match rule {
                    Value::Array(types) => types.iter().map(|t| t.as_str().unwrap()).collect(),
                    other => vec![other.as_str().unwrap()],
                };
                if !types.iter().any(|t| is_type(value, t)) {
                    fail(out, at, format!("not of type {types:?}"));
                }
            }
            "enum" => {
                if !rule.as_array().unwrap().contains(value) {
                    fail(out, at, format!("{value} is none of {rule}"));
                }
            }
            "const" => {
                if rule != value {
                    fail(out, at, format!("{value} is not {rule}"));
                }
            }
            "anyOf" => {
                let any = rule.as_array().unwrap().iter().any(|option| {
                    let mut none = Vec::new();
                    errors(root, option, value, at, &mut none);
                    none.is_empty()
                });
                if !any {
                    fail(out, at, "matches none of anyOf".to_owned());
                }
            }
            "properties" | "required" | "additionalProperties" => {
                if let Value::Object(object) = value {
                    properties(root, schema, keyword, object, at, out);
                }
            }
            "items" | "prefixItems" | "minItems" | "maxItems" => {
                if let Value::Array(items) = value {
                    array(root, keyword, rule, items, at, out);
                }
            }
            "minLength" | "maxLength" | "pattern" => {
                if let Value::String(text) = value {
                    let length = u64::try_from(text.chars().count()).unwrap();
                    let holds = match keyword.as_str() {
                        "minLength" => length >= rule.as_u64().unwrap(),
                        "maxLength" => length <= rule.as_u64().unwrap(),
                        _ => regex::Regex::new(rule.as_str().unwrap())
                            .unwrap()
                            .is_match(text),
                    };
                    if !holds {
                        fail(out, at, format!("{text:?} breaks {keyword} {rule}"));
                    }
                }
            }
            "minimum" | "maximum" => {
                if let Some(number) = value.as_f64() {
                    let bound = rule.as_f64().unwrap();
                    let holds = if keyword == "minimum" {
                        number >= bound
                    } else {
                        number <= bound
                    };
                    if !holds {
                        fail(out, at, format!("{number} breaks {keyword} {bound}"));
                    }
                }
            }
            other => panic!("{at}: a keyword this validator does not know: {other}"),
        }
    }
}

fn fail(out: &mut Vec<String>, at: &str, reason: String) {
    out.push(format!("{at}: {reason}"));
}

fn is_type(value: &Value, name: &str) -> bool {
    match name {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        other => panic!("no JSON type {other}"),
    }
}

fn properties(
    root: &Value,
    schema: &Map<String, Value>,
    keyword: &str,
    object: &Map<String, Value>,
    at: &str,
    out: &mut Vec<String>,
) {
    let declared = schema.get("properties").and_then(Value::as_object);
    match keyword {
        "properties" => {
            for (name, property) in declared.unwrap() {
                if let Some(value) = object.get(name) {
                    errors(root, property, value, &format!("{at}.{name}"), out);
                }
            }
        }
        "required" => {
            for name in schema["required"].as_array().unwrap() {
                let name = name.as_str().unwrap();
                if !object.contains_key(name) {
                    out.push(format!("{at}: no {name}"));
                }
            }
        }
        _ => {
            for (name, value) in object {
                if declared.is_some_and(|declared| declared.contains_key(name)) {
                    continue;
                }
                match &schema["additionalProperties"] {
                    Value::Bool(false) => out.push(format!("{at}: {name} is not allowed")),
                    Value::Bool(true) => {}
                    extra => errors(root, extra, value, &format!("{at}.{name}"), out),
                }
            }
        }
    }
}

fn array(
    root: &Value,
    keyword: &str,
    rule: &Value,
    items: &[Value],
    at: &str,
    out: &mut Vec<String>,
) {
    match keyword {
        "items" => {
            for (index, item) in items.iter().enumerate() {
                errors(root, rule, item, &format!("{at}[{index}]"), out);
            }
        }
        "prefixItems" => {
            for (index, (schema, item)) in rule.as_array().unwrap().iter().zip(items).enumerate() {
                errors(root, schema, item, &format!("{at}[{index}]"), out);
            }
        }
        "minItems" if u64::try_from(items.len()).unwrap() < rule.as_u64().unwrap() => {
            out.push(format!("{at}: fewer than {rule} items"));
        }
        "maxItems" if u64::try_from(items.len()).unwrap() > rule.as_u64().unwrap() => {
            out.push(format!("{at}: more than {rule} items"));
        }
        _ => {}
    }
}

fn validate(schema: &Value, value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    errors(schema, schema, value, "$", &mut out);
    out
}

fn schema(name: &str) -> Value {
    read(root().join(format!("schemas/{name}.schema.json")))
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
        // `answers` describes the gateway's answers, which the test below holds to the
        // answer vectors.
        assert!(
            FILES.contains(&stem) || stem == "answers",
            "schemas/{file} describes no file"
        );
    }
}

/// The first vector (or rule) of a file, changed by `change`, must break the schema.
fn breaks(name: &str, change: impl Fn(&mut Map<String, Value>)) -> bool {
    let mut file = read(root().join(format!("{name}.json")));
    let list = if name == "checksum-rules" {
        "rules"
    } else {
        "vectors"
    };
    change(file[list][0].as_object_mut().unwrap());
    !validate(&schema(name), &file).is_empty()
}

#[test]
fn each_schema_rejects_a_vector_missing_a_field_with_an_extra_one_or_a_wrong_type() {
    for name in FILES {
        let first = read(root().join(format!("{name}.json")));
        let list = if *name == "checksum-rules" {
            "rules"
        } else {
            "vectors"
        };
        let keys: Vec<String> = first[list][0]
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

/// The definition in `schemas/answers.schema.json` of an operation's answer.
pub(crate) fn answer_definition(operation: &str) -> &'static str {
    match operation {
        "payment" | "token_payment" | "repeat_payment" | "inquiry" | "capture" | "refund"
        | "cancel" => "transaction",
        "registration" => "registration",
        "customer_signup" => "customerSignup",
        "delete_token" => "deleteToken",
        "installments" => "installments",
        "cards_and_accounts" => "cardsAndAccounts",
        "invoice_list" => "invoiceList",
        "auth_token" | "regenerate_auth_token" => "authToken",
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
        // The fixtures as gateways sent them (not the varied copies), where JSON.
        let Ok(body) = serde_json::from_str::<Value>(vector["body"].as_str().unwrap()) else {
            continue;
        };
        if id.matches('/').count() != 2 || vector["status"] != 200 {
            continue;
        }
        let definition = answer_definition(vector["asked"]["operation"].as_str().unwrap());
        let reference = json!({ "$ref": format!("#/$defs/{definition}") });
        let mut out = Vec::new();
        errors(&schema, &reference, &body, id, &mut out);
        assert!(out.is_empty(), "{}", out.join("\n"));
        checked += 1;
    }
    assert!(checked >= 60, "{checked} answers");
    let notifications = read(root().join("notification-vectors.json"));
    for vector in notifications["vectors"].as_array().unwrap() {
        if vector["format"] != "json" || vector["verdict"]["verifies"] != true {
            continue;
        }
        let body: Value = serde_json::from_str(vector["body"].as_str().unwrap()).unwrap();
        let mut out = Vec::new();
        let reference = json!({ "$ref": "#/$defs/notification" });
        errors(
            &schema,
            &reference,
            &body,
            vector["id"].as_str().unwrap(),
            &mut out,
        );
        assert!(out.is_empty(), "{}", out.join("\n"));
    }
    // Deciding fields of the wrong kind are caught: a payment id that is an object.
    let mut out = Vec::new();
    let reference = json!({ "$ref": "#/$defs/transaction" });
    errors(
        &schema,
        &reference,
        &json!({ "paymentId": { "id": 1 } }),
        "$",
        &mut out,
    );
    assert!(!out.is_empty());
}
