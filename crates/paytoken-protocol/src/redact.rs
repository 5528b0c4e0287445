//! The one redactor of free text: what arrives where no field names it, such as a
//! gateway's description, a body that did not read, a command line, a header's value or a
//! field's name. A [`Redactor`] masks, wherever they stand:
//!
//! - the secrets its caller holds ([`Redactor::holding`]: the secure key, the auth token),
//!   as written, percent-encoded, form-encoded and JSON-escaped, when at least
//!   [`MIN_HELD_SECRET`] characters long (a shorter one could be any word);
//! - card numbers (Luhn-valid, 12 to 19 digits, single spaces or dashes between groups)
//!   and IBANs (whole or spaced), as the table of fields masks them
//!   (`400000******0051`, `DE****************3000`);
//! - the parts of a joined checksum text (`11344|o-1|10.00|EUR|key`) that could be a key:
//!   every part after the first of at least [`MIN_HELD_SECRET`] characters that is not a
//!   plain number, shown as `***` as the sandbox's explanations show the key;
//! - the value of every field the table of fields calls secret (`"accessToken":"…"`,
//!   `sKey=…`, a `{"name":"checksum","value":…}` pair);
//! - every other run of 12 or more digits (`[digits]`) and every unbroken word of 24 or
//!   more token characters with a digit in it (a JWT, a key), unless it is an id the
//!   answer being read carries as its own ([`Redactor::knowing`]): gateway ids are never
//!   masked.
//!
//! Control characters become spaces. An error that quotes a body quotes its start, redacted,
//! by this redactor.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use paytoken_types::internal::sensitive::{self, REDACTED};
use zeroize::Zeroizing;

/// How much of a body an error message shows, in characters.
pub(crate) const EXCERPT_CHARS: usize = 120;

/// How much of a gateway's description an error or a binding's answer shows, in
/// characters ([`description`]).
pub const DESCRIPTION_CHARS: usize = 200;

/// A gateway's description (a result's, a refusal's) as it may be shown: the secure key and
/// auth token of `context` masked when it is known, then redacted and cut to
/// [`DESCRIPTION_CHARS`] characters.
#[must_use]
pub fn description(text: &str, context: Option<&crate::Context>) -> String {
    match context {
        Some(context) => redact(&context.mask_secrets(text), DESCRIPTION_CHARS),
        None => redact(text, DESCRIPTION_CHARS),
    }
}

/// The shortest secret a [`Redactor`] masks for being held: a shorter one could be any
/// word of the text.
pub const MIN_HELD_SECRET: usize = 8;

/// What replaces a part of a joined checksum text that could be a key.
const JOINED_PART: &str = "***";

/// Runs of digits this long or longer are masked.
const DIGIT_RUN: usize = 12;
/// Words of token characters this long or longer are masked.
const TOKEN_WORD: usize = 24;

/// The redacted start of a body, at most 120 characters (plus `…` when cut).
#[must_use]
pub(crate) fn excerpt(body: &[u8]) -> String {
    redact(&String::from_utf8_lossy(body), EXCERPT_CHARS)
}

/// `text` redacted by a [`Redactor`] that holds no secret and knows no id, cut to
/// `max_chars` characters: for any text that may echo a secret, such as a command line.
#[must_use]
pub fn redact(text: &str, max_chars: usize) -> String {
    Redactor::new().redact(text, max_chars)
}

/// The most characters of a name [`name`] shows.
const SHOWN_NAME: usize = 128;

/// A field's name as [`Redactor::name`] shows it, by a redactor that holds no secret.
#[must_use]
pub fn name(name: &str) -> Cow<'_, str> {
    Redactor::new().name(name)
}

