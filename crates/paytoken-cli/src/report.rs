//! What a run prints, and its exit code.

use std::fmt::Write as _;
use std::process::ExitCode;

use paytoken::{Error, OperationKind, PaymentStatus};
use serde_json::{Map, Value, json};

use crate::terminal::{self, Unwritten};

/// The exit codes, as the README lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Exit {
    /// It did what was asked (answers without a result object included).
    Success,
    /// A check failed (`doctor`).
    Checks,
    /// Usage or invalid input, found before anything was sent.
    Usage,
    /// Refused by the gateway, or a payment declined or cancelled.
    Refused,
    /// The transport failed, an unexpected status or body, or an unknown outcome.
    Failed,
    /// A payment pending, or waiting for 3-D Secure.
    Pending,
    /// Standard output could not be written (a full disk, an I/O error), so what was
    /// printed is cut.
    Output,
    /// A program the command talks to broke their protocol (`conform`'s client).
    Protocol,
}

impl Exit {
    /// The process's exit code: the one place the numbers are written.
    fn code(self) -> u8 {
        match self {
            Self::Success => 0,
            Self::Checks => 1,
            Self::Usage => 2,
            Self::Refused => 3,
            Self::Failed => 4,
            Self::Pending => 5,
            Self::Output => 6,
            Self::Protocol => 7,
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> Self {
        Self::from(exit.code())
    }
}

/// A run's result: the JSON object, the readable text, the exit code, and the one line for
/// stderr when it failed.
#[derive(Debug)]
pub(crate) struct Report {
    pub(crate) exit: Exit,
    pub(crate) json: Value,
    pub(crate) human: String,
    pub(crate) error_line: Option<String>,
}

impl Report {
    /// An answer of `operation`: titled `{operation}: {outcome}` for people, with the
    /// `detail` in brackets where there is one (`refund: approved (refunded)`); `json`
    /// with the operation's name and the outcome added for scripts, the exit code the
    /// outcome's. The title's words are the JSON's.
    pub(crate) fn answer(
        outcome: Outcome,
        operation: OperationKind,
        detail: Option<&str>,
        json: Value,
    ) -> Self {
        let operation = operation.name();
        let title = match detail {
            Some(detail) => format!("{operation}: {} ({detail})", outcome.name()),
            None => format!("{operation}: {}", outcome.name()),
        };
        let mut human = format!("{title}\n");
        write_fields(&mut human, &json, "  ");
        Self::checked(operation, outcome, human, json)
    }

    /// The report with another exit code than its outcome's (an inquiry exits with the
    /// found transaction's); the title goes to stderr when that is not success.
    pub(crate) fn with_exit(mut self, exit: Exit) -> Self {
        if exit != Exit::Success && self.error_line.is_none() {
            self.error_line = self.human.lines().next().map(str::to_owned);
        }
        self.exit = exit;
        self
    }

    /// The result of a command that calls no gateway (`whoami`, `config`): titled
    /// `{operation}: {title}` for people; `json` with `operation` and `outcome` `ok` added.
    pub(crate) fn local(operation: &'static str, title: &str, json: Value) -> Self {
        let mut human = format!("{operation}: {title}\n");
        write_fields(&mut human, &json, "  ");
        Self::local_text(operation, human, json)
    }

    /// [`Report::local`] with its own readable text.
    pub(crate) fn local_text(operation: &'static str, human: String, json: Value) -> Self {
        Self::checked(operation, Outcome::Ok, human, json)
    }

    /// The report of `operation`'s `outcome` (a command that checks, such as `doctor`, and
    /// every report above): its readable text, `json` with `operation` and `outcome` added,
    /// the outcome's exit code; the first line goes to stderr when that is not success.
    pub(crate) fn checked(
        operation: &'static str,
        outcome: Outcome,
        human: String,
        mut json: Value,
    ) -> Self {
        if let Some(object) = json.as_object_mut() {
            object.insert("operation".into(), operation.into());
            object.insert("outcome".into(), outcome.name().into());
        }
        let exit = outcome.exit();
        let error_line = (exit != Exit::Success)
            .then(|| human.lines().next().map(str::to_owned))
            .flatten();
        Self {
            exit,
            json,
            human,
            error_line,
        }
    }

    /// A report with nothing left to print (its reader went away), only an exit code.
    pub(crate) fn quiet(exit: Exit) -> Self {
        Self {
            exit,
            json: Value::Null,
            human: String::new(),
            error_line: None,
        }
    }

    /// Prints the report of the command `operation` and gives the exit code: the JSON
    /// object names `operation` unless it names its own. Gateway text is escaped on the way
    /// ([`terminal`](crate::terminal)). A closed standard output is not an error: the
    /// exit code stays that of what was done; any other failure to write it is (exit 6).
    pub(crate) fn print(mut self, json: bool, operation: &str) -> ExitCode {
        if let Some(object) = self.json.as_object_mut() {
            object
                .entry("operation")
                .or_insert_with(|| operation.into());
        }
        let text = if json {
            (!self.json.is_null()).then(|| terminal::json(&self.json) + "\n")
        } else {
            (!self.human.is_empty()).then(|| self.human.clone())
        };
        let mut exit = self.exit;
        if let Some(Err(Unwritten::Failed(error))) = text.map(|text| terminal::out(&text)) {
            terminal::err_line(&format!("paytoken: {}", unwritten_line(&error)));
            exit = Exit::Output;
        }
        if let Some(line) = &self.error_line {
            terminal::err_line(&format!("paytoken: {line}"));
        }
        exit.into()
    }
}

/// What stderr says when standard output failed.
fn unwritten_line(error: &std::io::Error) -> String {
    format!("cannot write to standard output: {error}")
}

/// Standard output took no more: a closed one ends the command quietly, a success; a failed
/// one leaves nothing more for it, the error on stderr, exit 6.
impl From<Unwritten> for Report {
    fn from(unwritten: Unwritten) -> Self {
        match unwritten {
            Unwritten::Closed => Self::quiet(Exit::Success),
            Unwritten::Failed(error) => Self {
                error_line: Some(unwritten_line(&error)),
                ..Self::quiet(Exit::Output)
            },
        }
    }
}

impl From<Failure> for Report {
    fn from(failure: Failure) -> Self {
        let mut json = json!({
            "outcome": failure.outcome.name(),
            "error": { "kind": failure.kind, "message": failure.message },
        });
        if let (Some(extra), Some(object)) = (failure.detail, json.as_object_mut()) {
            object.extend(extra);
        }
        // Readable mode prints the error once, on stderr: stdout carries results only.
        Self {
            exit: failure.outcome.exit(),
            human: String::new(),
            error_line: Some(failure.message),
            json,
        }
    }
}

/// A run that did not get what it asked for.
#[derive(Debug)]
pub(crate) struct Failure {
    outcome: Outcome,
    /// The finer kind, for `error.kind`: `usage`, `invalid_input`, `refused`,
    /// `outcome_unknown`, `contradiction`, `unexpected_status`, `undecodable`,
    /// `transport_failure`, `failed`, `not_found`.
    kind: &'static str,
    message: String,
    /// More fields for the JSON object (the gateway's result, the merchant transaction id).
    detail: Option<Map<String, Value>>,
}

impl Failure {
    /// A usage error or invalid input: nothing was sent.
    pub(crate) fn usage(message: impl Into<String>) -> Self {
        Self::new(Outcome::UsageError, "usage", message)
    }

    /// Something asked for by name that is not there (`config show NAME`); nothing sent.
    pub(crate) fn not_found(message: impl Into<String>) -> Self {
        Self::new(Outcome::NotFound, "not_found", message)
    }

    /// Refused by the other side (the sandbox's console), with its reason.
    pub(crate) fn refused(message: impl Into<String>) -> Self {
        Self::new(Outcome::Refused, "refused", message)
    }

    /// What the command itself could not do: bind a port, start a runtime, write a file,
    /// get a demo step to do what it should.
    pub(crate) fn failed(message: impl Into<String>) -> Self {
        Self::new(Outcome::TransportError, "failed", message)
    }

    fn new(outcome: Outcome, kind: &'static str, message: impl Into<String>) -> Self {
        Self {
            outcome,
            kind,
            message: message.into(),
            detail: None,
        }
    }

    /// What went wrong, as stderr says it.
    pub(crate) fn message(&self) -> &str {
        &self.message
    }

    /// The client's error, classified. Its message holds no secret (the client's promise).
    pub(crate) fn from_error(operation: OperationKind, error: &Error) -> Self {
        let mut detail = Map::new();
        detail.insert("operation".into(), operation.name().into());
        let (outcome, kind) = if error.is_invalid_input() {
            (Outcome::UsageError, "invalid_input")
        } else if let Some(refusal) = error.refusal() {
            detail.insert(
                "result".into(),
                json!({
                    "code": refusal.result.code.as_str(),
                    "description": crate::render::description(&refusal.result.description, &[]),
                }),
            );
            (Outcome::Refused, "refused")
        } else if error.is_outcome_unknown() {
            if let Some(id) = error.merchant_transaction_id() {
                detail.insert("merchantTransactionId".into(), id.as_str().into());
            }
            if let Some(id) = error.payment_id() {
                detail.insert("paymentId".into(), id.as_str().into());
            }
            insert_contradiction(&mut detail, error);
            (Outcome::Unknown, "outcome_unknown")
        } else if insert_contradiction(&mut detail, error) {
            (Outcome::Contradiction, "contradiction")
        } else {
            match error.root() {
                Error::Protocol(paytoken::protocol::Error::UnexpectedStatus { status, .. }) => {
                    detail.insert("httpStatus".into(), (*status).into());
                    (Outcome::TransportError, "unexpected_status")
                }
                Error::Protocol(_) => (Outcome::TransportError, "undecodable"),
                _ => (Outcome::TransportError, "transport_failure"),
            }
        };
        let mut message = with_causes(error);
        if outcome == Outcome::Unknown {
            message.push_str(&next_step(error));
        }
        Self {
            outcome,
            kind,
            message,
            detail: Some(detail),
        }
    }
}

/// What a reader of an unknown outcome does next, for its readable message: the ids the
/// gateway knows the request by, and the `inquiry` that tells what became of it.
fn next_step(error: &Error) -> String {
    let order = error.merchant_transaction_id();
    let payment = error.payment_id();
    let mut ids = Vec::new();
    if let Some(id) = order {
        ids.push(format!("order id {}", id.as_str()));
    }
    if let Some(id) = payment {
        ids.push(format!("payment id {}", id.as_str()));
    }
    let ask = match (payment, order) {
        (Some(id), _) => format!("paytoken inquiry {}", id.as_str()),
        (None, Some(id)) => format!(
            "paytoken inquiry --merchant-transaction-id {}",
            shell_word(id.as_str())
        ),
        (None, None) => return String::new(),
    };
    format!(" ({}); to learn what became of it: {ask}", ids.join(", "))
}

/// `text` as one word of a POSIX shell's line: as it is when it holds only characters no
/// shell reads otherwise, else in single quotes (an order id may hold spaces).
fn shell_word(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "._-:/@%+=,".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// An error's message followed by its causes', as `a: b: c`: each error of paytoken prints
/// only itself and hands its cause to `source()`, so a reporter walks the chain once.
pub(crate) fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut next = error.source();
    while let Some(cause) = next {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        next = cause.source();
    }
    text
}

/// Adds what an answer about another transaction said, beside what was sent, when that is
/// the error's cause; whether it was.
fn insert_contradiction(detail: &mut Map<String, Value>, error: &Error) -> bool {
    let Error::Protocol(paytoken::protocol::Error::Contradiction {
        field,
        sent,
        answered,
        ..
    }) = error.root()
    else {
        return false;
    };
    detail.insert(
        "contradiction".into(),
        json!({ "field": field, "sent": sent, "answered": answered }),
    );
    true
}

/// The outcome of a payment status: a pre-authorisation waiting for 3-D Secure is
/// pending, a cancelled payment declined, a status of no known meaning unknown.
pub(crate) const fn status_outcome(status: &PaymentStatus) -> Outcome {
    match status {
        PaymentStatus::Approved => Outcome::Approved,
        PaymentStatus::Pending | PaymentStatus::ThreeDSecure { .. } => Outcome::Pending,
        PaymentStatus::Declined | PaymentStatus::Cancelled => Outcome::Declined,
        PaymentStatus::Refunded | PaymentStatus::ChargedBack => Outcome::Reversed,
        _ => Outcome::Unknown,
    }
}

/// The one vocabulary of `outcome` in the JSON output, each with its exit code (README's
/// table of outcomes and exit codes, and the JSON Schemas in `schemas/cli/`, say the same).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The payment, or the back-office move, was approved.
    Approved,
    /// The payment was declined or cancelled.
    Declined,
    /// The payment was approved, then refunded or charged back (found by `inquiry`).
    Reversed,
    /// The payment is pending, or waiting for 3-D Secure.
    Pending,
    /// The gateway refused the request (its result says why).
    Refused,
    /// The inquiry found the transaction.
    Found,
    /// What was asked for by name is not there.
    NotFound,
    /// Done (an answer without a payment, a listing, a local command).
    Ok,
    /// Usage or invalid input, found before anything was sent.
    UsageError,
    /// The request may have taken effect: ask with `inquiry`.
    Unknown,
    /// The answer was about another transaction, or a step did not do what it should.
    Contradiction,
    /// The transport failed, or the answer could not be read.
    TransportError,
    /// A check found something to mend (`doctor`).
    ChecksFailed,
    /// The client under test broke the protocol: a bad handshake, a line that is no
    /// answer, an answer to another message, no answer in time, an early end (`conform`).
    ProtocolError,
}

impl Outcome {
    /// The word in `--json`.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Self::Approved => "approved",
            Self::Declined => "declined",
            Self::Reversed => "reversed",
            Self::Pending => "pending",
            Self::Refused => "refused",
            Self::Found => "found",
            Self::NotFound => "not_found",
            Self::Ok => "ok",
            Self::UsageError => "usage_error",
            Self::Unknown => "outcome_unknown",
            Self::Contradiction => "contradiction",
            Self::TransportError => "transport_error",
            Self::ChecksFailed => "checks_failed",
            Self::ProtocolError => "protocol_error",
        }
    }

    /// The exit code it ends the command with.
    pub(crate) const fn exit(self) -> Exit {
        match self {
            Self::Approved | Self::Found | Self::Ok => Exit::Success,
            Self::UsageError | Self::NotFound => Exit::Usage,
            Self::Declined | Self::Reversed | Self::Refused => Exit::Refused,
            Self::Pending => Exit::Pending,
            Self::Unknown | Self::Contradiction | Self::TransportError => Exit::Failed,
            Self::ChecksFailed => Exit::Checks,
            Self::ProtocolError => Exit::Protocol,
        }
    }
}

