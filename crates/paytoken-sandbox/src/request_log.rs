//! The request log: every request the sandbox answered, newest last, for the console
//! (`stripe logs tail`, for this gateway). Each entry has its time on the sandbox's clock,
//! the operation, the caller, the status and result code, the explanation of a refusal,
//! and the form's fields, each as the table of fields (`paytoken_types::internal::
//! sensitive`) says it may be shown: the CVV, the secure key, checksums and tokens
//! `[redacted]`, card numbers as 6+4 and IBANs as country and last four wherever they
//! appear (the path too), personal values `[personal]` (the `AuthToken` header is never
//! read into it); each field's name through the redactor of free text
//! (`paytoken_protocol::redact`), and a body that is not a form by its kind and length
//! only. The newest [`REQUESTS_KEPT`] are kept, each bounded in bytes: a value
//! is kept up to [`MAX_LOGGED_VALUE`] characters and then its length, the fields up to
//! [`MAX_LOGGED_FIELDS`] bytes and then how many were left out, the path, method, caller
//! and explanation clipped the same way. The order id (`merchantTransactionId`) is kept
//! first and whole, even from a body refused unread, with a card number or an IBAN in it
//! masked: the shop finds its refused payment by its own id.

use std::borrow::Cow;
use std::fmt;
use std::sync::{Arc, OnceLock};

use paytoken_protocol::redact;
use paytoken_types::internal::sensitive;

use crate::bounded_log::BoundedLog;
use crate::explain;
use crate::form::Form;

/// The most requests the log keeps; older ones are dropped.
pub const REQUESTS_KEPT: usize = 1000;

/// The most characters of a field's value the log keeps; a longer one is cut there and
/// says its length.
pub(crate) const MAX_LOGGED_VALUE: usize = 128;

/// The most bytes of fields (names and values as kept) one entry keeps; the fields past
/// it are counted in a last pair named [`LEFT_OUT`].
pub(crate) const MAX_LOGGED_FIELDS: usize = 8 * 1024;

/// The name of the pair that counts the fields an entry left out.
pub(crate) const LEFT_OUT: &str = "…";

/// The most characters of an explanation, in the log and the answer's header alike.
pub(crate) const MAX_EXPLANATION: usize = 4096;

/// The most characters of a path, a method or a caller the log keeps.
const MAX_LOGGED_TEXT: usize = 256;

/// The most bytes one entry holds beyond its fixed size, whatever the request: what
/// the bounds above allow, four bytes a character, rounded up. The log holds at most
/// [`REQUESTS_KEPT`] of these.
#[cfg(test)]
const MAX_ENTRY_BYTES: usize = 40 * 1024;

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

impl LoggedRequest {
    /// The shop's order id (`merchantTransactionId`) as the log keeps it (a run of digits
    /// that may be a card number masked), when the request sent one.
    #[must_use]
    pub fn order_id(&self) -> Option<&str> {
        self.fields
            .iter()
            .find(|(name, _)| name == ORDER_ID)
            .map(|(_, value)| value.as_str())
    }
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
    entries: BoundedLog<Recorded, REQUESTS_KEPT>,
    keeper: OnceLock<Arc<dyn KeepRequests>>,
    /// Why the keeper could not write, the first time it could not.
    failure: OnceLock<String>,
}

/// An entry as the log holds it: its fields in one form-encoded string (masked already),
/// one allocation per request however many fields it sent.
#[derive(Debug, Clone)]
struct Recorded {
    entry: LoggedRequest,
    fields: Box<str>,
}

impl Recorded {
    /// The entry as the log holds it, its texts clipped to their bounds.
    fn of(mut entry: LoggedRequest, fields: Box<str>) -> Self {
        entry.fields = Vec::new();
        clip_owned(&mut entry.method, MAX_LOGGED_TEXT);
        if let Cow::Owned(masked) = sensitive::mask_in_url(&entry.path) {
            entry.path = masked;
        }
        clip_owned(&mut entry.path, MAX_LOGGED_TEXT);
        if let Some(caller) = &mut entry.caller {
            clip_owned(caller, MAX_LOGGED_TEXT);
        }
        if let Some(explanation) = &mut entry.explanation {
            clip_owned(explanation, MAX_EXPLANATION);
        }
        Self { entry, fields }
    }

