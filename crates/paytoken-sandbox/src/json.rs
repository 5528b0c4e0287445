//! A small JSON writer for answers in the gateway's shape: every value a string, keys in the
//! order written (repeated keys allowed, as the invoice list needs), `/` escaped as `\/`
//! the way the gateway's own serializer does.

use std::fmt::Write as _;

use crate::codes::Code;

/// Writes one JSON object and returns its text.
pub(crate) fn object(fill: impl FnOnce(&mut Object<'_>)) -> String {
    let mut out = String::with_capacity(256);
    write_object(&mut out, fill);
    out
}

fn write_object(out: &mut String, fill: impl FnOnce(&mut Object<'_>)) {
    out.push('{');
    fill(&mut Object { out, empty: true });
    out.push('}');
}

/// The object being written.
pub(crate) struct Object<'a> {
    out: &'a mut String,
    empty: bool,
}

impl Object<'_> {
    fn key(&mut self, key: &str) {
        if !self.empty {
            self.out.push(',');
        }
        self.empty = false;
        write_string(self.out, key);
        self.out.push(':');
    }

    /// `"key": "value"`, for any text: `&str`, an id, a currency, a status.
    pub(crate) fn field(&mut self, key: &str, value: impl AsRef<str>) -> &mut Self {
        self.key(key);
        write_string(self.out, value.as_ref());
        self
    }

    /// The field when there is a value; null fields are left out, as the gateway does.
    pub(crate) fn optional(&mut self, key: &str, value: Option<impl AsRef<str>>) -> &mut Self {
        if let Some(value) = value {
            self.field(key, value);
        }
        self
    }

    /// `"key": {...}`.
    pub(crate) fn object(&mut self, key: &str, fill: impl FnOnce(&mut Object<'_>)) -> &mut Self {
        self.key(key);
        write_object(self.out, fill);
        self
    }

    /// `"key": {"code": ..., "description": ...}`.
    pub(crate) fn result(&mut self, key: &str, code: &str, description: &str) -> &mut Self {
        self.object(key, |result| {
            result.field("code", code).field("description", description);
        })
    }

    /// `"result": {"code": ..., "description": ...}` of one code of the sandbox's table.
    pub(crate) fn code(&mut self, code: Code) -> &mut Self {
        self.result("result", code.code, code.description)
    }

    /// `"key": [{...}, ...]`, always an array.
    pub(crate) fn array<T>(
        &mut self,
        key: &str,
        items: &[T],
        mut fill: impl FnMut(&mut Object<'_>, &T),
    ) -> &mut Self {
        self.key(key);
        self.out.push('[');
        for (index, item) in items.iter().enumerate() {
            if index > 0 {
                self.out.push(',');
            }
            write_object(self.out, |object| fill(object, item));
        }
        self.out.push(']');
        self
    }

    /// The gateway's list shape: left out when empty, a single object for one element, an
    /// array for more.
    pub(crate) fn one_or_many<T>(
        &mut self,
        key: &str,
        items: &[T],
        mut fill: impl FnMut(&mut Object<'_>, &T),
    ) -> &mut Self {
        match items {
            [] => self,
            [only] => self.object(key, |object| fill(object, only)),
            _ => self.array(key, items, fill),
        }
    }
}

/// A JSON string literal: quotes, backslashes, `/` and control characters escaped.
pub(crate) fn write_string(out: &mut String, text: &str) {
    out.push('"');
    let mut plain_from = 0;
    for (index, byte) in text.bytes().enumerate() {
        let escape = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'/' => "\\/",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(text.get(plain_from..index).unwrap_or_default());
        if escape.is_empty() {
            // Writing to a String cannot fail.
            let _ = write!(out, "\\u{byte:04x}");
        } else {
            out.push_str(escape);
        }
        plain_from = index + 1;
    }
    out.push_str(text.get(plain_from..).unwrap_or_default());
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_strings_the_way_serde_json_reads_them() {
        let nasty = "Zoë \"O'Neil\" \\ https://x/y \n\t\u{1}";
        let text = object(|o| {
            o.field("name", nasty).object("inner", |i| {
                i.field("a", "1");
            });
        });
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["name"], nasty);
        assert_eq!(value["inner"]["a"], "1");
        assert!(text.contains("https:\\/\\/x\\/y"));
    }

    #[test]
    fn lists_are_left_out_single_or_arrays() {
        let render = |items: &[&str]| {
            object(|o| {
                o.one_or_many("card", items, |entry, id| {
                    entry.field("registrationId", id);
                });
            })
        };
        assert_eq!(render(&[]), "{}");
        assert_eq!(render(&["a"]), r#"{"card":{"registrationId":"a"}}"#);
        assert_eq!(
            render(&["a", "b"]),
            r#"{"card":[{"registrationId":"a"},{"registrationId":"b"}]}"#
        );
    }
}
