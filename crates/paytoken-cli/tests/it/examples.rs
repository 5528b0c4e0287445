//! Every command as a shell user meets it: the example lines that end its long help, run
//! against a sandbox (readable, then `--json` against its schema), and a failing run of
//! each. Readable mode keeps results on stdout and says an error once, on stderr.

use std::io::{BufRead as _, BufReader};
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::common::{Run, assert_valid, paytoken};
use crate::manual::every_command;
use paytoken_sandbox::{
    DEFAULT_MERCHANT_ID, DEFAULT_MERCHANT_SECURE_KEY, DEFAULT_MERCHANT_USERNAME,
    DEFAULT_PARTNER_ID, Sandbox, cards,
};
use paytoken_test_support::raw;
use serde_json::Value;

/// Order ids for the payments the placeholders need, each new (the sandbox refuses one
/// twice, as gateways do).
static ORDERS: AtomicUsize = AtomicUsize::new(1);

/// A cassette's line: an auth token fetched (what `replay`, `demo --answers-like` and
/// `sandbox --answers-like` read).
const CASSETTE_LINE: &str = concat!(
    r#"{"cassette":1,"number":1,"time":"2026-11-26 10:00:00 UTC","operation":"fetch_auth_token","#,
    r#""request":{"method":"POST","path":"/transactionServices/REST/v1/authToken","headers":{},"#,
    r#""fields":[{"name":"authentication.partnerId","value":"100"}],"unrecorded":null},"#,
    r#""answer":{"status":200,"headers":{},"body":{"AuthToken":"[redacted]","#,
    r#""result":{"code":"200","description":"Token generated"}},"unrecorded":null},"error":null}"#,
    "\n"
);

/// The commands that serve or follow until interrupted: run until their first line.
const SERVERS: [&str; 4] = ["sandbox", "listen", "logs", "record"];

/// The commands that call no gateway.
const LOCAL: [&str; 10] = [
    "conform",
    "demo",
    "replay",
    "sandbox",
    "listen",
    "config",
    "whoami",
    "completions",
    "man-pages",
    "vectors",
];

/// A home of the test's own: its profiles file names the sandbox as `default` and
/// `staging`, the key beside it.
struct Home {
    path: PathBuf,
    config: String,
}

