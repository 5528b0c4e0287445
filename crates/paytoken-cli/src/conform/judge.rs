//! What the harness asks of the client for each vector of the kit, and whether its answer
//! is the vector's: a checksum, a request (method, path, headers, and the body's fields as
//! a multiset, the checksum among them), a verdict on an answer or a notification, and the
//! refusal of a request made with a usual mistake.

use paytoken::SecureKey;
use paytoken::protocol::AUTH_TOKEN_HEADER;
use paytoken_sandbox::internal::checksum_mismatch;
use serde_json::{Value, json};

use super::shown::{shown, shown_field};
use super::{at, kit_rules};

/// The group whose vectors a client may say it does not check (`unsupported`) without
/// failing the run: not every client reads a request back before it is sent.
pub(crate) const NEGATIVE: &str = "negative";

/// The five groups of vectors, by the file that holds them.
pub(crate) const GROUPS: [(&str, &str); 5] = [
    ("checksum", "checksum-vectors.json"),
    ("request", "request-vectors.json"),
    ("answer", "answer-vectors.json"),
    ("notification", "notification-vectors.json"),
    (NEGATIVE, "negative-vectors.json"),
];

/// The message that asks the client for `vector` of `group`.
pub(crate) fn message(group: &str, vector: &Value) -> Value {
    let id = at(vector, "/id");
    match group {
        "checksum" => json!({
            "type": "sign",
            "id": id,
            "rule": at(vector, "/rule"),
            "caller": {
                "kind": at(vector, "/credentials"),
                "id": at(vector, "/callerId"),
                "secureKey": at(vector, "/secureKey"),
            },
            "values": at(vector, "/values"),
        }),
        "request" => {
            let fields: Vec<&Value> = at(vector, "/form")
                .as_array()
                .into_iter()
                .flatten()
                .filter(|pair| !is_checksum(vector, pair.get(1).unwrap_or(&Value::Null)))
                .collect();
            json!({
                "type": "build",
                "id": id,
                "operation": at(vector, "/operation"),
                "rule": at(vector, "/checksum/rule"),
                "caller": at(vector, "/caller"),
                "fields": fields,
                "pathTemplate": at(vector, "/pathTemplate"),
                "pathValues": at(vector, "/pathValues"),
            })
        }
        "answer" => json!({
            "type": "decide",
            "id": id,
            "asked": at(vector, "/asked"),
            "status": at(vector, "/status"),
            "body": at(vector, "/body"),
        }),
        "notification" => json!({
            "type": "verify",
            "id": id,
            "format": at(vector, "/format"),
            "secureKey": at(vector, "/secureKey"),
            "body": at(vector, "/body"),
        }),
        _ => json!({
            "type": "check",
            "id": id,
            "rule": at(vector, "/rule"),
            "caller": at(vector, "/caller"),
            "method": at(vector, "/method"),
            "path": at(vector, "/path"),
            "query": at(vector, "/query"),
            "contentType": at(vector, "/contentType"),
            "body": at(vector, "/body"),
        }),
    }
}

/// Whether `answer` is the vector's, or why not: each difference named, each value shown
/// as `shown.rs` says.
pub(crate) fn judge(group: &str, vector: &Value, answer: &Value) -> Result<(), String> {
    let mut differences = Vec::new();
    match group {
        "checksum" => {
            let (answered, expected) = (at(answer, "/checksum"), at(vector, "/checksum"));
            if answered != expected {
                let signer = (at(vector, "/callerId"), at(vector, "/secureKey"));
                differences.push(format!(
                    "checksum {}, the vector's {}: {}",
                    shown(answered),
                    shown(expected),
                    mismatch(at(vector, "/rule"), signer, at(vector, "/values"), answered)
                ));
            }
        }
        "request" => request(vector, answer, &mut differences),
        NEGATIVE => {
            // A positive control (no refusal) is a valid request, which must not be refused.
            let must_refuse = !at(vector, "/refusal").is_null();
            if at(answer, "/refused") != must_refuse {
                let must = if must_refuse {
                    "the request must be refused"
                } else {
                    "the request is valid and must not be refused"
                };
                differences.push(format!(
                    "refused {}, where {must}: {}",
                    shown(at(answer, "/refused")),
                    at(vector, "/about").as_str().unwrap_or_default()
                ));
            }
        }
        _ => pointed(
            "/verdict",
            at(answer, "/verdict"),
            at(vector, "/verdict"),
            &mut differences,
        ),
    }
    if differences.is_empty() {
        Ok(())
    } else {
        Err(differences.join("; "))
    }
}

