//! `paytoken replay --check CASSETTE`: every answer of a cassette (`paytoken record`) fed
//! to the parser of its operation, as the client reads it live
//! (`paytoken::protocol::recorded`), with what the request sent for the echo checks. Each
//! exchange gets the verdict paytoken reads (approved, declined, pending, refused, ok) or
//! why it could not be read, and the shapes of its answer unlike the interface's samples.
//! A contract test of the SDK against a deployment that moves no money a second time: the
//! exit code says whether every answer was read.
//!
//! The cassette is read up to [`MAX_CASSETTE_BYTES`]; its answers are JSON values (as
//! paytoken reads a repeated key: the last one), redacted, which the parsers read as the
//! incidental fields they are.

use std::fmt::Write as _;
use std::io::{BufRead as _, BufReader, Read as _};
use std::path::Path;

use paytoken::OperationKind;
use paytoken::protocol::Error;
use paytoken::protocol::recorded::{self, Reading, SentFields};
use serde_json::{Value, json};

use crate::limits::LIST_ANSWER_BYTES;
use crate::report::{Failure, Outcome, Report, status_outcome};
use crate::shapes;
use crate::terminal::escape;

/// The largest cassette read: four times `record`'s default bound.
pub(crate) const MAX_CASSETTE_BYTES: u64 = 256 * 1024 * 1024;

/// The longest line read: an exchange of `record` at its default answer bound, whose
/// answer may be written twice (`body` and `bodyText`), and its request. A longer line is
/// passed over unread, never held.
pub(crate) const MAX_LINE_BYTES: usize = 2 * LIST_ANSWER_BYTES + 1024 * 1024;

/// The most exchanges `replay --check` lists one by one (those it could not read first);
/// past it, it counts them.
const MAX_LISTED: usize = 1000;

/// A line of a cassette, as [`each_line`] hands it over.
pub(crate) enum Line<'a> {
    /// Its bytes, newline included.
    Text(&'a [u8]),
    /// A line longer than [`MAX_LINE_BYTES`], passed over unread.
    TooLong,
}

/// What became of one exchange.
struct Replayed {
    number: Value,
    operation: Option<String>,
    verdict: &'static str,
    reason: Option<String>,
    unusual: Vec<shapes::Shape>,
}

impl Replayed {
    /// Whether paytoken read the answer to a verdict.
    fn read(&self) -> bool {
        matches!(
            self.verdict,
            "approved" | "declined" | "reversed" | "pending" | "refused" | "ok"
        )
    }
}

/// `paytoken replay --check CASSETTE`.
pub(crate) fn run(cassette: &Path) -> Result<Report, Failure> {
    let mut tally = Tally::default();
    each_line(cassette, "--check", |line| {
        tally.add(match line {
            Line::Text(line) => replay(line),
            Line::TooLong => unreadable_line(&format!(
                "a line longer than {} MiB, not read",
                MAX_LINE_BYTES / (1024 * 1024)
            )),
        });
    })?;
    Ok(report(cassette, &tally))
}

/// What `replay --check` keeps of the exchanges as they go by: the counts, and at most
/// [`MAX_LISTED`] of them to list, those not read first.
#[derive(Default)]
struct Tally {
    read: usize,
    unread: usize,
    listed: Vec<Replayed>,
    /// How many of `listed` were read: those an unread exchange may take the place of.
    listed_read: usize,
    not_listed: usize,
}

impl Tally {
    fn add(&mut self, exchange: Replayed) {
        let read = exchange.read();
        if read {
            self.read += 1;
        } else {
            self.unread += 1;
        }
        if self.listed.len() < MAX_LISTED {
            self.listed_read += usize::from(read);
            self.listed.push(exchange);
            return;
        }
        self.not_listed += 1;
        // Full: an exchange not read takes the place of the last one listed that was.
        if !read
            && self.listed_read > 0
            && let Some(last_read) = self.listed.iter().rposition(Replayed::read)
        {
            self.listed.remove(last_read);
            self.listed_read -= 1;
            self.listed.push(exchange);
        }
    }
}

