//! A JSON Schema (draft 2020-12) validator for the keywords the project's schemas use:
//! `type`, `properties`, `required`, `additionalProperties`, `items`, `prefixItems`,
//! `minItems`, `maxItems`, `enum`, `const`, `minLength`, `maxLength`, `pattern`,
//! `minimum`, `maximum`, `anyOf`, `allOf`, `if` with `then` and `else`, and `$ref` into
//! `$defs`, of the same file or of a sibling (`common.schema.json#/$defs/error`), besides
//! the annotations (`title`, `description`, `examples`, and extensions named `x-...`). A
//! schema with any other keyword panics, so that none is silently ignored; any validator
//! of the standard reads the same schemas.
//!
//! ```
//! use paytoken_test_support::schema::Schema;
//! use serde_json::json;
//!
//! // Either of two fields, as the kit says it: if the one is there, else the other.
//! let either = json!({ "if": { "required": ["memberId"] }, "else": { "required": ["partnerId"] } });
//! let schema = Schema::new(either, ".".into());
//! assert!(schema.errors(&json!({ "partnerId": "100" })).is_empty());
//! assert_eq!(schema.errors(&json!({})), ["$: no partnerId"]);
//! ```
//!
//! ```
//! use paytoken_test_support::schema::Schema;
//! use serde_json::json;
//!
//! let schema = Schema::new(json!({ "type": "object", "required": ["outcome"] }), ".".into());
//! assert!(schema.errors(&json!({ "outcome": "ok" })).is_empty());
//! assert_eq!(schema.errors(&json!({})), ["$: no outcome"]);
//! ```

#![allow(
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a schema this validator cannot read fails the test that reads it"
)]

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

/// Keywords that only annotate.
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$defs",
    "title",
    "description",
    "examples",
];

/// A schema document and the folder its sibling references are read from.
#[derive(Debug, Clone)]
pub struct Schema {
    root: Value,
    folder: PathBuf,
}

impl Schema {
    /// The schema `root`, its sibling files in `folder`.
    #[must_use]
    pub const fn new(root: Value, folder: PathBuf) -> Self {
        Self { root, folder }
    }

    /// Reads the schema file at `path`.
    #[must_use]
    pub fn read(path: &Path) -> Self {
        let text =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let root =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        Self::new(root, path.parent().unwrap_or(Path::new(".")).to_owned())
    }

    /// The document.
    #[must_use]
    pub const fn root(&self) -> &Value {
        &self.root
    }

    /// Where `value` breaks the schema, as `path: reason` lines; none when it is valid.
    #[must_use]
    pub fn errors(&self, value: &Value) -> Vec<String> {
        let mut out = Vec::new();
        self.check(&self.root, value, "$", &mut out);
        out
    }

    /// Where `value` breaks the definition `name` of `$defs`.
    #[must_use]
    pub fn errors_of(&self, name: &str, value: &Value) -> Vec<String> {
        let mut out = Vec::new();
        let reference = serde_json::json!({ "$ref": format!("#/$defs/{name}") });
        self.check(&reference, value, "$", &mut out);
        out
    }

    fn check(&self, schema: &Value, value: &Value, at: &str, out: &mut Vec<String>) {
        let Value::Object(schema) = schema else {
            panic!("{at}: a schema must be an object");
        };
        for (keyword, rule) in schema {
            match keyword.as_str() {
                k if ANNOTATIONS.contains(&k) || k.starts_with("x-") => {}
                "$ref" => self.reference(rule.as_str().unwrap(), value, at, out),
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
                        self.check(option, value, at, &mut none);
                        none.is_empty()
                    });
                    if !any {
                        fail(out, at, "matches none of anyOf".to_owned());
                    }
                }
                "if" => {
                    let mut unmet = Vec::new();
                    self.check(rule, value, at, &mut unmet);
                    let branch = if unmet.is_empty() { "then" } else { "else" };
                    if let Some(branch) = schema.get(branch) {
                        self.check(branch, value, at, out);
                    }
                }
                // Read with their `if`; without one they mean nothing.
                "then" | "else" => {}
                "allOf" => {
                    for part in rule.as_array().unwrap() {
                        self.check(part, value, at, out);
                    }
                }
                "properties" | "required" | "additionalProperties" => {
                    if let Value::Object(object) = value {
                        self.properties(schema, keyword, object, at, out);
                    }
                }
                "items" | "prefixItems" | "minItems" | "maxItems" => {
                    if let Value::Array(items) = value {
                        self.array(keyword, rule, items, at, out);
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

    /// `#/$defs/name` here, or `file.schema.json#/$defs/name` beside this file.
    fn reference(&self, reference: &str, value: &Value, at: &str, out: &mut Vec<String>) {
        let (file, pointer) = reference.split_once('#').unwrap();
        let name = pointer.strip_prefix("/$defs/").unwrap();
        if file.is_empty() {
            let target = &self.root["$defs"][name];
            assert!(target.is_object(), "{at}: no $defs/{name}");
            self.check(target, value, at, out);
        } else {
            let sibling = Self::read(&self.folder.join(file));
            let target = &sibling.root["$defs"][name];
            assert!(target.is_object(), "{at}: no $defs/{name} in {file}");
            sibling.check(target, value, at, out);
        }
    }

    fn properties(
        &self,
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
                        self.check(property, value, &format!("{at}.{name}"), out);
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
                        extra => self.check(extra, value, &format!("{at}.{name}"), out),
                    }
                }
            }
        }
    }

    fn array(&self, keyword: &str, rule: &Value, items: &[Value], at: &str, out: &mut Vec<String>) {
        match keyword {
            "items" => {
                for (index, item) in items.iter().enumerate() {
                    self.check(rule, item, &format!("{at}[{index}]"), out);
                }
            }
            "prefixItems" => {
                for (index, (schema, item)) in
                    rule.as_array().unwrap().iter().zip(items).enumerate()
                {
                    self.check(schema, item, &format!("{at}[{index}]"), out);
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