/// Why `sent` is not the checksum the vector's signer makes of `values` by `rule`: the
/// sandbox's explanation (the joined text expected, key masked, and the usual mistake that
/// gives `sent`) for the rules that begin `id|key`; for the notification's, which ends with
/// the key, the parts it joins.
fn mismatch(
    rule: &Value,
    (caller_id, key): (&Value, &Value),
    values: &Value,
    sent: &Value,
) -> String {
    let rule = rule.as_str().unwrap_or_default();
    let joined = rule_parts(rule);
    let (Some(sent), Some(caller_id), Some(key)) =
        (sent.as_str(), caller_id.as_str(), key.as_str())
    else {
        return "the checksum is not text".to_owned();
    };
    let id_key = ["id".to_owned(), "key".to_owned()];
    let (Some(after_key), Ok(key)) = (joined.strip_prefix(&id_key[..]), SecureKey::new(key)) else {
        return format!("rule {rule} expects MD5 of {}", joined.join("|"));
    };
    let parts: Vec<(&str, &str)> = after_key
        .iter()
        .map(|name| {
            (
                name.as_str(),
                values.get(name).and_then(Value::as_str).unwrap_or_default(),
            )
        })
        .collect();
    let explained = checksum_mismatch(caller_id, &key, rule, &parts, sent);
    match explained.strip_prefix("checksum mismatch: ") {
        Some(rest) => rest.to_owned(),
        None => explained,
    }
}

/// The parts `rule` joins, in order, as the kit's table of rules names them.
fn rule_parts(rule: &str) -> Vec<String> {
    at(kit_rules(), "/rules")
        .as_array()
        .into_iter()
        .flatten()
        .find(|entry| at(entry, "/rule") == rule)
        .and_then(|entry| at(entry, "/joined").as_array())
        .into_iter()
        .flatten()
        .filter_map(|part| part.as_str().map(str::to_owned))
        .collect()
}

/// The request's differences from the vector's: method, path, each header by name, each
/// field of the body as decoded and as sent.
fn request(vector: &Value, answer: &Value, differences: &mut Vec<String>) {
    for what in ["method", "path"] {
        let (answered, expected) = (
            at(answer, &format!("/{what}")),
            at(vector, &format!("/{what}")),
        );
        // A percent-escape's hex digits are of either case (RFC 3986, 2.1).
        let same = match (answered.as_str(), expected.as_str()) {
            (Some(answered), Some(expected)) if what == "path" => {
                escapes_upper(answered) == escapes_upper(expected)
            }
            _ => answered == expected,
        };
        if !same {
            differences.push(format!(
                "{what} {}, the vector's {}",
                shown(answered),
                shown(expected)
            ));
        }
    }
    let open: Vec<String> = at(vector, "/headersOpen")
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|name| name.as_str().map(str::to_ascii_lowercase))
        .collect();
    let answered = at(answer, "/headers");
    headers(answered, at(vector, "/headers"), &open, differences);
    let Some(body) = at(answer, "/body").as_str() else {
        differences.push("no body".to_owned());
        return;
    };
    let sent: Vec<(String, String, &str)> = body
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = form_urlencoded::parse(pair.as_bytes())
                .next()
                .unwrap_or_default();
            let raw = pair.split_once('=').map_or("", |(_, raw)| raw);
            (name.into_owned(), value.into_owned(), raw)
        })
        .collect();
    let expected = pairs(at(vector, "/form"));
    let mut names: Vec<&str> = expected.iter().map(|(name, _)| name.as_str()).collect();
    names.extend(sent.iter().map(|(name, _, _)| name.as_str()));
    let mut seen = Vec::new();
    for name in names {
        if seen.contains(&name) {
            continue;
        }
        seen.push(name);
        let mut want: Vec<&str> = expected
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .collect();
        let mut got: Vec<(&str, &str)> = sent
            .iter()
            .filter(|(n, _, _)| n == name)
            .map(|(_, value, raw)| (value.as_str(), *raw))
            .collect();
        want.sort_unstable();
        got.sort_unstable();
        if got.iter().map(|(value, _)| *value).eq(want.iter().copied()) {
            continue;
        }
        let show = |value: &str| shown_field(name, value);
        let difference = match (got.as_slice(), want.as_slice()) {
            ([], [value, ..]) => format!("{name} missing, the vector's {}", show(value)),
            ([(value, raw), ..], []) => {
                format!(
                    "{name} {} (sent as {}) is not in the vector",
                    show(value),
                    show(raw)
                )
            }
            ([(value, _), ..], [wanted, ..]) if is_checksum(vector, &Value::from(*wanted)) => {
                let signer = (at(vector, "/caller/id"), at(vector, "/caller/secureKey"));
                format!(
                    "{name} {}, the vector's {}: {}",
                    show(value),
                    show(wanted),
                    mismatch(
                        at(vector, "/checksum/rule"),
                        signer,
                        at(vector, "/checksum/values"),
                        &Value::from(*value)
                    )
                )
            }
            ([(value, raw), ..], [wanted, ..]) => {
                let plus = raw.contains('+') && wanted.replace('+', " ") == *value;
                format!(
                    "{name} {} (sent as {}), the vector's {}{}",
                    show(value),
                    show(raw),
                    show(wanted),
                    if plus {
                        ": a raw + reads as a space; encode + as %2B"
                    } else {
                        ""
                    }
                )
            }
            ([], []) => continue,
        };
        differences.push(difference);
    }
}

