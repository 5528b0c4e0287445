//! `paytoken conform --client "CMD"`: scores a client of the interface, in any language,
//! against the conformance kit built into the command. The client runs as a child process
//! and speaks protocol [`PROTOCOL`] on its stdin and stdout, one JSON object a line
//! (`client.rs`): a handshake, then one message a vector (`judge.rs`: sign, build, decide,
//! verify, check), each answered with the vector's `id`, or `unsupported`. The vectors run
//! are those asked for (`select.rs`); the score is given per group, per source and per
//! level, and the run passes when every `must` vector passes but those `--expect` lists (a
//! negative vector the client does not check, `unsupported`, is skipped without failing).

mod client;
mod http;
mod judge;
mod lost;
mod reaper;
mod select;
mod shown;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use serde_json::{Map, Value, json};

use crate::cli::ConformArgs;
use crate::report::{Failure, Outcome, Report};
use crate::terminal::escape;
use crate::vectors::FILES;
use client::{Client, Reply};
use select::Selection;

/// The version of the protocol the harness speaks.
pub(crate) const PROTOCOL: u64 = 1;

/// The value at the JSON pointer `path` in `value`, or `null`: what the vectors and the
/// client's answers hold is read without indexing that could panic.
pub(crate) fn at<'v>(value: &'v Value, path: &str) -> &'v Value {
    static NULL: Value = Value::Null;
    value.pointer(path).unwrap_or(&NULL)
}

/// How many failures the readable report lists.
const SHOWN_FAILURES: usize = 20;

/// Passed, failed and skipped vectors.
#[derive(Debug, Default, Clone, Copy)]
struct Count {
    passed: u64,
    failed: u64,
    skipped: u64,
}

impl Count {
    fn json(self) -> Value {
        json!({ "passed": self.passed, "failed": self.failed, "skipped": self.skipped })
    }
}

/// What became of one vector.
enum Verdict {
    Passed,
    Failed(String),
    Skipped,
}

#[derive(Default)]
struct Score {
    total: Count,
    groups: BTreeMap<&'static str, Count>,
    sources: BTreeMap<String, Count>,
    levels: BTreeMap<String, Count>,
    /// Each failure: the vector's id, why, and whether it was expected (`--expect`).
    failures: Vec<(String, String, bool)>,
    /// Vectors expected to fail that passed.
    unexpected_passes: Vec<String>,
    /// `must` vectors failed or skipped, but for expected failures.
    must_missed: u64,
}

impl Score {
    fn add(&mut self, group: &'static str, vector: &Value, verdict: Verdict, expected: bool) {
        let source = at(vector, "/source/kind").as_str().unwrap_or("").to_owned();
        let level = at(vector, "/level").as_str().unwrap_or("").to_owned();
        let counts = [
            &mut self.total,
            self.groups.entry(group).or_default(),
            self.sources.entry(source).or_default(),
            self.levels.entry(level.clone()).or_default(),
        ];
        for count in counts {
            match &verdict {
                Verdict::Passed => count.passed += 1,
                Verdict::Failed(_) => count.failed += 1,
                Verdict::Skipped => count.skipped += 1,
            }
        }
        let id = at(vector, "/id").as_str().unwrap_or("").to_owned();
        match verdict {
            Verdict::Passed if expected => self.unexpected_passes.push(id),
            Verdict::Passed => {}
            Verdict::Failed(reason) => {
                self.must_missed += u64::from(level == "must" && !expected);
                self.failures.push((id, reason, expected));
            }
            Verdict::Skipped => {
                let missed = level == "must" && !expected && group != judge::NEGATIVE;
                self.must_missed += u64::from(missed);
            }
        }
    }
}