    /// The bytes the entry holds beyond its fixed size.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        let entry = &self.entry;
        entry.method.len()
            + entry.path.len()
            + entry.caller.as_ref().map_or(0, String::len)
            + entry.result_code.as_ref().map_or(0, String::len)
            + entry.explanation.as_ref().map_or(0, String::len)
            + self.fields.len()
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
    /// Starts from the `kept` entries (what a state file held, oldest first) and keeps
    /// new ones with `keeper` from now on.
    pub(crate) fn keep_with(
        &self,
        keeper: Option<Arc<dyn KeepRequests>>,
        kept: Vec<LoggedRequest>,
    ) {
        let kept = kept
            .into_iter()
            .map(|entry| {
                let fields = encode(
                    entry.fields.iter().map(|(n, v)| (n.as_str(), v.as_str())),
                    MAX_LOGGED_FIELDS,
                );
                (entry.number, Recorded::of(entry, fields))
            })
            .collect();
        self.entries.restore(kept);
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
        self.entries.push_with(|number| {
            entry.number = number;
            let recorded = Recorded::of(entry, fields);
            if let Some(keeper) = self.keeper.get()
                && let Err(reason) = keeper.keep(&recorded.read())
            {
                let _ = self.failure.set(reason);
            }
            recorded
        });
    }

    /// The number of the newest entry; 0 before the first.
    pub(crate) fn last(&self) -> u64 {
        self.entries.last()
    }

    /// The entries numbered above `after`, oldest first.
    pub(crate) fn after(&self, after: u64) -> Vec<LoggedRequest> {
        self.page(after, REQUESTS_KEPT).0
    }