/// `text` with `secrets` masked as a [`Redactor`] holding them masks them
/// ([`Redactor::mask_held`]), borrowed when none stands in it. A secret of letters,
/// digits, `-`, `.` and `_` (a JWT, most keys) is written the same in every form, so when
/// `text` does not hold it as it is, nothing is built: what a client pays per answer.
#[must_use]
pub fn mask_secrets<'t>(text: &'t str, secrets: &[&str]) -> Cow<'t, str> {
    let same_in_every_form = |secret: &str| {
        secret
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_'))
    };
    let absent = secrets.iter().all(|secret| {
        secret.chars().count() < MIN_HELD_SECRET
            || (same_in_every_form(secret) && !text.contains(secret))
    });
    if absent {
        return Cow::Borrowed(text);
    }
    secrets
        .iter()
        .fold(Redactor::new(), |redactor, secret| redactor.holding(secret))
        .mask_held(text)
}

/// The most secrets a [`Redactor`] holds: past it, the one it took first is let go (a
/// proxy that learns each token it sees holds the newest).
pub const MAX_HELD_SECRETS: usize = 32;

/// The one redactor of free text (see the module's docs): the secrets a caller holds and
/// the ids an answer carries, and the masks that need neither.
///
/// Its `Debug` shows how many secrets it holds, never one; they are wiped when it drops.
#[derive(Clone, Default)]
pub struct Redactor {
    /// Each held secret, oldest first, in each form it may be echoed in.
    held: Vec<Vec<Zeroizing<String>>>,
    /// Ids the gateway issued, shown as they are.
    ids: Vec<String>,
}

impl fmt::Debug for Redactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Redactor")
            .field("held", &self.held.len())
            .field("ids", &self.ids)
            .finish()
    }
}

impl Redactor {
    /// A redactor that holds no secret and knows no id.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Masks `secret` too, as written, percent-encoded (`%20` and `+` for a space) and
    /// JSON-escaped, when it is at least [`MIN_HELD_SECRET`] characters long. Past
    /// [`MAX_HELD_SECRETS`], the secret held longest is let go.
    #[must_use]
    pub fn holding(mut self, secret: &str) -> Self {
        self.hold(secret);
        self
    }

    /// [`Redactor::holding`], in place; whether `secret` is held now (long enough).
    pub fn hold(&mut self, secret: &str) -> bool {
        if secret.chars().count() < MIN_HELD_SECRET {
            return false;
        }
        if self
            .held
            .iter()
            .any(|forms| forms.first().is_some_and(|plain| plain.as_str() == secret))
        {
            return true;
        }
        let mut form = Zeroizing::new(Vec::with_capacity(secret.len() * 3));
        paytoken_types::internal::encode_into(&mut form, secret.as_bytes());
        let candidates = [
            Some(Zeroizing::new(String::from(secret))),
            core::str::from_utf8(&form)
                .ok()
                .map(|form| Zeroizing::new(String::from(form))),
            Some(Zeroizing::new(alloc::format!(
                "{}",
                paytoken_types::internal::path_segment(secret)
            ))),
            serde_json::to_string(secret)
                .ok()
                .map(|quoted| Zeroizing::new(String::from(quoted.trim_matches('"')))),
        ];
        let mut forms: Vec<Zeroizing<String>> = Vec::with_capacity(candidates.len());
        for candidate in candidates.into_iter().flatten() {
            if !forms.iter().any(|form| **form == *candidate) {
                forms.push(candidate);
            }
        }
        if self.held.len() >= MAX_HELD_SECRETS {
            self.held.remove(0);
        }
        self.held.push(forms);
        true
    }

    /// Shows `id` as it is wherever it stands: an id the gateway issued (a `paymentId`, a
    /// `registrationId`) that the answer being read carries as its own.
    #[must_use]
    pub fn knowing(mut self, id: &str) -> Self {
        if !id.is_empty() {
            self.ids.push(String::from(id));
        }
        self
    }

