//! The request log: every request the sandbox answered, newest last, for the console
//! (`stripe logs tail`, for this gateway). Each entry has its time on the sandbox's clock,
//! the operation, the caller, the status and result code, the explanation of a refusal,
//! and the form's fields with the card number masked 6+4 and the IBAN masked; the CVV, the
//! secure key, checksums and auth tokens are left out (the `AuthToken` header is never
//! read into it). The newest [`REQUESTS_KEPT`] are kept.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use crate::form::Form;

/// The most requests the log keeps; older ones are dropped.
pub const REQUESTS_KEPT: usize = 1000;

/// One request the sandbox answered.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoggedRequest {
    /// Its number: 1 for the sandbox's first request, one more for each after.
    pub number: u64,
    /// When it was answered, in seconds since 1970 on the sandbox's clock.
    pub at: i64,
    /// `POST`, or whatever was sent.
    pub method: String,
    /// The path, without any query.
    pub path: String,
    /// The operation, as the client's method names it (`pay`, `capture`,
    /// `fetch_auth_token`); `None` for a path of no operation.
    pub operation: Option<&'static str>,
    /// `authentication.memberId` or `authentication.partnerId`, as sent.
    pub caller: Option<String>,
    /// The HTTP status of the answer.
    pub status: u16,
    /// The answer's `result.code`, when it has one.
    pub result_code: Option<String>,
    /// Why it was refused, as `--explain` says it.
    pub explanation: Option<String>,
    /// The form's fields in order, masked (see the module's docs).
    pub fields: Vec<(String, String)>,
}

/// Where the log's entries are kept beyond memory: the state file's store implements it.
pub(crate) trait KeepRequests: Send + Sync + fmt::Debug {
    /// Keeps `entry` (and lets go of what the log no longer keeps).
    ///
    /// # Errors
    /// Why it could not be kept.
    fn keep(&self, entry: &LoggedRequest) -> Result<(), String>;
}

/// The log, bounded; with a state file, each entry is kept there too.
#[derive(Debug, Default)]
pub(crate) struct RequestLog {
    entries: Mutex<Entries>,
    keeper: OnceLock<Arc<dyn KeepRequests>>,
    /// Why the keeper could not write, the first time it could not.
    failure: OnceLock<String>,
}

#[derive(Debug, Default)]
struct Entries {
    /// The number the next entry gets, less one.
    last: u64,
    entries: VecDeque<Recorded>,
}

/// An entry as the log holds it: its fields in one form-encoded string (masked already),
/// one allocation per request however many fields it sent.
#[derive(Debug)]
struct Recorded {
    entry: LoggedRequest,
    fields: Box<str>,
}

impl Recorded {
    fn of(mut entry: LoggedRequest, fields: Box<str>) -> Self {
        entry.fields = Vec::new();
        Self { entry, fields }
    }

    /// The entry with its fields as pairs again.
    fn read(&self) -> LoggedRequest {
        let mut entry = self.entry.clone();
        entry.fields = paytoken_types::internal::decode(self.fields.as_bytes())
            .filter_map(Result::ok)
            .map(|(name, value)| (name.into_owned(), value.into_owned()))
            .collect();
        entry
    }
}

impl RequestLog {
    fn entries(&self) -> std::sync::MutexGuard<'_, Entries> {
        // An entry is pushed whole or not at all: the poison means nothing.
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Starts from the `kept` entries (what a state file held, oldest first) and keeps
    /// new ones with `keeper` from now on.
    pub(crate) fn keep_with(
        &self,
        keeper: Option<Arc<dyn KeepRequests>>,
        kept: Vec<LoggedRequest>,
    ) {
        let mut log = self.entries();
        log.last = kept.last().map_or(0, |entry| entry.number);
        let skip = kept.len().saturating_sub(REQUESTS_KEPT);
        log.entries = kept
            .into_iter()
            .skip(skip)
            .map(|entry| {
                let fields = encode(entry.fields.iter().map(|(n, v)| (n.as_str(), v.as_str())));
                Recorded::of(entry, fields)
            })
            .collect();
        if let Some(keeper) = keeper {
            let _ = self.keeper.set(keeper);
        }
    }

    /// Why an entry could not be kept, if one could not.
    pub(crate) fn failure(&self) -> Option<&str> {
        self.failure.get().map(String::as_str)
    }

    /// Adds `entry` with its masked `fields` (as [`masked_fields`] makes them), numbered,
    /// dropping the oldest past [`REQUESTS_KEPT`], and keeps it with the keeper, if there
    /// is one.
    pub(crate) fn record(&self, mut entry: LoggedRequest, fields: Box<str>) {
        let mut log = self.entries();
        log.last += 1;
        entry.number = log.last;
        let recorded = Recorded::of(entry, fields);
        if let Some(keeper) = self.keeper.get()
            && let Err(reason) = keeper.keep(&recorded.read())
        {
            let _ = self.failure.set(reason);
        }
        if log.entries.len() == REQUESTS_KEPT {
            log.entries.pop_front();
        }
        log.entries.push_back(recorded);
    }

    /// The entries numbered above `after`, oldest first.
    pub(crate) fn after(&self, after: u64) -> Vec<LoggedRequest> {
        let log = self.entries();
        log.entries
            .iter()
            .filter(|recorded| recorded.entry.number > after)
            .map(Recorded::read)
            .collect()
    }
}

