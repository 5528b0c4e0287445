//! The usual mistakes a checksum is made with, each tried against the checksum sent, in
//! order: upper-case hex, a hash other than MD5, the key at the wrong end, the parts in
//! another order, the amount in another text, the values encoded, the joined text as
//! Latin-1, another separator, a leading zero dropped, a part left out, an extra part, the
//! key of another caller.

use md5::{Digest, Md5};
use paytoken_checksum::SecureKey;
use paytoken_types::Amount;
use paytoken_types::internal::{encode_into, path_segment};

use super::{Signed, Suspects, visible};

/// The most parts any rule has, `id` and `key` included: the permutations tried stay few.
const MAX_PARTS: usize = 5;

/// The most unsigned fields tried as an extra part.
const MAX_EXTRA_FIELDS: usize = 64;

/// MD5 of `parts` joined with `separator`.
fn md5_joined(parts: &[&str], separator: &str) -> String {
    let mut md5 = Md5::new();
    for (at, part) in parts.iter().enumerate() {
        if at > 0 {
            md5.update(separator.as_bytes());
        }
        md5.update(part.as_bytes());
    }
    format!("{:x}", md5.finalize())
}

fn md5_hex(parts: &[&str]) -> String {
    md5_joined(parts, "|")
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
pub(super) fn closest_mistake(
    caller_id: &str,
    key: &SecureKey,
    signed: &Signed<'_>,
    sent: &str,
    suspects: &Suspects<'_>,
) -> String {
    let mut expected: Vec<(&str, &str)> = vec![("id", caller_id), ("key", key.expose_secret())];
    expected.extend(signed.parts.iter().copied());
    let hex_digits = sent.bytes().all(|b| b.is_ascii_hexdigit());
    let other_hash = match sent.len() {
        40 => Some("SHA-1"),
        64 => Some("SHA-256"),
        128 => Some("SHA-512"),
        _ => None,
    };
    if let (true, Some(hash)) = (hex_digits, other_hash) {
        return format!(
            "closest mistake: {} hexadecimal digits, the length of a {hash}; the checksum is MD5, 32 digits",
            sent.len()
        );
    }
    if sent.len() != 32 || !hex_digits {
        return format!(
            "the checksum sent is not 32 hexadecimal digits ({} characters)",
            sent.chars().count()
        );
    }
    if sent.eq_ignore_ascii_case(&md5_of(&expected)) {
        return "closest mistake: upper-case hex; write the checksum in lower case".to_owned();
    }
    let sent = sent.to_ascii_lowercase();
    let mistakes: [fn(&Parts<'_>, &str) -> Option<String>; 8] = [
        key_at_the_wrong_end,
        another_order,
        another_amount_text,
        encoded_before_hashing,
        latin_1,
        another_separator,
        leading_zero_dropped,
        part_left_out,
    ];
    mistakes
        .iter()
        .find_map(|mistake| mistake(&expected, &sent))
        .or_else(|| extra_part(&expected, &suspects.unsigned, &sent))
        .or_else(|| another_callers_key(&expected, &suspects.keys, &sent))
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
                visible(&text),
                visible(sent_amount)
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

/// The joined text hashed as Latin-1 (ISO 8859-1) bytes where a value is not ASCII.
fn latin_1(expected: &Parts<'_>, sent: &str) -> Option<String> {
    let joined = names_or_values(expected, false);
    if joined.is_ascii() {
        return None;
    }
    let bytes: Vec<u8> = joined
        .chars()
        .map(|c| u8::try_from(u32::from(c)).ok())
        .collect::<Option<_>>()?;
    (format!("{:x}", Md5::digest(&bytes)) == sent).then(|| {
        "closest mistake: the joined text hashed as Latin-1 (ISO 8859-1) bytes; hash its UTF-8 bytes".to_owned()
    })
}

/// The parts joined with another separator than `|`.
fn another_separator(expected: &Parts<'_>, sent: &str) -> Option<String> {
    let values: Vec<&str> = expected.iter().map(|(_, value)| *value).collect();
    [
        ",", ";", ":", "", " ", " | ", "||", "&", "-", "_", "/", "\t",
    ]
    .into_iter()
    .find(|separator| md5_joined(&values, separator) == sent)
    .map(|separator| {
        format!(
            "closest mistake: the parts joined with \"{}\"; the separator is |",
            visible(separator)
        )
    })
}

/// A leading zero of a part dropped (`1344` for `01344`, `.50` for `0.50`).
fn leading_zero_dropped(expected: &Parts<'_>, sent: &str) -> Option<String> {
    expected.iter().enumerate().find_map(|(at, &(name, value))| {
        let short = value.trim_start_matches('0');
        if name == "key" || short.len() == value.len() || short.is_empty() {
            return None;
        }
        let mut parts: Vec<&str> = expected.iter().map(|(_, v)| *v).collect();
        *parts.get_mut(at)? = short;
        (md5_hex(&parts) == sent).then(|| {
            format!(
                "closest mistake: the leading zero of {name} dropped, \"{}\" for \"{}\"; sign the text as sent",
                visible(short),
                visible(value)
            )
        })
    })
}

/// A part of the rule left out.
fn part_left_out(expected: &Parts<'_>, sent: &str) -> Option<String> {
    (0..expected.len()).find_map(|left_out| {
        let parts: Vec<&str> = expected
            .iter()
            .enumerate()
            .filter(|(at, _)| *at != left_out)
            .map(|(_, (_, value))| *value)
            .collect();
        let (name, _) = expected.get(left_out)?;
        (md5_hex(&parts) == sent).then(|| {
            format!(
                "closest mistake: {name} left out; the rule signs {}",
                names_or_values(expected, true)
            )
        })
    })
}

/// A field of the form the rule does not sign, signed too, at any place after the id.
fn extra_part(expected: &Parts<'_>, unsigned: &[(&str, &str)], sent: &str) -> Option<String> {
    unsigned
        .iter()
        .take(MAX_EXTRA_FIELDS)
        .find_map(|&(extra, value)| {
            (1..=expected.len()).find_map(|at| {
                let mut parts: Vec<&str> = expected.iter().map(|(_, v)| *v).collect();
                parts.insert(at, value);
                let (after, _) = expected.get(at - 1)?;
                (md5_hex(&parts) == sent).then(|| {
                    format!(
                        "closest mistake: an extra part, {}, signed after {after}; the rule signs {}",
                        visible(extra),
                        names_or_values(expected, true)
                    )
                })
            })
        })
}

/// The secure key of another caller the sandbox knows.
fn another_callers_key(
    expected: &Parts<'_>,
    keys: &[(String, &SecureKey)],
    sent: &str,
) -> Option<String> {
    keys.iter().find_map(|(owner, key)| {
        let parts: Vec<&str> = expected
            .iter()
            .map(|&(name, value)| if name == "key" { key.expose_secret() } else { value })
            .collect();
        (md5_hex(&parts) == sent).then(|| {
            format!(
                "closest mistake: signed with the secure key of {owner}; each caller signs with its own"
            )
        })
    })
}

/// The parts' names (or values) joined with `|`.
fn names_or_values(parts: &Parts<'_>, names: bool) -> String {
    parts
        .iter()
        .map(|(name, value)| if names { *name } else { *value })
        .collect::<Vec<_>>()
        .join("|")
}

/// Every order of `items` but the given one.
pub(super) fn reorderings<T: Copy + PartialEq>(items: &[T]) -> Vec<Vec<T>> {
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

/// The text as a form writes it (`A-Z a-z 0-9 * - . _` as is, a space as `+`).
fn form_encoded(text: &str) -> String {
    let mut out = Vec::new();
    encode_into(&mut out, text.as_bytes());
    // The encoding is ASCII whatever the text: the fallback is never taken.
    String::from_utf8(out).unwrap_or_default()
}

/// The text as a path carries it (every byte but `A-Z a-z 0-9 - . _ ~` as `%XX`).
fn percent_encoded(text: &str) -> String {
    path_segment(text).to_string()
}