    /// `text` with the secrets held replaced by `[redacted]`, and nothing else changed;
    /// borrowed when it holds none.
    #[must_use]
    pub fn mask_held<'t>(&self, text: &'t str) -> Cow<'t, str> {
        // Longest first: a secret that holds another is masked whole.
        let mut forms: Vec<&str> = self
            .held
            .iter()
            .flatten()
            .map(|form| form.as_str())
            .collect();
        forms.sort_by_key(|form| core::cmp::Reverse(form.len()));
        let mut masked = Cow::Borrowed(text);
        for secret in forms {
            if masked.contains(secret) {
                masked = Cow::Owned(masked.replace(secret, REDACTED));
            }
        }
        masked
    }

    /// A field's name as it may be shown: through the redactor, since a name can hold what
    /// a value would (`{"sKey":"…"}`, `card 4000…`), cut to 128 characters. A name of
    /// letters, `.`, `_`, `-`, `[` and `]` under 24 characters, in which only a held secret
    /// could be found, is borrowed when it holds none.
    #[must_use]
    pub fn name<'n>(&self, name: &'n str) -> Cow<'n, str> {
        let plain = name.len() < TOKEN_WORD
            && name.bytes().all(|byte| {
                byte.is_ascii_alphabetic() || matches!(byte, b'.' | b'_' | b'-' | b'[' | b']')
            });
        if plain {
            return self.mask_held(name);
        }
        Cow::Owned(self.redact(name, SHOWN_NAME))
    }

    /// `text` redacted (see the module's docs) and cut to `max_chars` characters (plus `…`
    /// when cut).
    #[must_use]
    pub fn redact(&self, text: &str, max_chars: usize) -> String {
        // The held secrets first, over the whole text: one that straddles the cut is
        // still seen whole.
        let held = self.mask_held(text);
        if nothing_to_mask(&held, max_chars) {
            return held.into_owned();
        }
        self.redact_masked(&held, max_chars)
    }

    /// [`Redactor::redact`] of `held`, the held secrets masked in it already: every mask
    /// tried.
    fn redact_masked(&self, held: &str, max_chars: usize) -> String {
        // Read a little beyond the cut, so a secret that straddles it is still seen whole;
        // a word cut off by that read is dropped, since its start alone could be a secret's.
        let lookahead = max_chars.saturating_add(TOKEN_WORD + DIGIT_RUN);
        let (head, read_all) = match held.char_indices().nth(lookahead) {
            Some((end, _)) => (held.get(..end).unwrap_or_default(), false),
            None => (held, true),
        };
        let head = if read_all {
            head
        } else {
            head.trim_end_matches(is_token_char)
        };
        let head = sensitive::mask_in_text(head);
        let head = mask_joined(&head);

        let mut out = String::with_capacity(head.len());
        let mut reader = Reader {
            ids: &self.ids,
            ..Reader::default()
        };
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
                let after = head.get(index..).unwrap_or_default();
                reader.word(&mut out, head.get(start..index).unwrap_or_default(), after);
                if reader.in_secret_text && c != '"' {
                    continue;
                }
                reader.in_secret_text = false;
            }
            reader.between.push(c);
            out.push(if c.is_control() { ' ' } else { c });
        }
        if let Some(start) = word_start {
            reader.word(&mut out, head.get(start..).unwrap_or_default(), "");
        }

        if out.chars().count() > max_chars || !read_all {
            let mut cut: String = out.chars().take(max_chars).collect();
            cut.push('…');
            return cut;
        }
        out
    }
}

