//! The commands that act on a running sandbox through its console, against one: each with
//! `--json` (held to its schema by the helper) and no secret in any output.

use crate::common::{as_merchant, card_flags, merchant_of};
use paytoken_sandbox::{Sandbox, cards};

/// Runs `args` with `--json` against `sandbox`'s console (its base URL from the flags):
/// the last line it printed.
async fn console(sandbox: &Sandbox, args: &[&str]) -> serde_json::Value {
    let run = as_merchant(sandbox, args).await;
    assert_eq!(run.code, 0, "{args:?}: {}", run.stdout);
    run.json_lines().pop().unwrap()
}

/// Runs `args` without `--json` against `sandbox`'s console: what it printed.
async fn readable(sandbox: &Sandbox, args: &[&str]) -> String {
    let (mut flags, env) = merchant_of(sandbox);
    flags.extend(args.iter().map(|arg| (*arg).to_owned()));
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let env: Vec<(&str, &str)> = env.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let run = crate::common::paytoken(&flags, &env).await;
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    run.stdout
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_console_commands_see_and_steer_a_running_sandbox() {
    let sandbox = Sandbox::start().await.unwrap();
    let mut pay = vec![
        "pay",
        "--amount",
        "5.00",
        "--currency",
        "EUR",
        "--merchant-transaction-id",
        "console-1",
        "--notification-url",
        "http://127.0.0.1:9/",
    ];
    pay.extend(card_flags(cards::THREE_D_SECURE));
    let paid = as_merchant(&sandbox, &pay).await;
    let payment_id = paid.json()["paymentId"].as_str().unwrap().to_owned();
    assert!(sandbox.approve_three_d_secure(&payment_id));

    let last = console(&sandbox, &["logs", "tail", "--once"]).await;
    assert_eq!(last["request"]["operation"], "pay");
    assert_eq!(last["request"]["resultCode"], "90026");

    let events = console(&sandbox, &["events", "list"]).await;
    assert_eq!(events["notifications"][0]["paymentId"], payment_id.as_str());
    // One numbering: `events list` shows #1 for the first, and `events resend 1` takes it.
    assert_eq!(events["notifications"][0]["number"], 1);
    let readable = readable(&sandbox, &["events", "list"]).await;
    assert!(
        readable.contains("  #1 payment ") && readable.contains(" attempt(s): "),
        "{readable}"
    );
    let resent = console(&sandbox, &["events", "resend", "1"]).await;
    assert_eq!(resent["resent"], 1);

    let before = console(&sandbox, &["clock", "show"]).await;
    let live = |clock: &serde_json::Value| -> Vec<bool> {
        let tokens = clock["authTokens"].as_array().unwrap();
        tokens
            .iter()
            .map(|token| token["live"].as_bool().unwrap())
            .collect()
    };
    assert!(!live(&before).is_empty() && live(&before).iter().all(|live| *live));
    let moved = console(&sandbox, &["clock", "advance", "3d"]).await;
    assert_eq!(moved["advancedSeconds"], 259_200);
    assert!(
        live(&moved).iter().all(|live| !live),
        "past the token lifetime"
    );
    assert_eq!(
        console(&sandbox, &["clock", "show"]).await["advancedSeconds"],
        259_200
    );

    let queued = console(
        &sandbox,
        &[
            "faults",
            "next",
            "status=502",
            "--count",
            "2",
            "--for",
            "cards_and_accounts",
        ],
    )
    .await;
    let waiting = serde_json::json!({ "directives": "status=502", "target": "cards_and_accounts" });
    assert_eq!(queued["next"], serde_json::json!([waiting, waiting]));
    // The client's safe retries of a read absorb both 502s: the faults were spent.
    let cards = as_merchant(&sandbox, &["cards-and-accounts"]).await;
    assert_eq!(cards.code, 0, "{}", cards.stdout);
    assert_eq!(
        console(&sandbox, &["faults", "list"]).await["next"],
        serde_json::json!([])
    );
    console(&sandbox, &["faults", "next", "drop=after"]).await;
    assert_eq!(
        console(&sandbox, &["faults", "clear"]).await["next"],
        serde_json::json!([])
    );

    let books = console(&sandbox, &["books"]).await;
    assert_eq!(books["payments"][0]["paymentId"], payment_id.as_str());
    assert_eq!(books["payments"][0]["card"]["last4Digits"], "0002");

    // Refusals keep the vocabulary: an unknown event, a bad duration, a sandbox that is gone.
    for (args, code, outcome) in [
        (vec!["events", "resend", "99"], 2, "not_found"),
        (vec!["clock", "advance", "soon"], 2, "usage_error"),
    ] {
        let run = as_merchant(&sandbox, &args).await;
        assert_eq!(
            (run.code, run.json()["outcome"].as_str()),
            (code, Some(outcome)),
            "{args:?}"
        );
    }
    let gone = sandbox.base_url().to_owned();
    sandbox.shutdown().await;
    let run = crate::common::paytoken(&["--json", "--base-url", &gone, "books"], &[]).await;
    assert_eq!(
        (run.code, run.json()["outcome"].as_str()),
        (4, Some("transport_error"))
    );
}

/// Makes `count` approved payments at `sandbox`, by hand-built forms.
async fn paid(sandbox: &Sandbox, count: usize) {
    use paytoken_test_support::http::post;
    let base = sandbox.base_url();
    let merchant = &sandbox.config().partners[0].merchants[0];
    let (member, key) = (
        merchant.member_id.to_string(),
        merchant.secure_key.expose_secret().to_owned(),
    );
    let fetched = post(
        &format!("{base}/transactionServices/REST/v1/authToken"),
        &[("Content-Type", "application/x-www-form-urlencoded")],
        &format!(
            "authentication.partnerId=100&merchant.username={}&authentication.sKey={key}",
            merchant.username
        ),
    )
    .await;
    let body = fetched.split_once("\r\n\r\n").unwrap().1;
    let answer: serde_json::Value = serde_json::from_str(body).unwrap();
    let token = answer["AuthToken"].as_str().unwrap().to_owned();
    for n in 0..count {
        let order = format!("paged-{n}");
        let checksum = format!(
            "{:x}",
            md5_oracle::compute(format!("{member}|{key}|{order}|5.00"))
        );
        let form = format!(
            "authentication.memberId={member}&authentication.checksum={checksum}&merchantTransactionId={order}&amount=5.00&currency=EUR&paymentType=DB&paymentBrand=VISA&paymentMode=CC&card.number={}&card.expiryMonth=12&card.expiryYear=2099&card.cvv=123",
            cards::APPROVED
        );
        let answered = post(
            &format!("{base}/transactionServices/REST/v1/payments"),
            &[
                ("Content-Type", "application/x-www-form-urlencoded"),
                ("AuthToken", &token),
            ],
            &form,
        )
        .await;
        assert!(answered.contains("00001"), "{answered}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_commands_read_every_page_of_a_list() {
    let sandbox = Sandbox::start().await.unwrap();
    paid(&sandbox, 230).await;
    let books = console(&sandbox, &["books"]).await;
    let payments = books["payments"].as_array().unwrap();
    assert_eq!(payments.len(), 230, "three pages, read whole");
    assert_eq!(payments[229]["merchantTransactionId"], "paged-229");
    assert_eq!(books["totals"]["payments"], 230);
    let run = as_merchant(&sandbox, &["logs", "tail", "--once"]).await;
    let lines = run.json_lines();
    assert_eq!(lines.len(), 231, "the token's fetch and each payment");
    assert_eq!(lines[230]["request"]["orderId"], "paged-229");
}
