//! Diagnostics for the integrator, when asked for ([`crate::SandboxBuilder::explain`]): a
//! line per refusal, sent beside the answer (the `paytoken-sandbox-explain` header, and the
//! builder's sink) and never in it, so the wire stays the gateway's.
//!
//! A checksum mismatch is explained in full: the rule expected, its parts in order, the
//! joined text with the key masked (and a card number as its first six and last four
//! digits), and the first of the usual mistakes whose checksum is the one sent
//! (`mistakes.rs`). Finding it costs up to about 1,500 MD5s (an extra part tried at every
//! place dominates), so it is only done when asked for.
//!
//! Every value is shown as text, but for quotes, backslashes, control characters and the
//! invisible ones that reorder or hide text, which are escaped (`\u{1b}`): the line goes
//! into an HTTP header and onto a terminal, and what a request sent must not steer either.

mod mistakes;

use std::fmt::Write as _;
use std::sync::Arc;

use paytoken_checksum::SecureKey;
use paytoken_types::internal::sensitive;
pub(crate) use paytoken_types::internal::sensitive::clip;

use mistakes::closest_mistake;

/// The response header that carries the diagnostic.
pub const EXPLAIN_HEADER: &str = "paytoken-sandbox-explain";

/// Where diagnostics go besides the header.
pub(crate) type Sink = Arc<dyn Fn(&str) + Send + Sync>;

/// What a request's checksum signs after `id|key`: the rule's name and each part, named
/// as the form (or the path) names it, with the text as sent.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Signed<'a> {
    pub(crate) rule: &'a str,
    pub(crate) parts: &'a [(&'a str, &'a str)],
}

/// What else a mistaken checksum may have been made of: the secure keys of the sandbox's
/// other callers, each with who holds it, and the form's fields the rule does not sign
/// (named, never shown).
#[derive(Debug, Default)]
pub(crate) struct Suspects<'a> {
    pub(crate) keys: Vec<(String, &'a SecureKey)>,
    pub(crate) unsigned: Vec<(&'a str, &'a str)>,
}

/// The line that explains why `sent` is not the checksum of `signed` by `caller_id`.
pub(crate) fn checksum_mismatch(
    caller_id: &str,
    key: &SecureKey,
    signed: &Signed<'_>,
    sent: &str,
    suspects: &Suspects<'_>,
) -> String {
    checksum_mismatch_showing(caller_id, key, signed, sent, suspects, false)
}

/// [`checksum_mismatch`], with personal values shown when `keep_personal` (for the
/// conformance kit, whose people are made up).
pub(crate) fn checksum_mismatch_showing(
    caller_id: &str,
    key: &SecureKey,
    signed: &Signed<'_>,
    sent: &str,
    suspects: &Suspects<'_>,
    keep_personal: bool,
) -> String {
    let mut names = vec!["id", "key"];
    names.extend(signed.parts.iter().map(|(name, _)| *name));
    let masked: Vec<String> = std::iter::once(caller_id.to_owned())
        .chain(std::iter::once("***".to_owned()))
        .chain(
            signed
                .parts
                .iter()
                .map(|(name, value)| shown(name, value, keep_personal)),
        )
        .collect();
    let mut line = format!(
        "checksum mismatch: rule {} expects MD5 of {} = \"{}\"",
        signed.rule,
        names.join("|"),
        visible(&masked.join("|"))
    );
    let mistake = closest_mistake(caller_id, key, signed, sent.trim(), suspects);
    let _ = write!(line, "; {mistake}");
    line
}

/// A value as the diagnostic shows it: as the table of fields says it may be shown (a
/// card number as its first six and last four digits, a personal value replaced unless
/// `keep_personal`), and an id the caller sent (a path's) as every display shows one.
fn shown(name: &str, value: &str, keep_personal: bool) -> String {
    sensitive::id_shown(&sensitive::shown(name, value, keep_personal)).into_owned()
}

/// The line for a refusal other than a checksum mismatch: its code and description.
pub(crate) fn refusal(code: &str, description: &str) -> String {
    format!("refused {}: {}", visible(code), visible(description))
}

