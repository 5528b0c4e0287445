//! How a failure shows a value: a message's value in quotes (or as JSON), clipped; a
//! field's or header's as the table of fields shows it (a card number as its first six
//! and last four digits, a secret never; the vectors' people are made up, so shown).

use paytoken::types::internal::sensitive;
use serde_json::Value;

use crate::terminal;

/// The most characters of one value a failure shows.
const SHOWN_CHARS: usize = 80;

/// A value of a message: text in quotes, anything else as JSON, both clipped.
pub(super) fn shown(value: &Value) -> String {
    match value {
        Value::String(text) => terminal::quoted(text, SHOWN_CHARS),
        other => terminal::clip(&other.to_string(), SHOWN_CHARS).into_owned(),
    }
}

/// The value of the field or header `name`, as the table of fields shows it, in quotes.
pub(super) fn shown_field(name: &str, value: &str) -> String {
    terminal::quoted(&sensitive::shown(name, value, true), SHOWN_CHARS)
}
