//! `cargo xtask fresh-deps`: the facade built, warnings denied, against the newest
//! versions its dependencies' requirements allow, as a crate outside the workspace resolves
//! them today. A copy of the working tree gets a lock updated from the registry, so the
//! workspace's own lock (and CI, which an upstream release must never turn red) is left
//! as it is.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::{cargo, project_root, target_dir};

/// Copies the tree git tracks, updates its lock and builds the facade with every feature.
pub(crate) fn check() -> Result<(), String> {
    let root = project_root();
    let copy = target_dir().join("fresh-deps");
    let tree = copy.join("tree");
    let _ = fs::remove_dir_all(&tree);
    let listed = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(&root)
        .output()
        .map_err(|error| format!("cannot run git: {error}"))?;
    for file in listed
        .stdout
        .split(|byte| *byte == 0)
        .filter(|name| !name.is_empty())
    {
        let name = String::from_utf8_lossy(file);
        let (from, to) = (root.join(name.as_ref()), tree.join(name.as_ref()));
        if let Some(folder) = to.parent() {
            fs::create_dir_all(folder).map_err(|error| format!("{}: {error}", folder.display()))?;
        }
        // A file git tracks but the tree no longer has (deleted, not committed) is left out.
        if from.is_file() {
            fs::copy(&from, &to).map_err(|error| format!("{}: {error}", from.display()))?;
        }
    }
    let manifest = tree.join("Cargo.toml");
    let manifest = path_text(&manifest)?;
    let target = copy.join("target");
    let target = path_text(&target)?;
    cargo(&["update", "--manifest-path", manifest], &[])?;
    cargo(
        &[
            "build",
            "--manifest-path",
            manifest,
            "-p",
            "paytoken",
            "--all-features",
        ],
        &[("RUSTFLAGS", "-D warnings"), ("CARGO_TARGET_DIR", target)],
    )
}

fn path_text(path: &Path) -> Result<&str, String> {
    path.to_str()
        .ok_or_else(|| format!("{}: not UTF-8", path.display()))
}
