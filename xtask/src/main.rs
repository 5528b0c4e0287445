//! # xtask
//!
//! paytoken's own automation, run as `cargo xtask <command>` (an alias in
//! `.cargo/config.toml`). It needs nothing but cargo: tools it uses are installed by it.
//!
//! It works from any folder of the project and changes no directory: every path it reads
//! or writes, and every command it runs, starts at the project's root (`project_root()`).
//!
//! - `cargo xtask ci [--skip-tests]`: every check CI makes, in order, stopping at the first
//!   failure: the tidy rules (`tidy.rs`: crate docs, no unfinished macros, no lint
//!   allowances in test files, no file over a thousand lines), the public API snapshot
//!   (`api.rs`), formatting, clippy with `-D warnings` on all targets, the tests (left out
//!   with `--skip-tests`, which `.ci/run` passes because it has just run them), the
//!   ignored tests (`ignored.rs`: headless chromium on the 3-D Secure page and on the
//!   dashboard, the conformance kit's Python checker, its standard validators, and a
//!   Python client generated from its OpenAPI document against the sandbox; the Debian
//!   packages and the Python tools installed where missing; run even with
//!   `--skip-tests`), paytoken for Python as a user gets it (`binding.rs`: the wheel
//!   maturin builds, the Python suite under pytest, the example adapters under `paytoken
//!   conform`, every vector and scenario passed), paytoken for Node likewise (`node.rs`:
//!   the package `napi build` makes, its types checked by `tsc`, the suite under `node
//!   --test`, the adapters under `paytoken conform`), the sandbox's suite again on its
//!   file store (`PAYTOKEN_TEST_STORE=file`, the binary the tests built, run again alone),
//!   the docs with `-D warnings` and the facade's pages read for a link left as text or
//!   leading out of the facade (`doc_links.rs`), the `no_std` builds, the check that
//!   `paytoken-protocol` (and `paytoken` without its `hyper` feature) depends on no I/O
//!   crate, the check that `paytoken` with every feature does not build SQLite (the
//!   sandbox's alone), the check that neither `paytoken` with every feature nor the
//!   command builds the `simulation` feature that carries the planted defects (which
//!   `paytoken-sim` does), the check that no crate's modules import each other in a circle,
//!   `cargo deny`, and the fuzz targets for a few seconds each.
//! - `cargo xtask api`: writes each library crate's public items into `api/<crate>.txt`,
//!   after an API change that is meant (and said in CHANGELOG.md).
//! - `cargo xtask python`: paytoken for Python's step of `ci` alone (`binding.rs`).
//! - `cargo xtask node`: paytoken for Node's step of `ci` alone (`node.rs`).
//! - `cargo xtask dist`: the `paytoken` command's completion scripts and man pages, written
//!   into `target/dist/` (`dist.rs`).
//! - `cargo xtask screenshot`: the dashboard's browser test, then its screenshot copied to
//!   `crates/paytoken-sandbox/dashboard.png`, which the sandbox's manual shows
//!   (`ignored.rs`).
//! - `cargo xtask fleet-failover`: the fleet store's failover tests, not in `ci`: a
//!   PostgreSQL primary and a streaming standby, asynchronous then synchronous, each run
//!   printing what the promotion lost (`ignored.rs`).
//! - `cargo xtask bench [ARGS]`: the criterion benchmarks of every crate, with `ARGS`
//!   passed on to them (for example a filter), then their record written into
//!   docs/PERFORMANCE.md (figures, baselines, ratios, budgets, machine, date).
//! - `cargo xtask fuzz --smoke | --long`: every cargo-fuzz target of `fuzz/`, seconds or
//!   minutes each (`--smoke` is the last step of `ci`).
//! - `cargo xtask sim [--seeds N] [--seed S] [--checkouts K] [--defect NAME]`: the
//!   deterministic simulation (`crates/paytoken-sim`), built for release, over many seeds;
//!   a failing seed prints the command that replays it and its orders' history.
//! - `cargo xtask fresh-deps`: the facade, every feature, built with warnings denied
//!   against a copy of the lock updated from the registry (`fresh_deps.rs`): what a shop
//!   resolving today's dependencies gets. Not in `ci`, which an upstream release must
//!   never turn red.
#![allow(
    clippy::print_stderr,
    reason = "a std command-line tool that reports on stderr"
)]

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::OnceLock;
use std::time::Instant;

