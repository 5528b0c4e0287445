//! JSON Schema (draft 2020-12) checks by the `jsonschema` crate, with a schema's references
//! to its siblings (`common.schema.json#/$defs/error`) read from the schema's own folder
//! and nothing fetched from anywhere else.
//!
//! ```
//! use paytoken_test_support::schema::Schema;
//! use serde_json::json;
//!
//! let schema = Schema::new(json!({ "type": "object", "required": ["outcome"] }), ".".into());
//! assert!(schema.errors(&json!({ "outcome": "ok" })).is_empty());
//! assert_eq!(schema.errors(&json!({})).len(), 1);
//! ```

use std::path::{Path, PathBuf};

use jsonschema::{Retrieve, Uri};
use serde_json::{Value, json};

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
        let folder = path.parent().unwrap_or(Path::new(".")).to_owned();
        Self::new(read_json(path), folder)
    }

    /// The document.
    #[must_use]
    pub const fn root(&self) -> &Value {
        &self.root
    }

    /// Where `value` breaks the schema, as `path: reason` lines; none when it is valid.
    #[must_use]
    pub fn errors(&self, value: &Value) -> Vec<String> {
        self.errors_by(&self.root, value)
    }

    /// Where `value` breaks the definition `name` of `$defs`.
    #[must_use]
    pub fn errors_of(&self, name: &str, value: &Value) -> Vec<String> {
        // The definition as a document of its own, beside the definitions it refers to.
        let mut definition = self.root.clone();
        if let Value::Object(fields) = &mut definition {
            fields.retain(|key, _| matches!(key.as_str(), "$schema" | "$id" | "$defs"));
            fields.insert("$ref".to_owned(), json!(format!("#/$defs/{name}")));
        }
        self.errors_by(&definition, value)
    }

    fn errors_by(&self, schema: &Value, value: &Value) -> Vec<String> {
        let validator = jsonschema::options()
            .with_retriever(Siblings(self.folder.clone()))
            .build(schema)
            .unwrap_or_else(|e| panic!("{}: not a schema: {e}", self.folder.display()));
        validator
            .iter_errors(value)
            .map(|error| format!("{}: {error}", error.instance_path()))
            .collect()
    }
}

/// Reads a referenced schema from the folder by its file name.
struct Siblings(PathBuf);

impl Retrieve for Siblings {
    fn retrieve(
        &self,
        uri: &Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let name = uri.as_str().rsplit('/').next().unwrap_or_default();
        Ok(read_json(&self.0.join(name)))
    }
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
