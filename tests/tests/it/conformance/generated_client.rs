//! A client generated from the kit's `openapi.yaml` by openapi-python-client, at work
//! against the sandbox over TLS: the generator must read the document without a warning
//! (a model for every form and every answer), and the kit's `generated_client.py` fetches
//! an auth token, signs a customer up, pays with a card it stores, and finds the card in
//! the customer's list, with the generated calls and models.

use std::path::Path;
use std::process::Command;

use paytoken_sandbox::{DEFAULT_MERCHANT_ID, Sandbox};
use paytoken_test_support::generated::{generate, kit, printed, python};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs openapi-python-client; cargo xtask ci installs it and runs this test"]
async fn a_generated_python_client_signs_up_pays_and_lists_cards_over_tls() {
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).join("generated-client");
    let package = generate(&folder);

    let (ca, identity) = crate::common::test_ca();
    let ca_file = folder.join("ca.der");
    std::fs::write(&ca_file, ca).unwrap();
    let sandbox = Sandbox::builder().tls(identity).start().await.unwrap();
    let config = sandbox.config();
    let partner = &config.partners[0];
    let merchant = config.merchant(DEFAULT_MERCHANT_ID).unwrap();
    let mut command = Command::new(python());
    command
        .arg(kit().join("generated_client.py"))
        .arg("--client")
        .arg(&package)
        .args(["--base-url", sandbox.base_url()])
        .arg("--ca-file")
        .arg(&ca_file)
        .args(["--partner-id", partner.partner_id.as_str()])
        .args(["--username", merchant.username.as_str()])
        .args(["--member-id", merchant.member_id.as_str()])
        .env("PAYTOKEN_SECURE_KEY", merchant.secure_key.expose_secret());
    if let Some(account) = &merchant.account_id {
        command.args(["--account-id", account.as_str()]);
    }
    if let Some(terminal) = &merchant.terminal_id {
        command.args(["--terminal-id", terminal.as_str()]);
    }
    // The sandbox answers on this runtime's workers while the script runs.
    let output = tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap();
    sandbox.shutdown().await;
    let text = printed(&output);
    assert!(output.status.success(), "{text}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let steps: Vec<&str> = stdout
        .lines()
        .filter_map(|line| line.split_once(':').map(|(step, _)| step))
        .collect();
    assert_eq!(
        steps,
        [
            "auth token",
            "customer sign-up",
            "payment",
            "cards and accounts"
        ],
        "{text}"
    );
    assert!(stdout.contains("payment: approved"), "{text}");
    assert!(
        stdout.contains("the stored one among them"),
        "the paid card is listed: {text}"
    );
}