/// `text` as a diagnostic shows it: as it is, but for quotes and backslashes, control
/// characters and the invisible characters that reorder or hide text, escaped.
pub(crate) fn visible(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    for c in text.chars() {
        let steers = c.is_control()
            || matches!(
                c,
                '"' | '\\'
                    | '\u{200b}'..='\u{200f}'
                    | '\u{2028}'..='\u{202e}'
                    | '\u{2060}'..='\u{2069}'
                    | '\u{feff}'
            );
        if steers {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::mistakes::reorderings;
    use super::*;

    const ID: &str = "11344";
    const KEY: &str = "l6N2Yd7x0Qy9GSMHmOcW3aBq5tRz8Kpj";

    fn key() -> SecureKey {
        SecureKey::new(KEY).unwrap()
    }

    fn payment() -> Signed<'static> {
        Signed {
            rule: "payment",
            parts: &[
                ("merchantTransactionId", "Rest Transaction 01"),
                ("amount", "50.00"),
            ],
        }
    }

    fn explain(signed: &Signed<'_>, joined: &str) -> String {
        let sent = format!("{:x}", md5_oracle::compute(joined.as_bytes()));
        checksum_mismatch(ID, &key(), signed, &sent, &Suspects::default())
    }

    #[test]
    fn each_usual_mistake_is_named() {
        let cases = [
            (
                format!("{ID}|{KEY}|50.00|Rest Transaction 01"),
                "the parts in another order, id|key|amount|merchantTransactionId",
            ),
            (
                format!("{ID}|{KEY}|Rest Transaction 01|50"),
                "the amount signed as \"50\"",
            ),
            (
                format!("{ID}|{KEY}|Rest Transaction 01|50.0"),
                "the amount signed as \"50.0\"",
            ),
            (
                format!("{ID}|{KEY}|Rest Transaction 01|5000"),
                "the amount signed as \"5000\"",
            ),
            (
                format!("{ID}|Rest Transaction 01|50.00|{KEY}"),
                "the key at the wrong end",
            ),
            (
                format!("{KEY}|{ID}|Rest Transaction 01|50.00"),
                "the key at the wrong end",
            ),
            (
                format!("{ID}|{KEY}|Rest+Transaction+01|50.00"),
                "the values form-encoded before hashing",
            ),
            (
                format!("{ID}|{KEY}|Rest%20Transaction%2001|50.00"),
                "the values percent-encoded before hashing",
            ),
            (
                format!("{ID}|another-key|Rest Transaction 01|50.00"),
                "no usual mistake matches",
            ),
        ];
        for (joined, named) in cases {
            let line = explain(&payment(), &joined);
            assert!(line.contains(named), "{joined}: {line}");
            assert!(
                line.starts_with(
                    "checksum mismatch: rule payment expects MD5 of id|key|merchantTransactionId|amount = \"11344|***|Rest Transaction 01|50.00\"; "
                ),
                "{line}"
            );
            assert!(!line.contains(KEY), "{line}");
        }
    }

    #[test]
    fn upper_case_hex_and_a_malformed_checksum_are_named() {
        let joined = format!("{ID}|{KEY}|Rest Transaction 01|50.00");
        let upper = format!("{:X}", md5_oracle::compute(joined.as_bytes()));
        let line = checksum_mismatch(ID, &key(), &payment(), &upper, &Suspects::default());
        assert!(line.contains("upper-case hex"), "{line}");
        let line = checksum_mismatch(ID, &key(), &payment(), "abc", &Suspects::default());
        assert!(line.contains("not 32 hexadecimal digits"), "{line}");
    }

    #[test]
    fn a_card_number_shows_its_first_six_and_last_four_digits_only() {
        let signed = Signed {
            rule: "card_registration",
            parts: &[("card.number", "4000000000000051")],
        };
        let line = explain(&signed, &format!("{ID}|{KEY}|4000000000000052"));
        assert!(line.contains("\"11344|***|400000******0051\""), "{line}");
        assert!(!line.contains("4000000000000051"), "{line}");
        let number = paytoken_types::Card::NUMBER;
        assert_eq!(shown(number, "4111111111111", true), "*********1111");
    }

    #[test]
    fn what_a_request_sent_cannot_steer_a_terminal_or_break_a_header() {
        let signed = Signed {
            rule: "payment",
            parts: &[
                ("merchantTransactionId", "a\u{1b}[2J\r\nb\u{e9}"),
                ("amount", "1.00"),
            ],
        };
        let line = explain(&signed, "anything");
        assert!(!line.chars().any(char::is_control), "{line:?}");
        // Text as text; what steers a terminal escaped.
        assert!(line.contains("a\\u{1b}[2J\\r\\nb\u{e9}"), "{line}");
        assert_eq!(
            visible("x\u{202e}y\u{200b}\"z"),
            "x\\u{202e}y\\u{200b}\\\"z"
        );
        let line = refusal("30001", "Invalid \u{7}amount");
        assert!(!line.chars().any(char::is_control), "{line:?}");
    }

    #[test]
    fn every_order_but_the_given_one() {
        assert_eq!(reorderings(&[1, 2, 3]).len(), 5);
        let orders = reorderings(&[0, 1, 2, 3]);
        assert_eq!(orders.len(), 23);
        assert!(!orders.contains(&vec![0, 1, 2, 3]));
    }

    fn explain_with(signed: &Signed<'_>, joined_bytes: &[u8], suspects: &Suspects<'_>) -> String {
        let sent = format!("{:x}", md5_oracle::compute(joined_bytes));
        checksum_mismatch(ID, &key(), signed, &sent, suspects)
    }

    #[test]
    fn the_mistakes_that_need_more_than_the_rule_are_named_too() {
        let signed = Signed {
            rule: "payment",
            parts: &[("merchantTransactionId", "Zo\u{eb} 01"), ("amount", "0.50")],
        };
        let none = Suspects::default();
        let latin_1: Vec<u8> = format!("{ID}|{KEY}|Zo\u{eb} 01|0.50")
            .chars()
            .map(|c| u8::try_from(u32::from(c)).unwrap())
            .collect();
        let other = SecureKey::new("another-callers-key-0123456789ab").unwrap();
        let suspects = Suspects {
            keys: vec![("partner 100".to_owned(), &other)],
            unsigned: vec![("currency", "EUR"), ("card.cvv", "123")],
        };
        let cases: [(Vec<u8>, &Suspects<'_>, &str); 8] = [
            (latin_1, &none, "hashed as Latin-1"),
            (
                format!("{ID};{KEY};Zo\u{eb} 01;0.50").into_bytes(),
                &none,
                "joined with \";\"",
            ),
            (
                format!("{ID}|{KEY}|Zo\u{eb} 01|.50").into_bytes(),
                &none,
                "the leading zero of amount dropped, \".50\" for \"0.50\"",
            ),
            (
                format!("{ID}|{KEY}|0.50").into_bytes(),
                &none,
                "merchantTransactionId left out",
            ),
            (
                format!("{ID}|{KEY}|Zo\u{eb} 01|0.50|EUR").into_bytes(),
                &suspects,
                "an extra part, currency, signed after amount",
            ),
            (
                format!("{ID}|{KEY}|123|Zo\u{eb} 01|0.50").into_bytes(),
                &suspects,
                "an extra part, card.cvv, signed after key",
            ),
            (
                format!("{ID}|another-callers-key-0123456789ab|Zo\u{eb} 01|0.50").into_bytes(),
                &suspects,
                "the secure key of partner 100",
            ),
            (
                format!("{ID}|{KEY}|Zo\u{eb} 01|0.50|nothing").into_bytes(),
                &suspects,
                "no usual mistake matches",
            ),
        ];
        for (joined, suspects, named) in cases {
            let line = explain_with(&signed, &joined, suspects);
            assert!(line.contains(named), "{named}: {line}");
            assert!(line.contains("\"11344|***|Zo\u{eb} 01|0.50\""), "{line}");
            for secret in [KEY, "another-callers-key", "123"] {
                assert!(!line.contains(secret), "{line}");
            }
        }
        let sha_256 = "ab".repeat(32);
        let line = checksum_mismatch(ID, &key(), &signed, &sha_256, &none);
        assert!(line.contains("the length of a SHA-256"), "{line}");
    }
}
