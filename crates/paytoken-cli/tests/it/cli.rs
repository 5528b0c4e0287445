//! The `paytoken` binary, run as a user runs it, against a sandbox in this process: every
//! operation's `--json` output, the exit codes, the demo, the sandbox server, and no secret
//! in the stdout or stderr of any run.

use crate::common;

use common::{answering, as_merchant, card_flags, merchant_of, paytoken, sandbox_process};
use paytoken_sandbox::{DEFAULT_PARTNER_ID, Sandbox, cards};
use serde_json::Value;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_operation_as_json_with_its_exit_code() {
    let sandbox = Sandbox::start().await.unwrap();

    let run = as_merchant(
        &sandbox,
        &[
            "signup",
            "--given-name",
            "Ada",
            "--surname",
            "Lovelace",
            "--email",
            "ada@example.com",
            "--country",
            "GB",
        ],
    )
    .await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let customer_id = run.json()["customerId"].as_str().unwrap().to_owned();
    assert_eq!(run.json()["result"]["code"], "00007");

    let mut pay = vec![
        "pay",
        "--amount",
        "50.00",
        "--currency",
        "EUR",
        "--merchant-transaction-id",
        "cli1",
        "--store-card",
        "--recurring",
        "initial",
        "--customer-id",
        &customer_id,
        "--given-name",
        "Ada",
    ];
    pay.extend(card_flags(cards::APPROVED));
    let run = as_merchant(&sandbox, &pay).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let paid = run.json();
    assert_eq!(paid["outcome"], "approved");
    assert_eq!(paid["amount"], "50.00");
    assert_eq!(paid["card"]["last4Digits"], "0051");
    let token = paid["registrationId"].as_str().unwrap().to_owned();
    let payment_id = paid["paymentId"].as_str().unwrap().to_owned();

    let mut register = vec![
        "register",
        "--customer-id",
        &customer_id,
        "--given-name",
        "Ada",
        "--surname",
        "Lovelace",
    ];
    register.extend(card_flags(cards::INSTALLMENTS));
    let run = as_merchant(&sandbox, &register).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let second = run.json()["registrationId"].as_str().unwrap().to_owned();
    let run = as_merchant(
        &sandbox,
        &[
            "register",
            "--iban",
            "DE89370400440532013000",
            "--bic",
            "COBADEFFXXX",
        ],
    )
    .await;
    assert_eq!(run.code, 0, "{}", run.stderr);

    for recurring in ["initial", "repeated"] {
        let run = as_merchant(
            &sandbox,
            &[
                "charge",
                &token,
                "--amount",
                "9.99",
                "--currency",
                "EUR",
                "--recurring",
                recurring,
            ],
        )
        .await;
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(run.json()["outcome"], "approved");
    }
    let run = as_merchant(&sandbox, &["installments", &second]).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["installments"], serde_json::json!([3, 4]));
    let run = as_merchant(
        &sandbox,
        &[
            "charge",
            &second,
            "--amount",
            "120.00",
            "--currency",
            "EUR",
            "--installment",
            "3",
        ],
    )
    .await;
    assert_eq!(run.code, 0, "{}", run.stderr);

    // The library's name and the earlier short one are the same command.
    for name in ["cards-and-accounts", "cards"] {
        let run = as_merchant(&sandbox, &[name, "--customer-id", &customer_id]).await;
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        assert_eq!(run.json()["cards"].as_array().unwrap().len(), 2, "{name}");
    }

    let run = as_merchant(&sandbox, &["invoices", "--all", "--records", "5"]).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = run.json_lines();
    let summary = lines.last().unwrap();
    assert_eq!(summary["outcome"], "ok");
    let all = summary["count"].as_u64().unwrap();
    assert!(all > 12, "{all}");
    assert_eq!(
        lines.len() - 1,
        usize::try_from(all).unwrap(),
        "one invoice a line"
    );
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|line| line["orderId"].is_string())
    );
    let run = as_merchant(&sandbox, &["invoices", "--page", "2", "--records", "5"]).await;
    assert_eq!(run.json()["count"], 5);
    let run = as_merchant(&sandbox, &["invoices", "--page", "99", "--records", "5"]).await;
    assert_eq!(
        (run.code, run.json()["count"].as_u64()),
        (0, Some(0)),
        "a page past the end is empty"
    );

    let run = as_merchant(&sandbox, &["inquiry", &payment_id]).await;
    assert_eq!(
        (
            run.code,
            run.json()["outcome"].as_str(),
            run.json()["transactionOutcome"].as_str()
        ),
        (0, Some("found"), Some("approved"))
    );
    let run = as_merchant(&sandbox, &["inquiry", "--merchant-transaction-id", "cli1"]).await;
    assert_eq!(run.json()["paymentId"].as_str(), Some(payment_id.as_str()));

    let run = as_merchant(&sandbox, &["auth-token"]).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.json()["AuthToken"]
            .as_str()
            .is_some_and(|t| t.len() > 20)
    );

    let run = as_merchant(&sandbox, &["delete-token", &token]).await;
    assert_eq!(
        (run.code, run.json()["result"]["code"].as_str()),
        (0, Some("00003"))
    );
    let run = as_merchant(
        &sandbox,
        &["charge", &token, "--amount", "9.99", "--currency", "EUR"],
    )
    .await;
    assert_eq!(run.code, 3, "a deleted token is refused: {}", run.stdout);
    assert_eq!(run.json()["outcome"], "refused");
    assert!(!run.stderr.is_empty() && run.stderr.lines().count() == 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn declines_pending_and_three_d_secure_have_their_exit_codes() {
    let sandbox = Sandbox::start().await.unwrap();
    for (number, code, outcome) in [
        (cards::DECLINED, 3, "declined"),
        (cards::PENDING, 5, "pending"),
        (cards::THREE_D_SECURE, 5, "pending"),
    ] {
        let id = format!("cli{code}{}", &number[12..]);
        let mut pay = vec![
            "pay",
            "--amount",
            "5.00",
            "--currency",
            "EUR",
            "--merchant-transaction-id",
            &id,
        ];
        pay.extend(card_flags(number));
        let run = as_merchant(&sandbox, &pay).await;
        assert_eq!(run.code, code, "{number}: {}", run.stdout);
        assert_eq!(run.json()["outcome"], outcome);
        if number == cards::THREE_D_SECURE {
            assert!(run.json()["redirect"]["url"].as_str().is_some());
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_key_is_refused_a_stopped_server_fails_and_bad_input_is_usage() {
    let sandbox = Sandbox::start().await.unwrap();
    let (mut flags, _) = merchant_of(&sandbox);
    flags.extend(["--json".to_owned(), "cards".to_owned()]);
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();

    let run = paytoken(&flags, &[("PAYTOKEN_SECURE_KEY", "not-the-key")]).await;
    assert_eq!(run.code, 3, "{}", run.stdout);
    assert_eq!(run.json()["outcome"], "refused");

    let run = paytoken(&flags, &[]).await;
    assert_eq!(run.code, 2, "no secure key: {}", run.stdout);
    assert!(
        run.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("PAYTOKEN_SECURE_KEY")
    );

    let mut pay = vec![
        "pay",
        "--amount",
        "5.00",
        "--currency",
        "EUR",
        "--merchant-transaction-id",
        "x1",
    ];
    pay.extend(card_flags("4000000000000052"));
    let run = as_merchant(&sandbox, &pay).await;
    assert_eq!(
        run.code, 2,
        "a bad card number is found before sending: {}",
        run.stdout
    );
    assert!(!run.stdout.contains("4000000000000052") && !run.stderr.contains("4000000000000052"));

    // Invalid input is found before anything is sent: not even the auth token is asked for.
    let before = sandbox.received().len();
    let mut zero = vec![
        "pay",
        "--amount",
        "0.00",
        "--currency",
        "EUR",
        "--merchant-transaction-id",
        "x2",
    ];
    zero.extend(card_flags(cards::APPROVED));
    let run = as_merchant(&sandbox, &zero).await;
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert_eq!(run.json()["outcome"], "usage_error");
    assert_eq!(run.json()["error"]["kind"], "invalid_input");
    assert_eq!(sandbox.received().len(), before);

    // A number no brand's range holds is not sent as VISA: the brand is asked for.
    let mut unplaceable = vec![
        "pay",
        "--amount",
        "5.00",
        "--currency",
        "EUR",
        "--merchant-transaction-id",
        "x3",
    ];
    unplaceable.extend(card_flags("9000000000000001"));
    let run = as_merchant(&sandbox, &unplaceable).await;
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert_eq!(run.json()["outcome"], "usage_error");
    assert_eq!(run.json()["error"]["kind"], "invalid_input");
    let message = run.json()["error"]["message"].as_str().unwrap().to_owned();
    assert!(message.contains("paymentBrand"), "{message}");
    assert_eq!(sandbox.received().len(), before);

    let run = paytoken(&["--json", "pay", "--no-such-flag"], &[]).await;
    assert_eq!(run.code, 2);
    assert_eq!(run.json()["outcome"], "usage_error");
    let run = paytoken(
        &[
            "cards",
            "--base-url",
            "http://gateway.example",
            "--member-id",
            "1",
        ],
        &[("PAYTOKEN_SECURE_KEY", "k")],
    )
    .await;
    assert_eq!(run.code, 2, "plain http off loopback: {}", run.stderr);

    let base_url = sandbox.base_url().to_owned();
    sandbox.shutdown().await;
    let run = paytoken(&flags, &[("PAYTOKEN_SECURE_KEY", "k")]).await;
    assert_eq!(run.code, 4, "{base_url} is gone: {}", run.stdout);
    assert_eq!(run.json()["outcome"], "transport_error");
    assert_eq!(run.json()["error"]["kind"], "transport_failure");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_runs_the_life_cycle_and_exits_zero() {
    let text = paytoken(&["demo"], &[]).await;
    assert_eq!(text.code, 0, "{}{}", text.stdout, text.stderr);
    assert!(
        text.stdout.contains("27 of 27 steps did what they should"),
        "{}",
        text.stdout
    );
    let run = paytoken(&["demo", "--json"], &[]).await;
    assert_eq!(run.code, 0);
    let json = run.json();
    assert_eq!(json["outcome"], "ok");
    let steps = json["steps"].as_array().unwrap();
    assert!(
        steps.len() >= 24 && steps.iter().all(|s| s["ok"] == true),
        "{json}"
    );
    // The demo masks the auth token, which only `auth-token` prints: the sandbox's tokens
    // are JWT-shaped, base64url of `{"`.
    for output in [&text.stdout, &text.stderr, &run.stdout, &run.stderr] {
        assert!(!output.contains("eyJ"), "{output}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sandbox_server_announces_itself_and_serves() {
    let (mut child, first) = sandbox_process(&["--addr", "127.0.0.1:0", "--latency", "1ms"]).await;
    let announced: Value = serde_json::from_str(&first).unwrap();
    for field in [
        "baseUrl",
        "partnerId",
        "memberId",
        "username",
        "secureKey",
        "merchants",
    ] {
        assert!(announced.get(field).is_some(), "{field}: {announced}");
    }
    assert_eq!(announced["merchants"].as_array().unwrap().len(), 2);
    let text = |name: &str| announced[name].as_str().unwrap().to_owned();
    let run = paytoken(
        &[
            "--json",
            "--base-url",
            &text("baseUrl"),
            "--member-id",
            &text("memberId"),
            "--partner-id",
            &text("partnerId"),
            "--username",
            &text("username"),
            "cards",
        ],
        &[("PAYTOKEN_SECURE_KEY", &text("secureKey"))],
    )
    .await;
    child.kill().unwrap();
    let _ = child.wait();
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_partner_calls_without_a_member_id() {
    let sandbox = Sandbox::start().await.unwrap();
    let partner = sandbox.config().partner(DEFAULT_PARTNER_ID).unwrap();
    let run = paytoken(
        &[
            "--json",
            "--base-url",
            sandbox.base_url(),
            "--partner-id",
            DEFAULT_PARTNER_ID,
            "--username",
            partner.username.as_str(),
            "cards",
        ],
        &[("PAYTOKEN_SECURE_KEY", partner.secure_key.expose_secret())],
    )
    .await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["outcome"], "ok");
    let paths: Vec<String> = sandbox.received().into_iter().map(|r| r.path).collect();
    assert_eq!(
        paths.first().map(String::as_str),
        Some(paytoken::ops::auth_token::PARTNER_PATH),
        "the partner's token first: {paths:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_documentations_sample_ids_pay_and_are_found_by_inquiry() {
    let sandbox = Sandbox::start().await.unwrap();
    for id in [
        "Rest Transaction 01",
        "10thOct2016-029751",
        "order_17",
        "ORD-2026-0001",
        "3f2b8c1e-5d4a-4e7b-9a6c-0d1e2f3a4b5c",
        "shop/orders:17.b",
    ] {
        let mut pay = vec![
            "pay",
            "--amount",
            "50.00",
            "--currency",
            "EUR",
            "--merchant-transaction-id",
            id,
        ];
        pay.extend(card_flags(cards::APPROVED));
        let run = as_merchant(&sandbox, &pay).await;
        assert_eq!(run.code, 0, "{id}: {}{}", run.stdout, run.stderr);
        assert_eq!(run.json()["merchantTransactionId"], id);
        let payment_id = run.json()["paymentId"].as_str().unwrap().to_owned();

        let run = as_merchant(&sandbox, &["inquiry", "--merchant-transaction-id", id]).await;
        assert_eq!(run.code, 0, "{id}: {}{}", run.stdout, run.stderr);
        assert_eq!(run.json()["paymentId"], payment_id.as_str(), "{id}");
        assert_eq!(run.json()["status"], "capturesuccess", "the long status");
    }
    let run = as_merchant(
        &sandbox,
        &["inquiry", "--merchant-transaction-id", "bad\u{1b}[2Jid"],
    )
    .await;
    assert_eq!(
        run.code, 2,
        "a control character is refused: {}",
        run.stdout
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_passes_against_a_sandbox_that_varies_its_answers() {
    for seed in ["1", "7", "42"] {
        let run = paytoken(&["demo", "--vary-answers", seed], &[]).await;
        assert_eq!(run.code, 0, "seed {seed}: {}{}", run.stdout, run.stderr);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_about_another_transaction_shows_both_values_and_exits_4() {
    let base_url = answering(
        r#"{"paymentId":"54279","merchantTransactionId":"order20261122A","amount":"50.00","currency":"EUR","result":{"code":"00001","description":"Transaction succeeded"},"transactionStatus":"Y"}"#,
    )
    .await;
    let mut args = vec![
        "--json",
        "--base-url",
        &base_url,
        "--member-id",
        "11344",
        "pay",
        "--amount",
        "50.00",
        "--currency",
        "EUR",
        "--merchant-transaction-id",
        "Rest Transaction 01",
    ];
    args.extend(card_flags(cards::APPROVED));
    let env = [
        ("PAYTOKEN_SECURE_KEY", "a-key"),
        ("PAYTOKEN_AUTH_TOKEN", "fixed.token.value"),
    ];
    let run = paytoken(&args, &env).await;
    assert_eq!(run.code, 4, "{}{}", run.stdout, run.stderr);
    let json = run.json();
    assert_eq!(json["outcome"], "outcome_unknown", "{json}");
    assert_eq!(json["merchantTransactionId"], "Rest Transaction 01");
    let contradiction = &json["contradiction"];
    assert_eq!(contradiction["field"], "merchantTransactionId", "{json}");
    assert_eq!(contradiction["sent"], "Rest Transaction 01");
    assert_eq!(contradiction["answered"], "order20261122A");
    assert!(
        run.stderr.contains("Rest Transaction 01") && run.stderr.contains("order20261122A"),
        "both values on stderr: {}",
        run.stderr
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_back_office_from_the_command_line() {
    let sandbox = Sandbox::start().await.unwrap();
    let pay = |order: &'static str| {
        let mut pay = vec![
            "pay",
            "--amount",
            "50.00",
            "--currency",
            "EUR",
            "--type",
            "PA",
            "--merchant-transaction-id",
            order,
        ];
        pay.extend(card_flags(cards::APPROVED));
        pay
    };
    let run = as_merchant(&sandbox, &pay("bo1")).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let id = run.json()["paymentId"].as_str().unwrap().to_owned();

    let run = as_merchant(
        &sandbox,
        &["capture", &id, "--amount", "30.00", "--currency", "EUR"],
    )
    .await;
    assert_eq!(
        (run.code, run.json()["result"]["code"].as_str()),
        (0, Some("00004")),
        "{}",
        run.stderr
    );
    for (amount, code, exit) in [("10.00", "00005", 0), ("25.00", "90030", 3)] {
        let run = as_merchant(
            &sandbox,
            &["refund", &id, "--amount", amount, "--currency", "EUR"],
        )
        .await;
        assert_eq!(run.code, exit, "{}", run.stdout);
        let result = &run.json()["result"]["code"];
        assert_eq!(result.as_str(), Some(code), "{}", run.stdout);
    }
    let run = as_merchant(&sandbox, &["inquiry", &id]).await;
    assert_eq!(run.json()["status"], "markedforreversal", "{}", run.stdout);

    let run = as_merchant(&sandbox, &pay("bo2")).await;
    let other = run.json()["paymentId"].as_str().unwrap().to_owned();
    let run = as_merchant(&sandbox, &["cancel", &other]).await;
    assert_eq!(
        (run.code, run.json()["result"]["code"].as_str()),
        (0, Some("00006")),
        "{}",
        run.stdout
    );
    let run = as_merchant(&sandbox, &["cancel", &other]).await;
    assert_eq!(run.code, 3, "a cancelled payment refuses: {}", run.stdout);
    assert_eq!(run.json()["outcome"], "refused");

    // A series opened by a payment that stored its card, repeated by that payment's id
    // (`--register` is `--store-card`'s alias).
    let mut first = vec![
        "pay",
        "--amount",
        "9.99",
        "--currency",
        "EUR",
        "--merchant-transaction-id",
        "bo3",
        "--register",
        "--recurring",
        "initial",
    ];
    first.extend(card_flags(cards::APPROVED));
    let run = as_merchant(&sandbox, &first).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let first_id = run.json()["paymentId"].as_str().unwrap().to_owned();
    let run = as_merchant(
        &sandbox,
        &["repeat", &first_id, "--amount", "9.99", "--currency", "EUR"],
    )
    .await;
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(run.json()["outcome"], "approved");
    assert_ne!(run.json()["paymentId"].as_str(), Some(first_id.as_str()));
    sandbox.shutdown().await;
}
