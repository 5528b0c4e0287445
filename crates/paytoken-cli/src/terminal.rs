//! What the command writes: text from a gateway made safe for a terminal, JSON with every
//! control character escaped, and output that stops quietly when its reader has gone.
//!
//! A gateway's text (a description, a remark, a name) reaches a terminal through this
//! command. Left raw, an escape sequence in it could retitle the window, clear the screen
//! or overwrite the line above with "APPROVED"; a newline could forge a line of its own.
//! So every control character (C0, DEL and the C1 range, where U+009B is a terminal's CSI)
//! of such text is written as a visible escape (`\u{1b}`), and so are the characters that
//! reorder or break what a reader sees without being controls: the bidirectional embeddings,
//! overrides and isolates (U+202A to U+202E, U+2066 to U+2069; U+202E turns `gnp.exe` into
//! what looks like `exe.png`) and the line and paragraph separators (U+2028, U+2029).
//! `--json` escapes DEL, C1 and those characters as `\uXXXX`, as it does C0.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, Write as _};

pub(crate) use paytoken::types::internal::sensitive::clip;
use serde_json::Value;

/// Whether a character can steer a terminal or what a reader sees: C0 (newline
/// included), DEL, C1, bidirectional controls, line and paragraph separators.
fn is_control(c: char) -> bool {
    c.is_control() || reorders(c)
}

/// The bidirectional embeddings, overrides and isolates, and the line and paragraph
/// separators: not controls to Unicode, but they reorder or break a line.
fn reorders(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
}

/// What `--json` escapes beyond serde_json's C0: DEL, C1, and what [`reorders`].
fn json_escaped(c: char) -> bool {
    c == '\u{7f}' || ('\u{80}'..='\u{9f}').contains(&c) || reorders(c)
}

/// `text` in quotes, as `{:?}` writes it; past `max` characters, its first `max` in quotes
/// and its length after them (`"abc"... (131000 characters)`).
pub(crate) fn quoted(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => format!("{text:?}"),
        Some((end, _)) => format!(
            "{:?}... ({} characters)",
            &text[..end],
            text.chars().count()
        ),
    }
}

/// `text` with every control character, newlines included, written as `\u{..}`: for one
/// value from outside, on one line.
pub(crate) fn escape(text: &str) -> Cow<'_, str> {
    escape_where(text, is_control)
}

/// A whole output of the command: every control character but the newline (which the
/// command writes itself, between lines) written as `\u{..}`.
pub(crate) fn safe(text: &str) -> Cow<'_, str> {
    escape_where(text, |c| is_control(c) && c != '\n')
}

fn escape_where(text: &str, escaped: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(&escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if escaped(c) {
            // Writing to a String cannot fail.
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A JSON value on one line, with DEL, the C1 controls and the characters that reorder a
/// line escaped as `\uXXXX` too (serde_json escapes only U+0000 to U+001F). Those
/// characters can stand only inside strings, so the result is the same JSON.
pub(crate) fn json(value: &Value) -> String {
    let text = value.to_string();
    if !text.chars().any(json_escaped) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if json_escaped(c) {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out
}

/// Why standard output took no more.
#[derive(Debug)]
pub(crate) enum Unwritten {
    /// Its reader went away (`| head`, a closed pipe): stop writing, quietly.
    Closed,
    /// Anything else (a full disk, an I/O error): the output is cut, so the command fails
    /// and says so on stderr.
    Failed(io::Error),
}

/// Writes `text` to standard output and flushes it; why not, when it could not.
pub(crate) fn out(text: &str) -> Result<(), Unwritten> {
    let mut stdout = io::stdout().lock();
    stdout
        .write_all(safe(text).as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|error| {
            if error.kind() == io::ErrorKind::BrokenPipe {
                Unwritten::Closed
            } else {
                Unwritten::Failed(error)
            }
        })
}

/// Writes one line to standard error, made safe; a closed stderr is ignored.
pub(crate) fn err_line(text: &str) {
    let mut stderr = io::stderr().lock();
    let _ = writeln!(stderr, "{}", escape(text));
}

/// Writes `text` to standard error as it is (clap's own messages, already ours), made safe.
pub(crate) fn err(text: &str) {
    let mut stderr = io::stderr().lock();
    let _ = stderr.write_all(safe(text).as_bytes());
}

/// Rewrites the progress line on standard error (a terminal): back to its start, `text`
/// (escaped), the rest of the line cleared. Empty text clears it.
pub(crate) fn progress(text: &str) {
    let mut stderr = io::stderr().lock();
    let _ = write!(stderr, "\r{}\u{1b}[K", escape(text));
    let _ = stderr.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_control_character_is_shown_not_obeyed() {
        assert_eq!(escape("plain text, Zoë"), "plain text, Zoë");
        assert_eq!(
            escape("ok\u{1b}]0;pwned\u{7}\r\nFAKE APPROVED\u{9b}2J\u{7f}"),
            "ok\\u{1b}]0;pwned\\u{7}\\u{d}\\u{a}FAKE APPROVED\\u{9b}2J\\u{7f}"
        );
        assert_eq!(
            safe("line one\nline\u{1b}[2J two\n"),
            "line one\nline\\u{1b}[2J two\n"
        );
    }

    /// Regression: U+202E and U+2028 in a merchant transaction id or a remark reached the
    /// terminal as they were.
    #[test]
    fn characters_that_reorder_a_line_are_shown_not_obeyed() {
        for c in [
            '\u{202a}', '\u{202e}', '\u{2066}', '\u{2069}', '\u{2028}', '\u{2029}',
        ] {
            let text = format!("order-{c}gnp.exe");
            assert_eq!(
                escape(&text),
                format!("order-\\u{{{:x}}}gnp.exe", u32::from(c))
            );
            assert!(!safe(&text).contains(c));
            let value = serde_json::json!({ "remark": text });
            let line = json(&value);
            assert!(!line.contains(c), "{line}");
            assert_eq!(serde_json::from_str::<Value>(&line).unwrap(), value);
        }
        assert_eq!(escape("Zoë \u{200f} שלום"), "Zoë \u{200f} שלום");
    }

    #[test]
    fn a_long_value_is_clipped_with_its_length() {
        assert_eq!(quoted("a\"b", 8), r#""a\"b""#);
        assert_eq!(quoted("abcdef", 3), r#""abc"... (6 characters)"#);
        assert_eq!(clip("short", 8), "short");
        assert_eq!(clip("ééééé", 5), "ééééé");
        assert_eq!(clip("éééééé", 5), "ééééé... (6 characters)");
        let long = "x".repeat(131_072);
        assert_eq!(clip(&long, 32).len(), 32 + "... (131072 characters)".len());
    }

    #[test]
    fn json_escapes_del_and_c1_and_stays_the_same_json() {
        let value = serde_json::json!({ "description": "a\u{7f}b\u{9b}c\u{1b}d é" });
        let text = json(&value);
        assert!(text.contains(r"a\u007fb\u009bc\u001bd é"), "{text}");
        assert!(!text.chars().any(char::is_control), "{text:?}");
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, value);
    }
}
