//! The cassette: one JSON object a line per exchange (`schemas/cassette.schema.json`),
//! redacted before it is written (`redact.rs`), appended to a file only the user may read,
//! and bounded: past `--max-bytes` nothing more is written, and stderr says so once.

use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::PathBuf;
use std::time::SystemTime;

use hyper::HeaderMap;
use paytoken::Timestamp;
use paytoken::protocol::redact::Redactor;
use serde_json::{Value, json};

use super::redact;
use crate::terminal;
use paytoken_sandbox::internal::{Node, operation_of};

/// The format's version, in every line.
pub(crate) const CASSETTE_VERSION: u32 = 1;

/// One exchange as it passed through the proxy.
pub(crate) struct Exchange<'a> {
    pub(crate) number: u64,
    pub(crate) method: &'a str,
    pub(crate) path: &'a str,
    pub(crate) request_headers: &'a HeaderMap,
    pub(crate) request_body: &'a [u8],
    /// The answer, or why there was none.
    pub(crate) answer: Result<(u16, &'a HeaderMap, &'a [u8]), String>,
}

/// The cassette's line for `exchange`, redacted: each value as the table says, and the
/// secrets `held` holds (the ones the proxy has seen by name) masked wherever they stand.
pub(crate) fn line(exchange: &Exchange<'_>, keep_personal: bool, held: &Redactor) -> Value {
    let fields = form(exchange.request_body);
    // Named by the sandbox's routing: the one table of paths and `paymentType`s.
    let operation = operation_of(exchange.path, exchange.request_body);
    let request = json!({
        "method": exchange.method,
        "path": redact::path(exchange.path),
        "headers": headers(exchange.request_headers, held),
        "fields": fields.as_ref().map(|fields| {
            fields
                .iter()
                .map(|(name, value)| json!({
                    "name": held.name(name),
                    "value": held.mask_held(&redact::field(name, value, keep_personal)),
                }))
                .collect::<Vec<_>>()
        }),
        "unrecorded": if fields.is_some() {
            Value::Null
        } else {
            unrecorded("not a form", exchange.request_body.len())
        },
    });
    let (answer, error) = match &exchange.answer {
        Ok((status, headers_of, body)) => {
            let sent = Node::parse_bytes(body);
            let parsed = sent
                .as_ref()
                .map(|answer| answer.redacted_holding(keep_personal, held));
            let text = sent
                .as_ref()
                .zip(parsed.as_ref())
                .and_then(|(sent, kept)| body_text(body, sent, kept));
            (
                json!({
                    "status": status,
                    "headers": headers(headers_of, held),
                    "body": parsed.as_ref().map(Node::to_value),
                    "bodyText": text,
                    "unrecorded": if parsed.is_some() {
                        Value::Null
                    } else {
                        unrecorded("not JSON", body.len())
                    },
                }),
                Value::Null,
            )
        }
        Err(error) => (
            Value::Null,
            Value::String(held.mask_held(error).into_owned()),
        ),
    };
    let now = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    json!({
        "cassette": CASSETTE_VERSION,
        "number": exchange.number,
        "time": i64::try_from(now)
            .ok()
            .and_then(Timestamp::from_unix_seconds)
            .map(|time| format!("{time} UTC")),
        "operation": operation,
        "request": request,
        "answer": answer,
        "error": error,
    })
}

/// A body kept by its length only: it did not read as expected, and what it holds is not
/// known to be safe to write.
fn unrecorded(reason: &str, length: usize) -> Value {
    json!({ "reason": reason, "length": length })
}

/// The form's fields in order, or `None` when the body is not a form
/// (`paytoken_types`' `is_form`).
fn form(body: &[u8]) -> Option<Vec<(String, String)>> {
    paytoken::types::internal::is_form(body).then(|| {
        form_urlencoded::parse(body)
            .map(|(name, value)| (name.into_owned(), value.into_owned()))
            .collect()
    })
}