mod api;
mod bench;
mod binding;
mod conform;
mod dist;
mod doc_links;
mod fresh_deps;
mod fuzz;
mod ignored;
mod layers;
mod node;
mod python_tools;
mod tidy;

/// How long each fuzz target runs in `cargo xtask ci`.
const SMOKE_SECONDS: u32 = 5;
/// How long each runs with `cargo xtask fuzz --long`.
const LONG_SECONDS: u32 = 300;

/// The crates that must build without `std` (ARCHITECTURE.md, invariant 1).
const NO_STD_CRATES: [&str; 2] = ["paytoken-types", "paytoken-checksum"];

/// The version of cargo-deny installed when it is missing.
const CARGO_DENY_VERSION: &str = "0.20.2";

/// The project's root: the xtask package sits one folder below it. Every path xtask reads
/// or writes, and every command it runs, starts there; xtask changes no directory.
pub(crate) fn project_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // Without its `..`, so that it compares equal to the paths cargo reports.
    std::fs::canonicalize(&root).unwrap_or(root)
}

/// The crates whose modules must form layers: every one under `crates/`, and xtask.
pub(crate) fn layered_crates(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .collect();
    dirs.sort();
    dirs.push(root.join("xtask"));
    dirs
}

/// Where cargo builds: `CARGO_TARGET_DIR`, or the project's `target` folder.
pub(crate) fn target_dir() -> PathBuf {
    env::var_os("CARGO_TARGET_DIR").map_or_else(|| project_root().join("target"), PathBuf::from)
}

