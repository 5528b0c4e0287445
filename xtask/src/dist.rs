//! `cargo xtask dist`: what a package of the `paytoken` command ships beside the binary,
//! written into `target/dist/` (`dist/` of `CARGO_TARGET_DIR` where that is set): a
//! completion script per shell (`completions/`) and a man page per command (`man/`), each
//! made by the command itself from its own definition.

use std::path::Path;

use crate::{cargo, cargo_output, target_dir};

/// The shells and the file name each one's completion script is installed under.
const SHELLS: [(&str, &str); 4] = [
    ("bash", "paytoken.bash"),
    ("zsh", "_paytoken"),
    ("fish", "paytoken.fish"),
    ("powershell", "_paytoken.ps1"),
];

/// Builds the command, then writes the completion scripts and the man pages.
pub(crate) fn run() -> Result<(), String> {
    let dist = target_dir().join("dist");
    let completions = dist.join("completions");
    std::fs::create_dir_all(&completions)
        .map_err(|error| format!("cannot create {}: {error}", completions.display()))?;
    for (shell, file) in SHELLS {
        let script = cargo_output(&[
            "run",
            "-q",
            "-p",
            "paytoken-cli",
            "--",
            "completions",
            shell,
        ])?;
        write(&completions.join(file), &script)?;
    }
    let man = dist.join("man");
    let man_arg = man.to_string_lossy();
    cargo(
        &[
            "run",
            "-q",
            "-p",
            "paytoken-cli",
            "--",
            "man-pages",
            "--out",
            &man_arg,
        ],
        &[],
    )?;
    eprintln!(
        "xtask: completion scripts in {}, man pages in {}",
        completions.display(),
        man.display()
    );
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|error| format!("cannot write {}: {error}", path.display()))
}