/// Hands each line of `cassette` that is not blank to `read`, up to
/// [`MAX_CASSETTE_BYTES`] in all and [`MAX_LINE_BYTES`] a line (a longer one is passed
/// over unread, as [`Line::TooLong`]); `flag` names the file in what goes wrong.
pub(crate) fn each_line(
    cassette: &Path,
    flag: &str,
    mut read: impl FnMut(Line<'_>),
) -> Result<(), Failure> {
    let unreadable =
        |error: std::io::Error| Failure::usage(format!("{flag} {}: {error}", cassette.display()));
    let file = std::fs::File::open(cassette).map_err(unreadable)?;
    let mut reader = BufReader::new(file.take(MAX_CASSETTE_BYTES.saturating_add(1)));
    let mut consumed: u64 = 0;
    let mut line = Vec::new();
    let line_bound = u64::try_from(MAX_LINE_BYTES).unwrap_or(u64::MAX);
    loop {
        line.clear();
        let mut count = (&mut reader)
            .take(line_bound.saturating_add(1))
            .read_until(b'\n', &mut line)
            .map_err(unreadable)?;
        if count == 0 {
            return Ok(());
        }
        let too_long = line.len() > MAX_LINE_BYTES;
        if too_long {
            line.clear();
            line.shrink_to(64 * 1024);
            count = count.saturating_add(reader.skip_until(b'\n').map_err(unreadable)?);
        }
        consumed = consumed.saturating_add(u64::try_from(count).unwrap_or(u64::MAX));
        if consumed > MAX_CASSETTE_BYTES {
            return Err(Failure::usage(format!(
                "{flag} {}: larger than 256 MiB: split it",
                cassette.display()
            )));
        }
        if too_long {
            read(Line::TooLong);
        } else if !line.iter().all(u8::is_ascii_whitespace) {
            read(Line::Text(&line));
        }
    }
}

/// An exchange whose line could not be read, and why.
fn unreadable_line(reason: &str) -> Replayed {
    Replayed {
        number: Value::Null,
        operation: None,
        verdict: "unreadable_line",
        reason: Some(reason.to_owned()),
        unusual: Vec::new(),
    }
}

/// One line of the cassette, replayed.
fn replay(line: &[u8]) -> Replayed {
    let Ok(exchange) = serde_json::from_slice::<Value>(line) else {
        return unreadable_line("not a JSON object");
    };
    if exchange.get("cassette") != Some(&json!(crate::record::CASSETTE_VERSION)) {
        return unreadable_line("not a line of a cassette of this version");
    }
    let field = |name: &str| exchange.get(name).unwrap_or(&Value::Null);
    let mut replayed = Replayed {
        number: field("number").clone(),
        operation: field("operation").as_str().map(str::to_owned),
        verdict: "unreadable",
        reason: None,
        unusual: Vec::new(),
    };
    let answer = field("answer");
    let (Some(kind), Some(status), Some(body)) = (
        replayed
            .operation
            .as_deref()
            .and_then(OperationKind::from_name),
        answer.get("status").and_then(Value::as_u64),
        answer.get("body").filter(|body| !body.is_null()),
    ) else {
        let (verdict, reason) = if answer.is_null() {
            ("unanswered", field("error").as_str().unwrap_or("no answer"))
        } else if replayed.operation.is_none() {
            ("unknown_operation", "the request is of no known operation")
        } else {
            (
                "unrecorded",
                "the answer was not JSON: only its length was recorded",
            )
        };
        replayed.verdict = verdict;
        replayed.reason = Some(reason.to_owned());
        return replayed;
    };
    replayed.unusual = shapes::unusual(body);
    let sent = sent_fields(field("request"));
    let status = u16::try_from(status).unwrap_or(u16::MAX);
    let bytes = answer_text(answer, body);
    let (verdict, reason) = match recorded::read(kind, &sent, status, bytes.as_bytes()) {
        Ok(Reading::Transaction(transaction)) => (status_outcome(&transaction.status).name(), None),
        Ok(_) => ("ok", None),
        Err(error) => verdict_of_error(&error),
    };
    replayed.verdict = verdict;
    replayed.reason = reason;
    replayed
}

/// The recorded answer's JSON text: `bodyText` where the recorder wrote it (an answer
/// that repeats a key, which `body` cannot hold), else `body`'s.
pub(crate) fn answer_text(answer: &Value, body: &Value) -> String {
    answer
        .get("bodyText")
        .and_then(Value::as_str)
        .map_or_else(|| body.to_string(), str::to_owned)
}

fn verdict_of_error(error: &Error) -> (&'static str, Option<String>) {
    match error.refusal() {
        Some(refusal) => (
            "refused",
            Some(format!(
                "{} {}",
                refusal.result.code, refusal.result.description
            )),
        ),
        None if matches!(error, Error::Contradiction { .. }) => {
            ("contradiction", Some(error.to_string()))
        }
        None => ("unreadable", Some(error.to_string())),
    }
}

/// What the recorded request sent: the id its path ends with, and its form's fields.
fn sent_fields(request: &Value) -> SentFields {
    let path = request.get("path").and_then(Value::as_str).unwrap_or("");
    let last = path
        .rsplit('/')
        .next()
        .filter(|segment| !segment.is_empty());
    let path_id = last.map(|segment| {
        percent_encoding::percent_decode_str(segment)
            .decode_utf8_lossy()
            .into_owned()
    });
    let fields: Vec<(&str, &str)> = request
        .get("fields")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|field| Some((field.get("name")?.as_str()?, field.get("value")?.as_str()?)))
        .collect();
    SentFields::from_wire(path_id.as_deref(), fields)
}

