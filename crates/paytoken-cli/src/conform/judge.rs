//! What the harness asks of the client for each vector of the kit, and whether its answer
//! is the vector's: a checksum, a request (method, path, headers, and the body's fields as
//! a multiset, the checksum among them), a verdict on an answer or a notification.

use serde_json::{Value, json};

use super::at;

/// The four groups of vectors, by the file that holds them.
pub(crate) const GROUPS: [(&str, &str); 4] = [
    ("checksum", "checksum-vectors.json"),
    ("request", "request-vectors.json"),
    ("answer", "answer-vectors.json"),
    ("notification", "notification-vectors.json"),
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
                .filter(|pair| {
                    pair.get(0).and_then(Value::as_str) != Some("authentication.checksum")
                })
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
        _ => json!({
            "type": "verify",
            "id": id,
            "format": at(vector, "/format"),
            "secureKey": at(vector, "/secureKey"),
            "body": at(vector, "/body"),
        }),
    }
}

/// Whether `answer` is the vector's, or why not.
pub(crate) fn judge(group: &str, vector: &Value, answer: &Value) -> Result<(), String> {
    match group {
        "checksum" => same("checksum", at(answer, "/checksum"), at(vector, "/checksum")),
        "request" => request(vector, answer),
        _ => same("verdict", at(answer, "/verdict"), at(vector, "/verdict")),
    }
}

fn same(what: &str, answered: &Value, expected: &Value) -> Result<(), String> {
    if answered == expected {
        Ok(())
    } else {
        Err(format!("{what} {answered}, the vector's is {expected}"))
    }
}

fn request(vector: &Value, answer: &Value) -> Result<(), String> {
    same("method", at(answer, "/method"), at(vector, "/method"))?;
    same("path", at(answer, "/path"), at(vector, "/path"))?;
    let headers = |value: &Value| -> Option<Vec<(String, String)>> {
        let mut pairs: Vec<(String, String)> = value
            .as_array()?
            .iter()
            .map(|pair| {
                Some((
                    pair.get(0)?.as_str()?.to_ascii_lowercase(),
                    pair.get(1)?.as_str()?.to_owned(),
                ))
            })
            .collect::<Option<_>>()?;
        pairs.sort();
        Some(pairs)
    };
    let answered = headers(at(answer, "/headers"));
    if answered.is_none() || answered != headers(at(vector, "/headers")) {
        return Err(format!(
            "headers {}, the vector's are {}",
            at(answer, "/headers"),
            at(vector, "/headers")
        ));
    }
    let Some(body) = at(answer, "/body").as_str() else {
        return Err("no body".to_owned());
    };
    let mut sent: Vec<(String, String)> = form_urlencoded::parse(body.as_bytes())
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    let mut expected: Vec<(String, String)> = at(vector, "/form")
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|pair| {
            Some((
                pair.get(0)?.as_str()?.to_owned(),
                pair.get(1)?.as_str()?.to_owned(),
            ))
        })
        .collect();
    sent.sort();
    expected.sort();
    if sent == expected {
        return Ok(());
    }
    let checksum = |pairs: &[(String, String)]| {
        pairs
            .iter()
            .find(|(name, _)| name == "authentication.checksum")
            .map(|(_, value)| value.clone())
    };
    if checksum(&sent) != checksum(&expected) {
        return Err(format!(
            "authentication.checksum {:?}, the vector's is {:?}",
            checksum(&sent),
            checksum(&expected)
        ));
    }
    Err("the body's fields are not the vector's".to_owned())
}