/// Every vector of the kit, with its group; with `--http`, its scenarios instead.
fn vectors(http: bool) -> Result<Vec<(&'static str, Value)>, Failure> {
    let mut all = Vec::new();
    let groups: &[(&'static str, &str)] = if http {
        &[http::SCENARIOS]
    } else {
        &judge::GROUPS
    };
    for &(group, file) in groups {
        let text = FILES
            .iter()
            .find(|(name, _)| *name == file)
            .map(|(_, text)| *text)
            .ok_or_else(|| Failure::failed(format!("the kit has no {file}")))?;
        let parsed: Value = serde_json::from_str(text)
            .map_err(|error| Failure::failed(format!("the kit's {file}: {error}")))?;
        if http {
            let scenarios = at(&parsed, "/scenarios")
                .as_array()
                .map_or(&[][..], Vec::as_slice);
            all.extend(
                lost::expand(&parsed, scenarios)
                    .into_iter()
                    .map(|run| (group, run)),
            );
            continue;
        }
        for vector in at(&parsed, "/vectors").as_array().into_iter().flatten() {
            all.push((group, vector.clone()));
        }
    }
    Ok(all)
}

/// The callers the vectors sign as, each once: the handshake hands them over.
fn credentials(vectors: &[(&str, Value)]) -> Vec<Value> {
    let mut callers: Vec<Value> = Vec::new();
    for (group, vector) in vectors {
        let caller = match *group {
            "checksum" => json!({
                "kind": at(vector, "/credentials"),
                "id": at(vector, "/callerId"),
                "secureKey": at(vector, "/secureKey"),
            }),
            "request" | judge::NEGATIVE => json!({
                "kind": at(vector, "/caller/kind"),
                "id": at(vector, "/caller/id"),
                "secureKey": at(vector, "/caller/secureKey"),
            }),
            _ => continue,
        };
        if !callers.contains(&caller) {
            callers.push(caller);
        }
    }
    callers
}

/// `paytoken conform`.
pub(crate) fn run(args: &ConformArgs) -> Result<Report, Failure> {
    if args.message_timeout.is_zero() {
        return Err(Failure::usage("--message-timeout: must be more than zero"));
    }
    let mut vectors = vectors(args.http)?;
    let selection = Selection::of(args, &vectors)?;
    vectors.retain(|(group, vector)| selection.takes(group, vector));
    for (_, vector) in &mut vectors {
        selection.leave_open(vector);
    }
    // With --http, the sandbox the scenarios run against, in this process.
    let same_order_safe = selection.takes_source("sandbox-choice");
    let http = args
        .http
        .then(|| http::Http::start(same_order_safe))
        .transpose()?;
    // What the client leaves behind becomes ours to end (Linux).
    reaper::adopt();
    let mut client = Client::start(&args.client, args.message_timeout)
        .map_err(|reason| Failure::usage(format!("--client: {reason}")))?;
    let kit = kit_version();
    let hello = match &http {
        Some(http) => http.hello(PROTOCOL, &kit),
        None => json!({
            "type": "hello",
            "protocol": PROTOCOL,
            "kit": kit,
            "credentials": credentials(&vectors),
        }),
    };
    let (greeting, mut protocol_error) = match client.ask(&hello) {
        Reply::Answer(answer)
            if at(&answer, "/type") == "hello" && at(&answer, "/protocol") == PROTOCOL =>
        {
            (answer, None)
        }
        Reply::Answer(answer) => (
            Value::Null,
            Some(format!(
                "the client's handshake is not protocol {PROTOCOL}'s hello: {}",
                escape(&answer.to_string())
            )),
        ),
        Reply::Broken(reason) => (Value::Null, Some(format!("handshake: {reason}"))),
    };
    let name = at(&greeting, "/name").as_str().unwrap_or("").to_owned();
    let mut score = Score::default();
    for (group, vector) in &vectors {
        let id = at(vector, "/id");
        let verdict = if protocol_error.is_some() {
            Verdict::Failed("not run: the client broke the protocol".to_owned())
        } else if let Some(http) = &http {
            http.run(vector, &greeting, |message| {
                exchange(&mut client, message, id, &mut protocol_error)
            })
        } else {
            let message = judge::message(group, vector);
            match exchange(&mut client, &message, id, &mut protocol_error) {
                Ok(answer) => match judge::judge(group, vector, &answer) {
                    Ok(()) => Verdict::Passed,
                    Err(reason) => Verdict::Failed(reason),
                },
                Err(verdict) => verdict,
            }
        };
        let expected = selection.expects_failure(at(vector, "/id").as_str().unwrap_or_default());
        score.add(group, vector, verdict, expected);
    }
    if protocol_error.is_none() {
        client.finish();
    }
    if let Some(http) = http {
        http.finish();
    }
    Ok(report(&name, &kit, &score, protocol_error.as_deref()))
}

/// Asks `message` of the client for the vector (or scenario) `id`: its answer, or the
/// verdict the exchange decides by itself (skipped, or failed; a broken protocol is kept in
/// `protocol_error`, which ends the run).
fn exchange(
    client: &mut Client,
    message: &Value,
    id: &Value,
    protocol_error: &mut Option<String>,
) -> Result<Value, Verdict> {
    match client.ask(message) {
        Reply::Answer(answer) if at(&answer, "/id") != id => {
            *protocol_error = Some(format!(
                "the client answered {} when asked {id}",
                escape(&at(&answer, "/id").to_string()),
            ));
            Err(Verdict::Failed("answered for another vector".to_owned()))
        }
        Reply::Answer(answer) if at(&answer, "/unsupported") == true => Err(Verdict::Skipped),
        Reply::Answer(answer) => Ok(answer),
        Reply::Broken(reason) => {
            *protocol_error = Some(format!("{id}: {reason}"));
            Err(Verdict::Failed(reason))
        }
    }
}

/// The kit's version, as its rule table holds it.
fn kit_version() -> Value {
    at(kit_rules(), "/kit/version").clone()
}

/// The kit's table of checksum rules (`checksum-rules.json`), read once; `null` if the
/// built-in file were not JSON, which a test of the kit rules out.
pub(crate) fn kit_rules() -> &'static Value {
    static RULES: OnceLock<Value> = OnceLock::new();
    RULES.get_or_init(|| {
        FILES
            .iter()
            .find(|(name, _)| *name == "checksum-rules.json")
            .and_then(|(_, text)| serde_json::from_str(text).ok())
            .unwrap_or_default()
    })
}

