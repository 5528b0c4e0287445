//! `--answers-like CASSETTE`, over real sockets: the demo's life cycle is recorded from a
//! sandbox that varies its answers (seed 7); a sandbox that answers like that cassette
//! passes the demo, and its answers, recorded the same way, hold every incidental field in
//! the shape the cassette shows most often (computed here, from `serde_json` values, apart
//! from the sandbox's learner), the same in two runs; and none of the cassette's values
//! reaches an answer.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use paytoken::Client;
use paytoken::ops::auth_token::FetchAuthToken;
use paytoken::types::CodeFamily;
use paytoken_sandbox::{DEFAULT_MERCHANT_ID, Sandbox, SandboxConfig};
use serde_json::{Map, Value};

use crate::common::fresh_folder;
use crate::common::{paytoken, sandbox_process, schema_of};
use crate::record::record;

/// Names a sandbox answering like a deployment never takes from it: what decides (the
/// test's own list, as the issue names them, not the sandbox's).
const FIXED: &[&str] = &[
    "paymentid",
    "result",
    "statusinvoiceresult",
    "transactionstatus",
    "registrationid",
    "customerid",
    "authtoken",
    "installment",
    "installments",
    "redirect",
    "merchanttransactionid",
    "orderid",
    "checksum",
];
const AMOUNTS: &[&str] = &["amount", "tmpl_amount"];
const CODES: &[&str] = &[
    "currency",
    "tmpl_currency",
    "paymentType",
    "paymentBrand",
    "paymentMode",
    "status",
    "registrationStatus",
];
const TIMES: &[&str] = &["timestamp", "createdDate"];
/// Echoed or read back: only equivalent forms, never added or taken away.
fn echoed(name: &str) -> bool {
    AMOUNTS.contains(&name)
        || CODES.contains(&name)
        || ["expiryMonth", "expiryYear", "memberId", "partnerId"].contains(&name)
}

const CONTAINERS: &[&str] = &[
    "card",
    "cards",
    "bankaccounts",
    "bankaccount",
    "invoiceList",
    "customerDetails",
    "invoiceDetails",
    "#",
];

fn fixed(name: &str) -> bool {
    FIXED.contains(&name.to_ascii_lowercase().as_str())
}

/// A field's shape by the rule: its JSON type, and for text the format its field
/// has (decimals of an amount, case of a code, digits of an expiry, pattern of a time).
fn shape_of(name: &str, value: &Value) -> String {
    let text = match value {
        Value::Null => return "null".into(),
        Value::Bool(_) => return "bool".into(),
        Value::Number(_) => return "number".into(),
        Value::Array(_) => return "list".into(),
        Value::Object(_) => return "object".into(),
        Value::String(text) => text.as_str(),
    };
    if text == "[redacted]" || text == "[personal]" {
        return "hidden".into();
    }
    if text.is_empty() {
        return "empty".into();
    }
    let all_digits = |part: &str| part.chars().all(|c| c.is_ascii_digit());
    if AMOUNTS.contains(&name) {
        let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
        if !whole.is_empty() && all_digits(whole) && all_digits(fraction) {
            return format!("decimals {}", fraction.len());
        }
    } else if CODES.contains(&name) {
        let upper = text.chars().any(|c| c.is_ascii_uppercase());
        let lower = text.chars().any(|c| c.is_ascii_lowercase());
        return match (upper, lower) {
            (true, false) => "upper",
            (false, true) => "lower",
            _ => "mixed",
        }
        .into();
    } else if (name == "expiryMonth" || name == "expiryYear") && all_digits(text) {
        return format!("digits {}", text.len());
    } else if TIMES.contains(&name) && text.chars().any(|c| c.is_ascii_digit()) {
        let pattern: String = text
            .chars()
            .map(|c| if c.is_ascii_digit() { '9' } else { c })
            .collect();
        return format!("pattern {pattern}");
    }
    "text".into()
}

/// A member's name in a path: position labels (`"0 "`) are one.
fn label(name: &str) -> String {
    let trimmed = name.trim();
    if !trimmed.is_empty() && trimmed.chars().all(|c| c.is_ascii_digit()) {
        "#".into()
    } else {
        name.into()
    }
}