/// `path` with the hex digits of each percent-escape in upper case.
fn escapes_upper(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(at) = rest.find('%') {
        let (before, escape) = rest.split_at(at);
        out.push_str(before);
        out.push('%');
        match escape
            .get(1..3)
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
        {
            Some(digits) => {
                out.push_str(&digits.to_ascii_uppercase());
                rest = escape.get(3..).unwrap_or_default();
            }
            None => rest = escape.get(1..).unwrap_or_default(),
        }
    }
    out.push_str(rest);
    out
}

/// Whether `value`, of a request vector's form, is its checksum: the value its `checksum`
/// says the rule gives (the field is told by the vector, not by a name of our own).
fn is_checksum(vector: &Value, value: &Value) -> bool {
    value.is_string() && value == at(vector, "/checksum/checksum")
}

/// `[[name, value], ...]` as pairs; anything else left out.
fn pairs(list: &Value) -> Vec<(String, String)> {
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(|pair| {
            Some((
                pair.get(0)?.as_str()?.to_owned(),
                pair.get(1)?.as_str()?.to_owned(),
            ))
        })
        .collect()
}

/// Each header of the vector the request lacks or sends otherwise, by name (case folded),
/// and an `AuthToken` the vector does not send (to the auth-token endpoints): the vector's
/// headers are required, any other is the client's own, and those `open` (by a lower-case
/// name: a label the run does not take) are neither. A `Content-Type` is compared by its
/// media type, its parameters (`; charset=UTF-8`) left to the client.
fn headers(answered: &Value, expected: &Value, open: &[String], differences: &mut Vec<String>) {
    if !answered.is_array() {
        differences.push(format!(
            "headers {}, not a list of [name, value]",
            shown(answered)
        ));
        return;
    }
    let lower = |list: &Value| -> Vec<(String, String)> {
        let mut pairs: Vec<(String, String)> = pairs(list)
            .into_iter()
            .map(|(name, value)| (name.to_ascii_lowercase(), value))
            .collect();
        pairs.sort();
        pairs
    };
    let (mut answered, mut expected) = (lower(answered), lower(expected));
    answered.retain(|(name, _)| !open.contains(name));
    expected.retain(|(name, _)| !open.contains(name));
    let media_type = |value: &str| {
        let essence = value.split(';').next().unwrap_or_default();
        essence.trim().to_ascii_lowercase()
    };
    let same = |name: &str, sent: &str, wanted: &str| {
        sent == wanted || (name == "content-type" && media_type(sent) == media_type(wanted))
    };
    for (name, value) in &expected {
        let sent = answered.iter().find(|(n, _)| n == name);
        if !sent.is_some_and(|(_, sent)| same(name, sent, value)) {
            differences.push(match sent {
                None => format!(
                    "header {name} missing, the vector's {}",
                    shown_field(name, value)
                ),
                Some((_, other)) => format!(
                    "header {name} {}, the vector's {}",
                    shown_field(name, other),
                    shown_field(name, value)
                ),
            });
        }
    }
    for (name, value) in &answered {
        let token = name.eq_ignore_ascii_case(AUTH_TOKEN_HEADER);
        if token && !expected.iter().any(|(n, _)| n == name) {
            differences.push(format!(
                "header {name} {} is sent where the vector sends none",
                shown_field(name, value)
            ));
        }
    }
}

