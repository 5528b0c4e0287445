//! `paytoken demo`: the whole tokenization life cycle through the real client, over real
//! HTTP, against a sandbox started in this process. The steps are the script of
//! [`crate::life_cycle`]; this module starts the sandbox and prints one block per step,
//! secrets masked.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use paytoken::ops::auth_token::FetchAuthToken;
use paytoken::{Client, SecureKey};
use paytoken_sandbox::Sandbox;
use serde_json::{Value, json};

use crate::answers_like;
use crate::cli::DemoArgs;
use crate::life_cycle::{self, LifeCycle};
use crate::report::{Exit, Failure, Outcome, Report};
use crate::terminal;

/// The fields that are counts: numbers in the JSON, as everywhere in it.
const COUNTS: &[&str] = &["cards", "active", "invoices"];

/// A step's field in the JSON: counts (and the installment counts, `3, 4`) as numbers,
/// everything else as the text shown.
fn field_json(name: &str, value: &str) -> Value {
    let count = |text: &str| text.trim().parse::<u64>().ok().map(Value::from);
    let counted = if COUNTS.contains(&name) {
        count(value)
    } else if name == "installments" {
        value
            .split(',')
            .map(count)
            .collect::<Option<Vec<Value>>>()
            .map(Value::from)
    } else {
        None
    };
    counted.unwrap_or_else(|| value.into())
}

/// A client for the sandbox's first merchant, fetching its own auth token, as
/// `paytoken::sandbox` makes one; the request of the step that fetches one on request; the
/// merchant's secure key.
fn client_for(sandbox: &Sandbox) -> Result<(Client, FetchAuthToken, SecureKey), Failure> {
    let no_merchant = || Failure::failed("the sandbox has no merchant");
    let (builder, key) = paytoken::sandbox::client_builder(sandbox).ok_or_else(no_merchant)?;
    let partner = sandbox.config().partners.first().ok_or_else(no_merchant)?;
    let merchant = partner.merchants.first().ok_or_else(no_merchant)?;
    let fetch = FetchAuthToken::new(partner.partner_id, merchant.username.clone());
    let client = builder
        .build()
        .map_err(|error| Failure::failed(error.to_string()))?;
    Ok((client, fetch, key))
}

/// Runs the demo: starts a sandbox, runs the life-cycle script against it and reports its
/// steps.
pub(crate) async fn run(args: &DemoArgs) -> Result<Report, Failure> {
    let started = Instant::now();
    let mut sandbox = Sandbox::builder();
    if let Some(seed) = args.vary_answers {
        sandbox = sandbox.vary_answers(seed);
    }
    if let Some(cassette) = &args.answers_like {
        sandbox = sandbox.answers_like(&answers_like::learn(cassette)?.shapes);
    }
    let sandbox = sandbox
        .start()
        .await
        .map_err(|error| Failure::failed(format!("cannot start the sandbox: {error}")))?;
    let (client, fetch, key) = client_for(&sandbox)?;
    let run = life_cycle::run(&client, fetch, Some(key)).await;
    let base_url = sandbox.base_url().to_owned();
    sandbox.shutdown().await;
    Ok(transcript(&base_url, &run, started.elapsed()))
}

/// Microseconds, for the JSON (an integer: no float in a report).
fn micros(elapsed: Duration) -> u64 {
    u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX)
}

/// Milliseconds with one decimal, for people.
fn millis(elapsed: Duration) -> String {
    let tenths = micros(elapsed).saturating_add(50) / 100;
    format!("{}.{}", tenths / 10, tenths % 10)
}

fn transcript(base_url: &str, run: &LifeCycle, total: Duration) -> Report {
    let steps = &run.steps;
    let passed = steps.iter().filter(|s| s.shown.ok).count();
    let all_ok = run.all_ok();
    let mut human =
        format!("paytoken demo: the tokenization life cycle against a sandbox at {base_url}\n\n");
    let mut json_steps = Vec::new();
    for (index, step) in steps.iter().enumerate() {
        let shown = &step.shown;
        let mark = if shown.ok { "ok" } else { "FAILED" };
        // The gateway's words, on one line each, their control characters shown.
        let description: String = terminal::escape(&shown.description)
            .chars()
            .take(36)
            .collect();
        let _ = writeln!(
            human,
            "{:>2}. {:<41} {:>6}  {:<36} {:>6} ms  {mark}",
            index + 1,
            step.name,
            terminal::escape(&shown.code),
            description,
            millis(step.elapsed)
        );
        for (name, value) in &shown.fields {
            let _ = writeln!(human, "      {name}: {}", terminal::escape(value));
        }
        let fields: serde_json::Map<String, Value> = shown
            .fields
            .iter()
            .map(|(name, value)| ((*name).to_owned(), field_json(name, value)))
            .collect();
        json_steps.push(json!({
            "step": index + 1,
            "name": step.name,
            "operation": step.operation,
            "ok": shown.ok,
            "result": { "code": shown.code, "description": shown.description },
            "elapsedUs": micros(step.elapsed),
            "fields": fields,
        }));
    }
    let summary = format!(
        "{passed} of {} steps did what they should, in {} ms",
        steps.len(),
        millis(total)
    );
    let _ = writeln!(human, "\n{summary}");
    let exit = if all_ok { Exit::Success } else { Exit::Failed };
    Report {
        exit,
        json: json!({
            "outcome": if all_ok { Outcome::Ok } else { Outcome::Contradiction }.name(),
            "baseUrl": base_url,
            "steps": json_steps,
            "summary": { "steps": steps.len(), "ok": passed, "elapsedUs": micros(total) },
        }),
        human,
        error_line: (!all_ok).then_some(summary),
    }
}
