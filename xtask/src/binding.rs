//! `paytoken` for Python as a user gets it: the wheel maturin builds (a debug build, into
//! the target folder), installed in a virtual environment of its own beside pinned pytest;
//! then the Python suite under pytest, against a `paytoken sandbox` it starts, and the
//! example adapter under `paytoken conform`, which must pass every vector of the kit.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::python_tools::{run, venv};
use crate::{cargo, project_root, target_dir};

/// The build and test tools, pinned.
const TOOLS: &[&str] = &["maturin==1.16.0", "pytest==8.3.4"];

/// Builds and installs the wheel, runs the suite and scores the adapter.
pub(crate) fn check() -> Result<(), String> {
    let root = project_root();
    let python = venv("binding-python", TOOLS)?;
    let wheels = target_dir().join("wheels");
    let _ = fs::remove_dir_all(&wheels);
    let maturin = python.with_file_name("maturin");
    run(Command::new(maturin)
        .args(["build", "--quiet", "--out"])
        .arg(&wheels)
        .arg("--manifest-path")
        .arg(root.join("crates/paytoken-python/Cargo.toml")))?;
    run(Command::new(&python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .args(["--force-reinstall", "--no-deps"])
        .arg(wheel_in(&wheels)?))?;
    // The command the suite starts its sandbox with, and that scores the adapter: the one
    // the workspace's tests built and run (`cargo build` unifies features without the
    // dev-dependencies' and would build the whole tree again, for a minute).
    cargo(&["test", "--workspace", "--no-run", "--locked"], &[])?;
    let paytoken = target_dir().join("debug").join("paytoken");
    run(Command::new(&python)
        .args(["-m", "pytest", "--quiet", "-p", "no:cacheprovider"])
        .arg(root.join("crates/paytoken-python/tests/python"))
        .env("PAYTOKEN_COMMAND", &paytoken)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .current_dir(target_dir()))?;
    conform(&paytoken, &python, &root)
}

/// The one wheel maturin wrote.
fn wheel_in(wheels: &Path) -> Result<PathBuf, String> {
    fs::read_dir(wheels)
        .map_err(|error| format!("{}: {error}", wheels.display()))?
        .flatten()
        .map(|entry| entry.path())
        .find(|path| path.extension().is_some_and(|ext| ext == "whl"))
        .ok_or_else(|| format!("maturin wrote no wheel in {}", wheels.display()))
}

/// `paytoken conform` with the example adapter on the installed wheel: every vector must
/// pass, none skipped.
fn conform(paytoken: &Path, python: &Path, root: &Path) -> Result<(), String> {
    let adapter = root.join("crates/paytoken-python/examples/conform_adapter.py");
    let client = format!("'{}' '{}'", python.display(), adapter.display());
    let output = Command::new(paytoken)
        .args(["--json", "conform", "--client", &client])
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .map_err(|error| format!("{}: {error}", paytoken.display()))?;
    let report: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|error| format!("paytoken conform: no JSON report: {error}"))?;
    let count = |name: &str| report.get(name).and_then(serde_json::Value::as_u64);
    let (passed, failed, skipped) = (count("passed"), count("failed"), count("skipped"));
    eprintln!(
        "xtask: paytoken for Python under paytoken conform: {passed:?} passed, {failed:?} failed, {skipped:?} skipped"
    );
    if output.status.success() && failed == Some(0) && skipped == Some(0) {
        Ok(())
    } else {
        let failures = report.get("failures").cloned().unwrap_or_default();
        Err(format!(
            "paytoken conform scored the Python adapter {passed:?} passed, {failed:?} failed, {skipped:?} skipped: {failures}"
        ))
    }
}