/// The group of an answer: its operation and its result code's family (by name).
type Group = (String, Option<String>);

fn group_of(operation: &str, body: &Value) -> Group {
    let code = ["result", "statusInvoiceResult"]
        .iter()
        .find_map(|key| body.get(key)?.get("code")?.as_str().map(str::to_owned));
    let family = code.map(|code| format!("{:?}", CodeFamily::of(&code)));
    (operation.to_owned(), family)
}

/// Each shape of one path (`None`: absent), how often, and when first.
type Tally = BTreeMap<Option<String>, (u64, u64)>;

/// Every field of every answer, read from the top: (group, path, the shape or `None` when
/// the object there lacks a field seen there elsewhere in the group, when).
#[derive(Default)]
struct Reading {
    seen: u64,
    fields: Vec<(Group, String, Option<String>, u64)>,
    /// Each object: its group, path, members and when it was seen.
    objects: Vec<(Group, String, BTreeSet<String>, u64)>,
}

impl Reading {
    fn answer(&mut self, operation: &str, body: &Value) {
        let group = group_of(operation, body);
        self.seen += 1;
        let at = self.seen;
        self.object(&group, "", body.as_object().unwrap(), at);
    }

    fn object(&mut self, group: &Group, path: &str, members: &Map<String, Value>, at: u64) {
        let mut names = BTreeSet::new();
        for (name, value) in members {
            if fixed(name) {
                continue;
            }
            let here = format!("{path}/{}", label(name));
            names.insert(label(name));
            self.value(group, &here, name, value);
        }
        self.objects
            .push((group.clone(), path.to_owned(), names, at));
    }

    fn value(&mut self, group: &Group, path: &str, name: &str, value: &Value) {
        self.seen += 1;
        let at = self.seen;
        self.fields.push((
            group.clone(),
            path.to_owned(),
            Some(shape_of(name, value)),
            at,
        ));
        match value {
            Value::Object(members) => self.object(group, path, members, at),
            Value::Array(items) => {
                for item in items {
                    self.value(group, &format!("{path}[]"), name, item);
                }
            }
            _ => {}
        }
    }

    /// The winning shape of every path: the most frequent, absence included; a tie goes to
    /// the one seen first.
    fn winners(&self) -> BTreeMap<(Group, String), Option<String>> {
        let mut votes: BTreeMap<(Group, String), Tally> = BTreeMap::new();
        let mut vote = |group: &Group, path: &str, shape: Option<String>, at: u64| {
            let entry = votes
                .entry((group.clone(), path.to_owned()))
                .or_default()
                .entry(shape)
                .or_insert((0, at));
            entry.0 += 1;
            entry.1 = entry.1.min(at);
        };
        for (group, path, shape, at) in &self.fields {
            vote(group, path, shape.clone(), *at);
        }
        // The names seen in each group's objects at each path.
        let mut known: BTreeMap<(Group, String), BTreeSet<String>> = BTreeMap::new();
        for (group, path, names, _) in &self.objects {
            known
                .entry((group.clone(), path.clone()))
                .or_default()
                .extend(names.iter().cloned());
        }
        for (group, path, names, at) in &self.objects {
            for name in &known[&(group.clone(), path.clone())] {
                if !names.contains(name) {
                    vote(group, &format!("{path}/{name}"), None, *at);
                }
            }
        }
        votes
            .into_iter()
            .map(|(key, shapes)| {
                let winner = shapes
                    .into_iter()
                    .min_by_key(|(_, (count, at))| (std::cmp::Reverse(*count), *at))
                    .unwrap()
                    .0;
                (key, winner)
            })
            .collect()
    }
}

/// The answers of a cassette: (operation, body).
fn answers(cassette: &Path) -> Vec<(String, Value)> {
    std::fs::read_to_string(cassette)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|line| line["answer"]["body"].is_object())
        .map(|line| {
            (
                line["operation"].as_str().unwrap().to_owned(),
                line["answer"]["body"].clone(),
            )
        })
        .collect()
}

fn reading(answers: &[(String, Value)]) -> Reading {
    let mut reading = Reading::default();
    for (operation, body) in answers {
        reading.answer(operation, body);
    }
    reading
}