fn counts<K: AsRef<str>>(counts: &BTreeMap<K, Count>) -> Value {
    Value::Object(
        counts
            .iter()
            .map(|(name, count)| (name.as_ref().to_owned(), count.json()))
            .collect::<Map<String, Value>>(),
    )
}

fn report(name: &str, kit: &Value, score: &Score, protocol_error: Option<&str>) -> Report {
    let outcome = if protocol_error.is_some() {
        Outcome::ProtocolError
    } else if score.must_missed > 0 {
        Outcome::ChecksFailed
    } else {
        Outcome::Ok
    };
    let total = score.total;
    let all = total.passed + total.failed + total.skipped;
    let what = if score.groups.contains_key(http::SCENARIOS.0) {
        "scenarios"
    } else {
        "vectors"
    };
    let mut human = format!(
        "conform: {}: {} of {all} {what} passed ({} failed, {} skipped)\n",
        if name.is_empty() {
            "the client".into()
        } else {
            escape(name)
        },
        total.passed,
        total.failed,
        total.skipped
    );
    for (title, table) in [
        ("group", counts(&score.groups)),
        ("source", counts(&score.sources)),
        ("level", counts(&score.levels)),
    ] {
        for (key, count) in table.as_object().into_iter().flatten() {
            let _ = writeln!(
                human,
                "  {title:<6} {key:<18} {:>4} passed {:>4} failed {:>4} skipped",
                at(count, "/passed"),
                at(count, "/failed"),
                at(count, "/skipped")
            );
        }
    }
    if let Some(reason) = protocol_error {
        let _ = writeln!(human, "protocol error: {}", escape(reason));
    }
    for (id, reason, expected) in score.failures.iter().take(SHOWN_FAILURES) {
        let failed = if *expected {
            "FAILED (expected)"
        } else {
            "FAILED"
        };
        let _ = writeln!(human, "  {failed} {id}: {}", escape(reason));
    }
    for id in &score.unexpected_passes {
        let _ = writeln!(human, "  PASSED (expected to fail) {id}");
    }
    if score.failures.len() > SHOWN_FAILURES {
        let _ = writeln!(
            human,
            "  ... and {} more (--json lists every one)",
            score.failures.len() - SHOWN_FAILURES
        );
    }
    if score.must_missed > 0 {
        let _ = writeln!(
            human,
            "{} must vector(s) failed or skipped",
            score.must_missed
        );
    }
    let json = json!({
        "client": name,
        "protocol": PROTOCOL,
        "kit": kit,
        "passed": total.passed,
        "failed": total.failed,
        "skipped": total.skipped,
        "groups": counts(&score.groups),
        "sources": counts(&score.sources),
        "levels": counts(&score.levels),
        "failures": score
            .failures
            .iter()
            .map(|(id, reason, expected)| json!({ "id": id, "reason": reason, "expected": expected }))
            .collect::<Vec<_>>(),
        "unexpectedPasses": score.unexpected_passes,
        "protocolError": protocol_error,
    });
    Report::checked("conform", outcome, human, json)
}
