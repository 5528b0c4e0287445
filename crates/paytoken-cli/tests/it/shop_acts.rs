//! What a shop acts on: `paytoken inquiry ID && ship` ships only a payment that is approved
//! and stays so, a fault queued for "the next request" meets the request a user means, and
//! an unknown outcome names the ids to ask with, readable mode too.

use crate::common::{
    answering_with, as_merchant, at_gateway, card_flags, merchant_of, paytoken, readme_exits,
};
use paytoken_sandbox::{Sandbox, cards};

/// Every long status docs/WIRE.md lists, and one this version does not know:
/// what `inquiry` says of a payment whose short status is `Y`, and its exit code.
const STANDING: &[(&str, &str, i32)] = &[
    ("begun", "pending", 5),
    ("authstarted", "pending", 5),
    ("authsuccessful", "approved", 0),
    ("authfailed", "declined", 3),
    ("authcancelled", "declined", 3),
    ("cancelstarted", "declined", 3),
    ("cancelled", "declined", 3),
    ("capturestarted", "pending", 5),
    ("capturesuccess", "approved", 0),
    ("capturefailed", "declined", 3),
    ("markedforreversal", "reversed", 3),
    ("reversed", "reversed", 3),
    ("chargeback", "reversed", 3),
    ("failed", "declined", 3),
    ("settled", "approved", 0),
    ("payoutsuccess", "outcome_unknown", 4),
];

const AUTH_TOKEN: &str = r#"{"partnerId":"100","memberId":"11344","result":{"code":"200","description":"Token generated successfully"},"AuthToken":"eyJ0.e30.c2ln"}"#;