/// `text` with the parts of each joined checksum text that could be a key shown as `***`:
/// in a run of characters other than whitespace holding two `|` or more, every part after
/// the first of at least [`MIN_HELD_SECRET`] characters that is not a plain number (an
/// amount, an id of digits). A masked card number is no key.
fn mask_joined(text: &str) -> Cow<'_, str> {
    if text.matches('|').count() < 2 {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut rest = text;
    while !rest.is_empty() {
        let run_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (run, after) = rest.split_at(run_end);
        if run.matches('|').count() >= 2 {
            for (index, part) in run.split('|').enumerate() {
                if index > 0 {
                    out.push('|');
                }
                let number = part.bytes().all(|b| b.is_ascii_digit() || b == b'.');
                let masked_card = part.contains("******");
                if index > 0 && part.chars().count() >= MIN_HELD_SECRET && !number && !masked_card {
                    out.push_str(JOINED_PART);
                    changed = true;
                } else {
                    out.push_str(part);
                }
            }
        } else {
            out.push_str(run);
        }
        let spaces = after
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(after.len());
        let (space, next) = after.split_at(spaces);
        out.push_str(space);
        rest = next;
    }
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    }
}

/// Whether `text` is short enough to show whole and holds nothing any mask looks for: it is
/// ASCII with no digit (every card number, IBAN, digit run and token word the masks find
/// has one), no control character, and none of `|`, `=`, `:`, `"` (a joined checksum text,
/// a secret's form, JSON or `name: value` pair). Most descriptions are; they are shown as
/// they are without being read word by word.
fn nothing_to_mask(text: &str, max_chars: usize) -> bool {
    text.len() <= max_chars
        && text.bytes().all(|b| {
            b.is_ascii()
                && !b.is_ascii_digit()
                && !b.is_ascii_control()
                && !matches!(b, b'|' | b'=' | b':' | b'"')
        })
}

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '=' | '+' | '/')
}

/// What the words read so far say of the next one: whether it is a secret's value.
#[derive(Default)]
struct Reader<'i> {
    /// Ids shown as they are.
    ids: &'i [String],
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