fn main() -> ExitCode {
    let root = project_root();
    let args: Vec<String> = env::args().skip(1).collect();
    let result = match (
        args.first().map(String::as_str),
        args.get(1).map(String::as_str),
    ) {
        (Some("ci"), None) => ci(Tests::Run),
        (Some("ci"), Some("--skip-tests")) => ci(Tests::Skip),
        (Some("api"), None) => api::record(&root),
        (Some("dist"), None) => dist::run(),
        (Some("screenshot"), None) => ignored::screenshot(),
        (Some("fleet-failover"), None) => ignored::fleet_failover(),
        (Some("python"), None) => binding::check(),
        (Some("node"), None) => node::check(),
        (Some("bench"), _) => bench::run(args.get(1..).unwrap_or_default()),
        (Some("fuzz"), Some("--smoke")) => fuzz::run(SMOKE_SECONDS),
        (Some("fuzz"), Some("--long")) => fuzz::run(LONG_SECONDS),
        (Some("sim"), _) => sim(args.get(1..).unwrap_or_default()),
        (Some("fresh-deps"), None) => fresh_deps::check(),
        _ => {
            eprintln!(
                "usage: cargo xtask ci [--skip-tests] | api | dist | screenshot | fleet-failover | python | node | bench [criterion args] | fuzz --smoke|--long | sim [--seeds N] [--seed S] [--defect NAME] | fresh-deps"
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// `cargo xtask sim`: the simulation's seeds, in a release build (a person's long run;
/// `cargo test` runs a fixed few).
fn sim(args: &[String]) -> Result<(), String> {
    let mut cargo_args = vec!["run", "--release", "--locked", "-p", "paytoken-sim", "--"];
    cargo_args.extend(args.iter().map(String::as_str));
    cargo(&cargo_args, &[])
}

/// A command of the cargo that runs this xtask (`$CARGO`, looked up once, or `cargo`), in
/// the project's root, without the variables `cargo run` set to describe xtask itself
/// (`CARGO_PKG_NAME`, `CARGO_MANIFEST_DIR`, ...). ring's build script reruns when those
/// change: a cargo that inherited them rebuilt ring and every crate above it (rustls, the
/// sandbox, the tests) after `cargo test` had built them, and the next cargo without them
/// did again.
fn cargo_command() -> Command {
    static CARGO: OnceLock<String> = OnceLock::new();
    let program = CARGO.get_or_init(|| env::var("CARGO").unwrap_or_else(|_| String::from("cargo")));
    let mut command = Command::new(program);
    command.current_dir(project_root());
    forget_xtask(&mut command);
    command
}

/// `command` without the variables `cargo run` set to describe xtask itself, for a
/// command that runs cargo (see [`cargo_command`]).
fn forget_xtask(command: &mut Command) {
    for (name, _) in env::vars_os() {
        let describes_xtask = name.to_str().is_some_and(|name| {
            name.starts_with("CARGO_PKG_")
                || name.starts_with("CARGO_MANIFEST_")
                || matches!(
                    name,
                    "CARGO_CRATE_NAME" | "CARGO_BIN_NAME" | "CARGO_PRIMARY_PACKAGE"
                )
        });
        if describes_xtask {
            command.env_remove(name);
        }
    }
}

/// Runs `cargo` with `args` (and extra environment), failing on a non-zero exit.
fn cargo(args: &[&str], env: &[(&str, &str)]) -> Result<(), String> {
    let started = Instant::now();
    eprintln!("xtask: cargo {}", args.join(" "));
    let status = cargo_command()
        .args(args)
        .envs(env.iter().copied())
        .status()
        .map_err(|error| format!("cannot run cargo: {error}"))?;
    eprintln!(
        "xtask: cargo {} took {:.1}s",
        args.first().copied().unwrap_or_default(),
        started.elapsed().as_secs_f64()
    );
    if status.success() {
        Ok(())
    } else {
        Err(format!("`cargo {}` failed ({status})", args.join(" ")))
    }
}

/// Runs `cargo` and returns its standard output.
fn cargo_output(args: &[&str]) -> Result<String, String> {
    let output = cargo_command()
        .args(args)
        .output()
        .map_err(|error| format!("cannot run cargo: {error}"))?;
    if !output.status.success() {
        return Err(format!(
            "`cargo {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    String::from_utf8(output.stdout).map_err(|_| String::from("cargo printed non-UTF-8"))
}

/// Whether `cargo xtask ci` runs the test suite.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tests {
    Run,
    /// `.ci/run` has just run the README's test command.
    Skip,
}

/// The steps of a run, each with the time it took: the table that ends `cargo xtask ci`
/// (printed, never asserted; docs/PERFORMANCE.md keeps CI's budget by these names).
#[derive(Default)]
struct Timed {
    steps: Vec<(&'static str, std::time::Duration)>,
}

impl Timed {
    /// Runs `step`, keeping its time under `name`.
    fn step(
        &mut self,
        name: &'static str,
        step: impl FnOnce() -> Result<(), String>,
    ) -> Result<(), String> {
        let started = Instant::now();
        let result = step();
        self.steps.push((name, started.elapsed()));
        result
    }

    /// The table, on stderr: a step a line, then the total.
    fn print(&self) {
        eprintln!("xtask: ci's steps");
        let mut total = std::time::Duration::ZERO;
        for (name, took) in &self.steps {
            eprintln!("  {name:<24} {:>7.1}s", took.as_secs_f64());
            total += *took;
        }
        eprintln!("  {:<24} {:>7.1}s", "total", total.as_secs_f64());
    }
}

fn ci(tests: Tests) -> Result<(), String> {
    let mut timed = Timed::default();
    let result = ci_steps(tests, &mut timed);
    timed.print();
    result
}

fn ci_steps(tests: Tests, timed: &mut Timed) -> Result<(), String> {
    let root = project_root();
    timed.step("tidy", || tidy::check(&root))?;
    timed.step("api", || api::check(&root))?;
    timed.step("fmt", || {
        cargo(&["fmt", "--all", "--check"], &[])?;
        // The fuzz package is not a workspace member, so `--all` does not reach it.
        cargo(
            &["fmt", "--manifest-path", "fuzz/Cargo.toml", "--check"],
            &[],
        )
    })?;
    timed.step("clippy", clippy)?;
    if tests == Tests::Run {
        timed.step("test", || cargo(&["test", "--workspace", "--locked"], &[]))?;
    }
    timed.step("ignored tests", ignored::run)?;
    // The steps that ask `cargo test --workspace` for its binaries come before the Python
    // step, which ends with maturin's build of the module: cargo would build that crate
    // again after it.
    timed.step("node binding", node::check)?;
    timed.step("sandbox suite on files", sandbox_suite_on_files)?;
    timed.step("python binding", binding::check)?;
    timed.step("doc", || {
        cargo(
            &[
                "doc",
                "--workspace",
                "--no-deps",
                "--all-features",
                "--locked",
            ],
            &[("RUSTDOCFLAGS", "-D warnings")],
        )
    })?;
    timed.step("doc links", || doc_links::check(&target_dir().join("doc")))?;
    timed.step("no_std", no_std)?;
    timed.step("sans-io", sans_io)?;
    timed.step("no sqlite in the sdk", no_sqlite_in_the_sdk)?;
    timed.step("no planted defects", no_planted_defects)?;
    timed.step("layers", || layers::check(&layered_crates(&root)))?;
    timed.step("deny", deny)?;
    timed.step("fuzz", || fuzz::run(SMOKE_SECONDS))
}

/// Clippy over the workspace, every target and feature, warnings denied.
fn clippy() -> Result<(), String> {
    cargo(
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--all-features",
            "--locked",
            "--",
            "-D",
            "warnings",
        ],
        &[],
    )
}

/// Runs the sandbox's suite again, each sandbox on the file store, so that both stores
/// pass it. The binary is the one the test run built: cargo names it (`--no-run`, with
/// `--workspace` as that run had, since `-p` alone unifies features differently and would
/// build for a minute), and it runs alone, from the sandbox's folder as cargo runs it.
fn sandbox_suite_on_files() -> Result<(), String> {
    let messages = cargo_output(&[
        "test",
        "--workspace",
        "--test",
        "it",
        "--locked",
        "--no-run",
        "--message-format=json",
    ])?;
    let sandbox = project_root().join("crates/paytoken-sandbox");
    let manifest = sandbox.join("Cargo.toml");
    let binary = messages
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .find(|message| {
            let text = |pointer: &str| message.pointer(pointer).and_then(|value| value.as_str());
            text("/reason") == Some("compiler-artifact")
                && text("/target/name") == Some("it")
                && text("/manifest_path").is_some_and(|path| Path::new(path) == manifest)
        })
        .and_then(|message| message.pointer("/executable")?.as_str().map(str::to_owned))
        .ok_or("cargo named no test binary for paytoken-sandbox's suite")?;
    let started = Instant::now();
    eprintln!("xtask: {binary} (PAYTOKEN_TEST_STORE=file)");
    let status = Command::new(&binary)
        .current_dir(&sandbox)
        .env("PAYTOKEN_TEST_STORE", "file")
        .status()
        .map_err(|error| format!("cannot run {binary}: {error}"))?;
    eprintln!(
        "xtask: the sandbox's suite on files took {:.1}s",
        started.elapsed().as_secs_f64()
    );
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "the sandbox's suite on the file store failed ({status})"
        ))
    }
}

/// Crates the sans-IO protocol must never depend on (ARCHITECTURE.md, invariant 7).
const IO_CRATES: &[&str] = &["tokio", "hyper", "hyper-util", "mio", "reqwest", "socket2"];

/// Checks that `paytoken-protocol`, with every feature, and the `paytoken` facade without
/// its default `hyper` feature depend on no I/O runtime (and that the facade builds so),
/// and that the protocol's sources (doc examples included) read no clock and do no I/O.
fn sans_io() -> Result<(), String> {
    no_io_crate_under("paytoken-protocol", &["--all-features"])?;
    no_io_crate_under("paytoken", &["--no-default-features", "--features", "http"])?;
    // The facade without its client still names the one error (`paytoken::Error`).
    cargo(
        &[
            "check",
            "-p",
            "paytoken",
            "--no-default-features",
            "--locked",
        ],
        &[],
    )?;
    no_clock_in(&project_root().join("crates/paytoken-protocol/src"))
}

/// What only the sandbox and the command may build: SQLite, for the sandbox's file store.
const SQLITE_CRATES: &[&str] = &["rusqlite", "libsqlite3-sys"];

/// Checks that the SDK a merchant builds (`paytoken` with every feature, and so every
/// layer under it) does not grow by the sandbox's SQLite.
fn no_sqlite_in_the_sdk() -> Result<(), String> {
    no_crate_under(
        "paytoken",
        &["--all-features"],
        SQLITE_CRATES,
        "SQLite, the sandbox's",
    )
}

/// The feature under which the sandbox and the relay carry the defects a simulation plants.
const PLANTED: &[&str] = &[
    "paytoken-sandbox feature \"simulation\"",
    "paytoken-cli feature \"simulation\"",
];

/// Checks that no build a merchant runs (the SDK with every feature, the command as
/// installed) enables the feature that carries the simulation's planted defects, while the
/// simulation itself does (so that the check can fail).
fn no_planted_defects() -> Result<(), String> {
    let features_of = |package: &str, features: &[&str]| {
        let mut args = vec!["tree", "-p", package];
        args.extend_from_slice(features);
        args.extend_from_slice(&[
            "--edges",
            "normal,build,features",
            "--prefix",
            "none",
            "--locked",
        ]);
        cargo_output(&args)
    };
    for (package, features) in [("paytoken", &["--all-features"][..]), ("paytoken-cli", &[])] {
        let tree = features_of(package, features)?;
        if let Some(planted) = PLANTED.iter().find(|planted| tree.contains(*planted)) {
            return Err(format!(
                "{package} builds {planted}, the simulation's planted defects"
            ));
        }
    }
    let simulation = features_of("paytoken-sim", &[])?;
    if PLANTED.iter().all(|planted| simulation.contains(planted)) {
        Ok(())
    } else {
        Err("paytoken-sim no longer enables the planted defects this check looks for".to_owned())
    }
}

/// Fails when `package`, built with `features`, depends on one of [`IO_CRATES`].
fn no_io_crate_under(package: &str, features: &[&str]) -> Result<(), String> {
    no_crate_under(package, features, IO_CRATES, "an I/O crate")
}

/// Fails when `package`, built with `features`, depends on one of `crates` (`what` they
/// are, for the message).
fn no_crate_under(
    package: &str,
    features: &[&str],
    crates: &[&str],
    what: &str,
) -> Result<(), String> {
    let mut args = vec!["tree", "-p", package];
    args.extend_from_slice(features);
    args.extend_from_slice(&["--edges", "normal", "--prefix", "none", "--locked"]);
    let tree = cargo_output(&args)?;
    for line in tree.lines() {
        let name = line.split_whitespace().next().unwrap_or_default();
        if crates.contains(&name) {
            return Err(format!(
                "{package} ({}) depends on {name}, {what}",
                features.join(" ")
            ));
        }
    }
    Ok(())
}

/// What the sans-IO crate must not call, in its code or its doc examples: clocks, I/O,
/// threads, randomness.
const FORBIDDEN_CALLS: &[&str] = &[
    "Instant::now",
    "SystemTime",
    "std::fs",
    "std::net::Tcp",
    "std::net::Udp",
    "thread::spawn",
    "std::io::stdin",
    "getrandom",
    "rand::",
];

/// Whether `line` names `path` as a path of its own: `rand::` but not `PaymentBrand::`.
fn names(line: &str, path: &str) -> bool {
    line.match_indices(path).any(|(at, _)| {
        !line[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// Fails on the first source file under `dir` that names one of [`FORBIDDEN_CALLS`].
fn no_clock_in(dir: &Path) -> Result<(), String> {
    let mut files = Vec::new();
    tidy::files_with("rs", dir, &mut files)?;
    for path in files {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(&path).map_err(|error| format!("{shown}: {error}"))?;
        for (number, line) in text.lines().enumerate() {
            if let Some(call) = FORBIDDEN_CALLS.iter().find(|call| names(line, call)) {
                return Err(format!(
                    "{shown}:{}: the sans-IO crate must not use `{call}`",
                    number + 1
                ));
            }
        }
    }
    Ok(())
}

/// Builds the `no_std` crates without default features, warnings denied (an import only a
/// feature uses warns there and nowhere else), and checks that nothing in their dependency
/// graph turns on a `std` feature, which would link `std` in after all.
fn no_std() -> Result<(), String> {
    for krate in NO_STD_CRATES {
        cargo(
            &["build", "-p", krate, "--no-default-features", "--locked"],
            &[("RUSTFLAGS", "-D warnings")],
        )?;
        let tree = cargo_output(&[
            "tree",
            "-p",
            krate,
            "--no-default-features",
            "--edges",
            "normal,features",
            "--prefix",
            "none",
            "--locked",
        ])?;
        if let Some(line) = tree.lines().find(|line| line.contains("feature \"std\"")) {
            return Err(format!(
                "{krate} without default features pulls in std: {line}"
            ));
        }
    }
    Ok(())
}

/// Installs the cargo subcommand `subcommand` (package `package` at `version`) unless
/// `cargo <subcommand> --version` already answers.
fn ensure_installed(subcommand: &str, package: &str, version: &str) -> Result<(), String> {
    let installed = cargo_command()
        .args([subcommand, "--version"])
        .output()
        .is_ok_and(|output| output.status.success());
    if installed {
        return Ok(());
    }
    cargo(&["install", "--locked", package, "--version", version], &[])
}

/// `cargo deny check` for bans, licences and sources, installing cargo-deny first when
/// this machine does not have it.
fn deny() -> Result<(), String> {
    ensure_installed("deny", "cargo-deny", CARGO_DENY_VERSION)?;
    cargo(
        &[
            "deny",
            "--all-features",
            "check",
            "bans",
            "licenses",
            "sources",
        ],
        &[],
    )
}