/// Runs the demo's life cycle against `upstream` through `paytoken record`, into
/// `cassette`: the sandbox there is one of the default config.
async fn recorded_life_cycle(upstream: &str, cassette: &Path) -> Vec<(String, Value)> {
    let (recorder, proxy) = record(upstream, cassette, &["--keep-personal-data"]).await;
    let config = SandboxConfig::default();
    let merchant = config.merchant(DEFAULT_MERCHANT_ID).unwrap();
    let partner_id = config.partners[0].partner_id;
    let mut builder = Client::builder()
        .base_url(&proxy)
        .allow_http(true)
        .credentials(merchant.credentials())
        .fetch_auth_token(partner_id, merchant.username.clone());
    if let Some(account) = merchant.account_id {
        builder = builder.account_id(account);
    }
    if let Some(terminal) = merchant.terminal_id {
        builder = builder.terminal_id(terminal);
    }
    let client = builder.build().unwrap();
    let fetch = FetchAuthToken::new(partner_id, merchant.username.clone());
    let run =
        paytoken_cli::life_cycle::run(&client, fetch, Some(merchant.secure_key.clone())).await;
    assert!(run.all_ok(), "{:#?}", run.steps);
    drop(recorder);
    answers(cassette)
}

/// Runs the life cycle against `paytoken sandbox --answers-like CASSETTE`, recorded.
async fn answering_like(cassette: &Path, recorded: &Path) -> Vec<(String, Value)> {
    let (mut sandbox, line) =
        sandbox_process(&["--answers-like", cassette.to_str().unwrap()]).await;
    let announced: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
    assert_eq!(
        schema_of("sandbox").errors(&announced),
        Vec::<String>::new()
    );
    let operations = announced["answersLike"]["operations"].as_object().unwrap();
    assert_eq!(
        operations["pay"],
        answers(cassette)
            .iter()
            .filter(|(op, _)| op == "pay")
            .count()
    );
    let answers = recorded_life_cycle(announced["baseUrl"].as_str().unwrap(), recorded).await;
    let _ = sandbox.kill();
    let _ = sandbox.wait();
    answers
}

/// Whether an echoed `value` (text) cannot take the `wanted` form without changing: an
/// amount needs more decimals, a month or year more digits.
fn cannot_take(name: &str, value: &Value, wanted: &str) -> bool {
    let Some(text) = value.as_str() else {
        return false;
    };
    if let (Some(places), Some((_, fraction))) =
        (wanted.strip_prefix("decimals "), text.split_once('.'))
    {
        return fraction.trim_end_matches('0').len() > places.parse().unwrap();
    }
    match (name, wanted) {
        ("expiryMonth", "digits 1") => text.trim_start_matches('0').len() > 1,
        _ => false,
    }
}

/// Checks every field of `actual` (answers of a sandbox answering like the cassette) by
/// the cassette's winners; gives how many fields were checked.
fn check_fields(winners: &BTreeMap<(Group, String), Option<String>>, actual: &Reading) -> usize {
    let learned_groups: BTreeSet<&Group> = winners.keys().map(|(group, _)| group).collect();
    let mut checked = 0;
    // Present fields: the winning shape, or an echo that cannot take it.
    for (group, path, shape, _) in &actual.fields {
        if !learned_groups.contains(group) {
            continue;
        }
        let name = path.rsplit('/').next().unwrap().trim_end_matches("[]");
        let Some(winner) = winners.get(&(group.clone(), path.clone())) else {
            // Never seen in the cassette: only the sandbox's own, unnamed or echoed fields
            // stay (an informational one must go).
            assert!(
                !is_informational(name),
                "{group:?} {path}: {shape:?} never sent by the deployment"
            );
            continue;
        };
        checked += 1;
        match winner {
            None => assert!(
                !is_informational(name),
                "{group:?} {path}: {shape:?} where the deployment sends none"
            ),
            Some(winner) if winner == "hidden" => {}
            Some(winner) => {
                let several = shape.as_deref() == Some("list") && winner == "object";
                assert!(
                    shape.as_ref() == Some(winner) || several || echoed(name),
                    "{group:?} {path}: {shape:?}, the deployment's is {winner}"
                );
            }
        }
    }
    // Fields the deployment sends: present in every object there, unless echoed,
    // containers or hidden (never added).
    for (group, path, names, _) in &actual.objects {
        for ((winner_group, winner_path), winner) in winners {
            let Some((parent, name)) = winner_path.rsplit_once('/') else {
                continue;
            };
            if winner_group != group || parent != path || winner.is_none() || name.ends_with("[]") {
                continue;
            }
            let added =
                !echoed(name) && !CONTAINERS.contains(&name) && winner.as_deref() != Some("hidden");
            assert!(
                !added || names.contains(name),
                "{group:?} {path}: lacks {name}, which the deployment sends as {winner:?}"
            );
        }
    }
    checked
}