fn report(cassette: &Path, tally: &Tally) -> Report {
    let (read, unread) = (tally.read, tally.unread);
    let mut human = if unread == 0 {
        format!(
            "replay: every answer of {} read ({read} exchange(s))\n",
            escape(&cassette.display().to_string())
        )
    } else {
        format!(
            "replay: {unread} of {} answer(s) of {} not read\n",
            read + unread,
            escape(&cassette.display().to_string())
        )
    };
    let mut exchanges = Vec::with_capacity(tally.listed.len());
    for exchange in &tally.listed {
        let operation = exchange.operation.as_deref().unwrap_or("-");
        let _ = write!(
            human,
            "  #{} {}: {}",
            exchange.number,
            escape(operation),
            exchange.verdict
        );
        if let Some(reason) = &exchange.reason {
            let _ = write!(human, " ({})", escape(reason));
        }
        if !exchange.unusual.is_empty() {
            let _ = write!(human, "; {} unusual shape(s)", exchange.unusual.len());
        }
        human.push('\n');
        let unusual: Vec<Value> = exchange
            .unusual
            .iter()
            .map(|shape| json!({ "field": shape.field, "shape": shape.shape }))
            .collect();
        exchanges.push(json!({
            "number": exchange.number,
            "exchangeOperation": exchange.operation,
            "verdict": exchange.verdict,
            "reason": exchange.reason,
            "unusual": unusual,
        }));
    }
    if tally.not_listed > 0 {
        let _ = writeln!(
            human,
            "  ... and {} more exchange(s), not listed",
            tally.not_listed
        );
    }
    let outcome = if unread == 0 {
        Outcome::Ok
    } else {
        Outcome::ChecksFailed
    };
    Report::checked(
        "replay",
        outcome,
        human,
        json!({
            "cassette": cassette.display().to_string(),
            "read": read,
            "unread": unread,
            "exchanges": exchanges,
            "notListed": tally.not_listed,
        }),
    )
}
