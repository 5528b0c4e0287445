//! The browser test: headless chromium on the sandbox's 3-D Secure page, through
//! chromium-driver. `cargo test --workspace` leaves it out (it is `#[ignore]`d, so a fresh
//! machine without a browser stays green); `cargo xtask ci` installs Debian's `chromium`
//! and `chromium-driver` where they are missing, then runs it.

use std::process::Command;

use crate::cargo;

/// The Debian packages the test needs.
const PACKAGES: &[&str] = &["chromium", "chromium-driver"];

/// Installs the browser where missing, then runs the ignored browser test.
pub(crate) fn run() -> Result<(), String> {
    ensure_browser()?;
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

/// `apt-get install` of [`PACKAGES`] unless both programs answer; once more after
/// `apt-get update` when the package lists are stale. Needs root, as CI machines run.
fn ensure_browser() -> Result<(), String> {
    if answers("chromium") && answers("chromedriver") {
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
        .map_err(|error| format!("apt-get: {error} (install chromium and chromium-driver)"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "apt-get {} failed ({status}): as root, install chromium and chromium-driver",
            args.join(" ")
        ))
    }
}
