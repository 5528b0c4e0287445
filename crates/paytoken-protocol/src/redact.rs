//! Short, redacted excerpts of answers, for error messages and logs.
//!
//! A body that failed to parse can still echo what was sent: a card number, an auth token.
//! An excerpt keeps the start of the body for a human to recognise (an HTML 502 page, a cut
//! JSON object) and masks what could be a secret: the value of every field the table of
//! fields calls secret (`"accessToken":"…"`, `sKey=…`, a `{"name":"checksum","value":…}`
//! pair), every run of 12 or more digits (a card number or an IBAN's digits) and every
//! unbroken word of 24 or more token characters (a JWT, a key). Control characters become
//! spaces.

use paytoken_types::internal::sensitive::{self, REDACTED, Sensitivity};

/// How much of a body an error message shows, in characters.
pub(crate) const EXCERPT_CHARS: usize = 120;

/// Runs of digits this long or longer are masked.
const DIGIT_RUN: usize = 12;
/// Words of token characters this long or longer are masked.
const TOKEN_WORD: usize = 24;

/// The redacted start of a body, at most 120 characters (plus `…` when cut).
#[must_use]
pub(crate) fn excerpt(body: &[u8]) -> String {
    redact(&String::from_utf8_lossy(body), EXCERPT_CHARS)
}

/// Redacts `text` (long digit runs and token-like words masked) and cuts it to
/// `max_chars` characters: for any text that may echo a secret, such as a command line.
#[must_use]
pub fn redact(text: &str, max_chars: usize) -> String {
    // Read a little beyond the cut, so a secret that straddles it is still seen whole;
    // a word cut off by that read is dropped, since its start alone could be a secret's.
    let lookahead = max_chars + TOKEN_WORD + DIGIT_RUN;
    let (head, read_all) = match text.char_indices().nth(lookahead) {
        Some((end, _)) => (text.get(..end).unwrap_or_default(), false),
        None => (text, true),
    };
    let head = if read_all {
        head
    } else {
        head.trim_end_matches(is_token_char)
    };

    let mut out = String::with_capacity(head.len());
    let mut reader = Reader::default();
    let mut word_start = None;
    for (index, c) in head.char_indices() {
        if reader.in_secret_text {
            // The rest of a secret's quoted value, up to its closing quote, is not shown.
            if reader.escaped {
                reader.escaped = false;
            } else if c == '\\' {
                reader.escaped = true;
            } else if c == '"' {
                reader.in_secret_text = false;
                out.push(c);
            }
            continue;
        }
        if is_token_char(c) {
            word_start.get_or_insert(index);
            continue;
        }
        if let Some(start) = word_start.take() {
            reader.word(&mut out, head.get(start..index).unwrap_or_default());
            if reader.in_secret_text && c != '"' {
                continue;
            }
            reader.in_secret_text = false;
        }
        reader.between.push(c);
        out.push(if c.is_control() { ' ' } else { c });
    }
    if let Some(start) = word_start {
        reader.word(&mut out, head.get(start..).unwrap_or_default());
    }

    if out.chars().count() > max_chars || !read_all {
        let mut cut: String = out.chars().take(max_chars).collect();
        cut.push('…');
        return cut;
    }
    out
}

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '=' | '+' | '/')
}

/// What the words read so far say of the next one: whether it is a secret's value.
#[derive(Default)]
struct Reader {
    /// The characters since the last word (`":"`, `", "`).
    between: String,
    /// The last word named a secret field.
    names_a_secret: bool,
    /// The last word was the `name` of a name/value pair.
    names_a_pair: bool,
    /// A name/value pair named a secret: its `value` is one.
    secret_pair: bool,
    /// The word just written was the start of a secret's quoted value.
    in_secret_text: bool,
    /// Inside that value, the last character was a `\`.
    escaped: bool,
}

