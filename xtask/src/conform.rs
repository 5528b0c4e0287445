//! A binding's example adapter scored by `paytoken conform`: every vector (or scenario)
//! must pass, none skipped.

use std::ffi::OsStr;
use std::path::Path;
use std::process::Command;

/// What `paytoken conform` scores: the vectors, or whole flows over HTTP (`--http`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kit {
    Vectors,
    Http,
}

/// `paytoken conform` (the command `paytoken`) with the adapter `client` (a command line)
/// of the binding for `language`, in the environment `env`.
pub(crate) fn score(
    paytoken: &Path,
    client: &str,
    language: &str,
    kit: Kit,
    env: &[(&str, &OsStr)],
) -> Result<(), String> {
    let mode: &[&str] = match kit {
        Kit::Vectors => &[],
        Kit::Http => &["--http"],
    };
    let output = Command::new(paytoken)
        .args(["--json", "conform"])
        .args(mode)
        .args(["--client", client])
        .envs(env.iter().copied())
        .output()
        .map_err(|error| format!("{}: {error}", paytoken.display()))?;
    let report: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|error| format!("paytoken conform: no JSON report: {error}"))?;
    let count = |name: &str| report.get(name).and_then(serde_json::Value::as_u64);
    let (passed, failed, skipped) = (count("passed"), count("failed"), count("skipped"));
    eprintln!(
        "xtask: paytoken for {language} under paytoken conform ({kit:?}): {passed:?} passed, {failed:?} failed, {skipped:?} skipped"
    );
    if output.status.success() && failed == Some(0) && skipped == Some(0) {
        Ok(())
    } else {
        let failures = report.get("failures").cloned().unwrap_or_default();
        Err(format!(
            "paytoken conform ({kit:?}) scored the {language} adapter {passed:?} passed, {failed:?} failed, {skipped:?} skipped: {failures}"
        ))
    }
}
