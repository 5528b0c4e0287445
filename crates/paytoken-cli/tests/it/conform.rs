//! `paytoken conform`: the kit's reference adapter scores 100 %; an adapter that signs the
//! payment rule with two parts swapped loses exactly the vectors the rule names (found here
//! from the kit's files, not from the run); a client that hangs loses that vector and ends
//! the run; one that answers `unsupported` has its `must` vectors counted as missed; one
//! that answers for another vector breaks the protocol.

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::Value;

use crate::common::{assert_valid, paytoken};

pub(crate) fn kit() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/conformance")
}

/// A file of the kit, read.
fn kit_file(file: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(kit().join(file)).unwrap()).unwrap()
}

fn adapter(flags: &str) -> String {
    format!("python3 {} {flags}", kit().join("adapter.py").display())
}

pub(crate) async fn conform(client: &str, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["--json", "conform", "--client", client];
    args.extend_from_slice(extra);
    let run = paytoken(&args, &[]).await;
    let report = run.json();
    assert_valid(&report);
    (run.code, report)
}

/// The ids of a report's failures.
pub(crate) fn failed_ids(report: &Value) -> BTreeSet<String> {
    report["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|failure| failure["id"].as_str().unwrap().to_owned())
        .collect()
}

/// The ids of the vectors signed with the rule `rule`: its checksum and request vectors,
/// the negative vector that signs it with its parts swapped, which a client signing so
/// cannot refuse, and the positive controls signed by it, which such a client refuses.
fn signed_with(rule: &str) -> BTreeSet<String> {
    let read = |file: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(kit().join(file)).unwrap()).unwrap()
    };
    let mut ids = BTreeSet::new();
    for vector in read("checksum-vectors.json")["vectors"].as_array().unwrap() {
        if vector["rule"] == rule {
            ids.insert(vector["id"].as_str().unwrap().to_owned());
        }
    }
    for vector in read("request-vectors.json")["vectors"].as_array().unwrap() {
        if vector["checksum"]["rule"] == rule {
            ids.insert(vector["id"].as_str().unwrap().to_owned());
        }
    }
    // The negative vector signed with the parts swapped, which such a client cannot
    // refuse, and the positive controls signed right, which it refuses.
    for vector in read("negative-vectors.json")["vectors"].as_array().unwrap() {
        let control = vector["refusal"].is_null();
        if vector["rule"] == rule && (control || vector["id"] == "negative/parts-swapped") {
            ids.insert(vector["id"].as_str().unwrap().to_owned());
        }
    }
    ids
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reference_adapter_scores_every_vector() {
    let (code, report) = conform(&adapter(""), &[]).await;
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["outcome"], "ok");
    assert_eq!(report["failed"], 0);
    assert_eq!(report["skipped"], 0);
    assert!(report["passed"].as_u64().unwrap() > 280, "{report}");
    for group in ["checksum", "request", "answer", "notification", "negative"] {
        assert!(
            report["groups"][group]["passed"].as_u64().unwrap() > 0,
            "{group}"
        );
    }
    // The specification's vectors alone, and the kit's safety rules, which every run
    // takes.
    let (code, report) = conform(&adapter(""), &["--source", "specification"]).await;
    assert_eq!(code, 0, "{report}");
    let sources: Vec<&String> = report["sources"].as_object().unwrap().keys().collect();
    assert_eq!(sources, ["safety", "specification"], "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_header_is_held_to_by_its_own_label() {
    // The specification leaves the content type open: its vectors take a client without
    // one; the whole kit does not.
    let bare = adapter("--no-content-type");
    let (code, report) = conform(&bare, &["--source", "specification"]).await;
    assert_eq!(code, 0, "{report}");
    assert!(
        report["groups"]["request"]["passed"].as_u64().unwrap() >= 5,
        "{report}"
    );
    let (code, report) = conform(&bare, &["--only", "request"]).await;
    assert_eq!(code, 1, "{report}");
    let failures = report["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 48, "{report}");
    assert!(
        failures.iter().all(|failure| failure["reason"]
            .as_str()
            .unwrap()
            .contains("header content-type missing")),
        "{report}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_written_from_the_rules_page_alone_scores_every_vector() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules_adapter.py");
    let code = std::fs::read_to_string(&path).unwrap();
    // Nothing of the kit's Python: only its rule table, read as data.
    for module in ["adapter", "check", "answers"] {
        assert!(
            !code.lines().any(|line| {
                let line = line.trim_start();
                line.starts_with(&format!("import {module}"))
                    || line.starts_with(&format!("from {module} "))
            }),
            "the rules adapter imports {module}"
        );
    }
    // Every rule of the page followed, by its name, and no name the page lacks.
    let page = std::fs::read_to_string(kit().join("RULES.md")).unwrap();
    let named: BTreeSet<&str> = page
        .split("\n\n**")
        .skip(1)
        .filter_map(|rule| rule.split_once(". ").map(|(name, _)| name))
        .collect();
    assert!(named.len() >= 25, "{named:?}");
    let words: BTreeSet<&str> = code.split(|c: char| !c.is_ascii_alphanumeric()).collect();
    for rule in &named {
        assert!(words.contains(rule), "the rules adapter follows no {rule}");
    }
    let rule_like = |word: &&str| {
        let mut chars = word.chars();
        chars.next().is_some_and(|c| "CQANRX".contains(c))
            && (2..=3).contains(&word.len())
            && chars.all(|c| c.is_ascii_digit())
    };
    for cited in words.iter().filter(|word| rule_like(word)) {
        assert!(
            named.contains(cited),
            "the rules adapter cites {cited}, which RULES.md lacks"
        );
    }
    let client = format!("python3 {} {}", path.display(), kit().display());
    let (code, report) = conform(&client, &[]).await;
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["failed"], 0, "{report}");
    assert_eq!(report["skipped"], 0, "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broken_adapter_loses_exactly_the_vectors_its_broken_rule_signs() {
    let (code, report) = conform(&adapter("--swap-payment-parts"), &[]).await;
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["outcome"], "checks_failed");
    let expected = signed_with("payment");
    assert!(!expected.is_empty());
    assert_eq!(failed_ids(&report), expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_takes_the_vectors_asked_for_and_keeps_known_failures_apart() {
    // A group, an id prefix, a level.
    let (code, report) = conform(&adapter(""), &["--only", "checksum/payment/"]).await;
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["passed"], 4, "{report}");
    let (_, report) = conform(
        &adapter(""),
        &["--only", "notification", "--level", "tolerate"],
    )
    .await;
    assert_eq!(report["groups"].as_object().unwrap().len(), 1, "{report}");
    assert_eq!(report["levels"].as_object().unwrap().len(), 1, "{report}");
    // A typo is refused, never run as a selection of nothing.
    for (flag, value) in [("--only", "checksum/paymnet/"), ("--level", "should")] {
        let (code, report) = conform(&adapter(""), &[flag, value]).await;
        assert_eq!(code, 2, "{report}");
    }
    // The broken rule's failures, expected, do not fail the run; an expected failure that
    // passes is said.
    let folder = std::env::temp_dir().join(format!("paytoken-expect-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let expect = folder.join("expected.txt");
    let mut listed: Vec<String> = signed_with("payment").into_iter().collect();
    listed.push("checksum/delete_token/1   # passes after all".to_owned());
    std::fs::write(&expect, listed.join("\n")).unwrap();
    let expect_flag = expect.to_str().unwrap();
    let (code, report) =
        conform(&adapter("--swap-payment-parts"), &["--expect", expect_flag]).await;
    assert_eq!(code, 0, "{report}");
    assert_eq!(failed_ids(&report), signed_with("payment"));
    assert!(
        report["failures"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["expected"] == true)
    );
    assert_eq!(
        report["unexpectedPasses"],
        serde_json::json!(["checksum/delete_token/1"])
    );
    std::fs::write(&expect, "checksum/nothing/1\n").unwrap();
    let (code, report) = conform(&adapter(""), &["--expect", expect_flag]).await;
    assert_eq!(code, 2, "{report}");
    let _ = std::fs::remove_dir_all(&folder);
}

/// The reason `conform` gives for the vector `id`.
fn reason_of<'r>(report: &'r Value, id: &str) -> &'r str {
    report["failures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|failure| failure["id"] == id)
        .unwrap_or_else(|| panic!("{id} did not fail: {report}"))["reason"]
        .as_str()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_break_of_a_client_is_named_in_its_failure() {
    // Parts swapped: the joined text expected, the key masked, and the mistake.
    let (_, report) = conform(&adapter("--swap-payment-parts"), &[]).await;
    let reason = reason_of(&report, "checksum/payment/1");
    assert!(
        reason.contains(r#": rule payment expects MD5 of id|key|merchantTransactionId|amount = "11344|***|RestTransaction01|50.00""#),
        "{reason}"
    );
    assert!(
        reason.contains("the parts in another order, id|key|amount|merchantTransactionId"),
        "{reason}"
    );
    // Upper-case hex, in a checksum vector and in a request's body.
    let (_, report) = conform(&adapter("--upper-case-hex"), &[]).await;
    assert!(
        reason_of(&report, "checksum/payment/1").contains("upper-case hex"),
        "{report}"
    );
    // The expected joined text as the vector has it: the kit's people are made up, shown.
    let vectors: Value = serde_json::from_str(
        &std::fs::read_to_string(kit().join("checksum-vectors.json")).unwrap(),
    )
    .unwrap();
    let signup = &vectors["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|vector| vector["id"] == "checksum/customer_signup/1")
        .unwrap()["joinedMasked"];
    let reason = reason_of(&report, "checksum/customer_signup/1");
    assert!(reason.contains(&format!("= {signup}")), "{reason}");
    let reason = reason_of(&report, "request/payment");
    assert!(reason.starts_with("authentication.checksum "), "{reason}");
    assert!(reason.contains("upper-case hex"), "{reason}");
    // A raw `+`: the field, as decoded and as sent, and what to do.
    let (_, report) = conform(&adapter("--raw-plus"), &[]).await;
    let reason = reason_of(&report, "request/payment");
    assert!(
        reason.contains(r#"customer.telnocc " 49" (sent as "+49"), the vector's "+49": a raw + reads as a space; encode + as %2B"#),
        "{reason}"
    );
    // A field left out.
    let (_, report) = conform(&adapter("--drop-currency"), &[]).await;
    let reason = reason_of(&report, "request/payment");
    assert_eq!(reason, r#"currency missing, the vector's "EUR""#);
    for failure in report["failures"].as_array().unwrap() {
        let reason = failure["reason"].as_str().unwrap();
        assert!(
            !reason.contains("Some(") && !reason.contains("None"),
            "{reason}"
        );
    }
}

/// A client in shell: answers the handshake, then each message by `answer` (a `jq`-free
/// `sed` over the message line).
fn shell_client(answer: &str) -> String {
    format!(
        "read hello; echo '{{\"type\":\"hello\",\"protocol\":1,\"name\":\"shell\"}}'; \
         while read line; do {answer}; done"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_hangs_loses_that_vector_and_the_run_ends() {
    let (code, report) = conform(&shell_client("sleep 30"), &["--message-timeout", "1s"]).await;
    assert_eq!(code, 7, "{report}");
    assert_eq!(report["outcome"], "protocol_error");
    assert!(
        report["protocolError"]
            .as_str()
            .unwrap()
            .contains("did not answer within 1 s"),
        "{report}"
    );
    assert_eq!(report["passed"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unsupported_must_vectors_fail_the_run_and_another_id_breaks_the_protocol() {
    // Every answer `unsupported`, with the message's id.
    let unsupported = shell_client(
        "id=$(printf '%s' \"$line\" | sed 's/.*\"id\":\"\\([^\"]*\\)\".*/\\1/'); \
         echo \"{\\\"id\\\":\\\"$id\\\",\\\"unsupported\\\":true}\"",
    );
    let (code, report) = conform(&unsupported, &["--source", "specification"]).await;
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["outcome"], "checks_failed");
    assert_eq!(report["passed"], 0);
    assert!(report["skipped"].as_u64().unwrap() > 0, "{report}");

    let another_id = shell_client("echo '{\"id\":\"nothing/asked\",\"unsupported\":true}'");
    let (code, report) = conform(&another_id, &[]).await;
    assert_eq!(code, 7, "{report}");
    assert!(
        report["protocolError"]
            .as_str()
            .unwrap()
            .contains("\"nothing/asked\""),
        "{report}"
    );
}

/// The reference adapter in a copy of the kit whose reader reads a payment approved where
/// `condition` (Python, over the reader's `long`, `short` and `status`) holds: a mutant
/// that differs from it in that one reading.
fn approving_adapter(name: &str, condition: &str) -> String {
    let folder =
        std::env::temp_dir().join(format!("paytoken-mutant-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    for entry in std::fs::read_dir(kit()).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, folder.join(path.file_name().unwrap())).unwrap();
        }
    }
    let reader = folder.join("answers.py");
    let code = std::fs::read_to_string(&reader).unwrap();
    let decided = "    return {\n        \"paymentStatus\": status,";
    assert_eq!(
        code.matches(decided).count(),
        1,
        "the reader's verdict moved"
    );
    let mutated = code.replace(
        decided,
        &format!("    if {condition}:\n        status = \"approved\"\n{decided}"),
    );
    std::fs::write(&reader, mutated).unwrap();
    format!("python3 {}", folder.join("adapter.py").display())
}

/// For each long status of A8, and for a status no rule names, an adapter that differs
/// from the reference one only in reading that status as approved fails `--level must`,
/// whatever `--source` selects: the kit's safety vectors run in every selection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reading_any_status_as_approved_fails_the_must_vectors_of_every_selection() {
    let mut mutants: Vec<(String, String)> = paytoken::types::TransactionState::KNOWN
        .iter()
        .map(|long| {
            let condition = format!("long is not None and long.strip().lower() == \"{long}\"");
            ((*long).to_owned(), condition)
        })
        .collect();
    mutants.push((
        "unknown".to_owned(),
        "status == \"unknown\" or (short is not None and short not in SHORT_STATUS)".to_owned(),
    ));
    assert_eq!(mutants.len(), 16);
    let selections: [&[&str]; 5] = [
        &[],
        &["--source", "specification"],
        &["--source", "platform-docs"],
        &["--source", "platform-observed"],
        &["--source", "sandbox-choice"],
    ];
    for (name, condition) in &mutants {
        let mutant = approving_adapter(name, condition);
        for selection in selections {
            let mut args = vec!["--level", "must"];
            args.extend_from_slice(selection);
            let (code, report) = conform(&mutant, &args).await;
            assert_eq!(
                code, 1,
                "{name} read approved passes {selection:?}: {report}"
            );
            let safety = &report["sources"]["safety"]["failed"];
            assert!(
                safety.as_u64().unwrap() >= 1,
                "{name}, {selection:?}: {report}"
            );
        }
    }
    // The reference adapter itself passes each selection.
    for selection in selections {
        let mut args = vec!["--level", "must"];
        args.extend_from_slice(selection);
        let (code, report) = conform(&adapter(""), &args).await;
        assert_eq!(code, 0, "{selection:?}: {report}");
    }
}

/// A client answering every `check` the same way: `refused` true or false.
fn checking_everything_as(refused: bool) -> String {
    shell_client(&format!(
        "id=$(printf '%s' \"$line\" | sed 's/.*\"id\":\"\\([^\"]*\\)\".*/\\1/'); \
         echo \"{{\\\"id\\\":\\\"$id\\\",\\\"refused\\\":{refused}}}\""
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_negative_vector_must_be_refused_or_left_unchecked() {
    let negatives = kit_file("negative-vectors.json")["vectors"]
        .as_array()
        .unwrap()
        .clone();
    let controls = negatives.iter().filter(|v| v["refusal"].is_null()).count();
    let mistakes = negatives.len() - controls;
    assert!(
        controls >= 3 && mistakes >= 17,
        "{controls} controls, {mistakes} mistakes"
    );
    // A client that does not read requests back skips the negatives, and passes.
    let (code, report) = conform(&adapter("--no-check"), &["--only", "negative"]).await;
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["skipped"], negatives.len(), "{report}");
    // The reference checker refuses each mistake and no control.
    let (code, report) = conform(&adapter(""), &["--only", "negative"]).await;
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["passed"], negatives.len(), "{report}");
    // One that would send them all fails each mistake, told which.
    let (code, report) = conform(&checking_everything_as(false), &["--only", "negative"]).await;
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["failed"], mistakes, "{report}");
    assert_eq!(
        reason_of(&report, "negative/upper-case-hex"),
        "refused false, where the request must be refused: the checksum in upper-case hexadecimal digits"
    );
    // One that refuses everything fails each positive control, under `--level must` too.
    let (code, report) = conform(
        &checking_everything_as(true),
        &["--only", "negative", "--level", "must"],
    )
    .await;
    assert_eq!(code, 1, "{report}");
    assert!(report["failed"].as_u64().unwrap() >= 2, "{report}");
    assert!(
        reason_of(&report, "negative/valid-payment")
            .starts_with("refused true, where the request is valid and must not be refused"),
        "{report}"
    );
}

/// Runs `conform` with `extra` on `client`, taping both ways: its exit code, its report,
/// and every message with its answer, each valid by the protocol's schema (the first as
/// `hello` and the client's hello, the others by their type and as an answer).
pub(crate) async fn taped(
    client: &str,
    extra: &[&str],
    hello: &str,
) -> (i32, Value, Vec<(Value, Value)>) {
    use paytoken_test_support::schema::Schema;
    let folder =
        std::env::temp_dir().join(format!("paytoken-conform-{}-{hello}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let (asked, answered) = (folder.join("asked.jsonl"), folder.join("answered.jsonl"));
    let teed = format!(
        "tee {} | {client} | tee {}",
        asked.display(),
        answered.display()
    );
    let (code, report) = conform(&teed, extra).await;
    let lines = |path: &std::path::Path| -> Vec<Value> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    };
    let (asked, answered) = (lines(&asked), lines(&answered));
    assert_eq!(asked.len(), answered.len());
    let schema = Schema::read(&kit().join("schemas/conform-protocol.schema.json"));
    for (index, (message, answer)) in asked.iter().zip(&answered).enumerate() {
        let (kind, reply) = if index == 0 {
            (hello, "clientHello")
        } else {
            (message["type"].as_str().unwrap(), "answer")
        };
        assert_eq!(
            schema.errors_of(kind, message),
            Vec::<String>::new(),
            "{message}"
        );
        assert_eq!(
            schema.errors_of(reply, answer),
            Vec::<String>::new(),
            "{answer}"
        );
    }
    let _ = std::fs::remove_dir_all(&folder);
    (code, report, asked.into_iter().zip(answered).collect())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_message_both_ways_is_valid_by_the_protocol_s_schema() {
    let (code, report, exchanged) = taped(&adapter(""), &[], "hello").await;
    assert_eq!(code, 0, "{report}");
    // The adapter writes a space as %20 where paytoken writes +, and passes: bodies
    // compare as decoded fields.
    assert!(
        exchanged.iter().any(|(_, answer)| answer["body"]
            .as_str()
            .is_some_and(|body| body.contains("%20"))),
        "no body with a space"
    );
    assert_eq!(
        u64::try_from(exchanged.len()).unwrap(),
        report["passed"].as_u64().unwrap() + 1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_minimal_adapter_of_the_kit_s_readme_signs_every_checksum_vector() {
    let readme = std::fs::read_to_string(kit().join("README.md")).unwrap();
    let code = readme
        .split("A minimal adapter")
        .nth(1)
        .and_then(|rest| rest.split("```python\n").nth(1))
        .and_then(|rest| rest.split("```").next())
        .unwrap();
    let folder = std::env::temp_dir().join(format!("paytoken-minimal-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("minimal.py"), code).unwrap();
    std::fs::copy(
        kit().join("checksum-rules.json"),
        folder.join("checksum-rules.json"),
    )
    .unwrap();
    // Run from another folder: it finds the rules beside itself.
    let client = format!("python3 {}", folder.join("minimal.py").display());
    let (code, report) = conform(&client, &["--only", "checksum"]).await;
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["client"], "minimal");
    assert_eq!(report["failed"], 0, "{report}");
    assert_eq!(report["skipped"], 0, "{report}");
    // Everything but the checksums is unsupported: skipped, and the must ones fail the run.
    let (code, report) = conform(&client, &[]).await;
    let _ = std::fs::remove_dir_all(&folder);
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["groups"]["checksum"]["failed"], 0, "{report}");
    assert_eq!(report["failed"], 0, "{report}");
}

/// The processes whose command line holds `marker`.
fn processes_holding(marker: &str) -> Vec<String> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|entry| {
            entry
                .file_name()
                .to_str()
                .is_some_and(|name| name.parse::<u32>().is_ok())
        })
        .filter_map(|entry| std::fs::read(entry.path().join("cmdline")).ok())
        .map(|line| String::from_utf8_lossy(&line).replace('\0', " "))
        .filter(|line| line.contains(marker))
        .collect()
}

#[cfg(target_os = "linux")]
#[test]
fn a_child_that_leaves_the_clients_process_group_ends_with_the_run() {
    let marker = format!("left-behind-{}", std::process::id());
    // A child in a session of its own: the group's stop does not reach it.
    let leaver = format!(
        r#"python3 -c "import os, time; os.setsid(); time.sleep(317)  # {marker}" </dev/null >/dev/null 2>&1 &"#
    );
    // The adapter starts once the leaver has had time to leave the group.
    let client = format!(
        "{leaver} sleep 0.3; exec python3 {}",
        kit().join("adapter.py").display()
    );
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_paytoken"))
        .args(["--json", "conform", "--client", &client])
        .stderr(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stdout)
    );
    let left = processes_holding(&marker);
    if !left.is_empty() {
        let _ = std::process::Command::new("pkill")
            .args(["-f", &marker])
            .status();
    }
    assert!(left.is_empty(), "left behind: {left:?}");
}
