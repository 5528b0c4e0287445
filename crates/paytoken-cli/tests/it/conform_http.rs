//! `paytoken conform --http`: paytoken's own client (the crate's example `conform_http`)
//! and a Python test adapter perform every scenario of the kit over HTTP and score 100 %;
//! the Python adapter with its captures sent without the auth token loses exactly the
//! scenarios that capture, the breach named; the kit README's adapter completes the
//! sign-up scenario, and without its `AuthToken` header loses it; every message both ways
//! is valid by the protocol's schema. After a lost answer, the Python adapter that sends a
//! payment or refund again loses exactly those scenarios, each doubled order named; one
//! that sends a payment again under its order id passes only with the sandbox's choices;
//! the generated Python client scores what the kit's README records (with `cargo xtask ci`).

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::Value;

use crate::conform::{failed_ids, kit, taped};

/// The example `conform_http`, which `cargo test` builds beside the command.
fn rust_client() -> String {
    let command = PathBuf::from(env!("CARGO_BIN_EXE_paytoken"));
    let example = command.with_file_name("examples").join("conform_http");
    assert!(
        example.exists(),
        "{} is not built: cargo test (without --test) or cargo build --example conform_http builds it",
        example.display()
    );
    example.display().to_string()
}

/// The kit README's `--http` adapter, written to a file; `broken` takes its line out.
fn readme_client(broken: Option<&str>) -> String {
    let readme = std::fs::read_to_string(kit().join("README.md")).unwrap();
    let mut code = readme
        .split("### Over HTTP, whole flows")
        .nth(1)
        .and_then(|rest| rest.split("```python\n").nth(1))
        .and_then(|rest| rest.split("```").next())
        .unwrap()
        .to_owned();
    if let Some(line) = broken {
        assert!(code.contains(line), "{line}");
        code = code.replace(line, "        pass\n");
    }
    let folder = std::env::temp_dir().join(format!("paytoken-http-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join(if broken.is_some() {
        "broken.py"
    } else {
        "signup.py"
    });
    std::fs::write(&path, code).unwrap();
    format!("python3 {}", path.display())
}

/// `paytoken --json conform --http` with `extra` on `client`: its exit code and report.
async fn conform(client: &str, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["--http"];
    args.extend_from_slice(extra);
    crate::conform::conform(client, &args).await
}

/// The scenarios as a run has them: each with a faulted step once per fault of the kit,
/// its id followed by the fault's name and `{fault}` in its order ids replaced by it; with
/// the operation of its faulted step (`None` without one).
fn scenarios() -> Vec<(String, Option<String>, Value)> {
    let text = std::fs::read_to_string(kit().join("scenarios.json")).unwrap();
    let kit: Value = serde_json::from_str(&text).unwrap();
    let mut runs = Vec::new();
    for scenario in kit["scenarios"].as_array().unwrap() {
        let id = scenario["id"].as_str().unwrap();
        let faulted = scenario["steps"]
            .as_array()
            .unwrap()
            .iter()
            .find(|step| step["fault"] == true);
        match faulted {
            None => runs.push((id.to_owned(), None, scenario.clone())),
            Some(step) => {
                for name in kit["faults"].as_object().unwrap().keys() {
                    let named =
                        serde_json::from_str(&scenario.to_string().replace("{fault}", name));
                    let operation = step["operation"].as_str().unwrap().to_owned();
                    runs.push((format!("{id}/{name}"), Some(operation), named.unwrap()));
                }
            }
        }
    }
    runs
}