impl Reader<'_> {
    /// Writes one word: redacted when the words before it make it a secret's value, or when
    /// it is long and token-like; with long digit runs masked.
    /// `after` is the text that follows the word: a secret's value already masked there
    /// (`sKey=[redacted]`) is not masked again.
    fn word(&mut self, out: &mut String, word: &str, after: &str) {
        // `"name":"value"` or `name: value`: a JSON member's value (a form's `name=value` is
        // one word, read below).
        let is_value = self.between.contains(':')
            && self.between.chars().all(|c| matches!(c, '"' | ':' | ' '));
        let secret = is_value && self.names_a_secret;
        let pair_name = is_value && self.names_a_pair;
        self.in_secret_text = secret && self.between.ends_with('"');
        self.between.clear();
        let word_names_a_secret = sensitive::is_secret(word);
        self.names_a_pair = word == "name";
        self.names_a_secret = word_names_a_secret || (word == "value" && self.secret_pair);
        self.secret_pair = (pair_name && word_names_a_secret) || (self.secret_pair && !secret);
        if secret {
            out.push_str(REDACTED);
        } else if let Some((name, _)) = word.split_once('=').filter(|(name, value)| {
            sensitive::is_secret(name) && !(value.is_empty() && after.starts_with(REDACTED))
        }) {
            // A form's `sKey=…`.
            out.push_str(name);
            out.push('=');
            out.push_str(REDACTED);
        } else if self.ids.iter().any(|id| id == word) {
            out.push_str(word);
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
        assert!(shown.contains("400000******0051") && shown.contains("[redacted]"));
        assert_eq!(redact("ref 1234567890123", 40), "ref [digits]");
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
    fn held_secrets_are_masked_in_every_form_they_are_echoed_in() {
        let key = "Held key/+&8q\"x";
        let redactor = Redactor::new().holding(key).holding("tok-held-Zq93");
        let text = "key Held key/+&8q\"x, form Held+key%2F%2B%268q%22x, path Held%20key%2F%2B%268q%22x, json \"Held key/+&8q\\\"x\", token tok-held-Zq93.";
        let shown = redactor.redact(text, 400);
        for form in ["Held", "%2F", "Zq93"] {
            assert!(!shown.contains(form), "{form}: {shown}");
        }
        assert_eq!(shown.matches(REDACTED).count(), 5, "{shown}");
        // A short secret is no held secret: it could be any word.
        assert_eq!(Redactor::new().holding("k3y").redact("k3y", 10), "k3y");
        assert_eq!(
            Redactor::new()
                .holding("a-secret-key")
                .mask_held("no secret"),
            Cow::Borrowed("no secret")
        );
        assert!(!alloc::format!("{redactor:?}").contains("Held"));
        // Without a redactor: the same masks, and nothing built when none stands there.
        for text in [text, "no secret here", "tok-held-Zq93"] {
            assert_eq!(
                mask_secrets(text, &[key, "tok-held-Zq93"]),
                redactor.mask_held(text),
                "{text}"
            );
        }
        assert!(matches!(
            mask_secrets("no secret here", &["tok-held-Zq93"]),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn grouped_card_numbers_spaced_ibans_and_joined_checksums_are_masked() {
        let shown = redact(
            "card 4000 0000 0000 0051 / 4000-0000-0000-0051 declined; iban DE89 3704 0044 0532 0130 00",
            400,
        );
        assert_eq!(
            shown,
            "card 400000******0051 / 400000******0051 declined; iban DE****************3000"
        );
        assert_eq!(
            redact(
                "Invalid checksum; computed over 11344|o-1|10.00|EUR|short-Key-9",
                400
            ),
            "Invalid checksum; computed over 11344|o-1|10.00|EUR|***"
        );
        // Joined codes and descriptions are no checksum text.
        for kept in ["30001 | 30002", "a | b | c", "50.00|EUR"] {
            assert_eq!(redact(kept, 400), kept);
        }
    }

    #[test]
    fn a_long_word_is_masked_unless_it_is_an_id_the_answer_carries() {
        let id = "8a82944a4cc25ebf014cc2c782423202";
        let text = alloc::format!("payment {id} by eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl");
        assert_eq!(redact(&text, 400), "payment [redacted] by [redacted]");
        assert_eq!(
            Redactor::new().knowing(id).redact(&text, 400),
            alloc::format!("payment {id} by [redacted]")
        );
        // A media type or a path without a digit stays.
        assert_eq!(
            redact("application/x-www-form-urlencoded", 400),
            "application/x-www-form-urlencoded"
        );
    }

    #[test]
    fn redacting_twice_changes_nothing_more() {
        let redactor = Redactor::new().holding("Held key/+&8q");
        for text in [
            "https://shop.example/back?sKey=k&checksum=c",
            r#"{"accessToken":"a b","token":"k","parameters":[{"name":"checksum","value":"c1"}]}"#,
            "card 4000 0000 0000 0051, iban DE89 3704 0044 0532 0130 00, 11344|o-1|short-Key-9",
            "key Held key/+&8q and eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl ref 1234567890123",
        ] {
            let once = redactor.redact(text, 400);
            assert_eq!(redactor.redact(&once, 400), once, "{text}");
        }
    }

    #[test]
    fn excerpt_survives_invalid_utf8() {
        assert_eq!(excerpt(b"ok \xff"), "ok \u{fffd}");
    }

    proptest::proptest! {
        /// The shortcut for text with nothing to mask gives what reading every word gives.
        #[test]
        fn text_with_nothing_to_mask_reads_as_every_mask_would(
            text in proptest::prop_oneof![
                "[a-zA-Z .,;'!?()\\-_/+@#*]{0,60}",
                "[a-zA-Z0-9 .,;'!?()\\-_/+@#*|=:\"\t]{0,60}",
                "(held-secret-text|[a-z ]{0,9}){0,6}",
            ],
            max_chars in 0usize..80,
        ) {
            let redactor = Redactor::new().holding("held-secret-text");
            let held = redactor.mask_held(&text);
            proptest::prop_assert_eq!(
                redactor.redact(&text, max_chars),
                redactor.redact_masked(&held, max_chars)
            );
        }
    }
}
