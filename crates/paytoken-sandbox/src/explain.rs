//! Diagnostics for the integrator, when asked for ([`crate::SandboxBuilder::explain`]): a
//! line per refusal, sent beside the answer (the `paytoken-sandbox-explain` header, and the
//! builder's sink) and never in it, so the wire stays the gateway's.
//!
//! A checksum mismatch is explained in full: the rule expected, its parts in order, the
//! joined text with the key masked (and a card number as its first six and last four
//! digits), and the first of the usual mistakes whose checksum is the one sent: upper-case
//! hex, the key at the wrong end, the parts in another order, the amount in another text,
//! the joined text form-encoded. Finding it costs up to about 130 MD5s (the 119 other
//! orders of a five-part rule dominate), so it is only done when asked for.
//!
//! Every value is shown escaped (`str::escape_default`): the line goes into an HTTP header
//! and onto a terminal, and what a request sent must not steer either.

use std::fmt::Write as _;
use std::sync::Arc;

use md5::{Digest, Md5};
use paytoken_checksum::SecureKey;
use paytoken_types::Amount;

/// The response header that carries the diagnostic.
pub const EXPLAIN_HEADER: &str = "paytoken-sandbox-explain";

/// Where diagnostics go besides the header.
pub(crate) type Sink = Arc<dyn Fn(&str) + Send + Sync>;

/// What a request's checksum signs after `id|key`: the rule's name and each part, named
/// as the form (or the path) names it, with the text as sent.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Signed<'a> {
    pub(crate) rule: &'static str,
    pub(crate) parts: &'a [(&'static str, &'a str)],
}

/// The most parts any rule has, `id` and `key` included: the permutations tried stay few.
const MAX_PARTS: usize = 5;

/// The line that explains why `sent` is not the checksum of `signed` by `caller_id`.
pub(crate) fn checksum_mismatch(
    caller_id: &str,
    key: &SecureKey,
    signed: &Signed<'_>,
    sent: &str,
) -> String {
    let mut names = vec!["id", "key"];
    names.extend(signed.parts.iter().map(|(name, _)| *name));
    let masked: Vec<String> = std::iter::once(caller_id.to_owned())
        .chain(std::iter::once("***".to_owned()))
        .chain(signed.parts.iter().map(|(name, value)| shown(name, value)))
        .collect();
    let mut line = format!(
        "checksum mismatch: rule {} expects MD5 of {} = \"{}\"",
        signed.rule,
        names.join("|"),
        masked.join("|").escape_default()
    );
    let mistake = closest_mistake(caller_id, key, signed, sent.trim());
    let _ = write!(line, "; {mistake}");
    line
}

/// A value as the diagnostic shows it: a card number as its first six and last four digits.
fn shown(name: &str, value: &str) -> String {
    if name != "card.number" {
        return value.to_owned();
    }
    let digits = value.chars().count();
    let head = if digits >= 16 { 6 } else { 0 };
    let tail = digits.min(4);
    value
        .chars()
        .enumerate()
        .map(|(at, c)| {
            if at < head || at >= digits - tail {
                c
            } else {
                '*'
            }
        })
        .collect()
}

fn md5_hex(parts: &[&str]) -> String {
    let mut md5 = Md5::new();
    for (at, part) in parts.iter().enumerate() {
        if at > 0 {
            md5.update(b"|");
        }
        md5.update(part.as_bytes());
    }
    md5.finalize()
        .iter()
        .fold(String::with_capacity(32), |mut hex, byte| {
            let _ = write!(hex, "{byte:02x}");
            hex
        })
}

/// MD5 of the values of `parts`, joined.
fn md5_of(parts: &[(&str, &str)]) -> String {
    md5_hex(&parts.iter().map(|(_, value)| *value).collect::<Vec<_>>())
}