/// Writes the fields of a JSON object as `name: value` lines, nested objects indented.
pub(crate) fn write_fields(out: &mut String, value: &Value, indent: &str) {
    let Some(object) = value.as_object() else {
        return;
    };
    for (name, value) in object {
        match value {
            Value::Object(_) => {
                let _ = writeln!(out, "{indent}{name}:");
                write_fields(out, value, &format!("{indent}  "));
            }
            Value::Array(items) => {
                let _ = writeln!(out, "{indent}{name}: {} item(s)", items.len());
                for (index, item) in items.iter().enumerate() {
                    if item.is_object() {
                        let _ = writeln!(out, "{indent}  [{}]", index + 1);
                        write_fields(out, item, &format!("{indent}    "));
                    } else {
                        let _ = writeln!(out, "{indent}  - {}", plain(item));
                    }
                }
            }
            other => {
                let _ = writeln!(out, "{indent}{name}: {}", plain(other));
            }
        }
    }
}

/// A JSON leaf without quotes, on one line, its control characters shown as escapes.
fn plain(value: &Value) -> String {
    match value {
        Value::String(text) => terminal::escape(text).into_owned(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::shell_word;

    #[test]
    fn an_order_id_is_one_word_of_the_inquiry_line() {
        assert_eq!(shell_word("order-1"), "order-1");
        assert_eq!(shell_word("Rest Transaction 01"), "'Rest Transaction 01'");
        assert_eq!(shell_word("it's $(x)"), r"'it'\''s $(x)'");
    }
}