fn scenario_count() -> u64 {
    u64::try_from(scenarios().len()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paytoken_s_own_client_performs_every_scenario_over_http() {
    let (code, report) = conform(&rust_client(), &[]).await;
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["passed"], scenario_count(), "{report}");
    assert_eq!(report["groups"]["scenario"]["passed"], scenario_count());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_readme_s_adapter_signs_up_and_without_its_token_loses_the_scenario_named() {
    let only = ["--only", "scenario/customer_signup"];
    let (code, report) = conform(&readme_client(None), &only).await;
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["passed"], 1, "{report}");
    // The other scenarios, unsupported, are must: the whole run fails.
    let (code, report) = conform(&readme_client(None), &[]).await;
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["skipped"], scenario_count() - 1, "{report}");

    let token_line = "        headers[\"AuthToken\"] = token\n";
    let (code, report) = conform(&readme_client(Some(token_line)), &only).await;
    assert_eq!(code, 1, "{report}");
    let reason = report["failures"][0]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("request 1 (customer_signup): no AuthToken header (Q3)"),
        "{reason}"
    );
    assert!(
        reason.contains("step signup: outcome \"refused\", expected \"ok\""),
        "{reason}"
    );
}

/// The test adapter in Python over HTTP, with `flags`.
fn python_client(flags: &str) -> String {
    let adapter = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/http_adapter.py");
    format!("python3 {} {} {flags}", adapter.display(), kit().display())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_adapter_whose_http_layer_breaks_a_rule_loses_exactly_the_scenarios_it_touches() {
    let (code, report) = conform(&python_client(""), &[]).await;
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["passed"], scenario_count(), "{report}");
    // Its captures sent without the auth token: the scenarios with a capture, and no other.
    let capturing: BTreeSet<String> = scenarios()
        .into_iter()
        .filter(|(_, _, scenario)| {
            let steps = scenario["steps"].as_array().unwrap();
            steps.iter().any(|step| step["operation"] == "capture")
        })
        .map(|(id, _, _)| id)
        .collect();
    assert!(!capturing.is_empty());
    let (code, report) = conform(&python_client("--no-token-on capture"), &[]).await;
    assert_eq!(code, 1, "{report}");
    assert_eq!(failed_ids(&report), capturing, "{report}");
    for failure in report["failures"].as_array().unwrap() {
        let reason = failure["reason"].as_str().unwrap();
        assert!(
            reason.contains("(capture): no AuthToken header (Q3)"),
            "{reason}"
        );
    }
}

/// Clients that would score without earning it, each failing its scenario with a reason
/// that names what it did: the sandbox's console asked to clear its faults, the sandbox's
/// fault header sent, nothing sent at all, a notification reported verified with no
/// listener to have it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_that_do_not_earn_their_score_fail_with_what_they_did_named() {
    for (flag, scenario, named) in [
        (
            "--clear-console",
            "scenario/customer_signup",
            "/sandbox/console/faults/clear\" is not the gateway's",
        ),
        (
            "--steer-faults",
            "scenario/customer_signup",
            "the sandbox's own header \"paytoken-sandbox-fault\"",
        ),
        (
            "--send-nothing",
            "scenario/customer_signup",
            "step signup: the client sent no customer_signup request to the gateway",
        ),
        (
            "--no-listener",
            "scenario/three_d_secure",
            "was not answered 2xx at the listener",
        ),
    ] {
        let (code, report) = conform(&python_client(flag), &["--only", scenario]).await;
        assert_eq!(code, 1, "{flag}: {report}");
        assert_eq!(report["failed"], 1, "{flag}: {report}");
        let reason = report["failures"][0]["reason"].as_str().unwrap();
        assert!(reason.contains(named), "{flag}: {reason}");
    }
}