fn is_informational(name: &str) -> bool {
    !fixed(name) && !echoed(name) && !CONTAINERS.contains(&name) && {
        // The sandbox's own fields that name nothing of its own kinds are left as they are;
        // the informational ones it names:
        [
            "descriptor",
            "remark",
            "holder",
            "LoginName",
            "cardType",
            "invoiceStatus",
            "expirationPeriod",
            "systemInvoiceId",
            "transactionUrl",
            "raiseby",
            "orderDescription",
            "trackingid",
            "dtstamp",
            "customername",
            "customeraddress",
            "customermobileno",
            "customeremail",
            "timestamp",
            "createdDate",
        ]
        .contains(&name)
    }
}

/// Echoed fields in `actual` keep the learned form where they can: checked apart, since an
/// echo that cannot take it keeps its own.
fn check_echoes(winners: &BTreeMap<(Group, String), Option<String>>, answers: &[(String, Value)]) {
    fn walk(
        winners: &BTreeMap<(Group, String), Option<String>>,
        group: &Group,
        path: &str,
        value: &Value,
    ) {
        let Value::Object(members) = value else {
            if let Value::Array(items) = value {
                for item in items {
                    walk(winners, group, &format!("{path}[]"), item);
                }
            }
            return;
        };
        for (name, member) in members {
            if fixed(name) {
                continue;
            }
            let here = format!("{path}/{}", label(name));
            if echoed(name)
                && let Some(Some(winner)) = winners.get(&(group.clone(), here.clone()))
            {
                let shape = shape_of(name, member);
                let text_form = winner.starts_with("decimals")
                    || winner.starts_with("digits")
                    || matches!(winner.as_str(), "upper" | "lower" | "number");
                assert!(
                    !text_form || shape == *winner || cannot_take(name, member, winner),
                    "{group:?} {here}: {member} is not {winner}"
                );
            }
            walk(winners, group, &here, member);
        }
    }
    for (operation, body) in answers {
        walk(winners, &group_of(operation, body), "", body);
    }
}

