//! What the command's tests share: running the binary as a user does, the sandbox's
//! merchant as flags, and a server that answers anything with a fixed body.

use std::process::Command;

use paytoken_sandbox::{DEFAULT_MERCHANT_ID, DEFAULT_PARTNER_ID, Sandbox, cards};
pub(crate) use paytoken_test_support::http::read_request;
use paytoken_test_support::schema::Schema;
use serde_json::Value;

pub(crate) struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub(crate) fn json(&self) -> Value {
        let mut lines = self.stdout.lines();
        let first = lines.next().unwrap_or_default();
        assert!(
            lines.next().is_none(),
            "one JSON object, alone: {}",
            self.stdout
        );
        serde_json::from_str(first).unwrap_or_else(|e| panic!("{e}: {}", self.stdout))
    }

    /// JSON Lines: one object a line (`invoices --all --json`).
    pub(crate) fn json_lines(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
            .collect()
    }
}

/// Runs the binary with `args` and the environment `env` (and no other `PAYTOKEN_*`, and
/// no profiles file unless `env` names one: a profile of the machine's user stays out).
pub(crate) async fn paytoken(args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_paytoken"));
    command.args(args);
    for (name, _) in std::env::vars() {
        if name.starts_with("PAYTOKEN_") {
            command.env_remove(name);
        }
    }
    command.env(
        "XDG_CONFIG_HOME",
        std::env::temp_dir().join("paytoken-tests-without-profiles"),
    );
    command.envs(env.iter().copied());
    let output = tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap();
    let run = Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    };
    assert_no_secret(&run);
    if args.contains(&"--json") && !run.stdout.is_empty() {
        assert_documented(&run);
    }
    run
}

/// The command's JSON schemas, in `schemas/`; `conform`'s report is the kit's.
pub(crate) fn schema_of(operation: &str) -> Schema {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = if operation == "conform" {
        manifest.join("../../fixtures/conformance/schemas/conform-report.schema.json")
    } else {
        manifest.join(format!("schemas/{operation}.schema.json"))
    };
    assert!(path.exists(), "no schema for the operation {operation:?}");
    Schema::read(&path)
}

/// Asserts that a line of `--json` output is valid by its operation's schema.
pub(crate) fn assert_valid(line: &Value) {
    let operation = line["operation"]
        .as_str()
        .unwrap_or_else(|| panic!("no operation: {line}"));
    assert!(line["outcome"].is_string(), "no outcome: {line}");
    let errors = schema_of(operation).errors(line);
    assert!(errors.is_empty(), "{line}\n{}", errors.join("\n"));
}

/// Asserts that a `--json` run is what its schema and README's table of outcomes say:
/// every line valid, and the exit code one that README gives the last line's outcome.
pub(crate) fn assert_documented(run: &Run) {
    let lines = run.json_lines();
    for line in &lines {
        assert_valid(line);
    }
    let outcome = lines.last().unwrap()["outcome"]
        .as_str()
        .unwrap()
        .to_owned();
    let exits = readme_exits(&outcome);
    assert!(
        exits.contains(&run.code),
        "README gives {outcome} the exit codes {exits:?}, the run exited {}: {}",
        run.code,
        run.stdout
    );
}

/// The exit codes README's table of outcomes gives `outcome`.
pub(crate) fn readme_exits(outcome: &str) -> Vec<i32> {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let row = readme
        .lines()
        .find(|line| line.starts_with(&format!("| `{outcome}` |")))
        .unwrap_or_else(|| panic!("README's table has no row for {outcome}"));
    let cell = row.split('|').nth(2).unwrap();
    cell.split(|c: char| !c.is_ascii_digit())
        .filter(|digits| !digits.is_empty())
        .map(|digits| digits.parse().unwrap())
        .collect()
}