    /// At most `limit` entries numbered above `after`, oldest first, and whether more
    /// follow them. Under the log's lock only those entries are copied, each bounded:
    /// a request being answered waits for no more than that; they are decoded after.
    pub(crate) fn page(&self, after: u64, limit: usize) -> (Vec<LoggedRequest>, bool) {
        let (taken, more) = self
            .entries
            .page(after, limit, |_, recorded| recorded.clone());
        (taken.iter().map(Recorded::read).collect(), more)
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

/// The name of the shop's order id.
const ORDER_ID: &str = "merchantTransactionId";

/// The form's fields as the log keeps them, form-encoded in one string: the order id
/// first, each value as the table of fields says it may be shown (secrets redacted, card
/// numbers and IBANs masked, personal values replaced) and clipped, and the fields past
/// [`MAX_LOGGED_FIELDS`] counted, not kept.
pub(crate) fn masked_fields(form: &Form<'_>) -> Box<str> {
    let order_id = form
        .fields()
        .find(|(name, _)| *name == ORDER_ID)
        .map(|(_, value)| value);
    let others = form
        .fields()
        .filter(|(name, _)| *name != ORDER_ID)
        .map(|(name, value)| {
            let shown = sensitive::shown(name, value, false);
            (
                redact::name(name),
                Cow::Owned(explain::clip(&shown, MAX_LOGGED_VALUE).into_owned()),
            )
        });
    let order = order_id.map(|id| (Cow::Borrowed(ORDER_ID), sensitive::id_shown(id)));
    encode(order.into_iter().chain(others), MAX_LOGGED_FIELDS)
}

/// What the log keeps of a body that is not a form (JSON, a bare word, bytes): its kind
/// and length, in one pair named [`LEFT_OUT`]; what it holds is named by nothing, so none
/// of it is kept.
pub(crate) fn not_a_form(body: &[u8]) -> Box<str> {
    let kind = if looks_like_json(body) {
        "json"
    } else {
        "not a form"
    };
    let said = format!("a body of {} bytes ({kind}), not kept", body.len());
    encode(std::iter::once((LEFT_OUT, said)), MAX_LOGGED_FIELDS)
}

/// What the log keeps of a body that was refused before it was read as a form: its order
/// id, if a well-formed pair of the body names one.
pub(crate) fn order_id_of_unread(body: &[u8]) -> Box<str> {
    // Pair by pair: a broken pair before it hides no order id.
    let order = body
        .split(|byte| *byte == b'&')
        .filter_map(|pair| paytoken_types::internal::decode(pair).next()?.ok())
        .find(|(name, value)| name == ORDER_ID && value.chars().count() <= 255)
        .map(|(_, value)| (ORDER_ID, sensitive::id_shown(&value).into_owned()));
    encode(order.into_iter(), MAX_LOGGED_FIELDS)
}

/// Whether `body` opens as JSON does (`{` or `[`, after blanks): what a client that forgot
/// to form-encode sends.
pub(crate) fn looks_like_json(body: &[u8]) -> bool {
    let text = body.trim_ascii_start();
    text.starts_with(b"{") || text.starts_with(b"[")
}

/// `name=value&...`, form-encoded, up to `bound` bytes of names and values; the pairs
/// past it counted in a last pair named [`LEFT_OUT`].
fn encode<N: AsRef<str>, V: AsRef<str>>(
    fields: impl Iterator<Item = (N, V)>,
    bound: usize,
) -> Box<str> {
    let mut out = Vec::with_capacity(256);
    let mut kept = 0;
    let mut left_out = 0_usize;
    let pair = |out: &mut Vec<u8>, name: &str, value: &str| {
        if !out.is_empty() {
            out.push(b'&');
        }
        paytoken_types::internal::encode_into(out, name.as_bytes());
        out.push(b'=');
        paytoken_types::internal::encode_into(out, value.as_bytes());
    };
    for (name, value) in fields {
        let (name, value) = (name.as_ref(), value.as_ref());
        if left_out > 0 || kept + name.len() + value.len() > bound {
            left_out += 1;
            continue;
        }
        kept += name.len() + value.len();
        pair(&mut out, name, value);
    }
    if left_out > 0 {
        pair(
            &mut out,
            LEFT_OUT,
            &format!("{left_out} more field(s) left out"),
        );
    }
    // Percent-encoding writes ASCII only.
    String::from_utf8(out).unwrap_or_default().into_boxed_str()
}

/// `text` clipped in place, as [`explain::clip`] does.
fn clip_owned(text: &mut String, max: usize) {
    if let Cow::Owned(clipped) = explain::clip(text, max) {
        *text = clipped;
    }
}

/// The `result.code` of one of the sandbox's own JSON answers (or the invoice list's
/// `statusInvoiceResult.code`), read by a JSON reader that keeps nothing else: every
/// answer passes here, so no tree of it is built.
pub(crate) fn result_code(body: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Coded {
        code: String,
    }
    #[derive(serde::Deserialize)]
    struct Answer {
        result: Option<Coded>,
        #[serde(rename = "statusInvoiceResult")]
        status_invoice_result: Option<Coded>,
    }
    let answer: Answer = serde_json::from_str(body).ok()?;
    answer
        .result
        .or(answer.status_invoice_result)
        .map(|coded| coded.code)
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
    fn secrets_are_redacted_and_numbers_masked_by_the_table() {
        let body = b"card.number=4000000000000051&card.cvv=123&authentication.sKey=k&\
authentication.checksum=c&bankAccount.iban=DE89370400440532013000&authToken=t&amount=5.00&\
card.Number=4000000000000051&orderDescriptor=for+4000+0000+0000+0051&customer.email=a%40b.c";
        let form = Form::parse(body).unwrap();
        let log = RequestLog::default();
        log.record(entry("/"), masked_fields(&form));
        let fields = log.after(0).remove(0).fields;
        // Each field as the table shows it, in the order sent.
        let expected: Vec<(String, String)> = paytoken_types::internal::decode(body)
            .map(Result::unwrap)
            .map(|(name, value)| {
                let shown = sensitive::shown(&name, &value, false).into_owned();
                (name.into_owned(), shown)
            })
            .collect();
        assert_eq!(fields, expected);
        // And whatever the table says, no value sent shows whole.
        let kept = format!("{fields:?}");
        for planted in [
            "4000000000000051",
            "4000 0000 0000 0051",
            "DE89370400440532013000",
            "a@b.c",
            "\"123\"",
            "\"k\"",
            "\"c\"",
            "\"t\"",
        ] {
            assert!(!kept.contains(planted), "{planted}: {kept}");
        }
        let mut in_path = entry("/payments/4000000000000051");
        in_path.number = 0;
        log.record(in_path, "".into());
        assert_eq!(log.after(1)[0].path, "/payments/400000******0051");
    }

    /// Regression: 1,000 requests with names of 64,000 bytes held 190 MB. Whatever a
    /// request sends, an entry holds a bounded number of bytes.
    #[test]
    fn an_entry_is_bounded_in_bytes_whatever_the_request_sends() {
        let wide = "\u{1f4b3}";
        let mut body = String::from("merchantTransactionId=order-4000000000000051-x");
        for i in 0..crate::form::MAX_FIELDS - 1 {
            let name = format!("{i}{}", "n".repeat(crate::form::MAX_NAME - 4));
            body.push_str(&format!("&{name}={}", "v".repeat(255)));
        }
        let form = Form::parse(body.as_bytes()).unwrap();
        let log = RequestLog::default();
        let mut worst = entry(&wide.repeat(100_000));
        worst.method = wide.repeat(1000);
        worst.caller = Some(wide.repeat(1000));
        worst.explanation = Some(wide.repeat(100_000));
        log.record(worst, masked_fields(&form));
        let recorded = log.entries.all(Recorded::clone).remove(0);
        assert!(
            recorded.bytes() <= MAX_ENTRY_BYTES,
            "{} bytes",
            recorded.bytes()
        );
        let read = recorded.read();
        assert_eq!(read.order_id(), Some("order-400000******0051-x"));
        assert!(
            read.path.ends_with("... (100000 characters)"),
            "{}",
            read.path
        );
        let (name, left_out) = read.fields.last().unwrap();
        assert_eq!(name, LEFT_OUT);
        assert!(left_out.ends_with("more field(s) left out"), "{left_out}");
        assert!(read.fields[1].1.ends_with("... (255 characters)"));
    }

    #[test]
    fn an_unread_body_keeps_its_order_id_masked() {
        let fields = order_id_of_unread(b"a=%ZZ&merchantTransactionId=4111111111111111&x");
        assert_eq!(&*fields, "merchantTransactionId=411111******1111");
        assert_eq!(&*order_id_of_unread(b"%%%"), "");
    }

    #[test]
    fn a_page_is_the_entries_after_a_number_and_says_whether_more_follow() {
        let log = RequestLog::default();
        for n in 0..10 {
            log.record(entry(&format!("/{n}")), "".into());
        }
        let (page, more) = log.page(3, 4);
        let numbers: Vec<u64> = page.iter().map(|entry| entry.number).collect();
        assert_eq!(numbers, [4, 5, 6, 7]);
        assert!(more);
        let (page, more) = log.page(7, 4);
        assert_eq!(page.len(), 3);
        assert!(!more);
    }

    #[test]
    fn the_result_code_is_read_from_the_answer_s_result() {
        let body = r#"{"paymentId":"-","result":{"code":"30001 | 30007","description":"x"}}"#;
        assert_eq!(result_code(body).as_deref(), Some("30001 | 30007"));
        assert_eq!(
            result_code(r#"{"statusInvoiceResult":{"code":"00020"}}"#).as_deref(),
            Some("00020")
        );
        assert_eq!(result_code("not found\n"), None);
    }
}
