//! The tests that need programs from Debian: the browser test (headless chromium on the
//! sandbox's 3-D Secure page, through chromium-driver) and the conformance kit's Python
//! checker. `cargo test --workspace` leaves them out (they are `#[ignore]`d, so a fresh
//! machine without the programs stays green); `cargo xtask ci` installs `chromium`,
//! `chromium-driver` and `python3` where they are missing, then runs them.

use std::process::Command;

use crate::cargo;

/// The Debian packages the tests need.
const PACKAGES: &[&str] = &["chromium", "chromium-driver", "python3"];

/// Installs the programs where missing, then runs the ignored tests that use them.
pub(crate) fn run() -> Result<(), String> {
    ensure_programs()?;
    // `--workspace`, as the test run before it: the same features, so nothing is built
    // again (`-p tests` alone unifies features differently and rebuilds for a minute).
    // The filter leaves every other `it` binary with nothing to run.
    cargo(
        &[
            "test",
            "--workspace",
            "--test",
            "it",
            "--locked",
            "--",
            "--ignored",
            "browser::",
            "conformance::",
        ],
        &[],
    )
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
    if answers("chromium") && answers("chromedriver") && answers("python3") {
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
    let status = command.status().map_err(|error| {
        format!("apt-get: {error} (install chromium, chromium-driver and python3)")
    })?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "apt-get {} failed ({status}): as root, install chromium, chromium-driver and python3",
            args.join(" ")
        ))
    }
}
