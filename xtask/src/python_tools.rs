//! The Python tools the conformance kit is held to: the standard validators of
//! `fixtures/conformance/validate.py` (openapi-spec-validator and jsonschema) and the
//! client generator whose client `generated_client.py` drives (openapi-python-client, which
//! brings the generated client's own dependencies, httpx and attrs), at pinned versions, in
//! a Python virtual environment of their own in the target folder, made and filled from
//! PyPI where missing.

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The packages, pinned: what the kit's checks were written against.
const TOOLS: &[&str] = &[
    "openapi-spec-validator==0.9.0",
    "jsonschema==4.26.0",
    "openapi-python-client==0.29.1",
];

/// The environment's `python3`, with [`TOOLS`] installed: made once, again when the pins
/// change.
pub(crate) fn python() -> Result<PathBuf, String> {
    venv("conformance-python", TOOLS)
}

/// The `python3` of the virtual environment `name` in the target folder, with `pins`
/// installed from PyPI: made once, again when the pins change.
pub(crate) fn venv(name: &str, pins: &[&str]) -> Result<PathBuf, String> {
    let venv = crate::target_dir().join(name);
    let python = venv.join("bin").join("python3");
    let stamp = venv.join("paytoken-tools.txt");
    let pinned = pins.join("\n");
    if python.exists() && fs::read_to_string(&stamp).is_ok_and(|text| text == pinned) {
        return Ok(python);
    }
    eprintln!(
        "xtask: installing {} in {}",
        pins.join(", "),
        venv.display()
    );
    run(Command::new("python3")
        .args(["-m", "venv", "--clear"])
        .arg(&venv))?;
    pip_install(&python, pins)?;
    fs::write(&stamp, pinned).map_err(|error| format!("{}: {error}", stamp.display()))?;
    Ok(python)
}

/// `pip install` of `what` (pins, a wheel, options) into the environment of `python`.
pub(crate) fn pip_install<S: AsRef<OsStr>>(python: &Path, what: &[S]) -> Result<(), String> {
    run(pip_installing(python).args(what))
}

/// `pip install`, quiet, into the environment of `python`: the command, for its arguments.
pub(crate) fn pip_installing(python: &Path) -> Command {
    let mut pip = Command::new(python);
    pip.args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
    ]);
    pip
}

/// What `command` printed on stdout, failing (with its stderr) on a non-zero exit.
pub(crate) fn stdout_of(command: &mut Command) -> Result<String, String> {
    let shown = format!("{command:?}");
    let output = command
        .output()
        .map_err(|error| format!("{shown}: {error}"))?;
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        return Err(format!("{shown} failed ({}): {said}", output.status));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

pub(crate) fn run(command: &mut Command) -> Result<(), String> {
    let shown = format!("{command:?}");
    let status = command
        .status()
        .map_err(|error| format!("{shown}: {error}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{shown} failed ({status})"))
    }
}