/// The specification's own unsigned invoice-list request (`request/invoice_list_unsigned`,
/// valid by the kit) earns the invoices scenario: a note the sandbox makes of a request it
/// took is no refusal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_listing_invoices_unsigned_as_the_specification_shows_passes() {
    let (code, report) = conform(
        &python_client("--unsigned-invoices"),
        &["--only", "scenario/invoices"],
    )
    .await;
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["passed"], 1, "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_keeps_an_expired_token_loses_the_scenario_that_lets_it_expire() {
    // Alone: a stale token fails every scenario after it too.
    let only = ["--only", "scenario/auth_token_expires"];
    let (code, report) = conform(&python_client(""), &only).await;
    assert_eq!(code, 0, "{report}");
    let (code, report) = conform(&python_client("--no-renewal"), &only).await;
    assert_eq!(code, 1, "{report}");
    let failures = report["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 1, "{report}");
    assert_eq!(failures[0]["id"], "scenario/auth_token_expires");
    let reason = failures[0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("step second: outcome \"refused\", expected \"ok\""),
        "{reason}"
    );
    // The refusal the scenario provokes is no breach of the client's.
    assert!(!reason.contains("the sandbox refused"), "{reason}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_http_message_both_ways_is_valid_by_the_protocol_s_schema() {
    let (code, report, exchanged) = taped(&rust_client(), &["--http"], "httpHello").await;
    assert_eq!(code, 0, "{report}");
    assert!(
        exchanged
            .iter()
            .skip(1)
            .all(|(message, _)| message["type"] == "step")
    );
}

/// The generated client's score as the kit's README records it: passed, failed and
/// skipped, and the ids of the scenarios it fails (the only ones its paragraph names).
fn recorded_score() -> (u64, u64, u64, BTreeSet<String>) {
    let readme = std::fs::read_to_string(kit().join("README.md")).unwrap();
    let paragraph = readme
        .split("\n\n")
        .find(|paragraph| paragraph.contains("generated_http_adapter.py`, its calls"))
        .unwrap();
    let score = paragraph.split("scores **").nth(1).unwrap();
    let score = score.split("**").next().unwrap().replace('\n', " ");
    let counts: Vec<u64> = score
        .split(", ")
        .map(|count| count.split(' ').next().unwrap().parse().unwrap())
        .collect();
    let failed = paragraph
        .split('`')
        .filter(|word| word.starts_with("scenario/"))
        .map(str::to_owned)
        .collect();
    (counts[0], counts[1], counts[2], failed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs openapi-python-client; cargo xtask ci installs it and runs this test"]
async fn the_generated_python_client_scores_what_the_kit_s_readme_records() {
    use paytoken_test_support::generated::{generate, python};
    let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("generated-client-http");
    let package = generate(&folder);
    let client = format!(
        "{} {} {}",
        python().display(),
        kit().join("generated_http_adapter.py").display(),
        package.display()
    );
    let (_, report) = conform(&client, &[]).await;
    let reached = (
        report["passed"].as_u64().unwrap(),
        report["failed"].as_u64().unwrap(),
        report["skipped"].as_u64().unwrap(),
        failed_ids(&report),
    );
    assert_eq!(reached, recorded_score(), "{report}");
    assert_eq!(reached.0 + reached.1 + reached.2, scenario_count());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_moves_money_again_after_a_lost_answer_loses_exactly_those_scenarios() {
    let only = ["--only", "scenario/lost/"];
    let (code, report) = conform(&python_client(""), &only).await;
    assert_eq!(code, 0, "{report}");
    // A lost payment sent again under a new order id, a lost refund as it was: each of
    // them moved money twice, and nothing else failed.
    let (code, report) = conform(&python_client("--unsafe-retry"), &only).await;
    assert_eq!(code, 1, "{report}");
    let runs = scenarios();
    let sent_again = |wanted: &[&str]| -> Vec<(String, Value)> {
        let wanted = |operation: &Option<String>| {
            operation
                .as_deref()
                .is_some_and(|operation| wanted.contains(&operation))
        };
        runs.iter()
            .filter(|(_, operation, _)| wanted(operation))
            .map(|(id, _, scenario)| (id.clone(), scenario.clone()))
            .collect()
    };
    let paying = sent_again(&["pay", "pay_with_token", "repeat_payment"]);
    let refunding = sent_again(&["refund"]);
    let expected: BTreeSet<String> = paying
        .iter()
        .chain(&refunding)
        .map(|(id, _)| id.clone())
        .collect();
    assert_eq!(failed_ids(&report), expected, "{report}");
    let reason = |id: &str| {
        let failures = report["failures"].as_array().unwrap();
        let failure = failures.iter().find(|failure| failure["id"] == id).unwrap();
        failure["reason"].as_str().unwrap().to_owned()
    };
    for (id, _) in &refunding {
        let reason = reason(id);
        assert!(
            reason.contains(" moved 20.00 by refund for one refund of 10.00 (R1)"),
            "{reason}"
        );
    }
    for (id, scenario) in &paying {
        let step = scenario["steps"]
            .as_array()
            .unwrap()
            .iter()
            .find(|step| step["fault"] == true)
            .unwrap();
        let order = step["fields"]
            .as_array()
            .unwrap()
            .iter()
            .find(|pair| pair[0] == "merchantTransactionId")
            .unwrap()[1]
            .as_str()
            .unwrap();
        let reason = reason(id);
        assert!(
            reason.contains(&format!("order \"{order}\" charged twice: payments ")),
            "{reason}"
        );
        assert!(
            reason.contains("sent again before an inquiry with another merchantTransactionId (R2)"),
            "{reason}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payment_sent_again_under_its_order_id_passes_only_with_the_sandbox_s_choice() {
    let client = python_client("--retry-same-order");
    let (code, report) = conform(&client, &["--only", "scenario/lost/pay/"]).await;
    assert_eq!(code, 0, "{report}");
    let without = ["--only", "scenario/lost/pay/", "--source", "platform-docs"];
    let (code, report) = conform(&client, &without).await;
    assert_eq!(code, 1, "{report}");
    let failures = report["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 4, "{report}");
    for failure in failures {
        let reason = failure["reason"].as_str().unwrap();
        assert!(
            reason.starts_with(
                "request 2 (pay): sent again before an inquiry with the same merchantTransactionId"
            ),
            "{reason}"
        );
        assert!(reason.contains("(R2, R3)"), "{reason}");
    }
}

/// A client that floods the sandbox at its first step: `requests` posts, each with a
/// 60 KiB body and 300 KB of headers, then an outcome.
fn flooding_client(requests: usize) -> String {
    let code = format!(
        r#"import json, sys, urllib.error, urllib.request
headers = {{f"X-Flood-{{n}}": "h" * 10_000 for n in range(30)}}
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        base = m["baseUrl"]
        print(json.dumps({{"type": "hello", "protocol": 1, "name": "flood"}}), flush=True)
        continue
    if m["type"] == "step":
        for _ in range({requests}):
            sent = urllib.request.Request(base + "/transactionServices/REST/v1/payments", b"a" * 61_440, headers)
            try:
                urllib.request.urlopen(sent).read()
            except urllib.error.HTTPError as answer:
                answer.read()
    print(json.dumps({{"id": m["id"], "outcome": {{"outcome": "refused"}}}}), flush=True)
"#
    );
    let folder = std::env::temp_dir().join(format!("paytoken-flood-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("flood.py");
    std::fs::write(&path, code).unwrap();
    format!("python3 {}", path.display())
}

/// The largest resident size the process `pid` reached so far (`VmHWM`), in KiB.
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_client_that_floods_the_sandbox_fails_its_scenario_in_bounded_memory() {
    let mut run = std::process::Command::new(env!("CARGO_BIN_EXE_paytoken"))
        .args([
            "--json",
            "conform",
            "--http",
            "--only",
            "scenario/customer_signup",
        ])
        .args(["--client", &flooding_client(300)])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = run.id();
    let mut peak = 0;
    while run.try_wait().unwrap().is_none() {
        peak = peak_kib(pid).unwrap_or(0).max(peak);
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let output = run.wait_with_output().unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["passed"], 0, "{report}");
    let said = report["failures"].to_string();
    assert!(said.contains("flooded the sandbox"), "{said}");
    // 300 requests of 360 KB each would be 108 MB held; the tap holds 16 MiB of them.
    assert!(peak > 0 && peak < 64 * 1024, "peak {peak} KiB");
}
