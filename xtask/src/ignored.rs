//! The tests that need programs from Debian: the browser tests (headless chromium on the
//! sandbox's 3-D Secure page and dashboard, through chromium-driver), the conformance
//! kit's Python checker, its standard validators and a Python client generated from its
//! OpenAPI document (at work, and scored by `paytoken conform --http`), and the fleet of
//! shop instances on a PostgreSQL server. `cargo test --workspace` leaves them out (they
//! are `#[ignore]`d, so a fresh machine without the programs stays green); `cargo xtask
//! ci` installs `chromium`, `chromium-driver`, `python3`, `python3-venv` and `postgresql`
//! where they are missing, the Python tools in a virtual environment (`python_tools.rs`),
//! then runs them.
//!
//! `cargo xtask fleet-failover` runs the fleet store's failover tests, which `ci` leaves
//! out: each builds a primary and a streaming standby and prints what a promotion lost.
//!
//! `cargo xtask screenshot` runs the dashboard's browser test alone and copies the
//! screenshot it leaves in the target folder (`browser/dashboard.png`) to the one the
//! sandbox's manual (`docs/SANDBOX.md`) shows: tests write only under the target folder,
//! so a test run leaves the tree clean.

use std::fs;
use std::process::Command;

use crate::{cargo, project_root};

/// The failover tests' module, which `fleet_failover` runs and `run` leaves out.
const FAILOVER: &str = "postgres::failover::";

/// Where the dashboard's browser test leaves its screenshot, in the target folder.
const SCREENSHOT: &str = "browser/dashboard.png";

/// The copy the sandbox's manual shows, from the project's root.
const MANUAL_SCREENSHOT: &str = "crates/paytoken-sandbox/dashboard.png";

/// The Debian packages the tests need.
const PACKAGES: &[&str] = &[
    "chromium",
    "chromium-driver",
    "python3",
    "python3-venv",
    "postgresql",
];

/// Installs the programs where missing, then runs the ignored tests that use them.
pub(crate) fn run() -> Result<(), String> {
    ensure_programs()?;
    let python = crate::python_tools::python()?;
    let python = python.to_string_lossy();
    ignored_tests(
        &[
            "browser::",
            "conformance::",
            "conform_http::",
            "postgres::",
            "--skip",
            FAILOVER,
        ],
        &[("PAYTOKEN_CONFORMANCE_PYTHON", &python)],
    )
}

/// Runs the `it` binaries' ignored tests that `filters` (test harness arguments) pick.
/// `--workspace`, as the test run before it: the same features, so nothing is built again
/// (`-p tests` alone unifies features differently and rebuilds for a minute). The filters
/// leave every other `it` binary with nothing to run.
fn ignored_tests(filters: &[&str], env: &[(&str, &str)]) -> Result<(), String> {
    let mut args = vec![
        "test",
        "--workspace",
        "--test",
        "it",
        "--locked",
        "--",
        "--ignored",
    ];
    args.extend_from_slice(filters);
    cargo(&args, env)
}

/// The fleet store's failover tests: a primary and a streaming standby, asynchronous then
/// synchronous, each printing what the promotion lost. Not part of `ci`.
pub(crate) fn fleet_failover() -> Result<(), String> {
    ensure_programs()?;
    ignored_tests(&["--nocapture", "--test-threads", "1", FAILOVER], &[])
}

/// Runs the dashboard's browser test, then copies its screenshot to the one the sandbox's
/// manual shows.
pub(crate) fn screenshot() -> Result<(), String> {
    ensure_programs()?;
    let root = project_root();
    // The test writes into the target folder cargo builds it in.
    let taken = crate::target_dir().join(SCREENSHOT);
    // A screenshot left by an earlier run must not pass for this one's.
    let _ = fs::remove_file(&taken);
    ignored_tests(
        &[
            "--exact",
            "browser::dashboard::the_dashboard_shows_payments_refusals_notifications_and_the_clock",
        ],
        &[],
    )?;
    fs::copy(&taken, root.join(MANUAL_SCREENSHOT)).map_err(|error| {
        format!(
            "copying {} to {MANUAL_SCREENSHOT}: {error}",
            taken.display()
        )
    })?;
    eprintln!("xtask: {MANUAL_SCREENSHOT} refreshed");
    Ok(())
}

/// Whether `program --version` answers.
fn answers(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success())
}

/// `apt-get install` of [`PACKAGES`] unless every program answers; once more after
/// `apt-get update` when the package lists are stale. Needs root, as CI machines run.
fn ensure_programs() -> Result<(), String> {
    let venv = Command::new("python3")
        .args(["-c", "import venv, ensurepip"])
        .output()
        .is_ok_and(|output| output.status.success());
    // Debian keeps the server's programs off the `PATH`.
    let postgres = fs::read_dir("/usr/lib/postgresql").is_ok_and(|versions| {
        versions
            .filter_map(Result::ok)
            .any(|version| version.path().join("bin/initdb").exists())
    });
    if answers("chromium") && answers("chromedriver") && answers("python3") && venv && postgres {
        return Ok(());
    }
    eprintln!("xtask: installing {} with apt-get", PACKAGES.join(" and "));
    let install = || apt_get(&["install", "-y", "--no-install-recommends"]);
    if install().is_ok() {
        return Ok(());
    }
    apt_get(&["update"])?;
    install()
}

fn apt_get(args: &[&str]) -> Result<(), String> {
    let mut command = Command::new("apt-get");
    command.args(args).env("DEBIAN_FRONTEND", "noninteractive");
    if args.first() == Some(&"install") {
        command.args(PACKAGES);
    }
    let status = command
        .status()
        .map_err(|error| format!("apt-get: {error} (install {})", PACKAGES.join(", ")))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "apt-get {} failed ({status}): as root, install {}",
            args.join(" "),
            PACKAGES.join(", ")
        ))
    }
}
