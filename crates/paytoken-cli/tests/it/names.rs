//! One name per operation: every operation's command is its one name
//! ([`OperationKind::name`], `-` for `_`), and so are the JSON `operation` of its answer and
//! of its refusal, and the refusal's text. The client's methods, tracing and errors are held
//! to the same names in `tests/tests/it/names.rs`. Aliases (`charge`, `cards`, `--register`)
//! stay aliases.

use std::collections::BTreeSet;

use paytoken::OperationKind;
use paytoken_sandbox::{Sandbox, cards};
use paytoken_test_support::raw;
use serde_json::Value;

use crate::common::{as_merchant, card_flags};

/// The sandbox the operations run against, and the names they answered with.
struct Names {
    sandbox: Sandbox,
    answered: BTreeSet<&'static str>,
}

impl Names {
    /// Runs the command named after `kind` with `args` (and `--json`), and checks that the
    /// answer names `kind` by its one name and, where it was refused, that the error's text
    /// does too.
    async fn run(&mut self, kind: OperationKind, args: &[&str]) -> Value {
        let name = kind.name();
        let command = name.replace('_', "-");
        let mut line = vec![command.as_str()];
        line.extend_from_slice(args);
        let run = as_merchant(&self.sandbox, &line).await;
        let json = run.json();
        assert_eq!(json["operation"], name, "{line:?}: {}", run.stdout);
        if json["error"].is_object() {
            let message = json["error"]["message"].as_str().unwrap();
            assert!(message.starts_with(&format!("{name}: ")), "{message}");
        } else {
            assert_eq!(run.code, 0, "{line:?}: {}", run.stdout);
            self.answered.insert(name);
        }
        json
    }
}

fn text(json: &Value, field: &str) -> String {
    json[field]
        .as_str()
        .unwrap_or_else(|| panic!("no {field}: {json}"))
        .to_owned()
}

/// `pay`'s arguments for a new order, with `extra` and the approving test card.
fn payment<'a>(order: &'a str, payment_type: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut line = vec![
        "--type",
        payment_type,
        "--amount",
        "50.00",
        "--currency",
        "EUR",
        "--merchant-transaction-id",
        order,
    ];
    line.extend_from_slice(extra);
    line.extend(card_flags(cards::APPROVED));
    line
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_operation_s_command_answer_and_refusal_say_its_one_name() {
    use OperationKind as K;
    let mut names = Names {
        sandbox: Sandbox::start().await.unwrap(),
        answered: BTreeSet::new(),
    };
    let money = ["--amount", "1.00", "--currency", "EUR"];

    names.run(K::AuthToken, &[]).await;
    let token = raw::merchant_token(&names.sandbox, raw::merchant(&names.sandbox)).await;
    let token_file = std::env::temp_dir().join(format!("paytoken-names-{}", std::process::id()));
    std::fs::write(&token_file, token.expose_secret()).unwrap();
    let token_file = token_file.to_str().unwrap().to_owned();
    names
        .run(K::RegenerateAuthToken, &["--auth-token-file", &token_file])
        .await;
    let _ = std::fs::remove_file(&token_file);
    let customer = [
        "--given-name",
        "Ada",
        "--surname",
        "L",
        "--email",
        "a@example.com",
    ];
    names.run(K::CustomerSignup, &customer).await;
    let series = ["--store-card", "--recurring", "initial"];
    let stored = names
        .run(K::Payment, &payment("names-1", "DB", &series))
        .await;
    let (paid, token) = (text(&stored, "paymentId"), text(&stored, "registrationId"));
    let second = names
        .run(K::Registration, &card_flags(cards::INSTALLMENTS))
        .await;
    let second = text(&second, "registrationId");
    names
        .run(K::TokenPayment, &[&[&*token][..], &money].concat())
        .await;
    names.run(K::Installments, &[&second]).await;
    names.run(K::CardsAndAccounts, &[]).await;
    names.run(K::InvoiceList, &[]).await;
    names.run(K::Inquiry, &[&paid]).await;
    names
        .run(K::RepeatPayment, &[&[&*paid][..], &money].concat())
        .await;
    let reserved = names.run(K::Payment, &payment("names-2", "PA", &[])).await;
    let reserved = text(&reserved, "paymentId");
    names
        .run(K::Capture, &[&[&*reserved][..], &money].concat())
        .await;
    names
        .run(K::Refund, &[&[&*reserved][..], &money].concat())
        .await;
    let other = names.run(K::Payment, &payment("names-3", "PA", &[])).await;
    let other = text(&other, "paymentId");
    names.run(K::Cancel, &[&other]).await;
    names.run(K::DeleteToken, &[&token]).await;
    assert_eq!(
        names.answered,
        OperationKind::ALL.map(OperationKind::name).into(),
        "every operation answered"
    );

    // Refused, by the token just deleted or the pre-authorisation just cancelled: the same
    // names in the error's text.
    for (kind, id, rest) in [
        (K::TokenPayment, &token, &money[..]),
        (K::Installments, &token, &[]),
        (K::DeleteToken, &token, &[]),
        (K::Capture, &other, &money),
        (K::Refund, &other, &money),
        (K::Cancel, &other, &[]),
    ] {
        let json = names.run(kind, &[&[id.as_str()][..], rest].concat()).await;
        assert_eq!(json["outcome"], "refused", "{}: {json}", kind.name());
    }
    names.sandbox.shutdown().await;
}
