//! README's "Use the client", taken as a new user takes it: a crate of its own whose
//! manifest is README's dependency snippet (only the path made absolute) and whose `main`
//! is README's example, built offline with the workspace's lock file and target directory
//! (so the dependencies are the ones already built) and run against the sandbox its
//! `sandbox` feature starts.

use std::path::Path;
use std::process::Command;

/// The text of the first fenced block of `language` after `heading` in README.
fn block_after<'a>(readme: &'a str, heading: &str, language: &str) -> &'a str {
    let section = &readme[readme.find(heading).expect("the heading")..];
    let opening = format!("```{language}\n");
    let start = section.find(&opening).expect("a block") + opening.len();
    let length = section[start..].find("\n```").expect("its end");
    &section[start..=start + length]
}

#[test]
fn readmes_example_builds_and_runs_with_readmes_dependencies() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let dependencies = block_after(&readme, "## Use the client", "toml");
    let example = block_after(&readme, "## Use the client", "rust");
    let facade = root.join("crates/paytoken");
    let dependencies = dependencies.replace(
        "path = \"crates/paytoken\"",
        &format!("path = {:?}", facade.to_str().unwrap()),
    );
    assert_ne!(
        dependencies,
        block_after(&readme, "## Use the client", "toml"),
        "a path to rewrite"
    );

    let project = Path::new(env!("CARGO_TARGET_TMPDIR")).join("readme-crate");
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::write(
        project.join("Cargo.toml"),
        format!(
            "[package]\nname = \"readme-crate\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[workspace]\n\n{dependencies}"
        ),
    )
    .unwrap();
    std::fs::write(project.join("src/main.rs"), example).unwrap();
    std::fs::copy(root.join("Cargo.lock"), project.join("Cargo.lock")).unwrap();

    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args(["run", "--offline", "--quiet", "--manifest-path"])
        .arg(project.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", root.join("target"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
