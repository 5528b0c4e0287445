//! The commands that see and steer a running sandbox through its console (JSON over HTTP
//! under `/sandbox/console/`), at the base URL the usual settings and profiles give:
//! `logs tail` (the request log, followed), `events list|resend` (notifications), `clock
//! show|advance`, `faults list|next|clear` and `books`. Named as the Stripe CLI's users look
//! for them; printed in the command's JSON vocabulary.

use std::fmt::Write as _;
use std::time::Duration;

use hyper::Method;
use serde_json::{Value, json};

use crate::cli::{ClockCommand, ConsoleCommand, EventsCommand, FaultsCommand, GatewayArgs};
use crate::limits;
use crate::listen::endpoint::Endpoint;
use crate::report::{Failure, Outcome, Report};
use crate::settings::Settings;
use crate::terminal::{self, escape};

/// Where the console's paths begin.
const PREFIX: &str = "/sandbox/console/";

/// How often `logs tail` asks for new entries.
const POLL_EVERY: Duration = Duration::from_millis(500);

/// The most pages of one list a command reads: past a full sandbox's (50,000 records a
/// kind, 100 a page), so an answer that always says `more` ends.
const MAX_PAGES: usize = 1000;

/// Runs a console command against the sandbox the settings name.
pub(crate) async fn run(
    command: &ConsoleCommand,
    args: &GatewayArgs,
    json: bool,
) -> Result<Report, Failure> {
    let console = Console::of(args)?;
    match command {
        ConsoleCommand::Logs(crate::cli::LogsCommand::Tail { once }) => {
            tail(&console, *once, json).await
        }
        ConsoleCommand::Events(EventsCommand::List) => console
            .every_page("notifications", &["notifications"])
            .await
            .map(|answer| events(&answer)),
        ConsoleCommand::Events(EventsCommand::Resend { number }) => console
            .post(&format!("notifications/{number}/resend"), &json!({}))
            .await
            .map(|answer| {
                let line = format!("events_resend: notification {number} is being sent again\n");
                Report::local_text("events_resend", line, answer)
            }),
        ConsoleCommand::Clock(ClockCommand::Show) => console
            .get("clock")
            .await
            .map(|answer| clock("clock_show", answer)),
        ConsoleCommand::Clock(ClockCommand::Advance { by }) => console
            .post("clock/advance", &json!({ "seconds": seconds(by)? }))
            .await
            .map(|answer| clock("clock_advance", answer)),
        ConsoleCommand::Faults(FaultsCommand::List) => console
            .get("faults")
            .await
            .map(|answer| faults("faults_list", answer)),
        ConsoleCommand::Faults(FaultsCommand::Next {
            directives,
            count,
            target,
        }) => console
            .post(
                "faults",
                &json!({ "directives": directives, "count": count, "target": target }),
            )
            .await
            .map(|answer| faults("faults_next", answer)),
        ConsoleCommand::Faults(FaultsCommand::Clear) => console
            .post("faults/clear", &json!({}))
            .await
            .map(|answer| faults("faults_clear", answer)),
        ConsoleCommand::Books => console
            .every_page(
                "books",
                &["payments", "registrations", "customers", "invoices"],
            )
            .await
            .map(books),
    }
}

/// A running sandbox's console.
struct Console {
    endpoint: Endpoint,
}

impl Console {
    fn of(args: &GatewayArgs) -> Result<Self, Failure> {
        let settings = Settings::resolve(args)?;
        let url = settings.base_url.value.as_deref().ok_or_else(|| {
            Failure::usage(
                "no base url: give the sandbox's with --base-url, PAYTOKEN_BASE_URL or a profile",
            )
        })?;
        let endpoint = Endpoint::parse("the sandbox's base url", url).map_err(|reason| {
            Failure::usage(format!("{reason} (the console is the sandbox's, on http)"))
        })?;
        Ok(Self { endpoint })
    }

    async fn get(&self, path: &str) -> Result<Value, Failure> {
        self.call(Method::GET, path, None).await
    }

    async fn post(&self, path: &str, body: &Value) -> Result<Value, Failure> {
        self.call(Method::POST, path, Some(body)).await
    }