/// Every answer's fields and shapes, in order: what two runs must share.
fn shapes(answers: &[(String, Value)]) -> Vec<(Group, String, Option<String>)> {
    reading(answers)
        .fields
        .into_iter()
        .map(|(group, path, shape, _)| (group, path, shape))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sandbox_answers_in_the_shapes_of_a_cassette_and_never_in_its_values() {
    let folder = fresh_folder("answers-like");
    let cassette = folder.join("varied.jsonl");
    let varied = Sandbox::builder().vary_answers(7).start().await.unwrap();
    let recorded = recorded_life_cycle(varied.base_url(), &cassette).await;
    varied.shutdown().await;
    let winners = reading(&recorded).winners();

    // The demo passes against it.
    let demo = paytoken(
        &[
            "--json",
            "demo",
            "--answers-like",
            cassette.to_str().unwrap(),
        ],
        &[],
    )
    .await;
    assert_eq!(demo.code, 0, "{}{}", demo.stdout, demo.stderr);
    assert_eq!(demo.json()["outcome"], "ok");

    // Field by field, in two runs that agree.
    let first = answering_like(&cassette, &folder.join("first.jsonl")).await;
    let second = answering_like(&cassette, &folder.join("second.jsonl")).await;
    let checked = check_fields(&winners, &reading(&first));
    assert!(checked > 200, "{checked} fields checked");
    check_echoes(&winners, &first);
    assert_same_shapes(&first, &second);
    // The sandbox's own shapes are not the cassette's: the learning shows.
    let own = Sandbox::builder().start().await.unwrap();
    let plain = recorded_life_cycle(own.base_url(), &folder.join("own.jsonl")).await;
    own.shutdown().await;
    assert_ne!(shapes(&plain), shapes(&first));

    // The same cassette with every letter of every text changed (shapes kept): the same
    // shapes, and none of its values.
    let marked: String = std::fs::read_to_string(&cassette)
        .unwrap()
        .lines()
        .map(|line| {
            let mut line: Value = serde_json::from_str(line).unwrap();
            mark(&mut line["answer"]["body"]);
            format!("{line}\n")
        })
        .collect();
    let marked_cassette = folder.join("marked.jsonl");
    std::fs::write(&marked_cassette, marked).unwrap();
    let like_marked = answering_like(&marked_cassette, &folder.join("like-marked.jsonl")).await;
    assert_same_shapes(&like_marked, &first);
    let written = std::fs::read_to_string(folder.join("like-marked.jsonl")).unwrap();
    for line in written.lines() {
        let line: Value = serde_json::from_str(line).unwrap();
        let body = line["answer"]["body"].to_string();
        assert!(
            !body.contains("qqq") && !body.contains("QQQ") && !body.contains("Qqq"),
            "a recorded value reached an answer: {body}"
        );
        assert!(!body.contains(MARKED_NUMBER), "{body}");
    }
    let _ = std::fs::remove_dir_all(&folder);
}

/// What every number of the marked cassette becomes.
const MARKED_NUMBER: &str = "987654321";

/// Every letter of every text `q` (of its case), every number [`MARKED_NUMBER`]; hidden
/// values and times (whose letters are their pattern's) as they are.
fn mark(value: &mut Value) {
    match value {
        Value::String(text) if text != "[redacted]" && text != "[personal]" => {
            *text = text
                .chars()
                .map(|c| match c {
                    'a'..='z' => 'q',
                    'A'..='Z' => 'Q',
                    other => other,
                })
                .collect();
        }
        Value::Number(_) => *value = MARKED_NUMBER.parse().unwrap(),
        Value::Array(items) => items.iter_mut().for_each(mark),
        Value::Object(members) => members
            .iter_mut()
            .filter(|(name, _)| !TIMES.contains(&name.as_str()))
            .for_each(|(_, member)| mark(member)),
        _ => {}
    }
}

/// Two runs' shapes are the same, or the first difference is shown.
fn assert_same_shapes(left: &[(String, Value)], right: &[(String, Value)]) {
    let (left, right) = (shapes(left), shapes(right));
    let first = left.iter().zip(&right).position(|(l, r)| l != r);
    assert!(
        first.is_none() && left.len() == right.len(),
        "{} and {} fields; first difference: {:?}",
        left.len(),
        right.len(),
        first.map(|at| (&left[at], &right[at]))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cassette_with_no_answer_to_learn_from_is_refused_before_anything_starts() {
    let folder = fresh_folder("answers-like-refused");
    let unanswered = folder.join("unanswered.jsonl");
    std::fs::write(
        &unanswered,
        "{\"cassette\":1,\"number\":1,\"operation\":\"pay\",\"answer\":null,\"error\":\"refused\"}\n\nnot json\n",
    )
    .unwrap();
    let missing = folder.join("missing.jsonl");
    for (args, says) in [
        (
            vec!["sandbox", "--answers-like", unanswered.to_str().unwrap()],
            "no answer to learn from",
        ),
        (
            vec!["demo", "--answers-like", missing.to_str().unwrap()],
            "missing.jsonl",
        ),
        (
            vec![
                "demo",
                "--answers-like",
                unanswered.to_str().unwrap(),
                "--vary-answers",
                "7",
            ],
            "cannot be used with",
        ),
    ] {
        let mut line = vec!["--json"];
        line.extend(args.iter().copied());
        let run = paytoken(&line, &[]).await;
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stdout.contains(says) || run.stderr.contains(says),
            "{args:?}: {}{}",
            run.stdout,
            run.stderr
        );
    }
    let _ = std::fs::remove_dir_all(&folder);
}