/// The answer as text beside `body` (a JSON value), when that value would lose something
/// of it: a repeated key's earlier values, a number's digits (`1.50`). The bytes as sent
/// when nothing was redacted, so a replay reads exactly what the gateway sent; the
/// redacted tree's text otherwise.
fn body_text(body: &[u8], sent: &Node, kept: &Node) -> Option<String> {
    if !kept.value_form_loses() {
        return None;
    }
    if sent == kept {
        return std::str::from_utf8(body).ok().map(str::to_owned);
    }
    Some(kept.to_json(body.len()))
}

/// Headers as a JSON object, each value redacted (the auth token, credentials, cookies).
fn headers(headers: &HeaderMap, held: &Redactor) -> Value {
    let mut object = serde_json::Map::new();
    for (name, value) in headers {
        let text = String::from_utf8_lossy(value.as_bytes());
        object.insert(
            name.as_str().to_owned(),
            Value::String(redact::header(name.as_str(), &text, held)),
        );
    }
    Value::Object(object)
}

/// Learns the secrets `exchange` carries by name, for `held` to mask wherever they stand
/// from now on (a gateway that echoes the key it was sent in a later answer's text): the
/// values of the form's secret fields, of its secret headers, and of the answer's secret
/// members (`AuthToken`).
pub(crate) fn learn(exchange: &Exchange<'_>, held: &mut Redactor) {
    use paytoken::types::internal::sensitive::is_secret;
    for (name, value) in form(exchange.request_body).unwrap_or_default() {
        if is_secret(&name) {
            held.hold(&value);
        }
    }
    let answer_headers = exchange
        .answer
        .as_ref()
        .ok()
        .map(|(_, headers, _)| *headers);
    for headers in std::iter::once(exchange.request_headers).chain(answer_headers) {
        for (name, value) in headers {
            if is_secret(name.as_str())
                && let Ok(value) = value.to_str()
            {
                held.hold(value);
            }
        }
    }
    if let Ok((_, _, body)) = &exchange.answer
        && let Some(answer) = Node::parse_bytes(body)
    {
        answer.each_text(&mut |name, value| {
            if is_secret(name) {
                held.hold(value);
            }
        });
    }
}

/// The cassette file: opened before the first exchange, appended to, bounded.
pub(crate) struct Cassette {
    path: PathBuf,
    file: File,
    written: u64,
    max_bytes: u64,
    /// Why nothing more is written, once something stopped it.
    stopped: Option<String>,
}

