//! `paytoken` for Python as a user gets it: `pip install crates/paytoken-python` (a debug
//! build; a release build for `cargo xtask bench`) in a virtual environment of its own
//! beside pinned maturin and pytest;
//! then the Python suite under pytest, against a `paytoken sandbox` it starts, and the
//! example adapters under `paytoken conform`, which must pass every vector of the kit and
//! every scenario of `--http` (the module's adapter, and the one built on `Client`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::conform::{Kit, score};
use crate::python_tools::{pip_installing, run, stdout_of, venv};
use crate::{cargo, project_root, target_dir};

/// The build and test tools, pinned; the HTTP libraries the README's checkout recipe
/// names, which the suite runs it with; and uvloop, which `AsyncClient` is tested on.
const TOOLS: &[&str] = &[
    "maturin==1.16.0",
    "pytest==8.3.4",
    "requests==2.32.3",
    "httpx==0.28.1",
    "uvloop==0.21.0",
];

/// Builds and installs the wheel, runs the suite and scores the adapter.
pub(crate) fn check() -> Result<(), String> {
    let root = project_root();
    // The command the suite starts its sandbox with, and that scores the adapter: the one
    // the workspace's tests built and run (`cargo build` unifies features without the
    // dev-dependencies' and would build the whole tree again, for a minute). Before the
    // install: maturin links the module with flags of its own, after which cargo builds
    // this crate again.
    cargo(&["test", "--workspace", "--no-run", "--locked"], &[])?;
    let python = installed(Profile::Debug)?;
    let paytoken = target_dir().join("debug").join("paytoken");
    run(Command::new(&python)
        .args(["-m", "pytest", "--quiet", "-p", "no:cacheprovider"])
        .arg(root.join("crates/paytoken-python/tests/python"))
        .env("PAYTOKEN_COMMAND", &paytoken)
        .env("PAYTOKEN_RECIPES_REQUIRED", "1")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .current_dir(target_dir()))?;
    conform(
        &paytoken,
        &python,
        &root,
        Kit::Vectors,
        "conform_adapter.py",
    )?;
    conform(&paytoken, &python, &root, Kit::Http, "conform_http.py")?;
    // The same kit through `Client`: its own retries and settling, one method a step.
    conform(&paytoken, &python, &root, Kit::Http, "conform_client.py")
}

/// The binding's benchmarks on a release build: the module against the kit's pure-Python
/// reference adapter, and the clients against httpx with the module, paying a release
/// `paytoken sandbox` over loopback. What they printed (their `RATIO` lines among it).
pub(crate) fn bench() -> Result<String, String> {
    let python = installed(Profile::Release)?;
    cargo(
        &["build", "--release", "-p", "paytoken-cli", "--locked"],
        &[],
    )?;
    let paytoken = target_dir().join("release").join("paytoken");
    let benches = project_root().join("crates/paytoken-python/benches");
    let mut printed = String::new();
    for script in ["payment_round_trip.py", "client_round_trip.py"] {
        printed += &stdout_of(
            Command::new(&python)
                .arg(benches.join(script))
                .env("PAYTOKEN_COMMAND", &paytoken)
                .env("PYTHONDONTWRITEBYTECODE", "1"),
        )?;
    }
    Ok(printed)
}

/// How maturin builds the module: debug for the checks, release for the benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Profile {
    Debug,
    Release,
}

/// The `python3` of the binding's virtual environment, with the package installed as the
/// README's first step installs it (`pip install crates/paytoken-python`): maturin, pinned,
/// builds it in place of pip's isolated build, with cargo's `dev` profile for the checks
/// (`MATURIN_PEP517_ARGS`).
fn installed(profile: Profile) -> Result<PathBuf, String> {
    let python = venv("binding-python", TOOLS)?;
    let package = project_root().join("crates/paytoken-python");
    // maturin's build backend builds for release unless told otherwise.
    let maturin_args = match profile {
        Profile::Debug => "--profile dev",
        Profile::Release => "",
    };
    let started = std::time::Instant::now();
    run(pip_installing(&python)
        .args(["--no-build-isolation", "--force-reinstall", "--no-deps"])
        .arg(&package)
        .env("MATURIN_PEP517_ARGS", maturin_args)
        // maturin's build backend runs the `maturin` it finds first: the pinned one.
        .env("PATH", with_venv_path(&python)?))?;
    eprintln!(
        "xtask: pip install crates/paytoken-python ({profile:?}) took {:.0} s",
        started.elapsed().as_secs_f64()
    );
    Ok(python)
}

/// `PATH` with the folder of the virtual environment's `python3` first, as `activate` sets
/// it.
fn with_venv_path(python: &Path) -> Result<std::ffi::OsString, String> {
    let bin = python
        .parent()
        .ok_or("the virtual environment's python has no folder")?;
    let rest = std::env::var_os("PATH").unwrap_or_default();
    let folders = std::iter::once(bin.to_path_buf()).chain(std::env::split_paths(&rest));
    std::env::join_paths(folders).map_err(|error| format!("PATH: {error}"))
}

/// `paytoken conform` with the example adapter `adapter` on the installed package: the
/// module's for the vectors, the module's or the client's over HTTP.
fn conform(
    paytoken: &Path,
    python: &Path,
    root: &Path,
    kit: Kit,
    adapter: &str,
) -> Result<(), String> {
    let adapter_name = adapter;
    let adapter = root.join("crates/paytoken-python/examples").join(adapter);
    let client = format!("'{}' '{}'", python.display(), adapter.display());
    let env = [("PYTHONDONTWRITEBYTECODE", "1".as_ref())];
    score(
        paytoken,
        &client,
        &format!("Python ({adapter_name})"),
        kit,
        &env,
    )
}
