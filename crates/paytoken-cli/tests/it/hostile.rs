//! The command under hostile input and misbehaving servers: a list that never ends, a
//! reader that goes away, files that never end, card data kept out of `ps`, gateway text
//! full of terminal escapes, a list larger than one answer's default limit. Each test
//! asserts behaviour, never a time.

use crate::common;

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{answering, answering_with, paytoken};
use paytoken_sandbox::{Sandbox, cards};
use serde_json::Value;

/// Flags that reach a fake gateway at `base_url`; with [`FIXED_TOKEN`] in the environment,
/// nothing is fetched.
fn gateway_flags(base_url: &str) -> Vec<String> {
    ["--base-url", base_url, "--member-id", "11344"]
        .map(str::to_owned)
        .to_vec()
}

/// A fixed auth token, as the environment gives it.
const FIXED_TOKEN: (&str, &str) = ("PAYTOKEN_AUTH_TOKEN", "fixed.token.value");

/// Starts the binary with `args`, stdout and stderr piped, a secure key in the
/// environment.
fn spawn(args: &[String]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_paytoken"))
        .args(args)
        .env("PAYTOKEN_SECURE_KEY", "a-key")
        .env(FIXED_TOKEN.0, FIXED_TOKEN.1)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// A full page of `records` invoices, new every time: a list that never ends.
fn endless_page(n: u64, records: u64) -> String {
    let invoices: Vec<String> = (0..records)
        .map(|i| {
            format!(
                r#"{{"amount":"10.00","currency":"EUR","orderId":"ORD-{n}-{i}","orderDescription":"{}"}}"#,
                "x".repeat(200)
            )
        })
        .collect();
    format!(
        r#"{{"memberId":"11344","result":{{"code":"00001"}},"invoiceList":[{}]}}"#,
        invoices.join(",")
    )
}

/// The resident memory of a running process, in KiB (Linux).
fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endless_invoice_list_streams_and_stops_at_its_bound_in_little_memory() {
    let base_url = answering_with(|n| endless_page(n, 100)).await;
    let mut args = gateway_flags(&base_url);
    args.extend(
        [
            "--json",
            "invoices",
            "--all",
            "--records",
            "100",
            "--max-pages",
            "300",
        ]
        .map(str::to_owned),
    );
    let mut child = spawn(&args);
    let pid = child.id();
    let stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).unwrap();
        text
    });
    // Count the lines as they come, keeping only the last.
    let reader = std::thread::spawn(move || {
        let (mut lines, mut last) = (0usize, String::new());
        for line in BufReader::new(stdout).lines() {
            last = line.unwrap();
            lines += 1;
        }
        (lines, last)
    });
    let mut peak = 0;
    let status = loop {
        if let Some(kib) = resident_kib(pid) {
            peak = peak.max(kib);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    let (lines, last) = reader.join().unwrap();
    let errors = errors.join().unwrap();
    assert_eq!(status.code(), Some(4), "stopped at the bound, exit 4");
    // stderr is no terminal here: no progress line, only the error.
    assert!(
        !errors.contains('\r') && !errors.contains("pages, "),
        "{errors:?}"
    );
    assert_eq!(
        lines,
        300 * 100 + 1,
        "each invoice a line as it came, then the error"
    );
    let last: Value = serde_json::from_str(&last).unwrap();
    assert!(
        last["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--max-pages"),
        "{last}"
    );
    assert!(
        peak > 0 && peak < 50 * 1024,
        "resident memory peaked at {peak} KiB"
    );
    println!("invoices --all: 300 pages, 30,000 invoices, resident memory peaked at {peak} KiB");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_stdout_ends_the_command_quietly() {
    let base_url = answering_with(|n| endless_page(n, 100)).await;
    for read_first in [300usize, 0] {
        let mut args = gateway_flags(&base_url);
        args.extend(["--json", "invoices", "--all", "--records", "100"].map(str::to_owned));
        let mut child = spawn(&args);
        let mut stdout = child.stdout.take().unwrap();
        // `| head -c 300`, or `| true`: read a little, or nothing, and go away.
        let mut head = vec![0; read_first];
        stdout.read_exact(&mut head).unwrap();
        drop(stdout);
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(0),
            "after {read_first} bytes: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_are_read_only_up_to_their_bound() {
    let big = std::env::temp_dir().join(format!("paytoken-big-key-{}", std::process::id()));
    std::fs::write(&big, vec![b'k'; 5000]).unwrap();
    std::fs::set_permissions(&big, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    for (file, said) in [
        (big.to_str().unwrap(), "larger than 4 KiB"),
        ("/dev/zero", "not a regular file"),
    ] {
        let run = paytoken(
            &[
                "--json",
                "--base-url",
                "http://127.0.0.1:1",
                "--member-id",
                "11344",
                "--secure-key-file",
                file,
                "cards",
            ],
            &[],
        )
        .await;
        assert_eq!(run.code, 2, "{}", run.stdout);
        assert!(
            run.json()["error"]["message"]
                .as_str()
                .unwrap()
                .contains(said),
            "{}",
            run.stdout
        );
    }
    let run = paytoken(&["--json", "sandbox", "--config", "/dev/zero"], &[]).await;
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stdout.contains("larger than 1 MiB"), "{}", run.stdout);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn card_data_comes_from_the_environment_or_stdin_not_only_flags() {
    let sandbox = Sandbox::start().await.unwrap();
    let pay = [
        "pay",
        "--amount",
        "5.00",
        "--currency",
        "EUR",
        "--expiry-month",
        "12",
        "--expiry-year",
        "2099",
    ];
    // From the environment.
    let (mut flags, env) = common::merchant_of(&sandbox);
    flags.push("--json".to_owned());
    flags.extend(pay.map(str::to_owned));
    flags.extend(["--merchant-transaction-id".to_owned(), "env 1".to_owned()]);
    let mut command = Command::new(env!("CARGO_BIN_EXE_paytoken"));
    command
        .args(&flags)
        .envs(env.iter().map(|(n, v)| (*n, v.as_str())))
        .env("PAYTOKEN_CARD_NUMBER", cards::APPROVED)
        .env("PAYTOKEN_CVV", "123");
    let output = tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");

    // From standard input.
    let (mut flags, env) = common::merchant_of(&sandbox);
    flags.push("--json".to_owned());
    flags.extend(pay.map(str::to_owned));
    flags.extend(["--merchant-transaction-id", "stdin 1", "--card-stdin"].map(str::to_owned));
    let mut child = Command::new(env!("CARGO_BIN_EXE_paytoken"))
        .args(&flags)
        .envs(env.iter().map(|(n, v)| (*n, v.as_str())))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    writeln!(child.stdin.take().unwrap(), "{}\n123", cards::APPROVED).unwrap();
    let output = tokio::task::spawn_blocking(move || child.wait_with_output().unwrap())
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("\"approved\""), "{stdout}");
    assert!(!stdout.contains(cards::APPROVED), "{stdout}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gateway_text_cannot_steer_the_terminal() {
    // A declined transaction whose remark and result would retitle the terminal, clear it
    // and forge an "APPROVED" line.
    let base_url = answering(
        "{\"paymentId\":\"54279\",\"transactionStatus\":\"N\",\"remark\":\"\\u001b]0;pwned\\u0007\\u009b2J\\u007f FAKE\\r\\nAPPROVED\",\"result\":{\"code\":\"00026\",\"description\":\"\\u009b1A\\u001b[2K APPROVED\"}}",
    )
    .await;
    for json in [false, true] {
        let mut args: Vec<String> = gateway_flags(&base_url);
        if json {
            args.push("--json".to_owned());
        }
        args.extend(["inquiry".to_owned(), "54279".to_owned()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = paytoken(&args, &[("PAYTOKEN_SECURE_KEY", "a-key"), FIXED_TOKEN]).await;
        assert_eq!(run.code, 3, "declined: {}", run.stdout);
        for output in [&run.stdout, &run.stderr] {
            let steering: Vec<char> = output
                .chars()
                .filter(|c| c.is_control() && *c != '\n')
                .collect();
            assert!(steering.is_empty(), "{steering:?} in {output:?}");
            assert!(!output.contains("\nAPPROVED"), "a forged line: {output}");
        }
        if json {
            assert!(run.stdout.contains(r"\u009b2J\u007f"), "{}", run.stdout);
        } else {
            assert!(run.stdout.contains(r"\u{1b}]0;pwned"), "{}", run.stdout);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_usage_error_names_the_missing_flags() {
    let run = paytoken(&["--json", "pay", "--amount", "5.00"], &[]).await;
    assert_eq!(run.code, 2);
    let message = run.json()["error"]["message"].as_str().unwrap().to_owned();
    assert!(
        message.contains("--currency") && message.contains("--merchant-transaction-id"),
        "{message}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_list_beyond_one_mebibyte_is_read_and_the_limit_is_a_flag() {
    let cards: Vec<String> = (0..12_000)
        .map(|i| {
            format!(
                r#"{{"registrationId":"{i:032x}","registrationStatus":"Y","cardType":"VISA","bin":"400000","last4Digits":"0051","expiryMonth":"12","expiryYear":"2099"}}"#
            )
        })
        .collect();
    let body = format!(
        r#"{{"memberId":"11344","result":{{"code":"0008"}},"cards":{{"card":[{}]}}}}"#,
        cards.join(",")
    );
    assert!(body.len() > 1024 * 1024, "{} bytes", body.len());
    let body: &'static str = Box::leak(body.into_boxed_str());
    let base_url = answering(body).await;
    let mut args = gateway_flags(&base_url);
    args.extend(["--json", "cards"].map(str::to_owned));
    let as_str: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = paytoken(&as_str, &[("PAYTOKEN_SECURE_KEY", "a-key"), FIXED_TOKEN]).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["cards"].as_array().unwrap().len(), 12_000);

    args.extend(["--max-answer-bytes", "100000"].map(str::to_owned));
    let as_str: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = paytoken(&as_str, &[("PAYTOKEN_SECURE_KEY", "a-key"), FIXED_TOKEN]).await;
    assert_eq!(run.code, 4, "{}", run.stdout);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_flag_has_help_and_the_connection_options_stand_apart() {
    let run = paytoken(&["pay", "-h"], &[]).await;
    assert_eq!(run.code, 0);
    let help = &run.stdout;
    assert!(help.contains("Connection (every operation):"), "{help}");
    // A flag's help stands after it on its line, or alone on the next, further indented.
    let lines: Vec<&str> = help.lines().collect();
    let bare: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|(_, line)| line.trim_start().starts_with("--") && !line.trim().contains("  "))
        .filter(|(index, line)| {
            let indent = line.len() - line.trim_start().len();
            lines.get(index + 1).is_none_or(|next| {
                let next_indent = next.len() - next.trim_start().len();
                next.trim().is_empty()
                    || next.trim_start().starts_with('-')
                    || next_indent <= indent
            })
        })
        .map(|(_, line)| line.trim())
        .collect();
    assert!(bare.is_empty(), "flags without help: {bare:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sandbox_the_demo_and_listen_show_no_connection_flags_they_do_not_use() {
    for command in ["sandbox", "demo"] {
        let run = paytoken(&[command, "-h"], &[]).await;
        assert_eq!(run.code, 0);
        for flag in [
            "--base-url",
            "--member-id",
            "--auth-token-file",
            "--secure-key-file",
        ] {
            assert!(!run.stdout.contains(flag), "{command} -h shows {flag}");
        }
    }
    // `listen` reads the secure key and nothing else of the connection.
    let run = paytoken(&["listen", "-h"], &[]).await;
    assert!(run.stdout.contains("--secure-key-file"), "{}", run.stdout);
    for flag in ["--base-url", "--member-id", "--auth-token"] {
        assert!(!run.stdout.contains(flag), "listen -h shows {flag}");
    }
    let run = paytoken(&["cards", "-h"], &[]).await;
    assert!(run.stdout.contains("--base-url"), "{}", run.stdout);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sandbox_listening_beyond_loopback_says_so_on_stderr() {
    for (address, warned) in [("0.0.0.0:0", true), ("127.0.0.1:0", false)] {
        // The announcement comes first; the warning, when there is one, right after.
        let (mut child, first) = common::sandbox_process(&["--addr", address]).await;
        // The URL a client is given (and `--write-profile` saves) is one it can reach.
        let announced: Value = serde_json::from_str(&first).unwrap();
        let base_url = announced["baseUrl"].as_str().unwrap();
        assert!(base_url.starts_with("http://127.0.0.1:"), "{first}");
        assert!(!base_url.ends_with(":0"), "{first}");
        tokio::time::sleep(Duration::from_millis(200)).await;
        child.kill().unwrap();
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            stderr.contains("warning: listening on") && stderr.contains("beyond loopback"),
            warned,
            "{address}: {stderr}"
        );
    }
}

/// Regression: every write error was taken for a closed pipe, so on a full disk
/// `invoices --all --json > file` exited 0 with its last line cut, and `cards`, `demo` and
/// `vectors` to `/dev/full` exited 0.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_fails_the_command_with_exit_6_and_no_false_summary() {
    let sandbox = Sandbox::start().await.unwrap();
    let (flags, env) = common::merchant_of(&sandbox);
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("full-disk-vectors-{}", std::process::id()));
    let as_merchant = |args: &[&str]| {
        let mut all = flags.clone();
        all.extend(args.iter().map(|arg| (*arg).to_owned()));
        all
    };
    let runs = [
        as_merchant(&["--json", "invoices", "--all", "--records", "5"]),
        as_merchant(&["invoices", "--all", "--records", "5"]),
        as_merchant(&["cards"]),
        vec!["demo".to_owned()],
        vec![
            "vectors".to_owned(),
            "--out".to_owned(),
            out.display().to_string(),
        ],
        vec!["--help".to_owned()],
    ];
    for args in runs {
        let mut command = Command::new(env!("CARGO_BIN_EXE_paytoken"));
        command
            .args(&args)
            .envs(env.iter().map(|(name, value)| (*name, value.as_str())))
            .stdout(
                std::fs::File::options()
                    .write(true)
                    .open("/dev/full")
                    .unwrap(),
            )
            .stderr(Stdio::piped());
        let output = tokio::task::spawn_blocking(move || command.output().unwrap())
            .await
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(6), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write to standard output: No space left on device"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// Regression: a 131 KB `--merchant-transaction-id` gave 262 KB of error text, the value
/// quoted whole on stdout and again on stderr.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_error_quotes_a_short_prefix_of_a_long_value_with_its_length() {
    let long = format!("{}|", "a".repeat(131_000));
    let mut args = vec![
        "--base-url",
        "http://127.0.0.1:1",
        "--member-id",
        "11344",
        "pay",
        "--amount",
        "1.00",
        "--currency",
        "EUR",
        "--merchant-transaction-id",
        &long,
    ];
    args.extend(common::card_flags(cards::APPROVED));
    let run = paytoken(&args, &[("PAYTOKEN_SECURE_KEY", "x")]).await;
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.len() < 1_000, "{} bytes", run.stderr.len());
    assert!(run.stderr.contains("(131001 characters)"), "{}", run.stderr);
    // Regression: the error was printed twice, on stdout and on stderr. Stdout carries
    // results only; the error is said once, on stderr.
    assert_eq!(run.stdout, "", "stdout carries results only");
    assert_eq!(
        run.stderr.matches("characters)").count(),
        1,
        "{}",
        run.stderr
    );
}

/// Regression: `--forward-to http://127.0.0.1:99999/x` relayed to port 80 and printed the
/// URL as given; `http://user:secret@host/` sent the credentials in `Host` and printed them.
/// Every URL option refuses both, before anything is sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn urls_with_a_port_out_of_range_or_user_info_are_refused() {
    let key = [("PAYTOKEN_SECURE_KEY", "listen-key")];
    for url in [
        "http://127.0.0.1:99999/x",
        "http://user:secret@127.0.0.1:3000/",
    ] {
        let run = paytoken(
            &["listen", "--addr", "127.0.0.1:0", "--forward-to", url],
            &key,
        )
        .await;
        assert_eq!(run.code, 2, "{url}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains("--forward-to"), "{}", run.stderr);
        assert!(
            !run.stdout.contains("secret") && !run.stderr.contains("secret"),
            "{}{}",
            run.stdout,
            run.stderr
        );
    }
    let sandbox = Sandbox::start().await.unwrap();
    for (flag, url) in [
        ("--notification-url", "http://127.0.0.1:99999/hooks"),
        ("--redirect-url", "https://user:secret@shop.example/back"),
    ] {
        let mut args = vec![
            "pay",
            "--amount",
            "1.00",
            "--currency",
            "EUR",
            "--merchant-transaction-id",
            "port-out-of-range",
            flag,
            url,
        ];
        args.extend(common::card_flags(cards::THREE_D_SECURE));
        let run = common::as_merchant(&sandbox, &args).await;
        assert_eq!(run.code, 2, "{flag}: {}", run.stdout);
        assert!(!run.stdout.contains("secret"), "{}", run.stdout);
    }
    assert!(
        sandbox.received().is_empty(),
        "nothing sent, not even an auth token: {:?}",
        sandbox.received()
    );
    let run = paytoken(
        &[
            "--base-url",
            "http://127.0.0.1:99999",
            "--member-id",
            "11344",
            "cards",
        ],
        &[("PAYTOKEN_SECURE_KEY", "x")],
    )
    .await;
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("port"), "{}", run.stderr);
}