impl Reader {
    /// Writes one word: redacted when the words before it make it a secret's value, or when
    /// it is long and token-like; with long digit runs masked.
    fn word(&mut self, out: &mut String, word: &str) {
        // `"name":"value"` or `name: value`: a JSON member's value (a form's `name=value` is
        // one word, read below).
        let is_value = self.between.contains(':')
            && self.between.chars().all(|c| matches!(c, '"' | ':' | ' '));
        let secret = is_value && self.names_a_secret;
        let pair_name = is_value && self.names_a_pair;
        self.in_secret_text = secret && self.between.ends_with('"');
        self.between.clear();
        let word_names_a_secret = sensitive::of(word) == Sensitivity::Secret;
        self.names_a_pair = word == "name";
        self.names_a_secret = word_names_a_secret || (word == "value" && self.secret_pair);
        self.secret_pair = (pair_name && word_names_a_secret) || (self.secret_pair && !secret);
        if secret {
            out.push_str(REDACTED);
        } else if let Some((name, _)) = word
            .split_once('=')
            .filter(|(name, _)| sensitive::of(name) == Sensitivity::Secret)
        {
            // A form's `sKey=…`.
            out.push_str(name);
            out.push('=');
            out.push_str(REDACTED);
        } else {
            flush_word(out, word);
        }
    }
}

/// Writes one word, masked when it is long and token-like, with long digit runs masked.
fn flush_word(out: &mut String, word: &str) {
    if word.len() >= TOKEN_WORD && word.bytes().any(|b| b.is_ascii_digit()) {
        out.push_str(REDACTED);
        return;
    }
    let mut digits = 0;
    let mut run_start = 0;
    for (index, b) in word.bytes().enumerate() {
        if b.is_ascii_digit() {
            if digits == 0 {
                run_start = index;
            }
            digits += 1;
        } else {
            push_run(out, word.get(run_start..index).unwrap_or_default(), digits);
            digits = 0;
            out.push(char::from(b));
        }
    }
    push_run(out, word.get(run_start..).unwrap_or_default(), digits);
}

fn push_run(out: &mut String, run: &str, digits: usize) {
    if digits == 0 {
        return;
    }
    if digits >= DIGIT_RUN {
        out.push_str("[digits]");
    } else {
        out.push_str(run);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_card_numbers_and_tokens() {
        let text = r#"{"card":"4000000000000051","AuthToken":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abc","amount":"50.00"}"#;
        let shown = redact(text, 400);
        assert!(!shown.contains("4000000000000051"), "{shown}");
        assert!(!shown.contains("eyJhbGci"), "{shown}");
        assert!(shown.contains("[digits]") && shown.contains("[redacted]"));
        assert!(shown.contains(r#""amount":"50.00""#), "{shown}");
    }

    #[test]
    fn masks_the_values_the_table_calls_secret() {
        let text = r#"{"accessToken":"plain \"secret\" words","token": "k","amount":"1.00","parameters":[{"name":"checksum","value":"c1"},{"name":"x","value":"shown"}]} sKey=k2&a=b"#;
        let shown = redact(text, 400);
        for secret in ["plain", "words", "\"k\"", "c1", "k2"] {
            assert!(!shown.contains(secret), "{secret}: {shown}");
        }
        assert_eq!(
            shown,
            r#"{"accessToken":"[redacted]","token": "[redacted]","amount":"1.00","parameters":[{"name":"checksum","value":"[redacted]"},{"name":"x","value":"shown"}]} sKey=[redacted]&a=b"#
        );
    }

    #[test]
    fn keeps_short_words_and_cuts_long_text() {
        assert_eq!(
            redact("<html>502 Bad Gateway</html>", 400),
            "<html>502 Bad Gateway</html>"
        );
        assert_eq!(redact("a\nb", 10), "a b");
        let long = "word ".repeat(100);
        let shown = redact(&long, 20);
        assert!(shown.ends_with('…'));
        assert!(shown.chars().count() <= 21, "{shown}");
    }

    #[test]
    fn a_number_cut_by_the_limit_is_still_masked() {
        let shown = redact("x 4000000000000051", 5);
        assert!(!shown.contains("4000"), "{shown}");
    }

    #[test]
    fn excerpt_survives_invalid_utf8() {
        assert_eq!(excerpt(b"ok \xff"), "ok \u{fffd}");
    }
}