/// The flags and environment of the sandbox's default merchant.
pub(crate) fn merchant_of(sandbox: &Sandbox) -> (Vec<String>, Vec<(&'static str, String)>) {
    let merchant = sandbox.config().merchant(DEFAULT_MERCHANT_ID).unwrap();
    let mut flags = vec![
        "--base-url".to_owned(),
        sandbox.base_url().to_owned(),
        "--member-id".to_owned(),
        DEFAULT_MERCHANT_ID.to_owned(),
        "--partner-id".to_owned(),
        DEFAULT_PARTNER_ID.to_owned(),
        "--username".to_owned(),
        merchant.username.as_str().to_owned(),
    ];
    if let Some(terminal) = merchant.terminal_id {
        flags.extend(["--terminal-id".to_owned(), terminal.to_string()]);
    }
    let env = vec![(
        "PAYTOKEN_SECURE_KEY",
        merchant.secure_key.expose_secret().to_owned(),
    )];
    (flags, env)
}

/// Runs `args` as the default merchant of `sandbox`, with `--json`.
pub(crate) async fn as_merchant(sandbox: &Sandbox, args: &[&str]) -> Run {
    let (mut flags, env) = merchant_of(sandbox);
    flags.push("--json".to_owned());
    flags.extend(args.iter().map(|a| (*a).to_owned()));
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let env: Vec<(&str, &str)> = env.iter().map(|(n, v)| (*n, v.as_str())).collect();
    paytoken(&flags, &env).await
}

pub(crate) fn card_flags(number: &'static str) -> [&'static str; 8] {
    [
        "--card-number",
        number,
        "--expiry-month",
        "12",
        "--expiry-year",
        "2099",
        "--cvv",
        "123",
    ]
}

/// Asserts that a run's output shows no secret: the sandbox's secure keys, a whole test
/// card number, a CVV or key field. (Only `paytoken sandbox`, not run through here, prints
/// sandbox keys, by design.)
pub(crate) fn assert_no_secret(run: &Run) {
    let config = paytoken_sandbox::SandboxConfig::default();
    let keys: Vec<String> = config
        .partners
        .iter()
        .flat_map(|partner| {
            std::iter::once(partner.secure_key.expose_secret().to_owned()).chain(
                partner
                    .merchants
                    .iter()
                    .map(|m| m.secure_key.expose_secret().to_owned()),
            )
        })
        .collect();
    let output = format!("{}{}", run.stdout, run.stderr);
    for secret in keys.iter().map(String::as_str).chain([
        cards::APPROVED,
        cards::DECLINED,
        cards::PENDING,
        cards::THREE_D_SECURE,
        cards::INSTALLMENTS,
        "card.cvv=",
        "authentication.sKey=",
    ]) {
        assert!(
            !output.contains(secret),
            "an output shows {secret:?}: {output}"
        );
    }
}

/// Starts `paytoken sandbox` with `args` (stdout and stderr piped) and reads the first line
/// it prints, the announcement.
pub(crate) async fn sandbox_process(args: &[&str]) -> (std::process::Child, String) {
    let mut line = vec!["sandbox"];
    line.extend_from_slice(args);
    server_process(&line).await
}

/// Starts `paytoken ARGS` (a command that serves until stopped; stdout and stderr piped,
/// no profiles file) and reads the first line it prints, the announcement.
pub(crate) async fn server_process(args: &[&str]) -> (std::process::Child, String) {
    use std::io::{BufRead as _, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_paytoken"))
        .args(args)
        .env(
            "XDG_CONFIG_HOME",
            std::env::temp_dir().join("paytoken-tests-without-profiles"),
        )
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let first = tokio::task::spawn_blocking(move || {
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).unwrap();
        line
    })
    .await
    .unwrap();
    (child, first)
}

/// POSTs `body` as `content_type` to `url` on a connection of its own: the whole answer,
/// head and body, as text.
pub(crate) async fn post_raw(url: &str, content_type: &str, body: &str) -> String {
    paytoken_test_support::http::post(url, &[("Content-Type", content_type)], body).await
}

/// A server that answers every request with `body`, as a gateway (or a proxy that mixed
/// up its connections) might.
pub(crate) async fn answering(body: &'static str) -> String {
    answering_with(move |_| body.to_owned()).await
}

/// A server that answers the `n`th request (from 0) with `body(n)`.
pub(crate) async fn answering_with(body: impl Fn(u64) -> String + Send + 'static) -> String {
    use tokio::io::AsyncWriteExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let mut served = 0;
        while let Ok((mut stream, _)) = listener.accept().await {
            read_request(&mut stream).await;
            let body = body(served);
            served += 1;
            let answer = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(answer.as_bytes()).await;
        }
    });
    format!("http://{address}")
}

/// Runs `args` as a merchant of the gateway at `url` (a test's own server) that fetches its
/// auth token as partner 100's user `shop`, the secure key in the environment.
pub(crate) async fn at_gateway(url: &str, args: &[&str]) -> Run {
    at_gateway_with_key(url, "a-secure-key-for-tests", args).await
}

/// [`at_gateway`], with the secure key `key`.
pub(crate) async fn at_gateway_with_key(url: &str, key: &str, args: &[&str]) -> Run {
    let mut line = vec![
        "--base-url",
        url,
        "--member-id",
        "11344",
        "--partner-id",
        "100",
        "--username",
        "shop",
    ];
    line.extend_from_slice(args);
    paytoken(&line, &[("PAYTOKEN_SECURE_KEY", key)]).await
}

/// A form whose fields are named `names` (each form-encoded, each valued `1`), then an
/// amount: names that hold what values would, as a careless client writes them.
pub(crate) fn form_named(names: &[String]) -> String {
    names
        .iter()
        .map(|name| {
            let mut encoded = Vec::new();
            paytoken::types::internal::encode_into(&mut encoded, name.as_bytes());
            format!("{}=1", String::from_utf8(encoded).unwrap())
        })
        .chain(["amount=1.00".to_owned()])
        .collect::<Vec<_>>()
        .join("&")
}

/// The connection flags (with `--json`) and the secure key of the merchant a `paytoken
/// sandbox` announced in its first line.
pub(crate) fn announced_merchant(announcement: &str) -> (Vec<String>, String) {
    let announced: Value = serde_json::from_str(announcement).unwrap();
    let text = |name: &str| announced[name].as_str().unwrap().to_owned();
    let flags = vec![
        "--json".to_owned(),
        "--base-url".to_owned(),
        text("baseUrl"),
        "--member-id".to_owned(),
        text("memberId"),
        "--partner-id".to_owned(),
        text("partnerId"),
        "--username".to_owned(),
        text("username"),
    ];
    (flags, text("secureKey"))
}

/// Runs `args` with `flags` first, and the secure key in the environment.
pub(crate) async fn with_flags(flags: &[String], key: &str, args: &[&str]) -> Run {
    let mut line: Vec<&str> = flags.iter().map(String::as_str).collect();
    line.extend_from_slice(args);
    paytoken(&line, &[("PAYTOKEN_SECURE_KEY", key)]).await
}

/// Makes a FIFO at `path`, the file that hangs whoever opens it to read or write.
pub(crate) fn mkfifo(path: &std::path::Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

/// An empty folder of this test process under the temporary one, named `name` (unique
/// across the suite).
pub(crate) fn fresh_folder(name: &str) -> std::path::PathBuf {
    let folder = std::env::temp_dir().join(format!("paytoken-tests-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    folder
}