impl Home {
    fn new(sandbox: &Sandbox) -> Self {
        let path = std::env::temp_dir().join(format!("paytoken-examples-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        let folder = path.join("config").join("paytoken");
        std::fs::create_dir_all(&folder).unwrap();
        let profile = |name: &str| {
            format!(
                "[profiles.{name}]\nbase_url = \"{}\"\nmember_id = \"{DEFAULT_MERCHANT_ID}\"\n\
                 partner_id = \"{DEFAULT_PARTNER_ID}\"\nusername = \"{DEFAULT_MERCHANT_USERNAME}\"\n\
                 secure_key_file = \"sandbox.key\"\n",
                sandbox.base_url()
            )
        };
        for (file, text) in [
            (
                "config.toml",
                format!("{}\n{}", profile("default"), profile("staging")),
            ),
            ("sandbox.key", DEFAULT_MERCHANT_SECURE_KEY.to_owned()),
        ] {
            std::fs::write(folder.join(file), text).unwrap();
            std::fs::set_permissions(folder.join(file), std::fs::Permissions::from_mode(0o600))
                .unwrap();
        }
        // The cassette the examples of `replay` and `--answers-like` read: one exchange, as
        // `record` writes it.
        std::fs::write(path.join("staging.jsonl"), CASSETTE_LINE).unwrap();
        let config = path.join("config").to_str().unwrap().to_owned();
        Self { path, config }
    }

    fn env(&self) -> [(&str, &str); 1] {
        [("XDG_CONFIG_HOME", self.config.as_str())]
    }

    /// Runs `args` with the home's profiles.
    async fn run(&self, args: &[&str]) -> Run {
        paytoken(args, &self.env()).await
    }

    /// Runs `args` with `--json` and gives the object.
    async fn json(&self, args: &[&str]) -> Value {
        let mut line = vec!["--json"];
        line.extend_from_slice(args);
        let run = self.run(&line).await;
        assert_eq!(run.code, 0, "{args:?}: {}", run.stdout);
        run.json()
    }

    /// A fresh id for a word in capitals of `command`'s examples.
    async fn fill(&self, sandbox: &Sandbox, command: &str, word: &str) -> String {
        let card = |number| {
            vec![
                "--card-number",
                number,
                "--expiry-month",
                "12",
                "--expiry-year",
                "2030",
                "--cvv",
                "123",
            ]
        };
        let order = format!("example-{}", ORDERS.fetch_add(1, Ordering::Relaxed));
        let pay = |kind: &'static str, extra: &[&'static str], number| {
            let mut line = vec![
                "pay",
                "--type",
                kind,
                "--amount",
                "50.00",
                "--currency",
                "EUR",
                "--merchant-transaction-id",
                &order,
            ];
            line.extend_from_slice(extra);
            line.extend(card(number));
            line
        };
        match (word, command) {
            ("EVENT_ID", _) => {
                // A 3-D Secure payment decided: its notification (to nowhere) is an event.
                let mut line = pay(
                    "DB",
                    &["--notification-url", "http://127.0.0.1:9/"],
                    cards::THREE_D_SECURE,
                );
                line.insert(0, "--json");
                let run = self.run(&line).await;
                let payment_id = run.json()["paymentId"].as_str().unwrap().to_owned();
                assert!(sandbox.approve_three_d_secure(&payment_id));
                let events = self.json(&["events", "list"]).await;
                let last = events["notifications"].as_array().unwrap().last().unwrap();
                last["number"].to_string()
            }
            ("CUSTOMER_ID", _) => {
                let signed = self
                    .json(&[
                        "customer-signup",
                        "--given-name",
                        "Ada",
                        "--surname",
                        "L",
                        "--email",
                        "a@example.com",
                    ])
                    .await;
                signed["customerId"].as_str().unwrap().to_owned()
            }
            ("REGISTRATION_ID", "installments") => {
                let paid = self
                    .json(&pay("DB", &["--store-card"], cards::INSTALLMENTS))
                    .await;
                paid["registrationId"].as_str().unwrap().to_owned()
            }
            ("REGISTRATION_ID", _) => {
                let paid = self
                    .json(&pay("DB", &["--store-card"], cards::APPROVED))
                    .await;
                paid["registrationId"].as_str().unwrap().to_owned()
            }
            ("PAYMENT_ID", "capture" | "cancel") => {
                let paid = self.json(&pay("PA", &[], cards::APPROVED)).await;
                paid["paymentId"].as_str().unwrap().to_owned()
            }
            ("PAYMENT_ID", _) => {
                let extra: &[&str] = &["--store-card", "--recurring", "initial"];
                let paid = self.json(&pay("DB", extra, cards::APPROVED)).await;
                paid["paymentId"].as_str().unwrap().to_owned()
            }
            ("AUTH_TOKEN_FILE", _) => {
                // A token fetched now, in a file of its own: each run exchanges its own.
                let token = raw::merchant_token(sandbox, raw::merchant(sandbox)).await;
                let path = self.path.join(format!("{order}.token"));
                std::fs::write(&path, token.expose_secret()).unwrap();
                path.to_str().unwrap().to_owned()
            }
            other => panic!("no value for {other:?}"),
        }
    }

    /// An example line as words to run: `~` is the home, a word in capitals ending in `_ID`
    /// a fresh id (in `_FILE`, a fresh file), and a redirection left out (its output is the
    /// run's stdout).
    async fn words(&self, sandbox: &Sandbox, command: &str, line: &str) -> Vec<String> {
        assert!(
            !line.contains(['"', '\'']),
            "no quoting in examples: {line}"
        );
        let mut words = Vec::new();
        for word in line
            .split_whitespace()
            .skip(1)
            .take_while(|word| *word != ">")
        {
            let word = if let Some(rest) = word.strip_prefix("~/") {
                self.path.join(rest).to_str().unwrap().to_owned()
            } else if (word.ends_with("_ID") || word.ends_with("_FILE"))
                && word.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
            {
                self.fill(sandbox, command, word).await
            } else {
                word.to_owned()
            };
            words.push(word);
        }
        words
    }
}

/// The example lines at the end of `command`'s long help.
async fn examples(command: &[String]) -> Vec<String> {
    // Not through `paytoken()`: the examples show the sandbox's test card numbers.
    let help = Command::new(env!("CARGO_BIN_EXE_paytoken"))
        .args(command)
        .arg("--help")
        .output()
        .unwrap();
    assert!(help.status.success(), "{command:?}");
    let lines: Vec<String> = String::from_utf8(help.stdout)
        .unwrap()
        .lines()
        .skip_while(|line| *line != "Examples:")
        .skip(1)
        .map(|line| {
            line.strip_prefix("  $ ")
                .unwrap_or_else(|| panic!("{command:?}: {line}"))
        })
        .map(str::to_owned)
        .collect();
    assert!(
        !lines.is_empty() && lines.len() <= 2,
        "{command:?}: one or two examples"
    );
    for line in &lines {
        assert!(line.starts_with("paytoken "), "{line}");
    }
    lines
}

/// Readable mode: a success prints its result on stdout and no error; a failure says its
/// error once, on stderr (`paytoken: ...`, or clap's `error: ...` with the usage), and not
/// on stdout.
fn assert_readable(what: &str, run: &Run) {
    let errors: Vec<&str> = run
        .stderr
        .lines()
        .filter(|line| line.starts_with("paytoken: ") || line.starts_with("error: "))
        .collect();
    if run.code == 0 {
        assert!(
            errors.is_empty(),
            "{what}: an error on a success: {}",
            run.stderr
        );
        assert!(!run.stdout.is_empty(), "{what}: no result on stdout");
        return;
    }
    assert_eq!(errors.len(), 1, "{what}: the error once: {}", run.stderr);
    let message = errors[0]
        .trim_start_matches("paytoken: ")
        .trim_start_matches("error: ");
    assert!(
        !run.stdout.contains(message),
        "{what}: the error on stdout too: {}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("error"),
        "{what}: an error on stdout: {}",
        run.stdout
    );
}

/// Starts a server command in the home (where `record`'s default cassette goes) and gives
/// its first line of stdout.
fn first_line(words: &[String], home: &Home) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_paytoken"))
        .args(words)
        .current_dir(&home.path)
        .env("XDG_CONFIG_HOME", &home.config)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    line
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_example_of_every_command_runs_and_says_errors_once_on_stderr() {
    let sandbox = Sandbox::start().await.unwrap();
    let home = Home::new(&sandbox);
    let mut ran = 0;
    let mut commands = every_command().await;
    // `doctor` checks the sandbox's clock against the machine's, and the examples of
    // `clock advance` move it hours on: doctor goes first.
    // `conform` runs the adapter the example of `vectors` writes: it goes last.
    commands.sort_by_key(|command| (command[0] != "doctor", command[0] == "conform"));
    for command in commands {
        let name = command[0].as_str();
        for line in examples(&command).await {
            if SERVERS.contains(&name) {
                // A port of the system's choosing, not the example's.
                let mut words = home.words(&sandbox, name, &line).await;
                for word in &mut words {
                    if word.starts_with("127.0.0.1:") && word.len() == "127.0.0.1:8080".len() {
                        *word = "127.0.0.1:0".to_owned();
                    }
                }
                let first = first_line(&words, &home);
                assert!(!first.is_empty(), "{line}: no first line");
                if name == "sandbox" {
                    assert_valid(&serde_json::from_str(&first).unwrap());
                }
                ran += 1;
                continue;
            }
            let words = home.words(&sandbox, name, &line).await;
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            let run = home.run(&words).await;
            assert_eq!(run.code, 0, "{line}: {}{}", run.stdout, run.stderr);
            assert_readable(&line, &run);
            if !words.contains(&"--json") {
                // The same line for scripts: valid by its schema (the helper checks). A
                // payment's order id is new: the gateway refuses one twice.
                let mut fresh = home.words(&sandbox, name, &line).await;
                if name == "pay" {
                    for pair in 1..fresh.len() {
                        if fresh[pair - 1] == "--merchant-transaction-id" {
                            fresh[pair].push_str("-json");
                        }
                    }
                }
                let mut json: Vec<&str> = vec!["--json"];
                json.extend(fresh.iter().map(String::as_str));
                let run = home.run(&json).await;
                assert_eq!(run.code, 0, "{line} --json: {}", run.stdout);
            }
            ran += 1;
            if name == "faults" {
                // The faults an example queued are for nobody else's requests.
                assert_eq!(home.run(&["faults", "clear"]).await.code, 0);
            }
        }
        // And a run that fails: a gateway that is not there, or a flag that is not; said
        // once on stderr, and for scripts by the schema's error.
        // `doctor` reports an absent gateway as a failed check, a result on stdout, and
        // `record` calls the gateway only when its client does (their own tests hold
        // both): their failing run is a flag that is not, too.
        let mut failing = if LOCAL.contains(&name) || ["doctor", "record"].contains(&name) {
            let mut words = command.clone();
            words.push("--no-such-flag".to_owned());
            words
        } else {
            let first = &examples(&command).await[0];
            let mut words = home.words(&sandbox, name, first).await;
            words.extend(["--base-url".to_owned(), "http://127.0.0.1:9".to_owned()]);
            words
        };
        let words: Vec<&str> = failing.iter().map(String::as_str).collect();
        let run = home.run(&words).await;
        assert_ne!(run.code, 0, "{words:?}");
        assert_readable(&words.join(" "), &run);
        failing.insert(0, "--json".to_owned());
        let words: Vec<&str> = failing.iter().map(String::as_str).collect();
        let run = home.run(&words).await;
        assert_ne!(run.code, 0, "{words:?}");
        assert!(run.json()["error"]["message"].is_string(), "{}", run.stdout);
    }
    assert!(ran >= 30, "{ran} examples");
    let _ = std::fs::remove_dir_all(Path::new(&home.path));
}