/// Each key of `answered` that differs from `expected`'s, by its JSON pointer under
/// `pointer`: missing, not in the vector, or another value.
fn pointed(pointer: &str, answered: &Value, expected: &Value, differences: &mut Vec<String>) {
    if let (Value::Object(answered), Value::Object(expected)) = (answered, expected) {
        for (key, wanted) in expected {
            let at = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
            match answered.get(key) {
                Some(value) => pointed(&at, value, wanted, differences),
                None => differences.push(format!("{at} missing, the vector's {}", shown(wanted))),
            }
        }
        for (key, value) in answered {
            if !expected.contains_key(key) {
                let at = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
                differences.push(format!("{at} {} is not in the vector", shown(value)));
            }
        }
    } else if answered != expected {
        differences.push(format!(
            "{pointer} {}, the vector's {}",
            shown(answered),
            shown(expected)
        ));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{AUTH_TOKEN_HEADER, escapes_upper, headers, pointed, shown_field};

    #[test]
    fn a_path_s_escapes_compare_in_either_case() {
        assert_eq!(escapes_upper("/a%2fb%c3%A9/%zz%"), "/a%2Fb%C3%A9/%zz%");
    }

    #[test]
    fn a_verdict_names_each_differing_key_by_its_json_pointer() {
        let mut differences = Vec::new();
        let answered = json!({ "outcome": "approved", "result": { "code": "00001" }, "a/b": 1 });
        let expected =
            json!({ "outcome": "declined", "result": { "code": "00001", "family": "success" } });
        pointed("/verdict", &answered, &expected, &mut differences);
        assert_eq!(
            differences,
            [
                r#"/verdict/outcome "approved", the vector's "declined""#,
                r#"/verdict/result/family missing, the vector's "success""#,
                "/verdict/a~1b 1 is not in the vector",
            ]
        );
    }

    #[test]
    fn a_header_is_named_and_an_auth_token_never_shown() {
        let mut differences = Vec::new();
        let answered = json!([["content-type", "text/plain"], ["X-Extra", "1"]]);
        let expected = json!([
            ["Content-Type", "application/x-www-form-urlencoded"],
            [AUTH_TOKEN_HEADER, "eyJ0.e30.c2ln"]
        ]);
        headers(&answered, &expected, &[], &mut differences);
        let shown = differences.join("\n");
        assert!(shown.contains(r#"header content-type "text/plain", the vector's "application/x-www-form-urlencoded""#), "{shown}");
        let token = AUTH_TOKEN_HEADER.to_ascii_lowercase();
        assert!(
            shown.contains(&format!("header {token} missing")),
            "{shown}"
        );
        assert!(!shown.contains("eyJ0"), "{shown}");
        assert!(
            !shown.contains("x-extra"),
            "another header is the client's: {shown}"
        );
        // A media type's parameters are the client's; a token where none is sent is not.
        let form = json!([["Content-Type", "application/x-www-form-urlencoded"]]);
        let charset = json!([[
            "content-type",
            "Application/X-WWW-Form-Urlencoded; charset=UTF-8"
        ]]);
        let mut differences = Vec::new();
        headers(&charset, &form, &[], &mut differences);
        assert_eq!(differences, Vec::<String>::new());
        headers(&expected, &form, &[], &mut differences);
        assert_eq!(
            differences,
            [format!(
                "header {token} {} is sent where the vector sends none",
                shown_field(AUTH_TOKEN_HEADER, "eyJ0.e30.c2ln")
            )]
        );
    }

    #[test]
    fn a_header_left_open_is_neither_asked_for_nor_refused() {
        let token = AUTH_TOKEN_HEADER.to_ascii_lowercase();
        let form = json!([["Content-Type", "application/x-www-form-urlencoded"]]);
        let with_token = json!([
            ["Content-Type", "application/x-www-form-urlencoded"],
            [AUTH_TOKEN_HEADER, "eyJ0.e30.c2ln"]
        ]);
        let mut differences = Vec::new();
        headers(
            &with_token,
            &form,
            std::slice::from_ref(&token),
            &mut differences,
        );
        headers(&form, &with_token, &[token], &mut differences);
        assert_eq!(differences, Vec::<String>::new());
    }
}