impl Cassette {
    /// Opens the cassette at `path` to append to, created with mode 0600 when missing:
    /// only a regular file, never through a symbolic link, and never a FIFO or a device
    /// (which would hang the proxy after the money moved) or a folder.
    ///
    /// # Errors
    /// Why `path` is no place for a cassette.
    pub(crate) fn open(path: PathBuf, max_bytes: u64) -> Result<Self, String> {
        let refused = |what: &str| {
            format!(
                "{} is {what}, not a cassette: give a regular file's path",
                path.display()
            )
        };
        let mut options = OpenOptions::new();
        options.create(true).append(true);
        // Opening never follows a link at the end of the path, nor waits for a FIFO's
        // reader; what was opened is then checked to be a regular file.
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        std::os::unix::fs::OpenOptionsExt::custom_flags(
            &mut options,
            libc::O_NOFOLLOW | libc::O_NONBLOCK,
        );
        let file = match options.open(&path) {
            Ok(file) => file,
            Err(_) if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_symlink()) => {
                return Err(refused("a symbolic link"));
            }
            Err(error) if error.raw_os_error() == Some(libc::ENXIO) => {
                return Err(refused("a FIFO"));
            }
            Err(error) if error.kind() == std::io::ErrorKind::IsADirectory => {
                return Err(refused("a folder"));
            }
            Err(error) => return Err(format!("cannot open {}: {error}", path.display())),
        };
        let kind = file
            .metadata()
            .map_err(|error| format!("cannot open {}: {error}", path.display()))?
            .file_type();
        if !kind.is_file() {
            return Err(refused("a FIFO, a device or a socket"));
        }
        Ok(Self {
            path,
            file,
            written: 0,
            max_bytes,
            stopped: None,
        })
    }

    /// Appends `line`, unless the cassette is full or could not be written: then it is
    /// left as it is, and stderr says why, once.
    pub(crate) fn append(&mut self, line: &Value) {
        if self.stopped.is_some() {
            return;
        }
        let mut text = line.to_string();
        text.push('\n');
        let length = u64::try_from(text.len()).unwrap_or(u64::MAX);
        if self.written.saturating_add(length) > self.max_bytes {
            self.stop(format!(
                "the cassette reached --max-bytes ({} bytes): proxying goes on, recording stopped",
                self.max_bytes
            ));
            return;
        }
        if let Err(error) = self.write(text.as_bytes()) {
            self.stop(format!(
                "cannot write the cassette {}: {error}; proxying goes on, recording stopped",
                self.path.display()
            ));
            return;
        }
        self.written = self.written.saturating_add(length);
    }

    fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.file.write_all(bytes)?;
        self.file.flush()
    }

    fn stop(&mut self, why: String) {
        terminal::err_line(&format!("paytoken record: {why}"));
        self.stopped = Some(why);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cassette's answer for `body`.
    fn recorded(body: &str) -> Value {
        let headers = HeaderMap::new();
        let exchange = Exchange {
            number: 1,
            method: "POST",
            path: "/transactionServices/REST/v1/payments",
            request_headers: &headers,
            request_body: b"amount=1.50",
            answer: Ok((200, &headers, body.as_bytes())),
        };
        line(&exchange, false, &Redactor::new())["answer"].clone()
    }

    /// Regression: a cassette wrote `1.50` as `1.5`; a replay read another answer.
    #[test]
    fn an_answer_without_a_secret_replays_byte_for_byte() {
        let body = r#"{"paymentId":"1", "amount":1.50,"url":"https://x/y"}"#;
        let answer = recorded(body);
        assert_eq!(answer["bodyText"], body, "as sent, spaces and all");
        assert_eq!(crate::replay::answer_text(&answer, &answer["body"]), body);
        // Nothing lost in the value form: no text beside it.
        let plain = recorded(r#"{"paymentId":"1","amount":"1.50"}"#);
        assert_eq!(plain["bodyText"], Value::Null);
        // A secret hidden: the redacted text, its digits kept.
        let secret = recorded(r#"{"checksum":"abc","amount":1.50}"#);
        assert_eq!(
            secret["bodyText"],
            r#"{"checksum":"[redacted]","amount":1.50}"#
        );
    }

    #[test]
    fn each_request_is_named_as_the_command_names_its_operation() {
        let payments = "/transactionServices/REST/v1/payments";
        for (path, form, name) in [
            (payments, "paymentType=DB&amount=1.00", Some("pay")),
            (
                "/transactionServices/REST/v1/payments/60001",
                "paymentType=CP",
                Some("capture"),
            ),
            (
                "/transactionServices/REST/v1/payments/60001",
                "paymentType=RF",
                Some("refund"),
            ),
            (
                "/transactionServices/REST/v1/payments/60001",
                "paymentType=RV",
                Some("cancel"),
            ),
            (
                "/transactionServices/REST/v1/payments/60001",
                "paymentType=IN&idType=PID",
                Some("inquiry"),
            ),
            (
                "/transactionServices/REST/v1/payments/60001",
                "paymentType=DB&recurringType=REPEATED",
                Some("repeat_payment"),
            ),
            (
                "/transactionServices/REST/v1/paywithtoken/8a8",
                "paymentType=DL",
                Some("delete_token"),
            ),
            (
                "/transactionServices/REST/v1/paywithtoken/8a8",
                "paymentType=DB",
                Some("pay_with_token"),
            ),
            (
                "/transactionServices/REST/v1/authToken",
                "merchant.username=a",
                Some("fetch_auth_token"),
            ),
            ("/elsewhere", "a=b", None),
        ] {
            assert_eq!(operation_of(path, form.as_bytes()), name, "{path} {form}");
        }
    }

    #[test]
    fn a_body_that_is_not_a_form_is_kept_by_its_length_only() {
        assert!(form(b"{\"card\":\"4000000000000002\"}").is_none());
        assert!(form(b"just words").is_none());
        assert!(form("a=\u{e9}".as_bytes()).is_none());
        assert_eq!(form(b"a=1&b=").unwrap().len(), 2);
    }
}
