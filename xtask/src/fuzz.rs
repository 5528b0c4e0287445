//! `cargo xtask fuzz --smoke | --long`: every cargo-fuzz target of `fuzz/`, for seconds
//! (in CI) or minutes, each seeded with the fixtures that fit it. A crash fails the run and
//! leaves its input in `fuzz/artifacts/<target>/`.

use std::time::Instant;

/// The version of cargo-fuzz installed when it is missing.
const CARGO_FUZZ_VERSION: &str = "0.13.2";

/// The targets, and the fixture folders that seed them.
const TARGETS: [(&str, &[&str]); 8] = [
    (
        "responses",
        &[
            "fixtures/responses/auth_token",
            "fixtures/responses/cancel",
            "fixtures/responses/capture",
            "fixtures/responses/cards_and_accounts",
            "fixtures/responses/customer_signup",
            "fixtures/responses/delete_token",
            "fixtures/responses/inquiry",
            "fixtures/responses/installments",
            "fixtures/responses/invoice_list",
            "fixtures/responses/payment",
            "fixtures/responses/refund",
            "fixtures/responses/registration",
            "fixtures/responses/repeat_payment",
            "fixtures/responses/token_payment",
        ],
    ),
    ("invoice_list", &["fixtures/responses/invoice_list"]),
    ("form_decode", &["fixtures/requests"]),
    ("amount", &[]),
    ("timestamp", &[]),
    ("result_code", &[]),
    ("sandbox", &[]),
    ("tolerant", &["fixtures/fuzz/tolerant"]),
];

/// Runs every target for `seconds`.
pub(crate) fn run(seconds: u32) -> Result<(), String> {
    crate::ensure_installed("fuzz", "cargo-fuzz", CARGO_FUZZ_VERSION)?;
    // libFuzzer's flags need a nightly compiler; the machine has stable only, and this is
    // what RUSTC_BOOTSTRAP is for. No sanitizer: the project's crates forbid `unsafe`, and
    // a panic is what the targets look for.
    let bootstrap = [("RUSTC_BOOTSTRAP", "1")];
    crate::cargo(&["fuzz", "build", "--sanitizer", "none"], &bootstrap)?;
    let root = crate::project_root();
    let mut report = Vec::new();
    for (target, seeds) in TARGETS {
        let corpus = format!("target/fuzz-corpus/{target}");
        std::fs::create_dir_all(root.join(&corpus))
            .map_err(|error| format!("{corpus}: {error}"))?;
        let max_time = format!("-max_total_time={seconds}");
        let mut args = vec![
            "fuzz",
            "run",
            target,
            "--sanitizer",
            "none",
            corpus.as_str(),
        ];
        args.extend(
            seeds
                .iter()
                .copied()
                .filter(|seed| root.join(seed).is_dir()),
        );
        args.extend(["--", max_time.as_str(), "-timeout=10", "-rss_limit_mb=2048"]);
        let started = Instant::now();
        eprintln!("xtask: cargo {}", args.join(" "));
        let output = crate::cargo_command()
            .args(&args)
            .envs(bootstrap)
            .output()
            .map_err(|error| format!("cannot run cargo fuzz: {error}"))?;
        let log = String::from_utf8_lossy(&output.stderr);
        if !output.status.success() {
            eprintln!("{log}");
            return Err(format!(
                "fuzz target {target} failed: its input is in fuzz/artifacts/{target}/"
            ));
        }
        // libFuzzer's last word: "Done 30817 runs in 11 second(s)".
        let done = log
            .lines()
            .rev()
            .find(|line| line.starts_with("Done "))
            .unwrap_or("done")
            .to_owned();
        eprintln!(
            "xtask: {target}: {done} ({:.0}s)",
            started.elapsed().as_secs_f64()
        );
        report.push(format!("{target}: {done}"));
    }
    eprintln!("xtask: fuzzing found no crash:\n  {}", report.join("\n  "));
    Ok(())
}