/// `parts` with the values `change` gives a new text for replaced, the others kept.
fn changed<'p>(
    parts: &[(&'p str, &str)],
    change: impl Fn(&str, &str) -> Option<String>,
) -> Vec<(&'p str, String)> {
    parts
        .iter()
        .map(|&(name, value)| {
            (
                name,
                change(name, value).unwrap_or_else(|| value.to_owned()),
            )
        })
        .collect()
}

/// MD5 of the texts of `parts`, joined.
fn md5_of_texts(parts: &[(&str, String)]) -> String {
    md5_hex(
        &parts
            .iter()
            .map(|(_, value)| value.as_str())
            .collect::<Vec<_>>(),
    )
}

/// How a value may have been encoded before it was hashed.
type Encoding = (&'static str, fn(&str) -> String);

/// The rule's parts in order, each named, `id` and `key` first.
type Parts<'a> = [(&'a str, &'a str)];

/// The first usual mistake that yields `sent`, in words.
fn closest_mistake(caller_id: &str, key: &SecureKey, signed: &Signed<'_>, sent: &str) -> String {
    let mut expected: Vec<(&str, &str)> = vec![("id", caller_id), ("key", key.expose_secret())];
    expected.extend(signed.parts.iter().copied());
    if sent.len() != 32 || !sent.bytes().all(|b| b.is_ascii_hexdigit()) {
        return format!(
            "the checksum sent is not 32 hexadecimal digits ({} characters)",
            sent.chars().count()
        );
    }
    if sent.eq_ignore_ascii_case(&md5_of(&expected)) {
        return "closest mistake: upper-case hex; write the checksum in lower case".to_owned();
    }
    let sent = sent.to_ascii_lowercase();
    let mistakes: [fn(&Parts<'_>, &str) -> Option<String>; 4] = [
        key_at_the_wrong_end,
        another_order,
        another_amount_text,
        encoded_before_hashing,
    ];
    mistakes
        .iter()
        .find_map(|mistake| mistake(&expected, &sent))
        .unwrap_or_else(|| {
            "no usual mistake matches: check the secure key, the caller's id and each value"
                .to_owned()
        })
}

/// The key last, or first.
fn key_at_the_wrong_end(expected: &Parts<'_>, sent: &str) -> Option<String> {
    let (head, values) = expected.split_at(2);
    let key_last: Vec<(&str, &str)> = head
        .iter()
        .take(1)
        .chain(values)
        .chain(head.iter().skip(1))
        .copied()
        .collect();
    let key_first: Vec<(&str, &str)> = head.iter().rev().chain(values).copied().collect();
    (md5_of(&key_last) == sent || md5_of(&key_first) == sent).then(|| {
        "closest mistake: the key at the wrong end; it comes second, after the id".to_owned()
    })
}

/// The parts in another order.
fn another_order(expected: &Parts<'_>, sent: &str) -> Option<String> {
    if expected.len() > MAX_PARTS {
        return None;
    }
    let order = reorderings(expected)
        .into_iter()
        .find(|order| md5_of(order) == sent)?;
    fn names(parts: &Parts<'_>) -> String {
        parts
            .iter()
            .map(|(name, _)| *name)
            .collect::<Vec<_>>()
            .join("|")
    }
    Some(format!(
        "closest mistake: the parts in another order, {}; the rule's order is {}",
        names(&order),
        names(expected)
    ))
}

/// The amount in another text than the one sent.
fn another_amount_text(expected: &Parts<'_>, sent: &str) -> Option<String> {
    let &(_, sent_amount) = expected.iter().find(|(name, _)| *name == "amount")?;
    amount_texts(sent_amount).into_iter().find_map(|text| {
        let other = changed(expected, |name, _| (name == "amount").then(|| text.clone()));
        (md5_of_texts(&other) == sent).then(|| {
            format!(
                "closest mistake: the amount signed as \"{}\" where the form sends \"{}\"; sign the text sent",
                text.escape_default(),
                sent_amount.escape_default()
            )
        })
    })
}

/// The values (or the whole joined text) form- or percent-encoded before hashing.
fn encoded_before_hashing(expected: &Parts<'_>, sent: &str) -> Option<String> {
    let encodings: [Encoding; 2] = [
        ("form-encoded", form_encoded),
        ("percent-encoded", percent_encoded),
    ];
    let joined = expected
        .iter()
        .map(|(_, v)| *v)
        .collect::<Vec<_>>()
        .join("|");
    encodings.into_iter().find_map(|(how, encode)| {
        let encoded = changed(expected, |name, value| (name != "key").then(|| encode(value)));
        let differs = encoded.iter().zip(expected).any(|((_, a), (_, b))| a != b);
        (differs && md5_of_texts(&encoded) == sent || md5_hex(&[encode(&joined).as_str()]) == sent)
            .then(|| {
                format!(
                    "closest mistake: the values {how} before hashing; the checksum signs the text, not its encoding"
                )
            })
    })
}

/// Every order of `items` but the given one.
fn reorderings<T: Copy + PartialEq>(items: &[T]) -> Vec<Vec<T>> {
    fn extend<T: Copy>(rest: &[T], prefix: &mut Vec<T>, out: &mut Vec<Vec<T>>) {
        if rest.is_empty() {
            out.push(prefix.clone());
            return;
        }
        for at in 0..rest.len() {
            let mut others = rest.to_vec();
            let item = others.remove(at);
            prefix.push(item);
            extend(&others, prefix, out);
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    extend(items, &mut Vec::with_capacity(items.len()), &mut out);
    out.retain(|order| order.as_slice() != items);
    out
}

/// The other texts an integrator may have signed for the amount sent: without decimals,
/// with one or three, with a comma, in minor units.
fn amount_texts(sent: &str) -> Vec<String> {
    let Ok(amount) = sent.trim().parse::<Amount>() else {
        return Vec::new();
    };
    let minor = amount.minor_units();
    let (whole, cents) = (minor / 100, minor % 100);
    let mut texts = vec![
        format!("{whole}.{cents:02}"),
        format!("{whole}.{}", cents / 10),
        format!("{whole}.{cents:02}0"),
        format!("{whole},{cents:02}"),
        minor.to_string(),
    ];
    if cents == 0 {
        texts.push(whole.to_string());
    }
    texts.retain(|text| text != sent);
    texts.dedup();
    texts
}

/// `A-Z a-z 0-9 * - . _` as is, a space as `+`, every other byte as `%XX`.
fn form_encoded(text: &str) -> String {
    encoded(text, b"*-._", true)
}

/// Every byte but `A-Z a-z 0-9 - . _ ~` as `%XX`.
fn percent_encoded(text: &str) -> String {
    encoded(text, b"-._~", false)
}

fn encoded(text: &str, unreserved: &[u8], space_as_plus: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || unreserved.contains(&byte) {
            out.push(char::from(byte));
        } else if byte == b' ' && space_as_plus {
            out.push('+');
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

/// The line for a refusal other than a checksum mismatch: its code and description.
pub(crate) fn refusal(code: &str, description: &str) -> String {
    format!(
        "refused {}: {}",
        code.escape_default(),
        description.escape_default()
    )
}

#[cfg(test)]
mod tests {
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
        checksum_mismatch(ID, &key(), signed, &sent)
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
        let line = checksum_mismatch(ID, &key(), &payment(), &upper);
        assert!(line.contains("upper-case hex"), "{line}");
        let line = checksum_mismatch(ID, &key(), &payment(), "abc");
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
        assert_eq!(shown("card.number", "4111111111111"), "*********1111");
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
        assert!(line.bytes().all(|b| (0x20..0x7f).contains(&b)), "{line:?}");
        assert!(line.contains("a\\u{1b}[2J\\r\\nb\\u{e9}"), "{line}");
        let line = refusal("30001", "Invalid \u{7}amount");
        assert!(line.bytes().all(|b| (0x20..0x7f).contains(&b)), "{line:?}");
    }

    #[test]
    fn every_order_but_the_given_one() {
        assert_eq!(reorderings(&[1, 2, 3]).len(), 5);
        let orders = reorderings(&[0, 1, 2, 3]);
        assert_eq!(orders.len(), 23);
        assert!(!orders.contains(&vec![0, 1, 2, 3]));
    }
}