    /// Every page of the console's list at `path`: the first answer, its `lists` grown
    /// by each page after it, without the paging's `last` and `more`.
    async fn every_page(&self, path: &str, lists: &[&str]) -> Result<Value, Failure> {
        let mut whole = self.get(path).await?;
        for _ in 1..MAX_PAGES {
            if field(&whole, "more") != true {
                // Read whole: what said where a page ended says nothing now.
                if let Some(whole) = whole.as_object_mut() {
                    whole.remove("last");
                    whole.remove("more");
                }
                return Ok(whole);
            }
            let after = field(&whole, "last").as_u64().unwrap_or(0);
            let page = self.get(&format!("{path}?after={after}")).await?;
            for list in lists {
                let rows = field(&page, list).as_array().cloned().unwrap_or_default();
                if let Some(Value::Array(kept)) = whole.get_mut(*list) {
                    kept.extend(rows);
                }
            }
            if let Some(whole) = whole.as_object_mut() {
                for key in ["last", "more"] {
                    whole.insert(key.to_owned(), field(&page, key).clone());
                }
            }
        }
        Err(Failure::failed(format!(
            "the sandbox's console: {path} runs past {MAX_PAGES} pages"
        )))
    }

    /// One call; a refusal of the console as the outcome its status says.
    async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Value, Failure> {
        let answered = self
            .endpoint
            .call(
                method,
                &format!("{PREFIX}{path}"),
                body,
                limits::CONSOLE_ANSWER_BYTES,
                limits::CONSOLE_CALL,
            )
            .await
            .map_err(|reason| Failure::failed(format!("the sandbox's console: {reason}")))?;
        let value: Value = serde_json::from_slice(&answered.body).map_err(|_| {
            Failure::failed(format!(
                "the sandbox's console answered {} without JSON: is this a paytoken sandbox?",
                answered.status
            ))
        })?;
        let message = || {
            let said = field(&value, "error").as_str().unwrap_or("no reason given");
            format!("the sandbox's console: {}", terminal::clip(said, 200))
        };
        match answered.status {
            200..=299 => Ok(value),
            404 => Err(Failure::not_found(message())),
            400 => Err(Failure::usage(message())),
            403 | 405 | 415 => Err(Failure::refused(message())),
            _ => Err(Failure::failed(message())),
        }
    }
}

/// `logs tail`: the log, then each new entry as it comes (every half second) until
/// Ctrl-C, or only what is there with `once`. One entry a line: JSON Lines with `json`.
async fn tail(console: &Console, once: bool, json: bool) -> Result<Report, Failure> {
    let mut after = 0;
    loop {
        let answer = console.get(&format!("requests?after={after}")).await?;
        let mut text = String::new();
        for entry in field(&answer, "requests").as_array().into_iter().flatten() {
            if json {
                let line = json!({ "operation": "logs_tail", "outcome": Outcome::Ok.name(), "request": entry });
                text.push_str(&terminal::json(&line));
                text.push('\n');
            } else {
                text.push_str(&request_line(entry));
            }
        }
        if let Err(unwritten) = terminal::out(&text) {
            return Ok(unwritten.into());
        }
        after = field(&answer, "last").as_u64().unwrap_or(after);
        // A page is followed by the next at once, until the log is read to its end.
        if field(&answer, "more") == true {
            continue;
        }
        if once {
            return Ok(Report::quiet(crate::report::Exit::Success));
        }
        tokio::select! {
            () = tokio::time::sleep(POLL_EVERY) => {}
            _ = tokio::signal::ctrl_c() => return Ok(Report::quiet(crate::report::Exit::Success)),
        }
    }
}

/// One entry of the request log, for people: number, time, operation, caller, status and
/// result code; a refusal's explanation indented below.
fn request_line(entry: &Value) -> String {
    let text = |name: &str| escape(field(entry, name).as_str().unwrap_or("-")).into_owned();
    let operation = field(entry, "operation").as_str().map_or_else(
        || format!("{} {}", text("method"), text("path")),
        |op| escape(op).into_owned(),
    );
    let order = field(entry, "orderId")
        .as_str()
        .map_or_else(String::new, |order| format!(" order {}", escape(order)));
    let mut line = format!(
        "#{} {} {operation} {}{order} {} {}\n",
        field(entry, "number"),
        text("time"),
        text("caller"),
        field(entry, "status"),
        text("resultCode"),
    );
    if let Some(why) = field(entry, "explanation").as_str() {
        let _ = writeln!(line, "    {}", escape(why));
    }
    line
}