/// Runs `inquiry 54279` against a gateway whose inquiry answers `Y` with the long status
/// `long`.
async fn inquiry_with_long_status(long: &'static str, json: bool) -> crate::common::Run {
    let url = answering_with(move |n| {
        if n == 0 {
            AUTH_TOKEN.to_owned()
        } else {
            format!(
                r#"{{"paymentId":"54279","paymentType":"DB","amount":"10.00","currency":"EUR","result":{{"code":"00026","description":"Record found"}},"transactionStatus":"Y","status":"{long}"}}"#
            )
        }
    })
    .await;
    let args: &[&str] = if json {
        &["--json", "inquiry", "54279"]
    } else {
        &["inquiry", "54279"]
    };
    at_gateway(&url, args).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inquiry_exits_0_only_for_a_payment_that_stands_approved() {
    for (long, outcome, exit) in STANDING {
        let run = inquiry_with_long_status(long, true).await;
        let printed = run.json();
        assert_eq!(
            (run.code, printed["transactionOutcome"].as_str()),
            (*exit, Some(*outcome)),
            "{long}: {}",
            run.stdout
        );
        assert_eq!(printed["outcome"], "found", "{long}");
        assert_eq!(
            printed["status"], *long,
            "{long}: the long status as it came"
        );
        assert!(readme_exits(outcome).contains(exit), "{outcome}: README");
        // Readable mode decides the same, and says it in the JSON's words.
        let readable = inquiry_with_long_status(long, false).await;
        assert_eq!(readable.code, *exit, "{long}: {}", readable.stdout);
        assert!(
            readable
                .stdout
                .starts_with(&format!("inquiry: found ({outcome})")),
            "{long}: {}",
            readable.stdout
        );
    }
}

/// `pay` with the sandbox's approving card: the payment id.
async fn paid(sandbox: &Sandbox, order: &str, extra: &[&str]) -> String {
    let mut pay = vec![
        "pay",
        "--amount",
        "10.00",
        "--currency",
        "EUR",
        "--merchant-transaction-id",
        order,
    ];
    pay.extend_from_slice(extra);
    pay.extend(card_flags(cards::APPROVED));
    let run = as_merchant(sandbox, &pay).await;
    assert_eq!(run.code, 0, "{}", run.stdout);
    run.json()["paymentId"].as_str().unwrap().to_owned()
}

/// `inquiry ID`: the exit code, the transaction's outcome and its long status.
async fn inquired(sandbox: &Sandbox, id: &str) -> (i32, String, String) {
    let run = as_merchant(sandbox, &["inquiry", id]).await;
    let printed = run.json();
    let text = |name: &str| printed[name].as_str().unwrap_or_default().to_owned();
    (run.code, text("transactionOutcome"), text("status"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_or_refunded_payment_is_not_shipped() {
    let sandbox = Sandbox::start().await.unwrap();
    let reserved = paid(&sandbox, "shop-pa", &["--type", "PA"]).await;
    assert_eq!(
        inquired(&sandbox, &reserved).await,
        (0, "approved".into(), "authsuccessful".into())
    );
    let cancel = as_merchant(&sandbox, &["cancel", &reserved]).await;
    assert_eq!(cancel.code, 0, "{}", cancel.stdout);
    assert_eq!(
        inquired(&sandbox, &reserved).await,
        (3, "declined".into(), "cancelled".into())
    );

    let debit = paid(&sandbox, "shop-db", &[]).await;
    let refund = |amount: &'static str| {
        let sandbox = &sandbox;
        let debit = debit.clone();
        async move {
            let args = ["refund", &debit, "--amount", amount, "--currency", "EUR"];
            let run = as_merchant(sandbox, &args).await;
            assert_eq!(run.code, 0, "{}", run.stdout);
        }
    };
    refund("4.00").await;
    assert_eq!(
        inquired(&sandbox, &debit).await,
        (3, "reversed".into(), "markedforreversal".into())
    );
    refund("6.00").await;
    assert_eq!(
        inquired(&sandbox, &debit).await,
        (3, "reversed".into(), "reversed".into())
    );
    sandbox.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queued_fault_meets_the_payment_not_the_auth_token_fetch() {
    let sandbox = Sandbox::start().await.unwrap();
    for count in ["1", "2"] {
        let queued = as_merchant(
            &sandbox,
            &["faults", "next", "drop=after", "--count", count],
        )
        .await;
        assert_eq!(queued.code, 0, "{}", queued.stdout);
        assert_eq!(queued.json()["next"][0]["target"], "money-moving");
        // A new process fetches its auth token first: that request passes the fault by.
        let (flags, env) = merchant_of(&sandbox);
        let order = format!("shop-lost-{count}");
        let mut args: Vec<&str> = flags.iter().map(String::as_str).collect();
        args.extend([
            "pay",
            "--amount",
            "3.00",
            "--currency",
            "EUR",
            "--merchant-transaction-id",
            &order,
        ]);
        args.extend(card_flags(cards::APPROVED));
        let env: Vec<(&str, &str)> = env.iter().map(|(n, v)| (*n, v.as_str())).collect();
        let lost = paytoken(&args, &env).await;
        assert_eq!(lost.code, 4, "the answer was lost: {}", lost.stderr);
        // Readable mode names the order and the inquiry to run.
        let ask = format!("paytoken inquiry --merchant-transaction-id {order}");
        assert!(
            lost.stderr.contains(&format!("order id {order}")),
            "{}",
            lost.stderr
        );
        assert!(lost.stderr.contains(&ask), "{}", lost.stderr);
        let found = as_merchant(&sandbox, &["inquiry", "--merchant-transaction-id", &order]).await;
        assert_eq!(
            (found.code, found.json()["transactionOutcome"].as_str()),
            (0, Some("approved")),
            "the money moved: {}",
            found.stdout
        );
    }
    // The second of `--count 2` still waits for the next payment.
    let waiting = as_merchant(&sandbox, &["faults", "list"]).await;
    assert_eq!(
        waiting.json()["next"],
        serde_json::json!([{ "directives": "drop=after", "target": "money-moving" }])
    );
    as_merchant(&sandbox, &["faults", "clear"]).await;
    // A target by operation: the next inquiry, with its retries, answers a proxy's page;
    // a payment before it passes by.
    let args = [
        "faults",
        "next",
        "status=502",
        "--count",
        "3",
        "--for",
        "inquiry",
    ];
    assert_eq!(as_merchant(&sandbox, &args).await.code, 0);
    let passed_by = paid(&sandbox, "shop-after-faults", &[]).await;
    let run = as_merchant(&sandbox, &["inquiry", &passed_by]).await;
    assert_eq!(
        (run.code, run.json()["error"]["kind"].as_str()),
        (4, Some("unexpected_status")),
        "{}",
        run.stdout
    );
    let unknown = as_merchant(
        &sandbox,
        &["faults", "next", "drop=after", "--for", "payment"],
    )
    .await;
    assert_eq!(
        (unknown.code, unknown.json()["outcome"].as_str()),
        (2, Some("usage_error")),
        "the log calls it `pay`: {}",
        unknown.stdout
    );
    sandbox.shutdown().await;
}