/// The operation of that name, as a state file wrote it; `None` for an unknown one.
#[cfg_attr(
    not(feature = "sqlite"),
    expect(dead_code, reason = "read by the file store")
)]
pub(crate) fn operation_named(name: &str) -> Option<&'static str> {
    crate::operation_names::OPERATIONS
        .iter()
        .copied()
        .find(|known| *known == name)
}

/// The caller's id as sent.
pub(crate) fn caller(form: &Form<'_>) -> Option<String> {
    form.get("authentication.memberId")
        .or_else(|| form.get("authentication.partnerId"))
        .map(str::to_owned)
}

/// The form's fields as the log keeps them, form-encoded in one string: secrets left out,
/// card and account numbers masked.
pub(crate) fn masked_fields(form: &Form<'_>) -> Box<str> {
    encode(
        form.fields()
            .filter(|(name, _)| !secret(name))
            .map(|(name, value)| {
                let shown = match name {
                    "card.number" => Cow::Owned(mask(value, 6, 4)),
                    "bankAccount.iban" => Cow::Owned(mask(value, 4, 4)),
                    _ => Cow::Borrowed(value),
                };
                (name, shown)
            }),
    )
}

/// `name=value&...`, form-encoded.
fn encode<'a, V: AsRef<str>>(fields: impl Iterator<Item = (&'a str, V)>) -> Box<str> {
    let mut out = Vec::with_capacity(256);
    for (name, value) in fields {
        if !out.is_empty() {
            out.push(b'&');
        }
        paytoken_types::internal::encode_into(&mut out, name.as_bytes());
        out.push(b'=');
        paytoken_types::internal::encode_into(&mut out, value.as_ref().as_bytes());
    }
    // Percent-encoding writes ASCII only.
    String::from_utf8(out).unwrap_or_default().into_boxed_str()
}

/// Whether a field's name says it holds a secret: the CVV, a key, a checksum, a token.
fn secret(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    [
        "cvv",
        "skey",
        "securekey",
        "checksum",
        "authtoken",
        "password",
    ]
    .iter()
    .any(|part| name.contains(part))
}

/// `value` with all but its first `head` and last `tail` characters as `*`; all of it when
/// it is no longer than both.
fn mask(value: &str, head: usize, tail: usize) -> String {
    let count = value.chars().count();
    if count <= head + tail {
        return "*".repeat(count);
    }
    value
        .chars()
        .enumerate()
        .map(|(index, c)| {
            if index < head || index >= count - tail {
                c
            } else {
                '*'
            }
        })
        .collect()
}

/// The `result.code` of one of the sandbox's own JSON answers, before any variation: the
/// first `"code":"..."` its writer wrote (every answer's result, or
/// `statusInvoiceResult`, holds the only one), read without parsing the whole answer.
pub(crate) fn result_code(body: &str) -> Option<String> {
    const KEY: &str = "\"code\":\"";
    let start = body.find(KEY)? + KEY.len();
    let rest = body.get(start..)?;
    rest.find('"')
        .and_then(|end| rest.get(..end))
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str) -> LoggedRequest {
        LoggedRequest {
            number: 0,
            at: 0,
            method: "POST".into(),
            path: path.into(),
            operation: None,
            caller: None,
            status: 200,
            result_code: None,
            explanation: None,
            fields: Vec::new(),
        }
    }

    #[test]
    fn keeps_the_newest_numbered_and_reads_after_a_number() {
        let log = RequestLog::default();
        for n in 0..=REQUESTS_KEPT {
            log.record(entry(&format!("/{n}")), "a=1".into());
        }
        let all = log.after(0);
        assert_eq!(all.len(), REQUESTS_KEPT);
        assert_eq!(all[0].number, 2);
        assert_eq!(all[0].path, "/1");
        let last = u64::try_from(REQUESTS_KEPT).unwrap() + 1;
        assert_eq!(log.after(last - 1).len(), 1);
        assert!(log.after(last).is_empty());
    }

    #[test]
    fn secrets_are_left_out_and_numbers_masked() {
        let body = b"card.number=4000000000000051&card.cvv=123&authentication.sKey=k&\
authentication.checksum=c&bankAccount.iban=DE89370400440532013000&authToken=t&amount=5.00";
        let form = Form::parse(body).unwrap();
        let log = RequestLog::default();
        log.record(entry("/"), masked_fields(&form));
        let fields = log.after(0).remove(0).fields;
        assert_eq!(
            fields,
            [
                ("card.number".to_owned(), "400000******0051".to_owned()),
                (
                    "bankAccount.iban".to_owned(),
                    "DE89**************3000".to_owned()
                ),
                ("amount".to_owned(), "5.00".to_owned()),
            ]
        );
        assert_eq!(mask("1234", 6, 4), "****");
    }

    #[test]
    fn the_result_code_is_the_first_code_written() {
        let body = r#"{"paymentId":"-","result":{"code":"30001 | 30007","description":"x"}}"#;
        assert_eq!(result_code(body).as_deref(), Some("30001 | 30007"));
        assert_eq!(
            result_code(r#"{"statusInvoiceResult":{"code":"00020"}}"#).as_deref(),
            Some("00020")
        );
        assert_eq!(result_code("not found\n"), None);
    }
}