fn events(answer: &Value) -> Report {
    let list = field(answer, "notifications")
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut human = format!("events_list: {} notification(s)\n", list.len());
    for sent in &list {
        // Each attempt by what became of it: an HTTP status is named as one, never read as
        // a count.
        let attempts: Vec<String> = field(sent, "attempts")
            .as_array()
            .into_iter()
            .flatten()
            .map(|attempt| match field(attempt, "status").as_u64() {
                Some(status) => format!("HTTP {status}"),
                None => field(attempt, "outcome")
                    .as_str()
                    .unwrap_or("?")
                    .replace('_', " "),
            })
            .collect();
        let state = if field(sent, "delivered") == true {
            "delivered"
        } else {
            "not delivered"
        };
        let _ = writeln!(
            human,
            "  #{} payment {} to {}: {state}, {} attempt(s): {}",
            field(sent, "number"),
            escape(field(sent, "paymentId").as_str().unwrap_or("-")),
            escape(field(sent, "url").as_str().unwrap_or("-")),
            attempts.len(),
            if attempts.is_empty() {
                "none yet".to_owned()
            } else {
                escape(&attempts.join(", ")).into_owned()
            }
        );
    }
    Report::local_text("events_list", human, json!({ "notifications": list }))
}

fn clock(operation: &'static str, answer: Value) -> Report {
    let tokens = field(&answer, "authTokens")
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    let listed_live = tokens
        .iter()
        .filter(|token| field(token, "live").as_bool() == Some(true))
        .count();
    // The counts when the sandbox gives them (it lists only the soonest to expire).
    let counts = field(&answer, "authTokenCounts");
    let live = field(counts, "live")
        .as_u64()
        .map_or(listed_live.to_string(), |live| live.to_string());
    let expired = field(counts, "expired").as_u64().map_or(
        tokens.len().saturating_sub(listed_live).to_string(),
        |expired| expired.to_string(),
    );
    let human = format!(
        "{operation}: {} on the sandbox's clock (advanced by {} s); auth tokens: {live} live, {expired} expired\n",
        escape(field(&answer, "time").as_str().unwrap_or("-")),
        field(&answer, "advancedSeconds"),
    );
    Report::local_text(operation, human, answer)
}

fn faults(operation: &'static str, answer: Value) -> Report {
    let next: Vec<String> = field(&answer, "next")
        .as_array()
        .into_iter()
        .flatten()
        .map(|waiting| {
            let text = |name: &str| field(waiting, name).as_str().unwrap_or("-").to_owned();
            format!("{} (next {})", text("directives"), text("target"))
        })
        .collect();
    let human = if next.is_empty() {
        format!("{operation}: no fault waits for the next requests\n")
    } else {
        format!(
            "{operation}: the next {} request(s): {}\n",
            next.len(),
            escape(&next.join("; "))
        )
    };
    Report::local_text(operation, human, answer)
}

fn books(answer: Value) -> Report {
    let count = |name: &str| field(&answer, name).as_array().map_or(0, Vec::len);
    let mut human = format!(
        "books: {} payment(s), {} registration(s), {} customer(s), {} invoice(s)\n",
        count("payments"),
        count("registrations"),
        count("customers"),
        count("invoices")
    );
    for payment in field(&answer, "payments").as_array().into_iter().flatten() {
        let text = |name: &str| escape(field(payment, name).as_str().unwrap_or("-")).into_owned();
        let _ = writeln!(
            human,
            "  payment {} {} {} {} {} {} (refunded {}{})",
            text("paymentId"),
            text("paymentType"),
            text("amount"),
            text("currency"),
            text("transactionStatus"),
            text("status"),
            text("refunded"),
            field(payment, "captured")
                .as_str()
                .map_or_else(String::new, |captured| format!(
                    ", captured {}",
                    escape(captured)
                )),
        );
    }
    Report::local_text("books", human, answer)
}

/// A JSON object's field, null when absent (the console's answers are read, not trusted).
fn field<'v>(value: &'v Value, name: &str) -> &'v Value {
    value.get(name).unwrap_or(&Value::Null)
}

/// `--by` of `clock advance`: whole seconds, minutes, hours or days (`90s`, `15m`, `2h`,
/// `3d`), above zero.
fn seconds(text: &str) -> Result<u64, Failure> {
    let invalid = || Failure::usage("clock advance: a duration such as 90s, 15m, 2h or 3d");
    let (digits, unit) = text.split_at(text.len().saturating_sub(1));
    let each = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => return Err(invalid()),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid());
    }
    digits
        .parse::<u64>()
        .ok()
        .and_then(|count| count.checked_mul(each))
        .filter(|seconds| *seconds > 0)
        .ok_or_else(invalid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advances_are_whole_units_above_zero() {
        assert_eq!(seconds("90s").ok(), Some(90));
        assert_eq!(seconds("15m").ok(), Some(900));
        assert_eq!(seconds("2h").ok(), Some(7200));
        assert_eq!(seconds("3d").ok(), Some(259_200));
        for bad in [
            "",
            "s",
            "0s",
            "1.5h",
            "-1d",
            "2w",
            "h2",
            "99999999999999999999d",
        ] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
    }
}
