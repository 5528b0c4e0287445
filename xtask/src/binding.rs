//! `paytoken` for Python as a user gets it: the wheel maturin builds (a debug build, into
//! the target folder; a release build for `cargo xtask bench`), installed in a virtual
//! environment of its own beside pinned pytest;
//! then the Python suite under pytest, against a `paytoken sandbox` it starts, and the
//! example adapters under `paytoken conform`, which must pass every vector of the kit and
//! every scenario of `--http`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::conform::{Kit, score};
use crate::python_tools::{pip_install, run, stdout_of, venv};
use crate::{cargo, project_root, target_dir};

/// The build and test tools, pinned; and the HTTP libraries the README's checkout recipe
/// names, which the suite runs it with.
const TOOLS: &[&str] = &[
    "maturin==1.16.0",
    "pytest==8.3.4",
    "requests==2.32.3",
    "httpx==0.28.1",
];

/// Builds and installs the wheel, runs the suite and scores the adapter.
pub(crate) fn check() -> Result<(), String> {
    let root = project_root();
    let python = installed(Profile::Debug)?;
    // The command the suite starts its sandbox with, and that scores the adapter: the one
    // the workspace's tests built and run (`cargo build` unifies features without the
    // dev-dependencies' and would build the whole tree again, for a minute).
    cargo(&["test", "--workspace", "--no-run", "--locked"], &[])?;
    let paytoken = target_dir().join("debug").join("paytoken");
    run(Command::new(&python)
        .args(["-m", "pytest", "--quiet", "-p", "no:cacheprovider"])
        .arg(root.join("crates/paytoken-python/tests/python"))
        .env("PAYTOKEN_COMMAND", &paytoken)
        .env("PAYTOKEN_RECIPES_REQUIRED", "1")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .current_dir(target_dir()))?;
    conform(&paytoken, &python, &root, Kit::Vectors)?;
    conform(&paytoken, &python, &root, Kit::Http)
}

/// The binding's benchmark against the kit's pure-Python reference adapter, on a release
/// wheel: what it printed (its `RATIO` line among it).
pub(crate) fn bench() -> Result<String, String> {
    let python = installed(Profile::Release)?;
    let script = project_root().join("crates/paytoken-python/benches/payment_round_trip.py");
    stdout_of(
        Command::new(&python)
            .arg(&script)
            .env("PYTHONDONTWRITEBYTECODE", "1"),
    )
}

/// How maturin builds the wheel: debug for the checks, release for the benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Profile {
    Debug,
    Release,
}

/// The `python3` of the binding's virtual environment, with the wheel maturin built for
/// `profile` (into `target/wheels/<profile>`) installed.
fn installed(profile: Profile) -> Result<PathBuf, String> {
    let python = venv("binding-python", TOOLS)?;
    let wheels = target_dir()
        .join("wheels")
        .join(format!("{profile:?}").to_lowercase());
    let _ = fs::remove_dir_all(&wheels);
    let mut maturin = Command::new(python.with_file_name("maturin"));
    maturin.args(["build", "--quiet", "--out"]).arg(&wheels);
    if profile == Profile::Release {
        maturin.arg("--release");
    }
    let manifest = project_root().join("crates/paytoken-python/Cargo.toml");
    run(maturin.arg("--manifest-path").arg(manifest))?;
    let wheel = wheel_in(&wheels)?;
    let reinstall = [
        "--force-reinstall".as_ref(),
        "--no-deps".as_ref(),
        wheel.as_os_str(),
    ];
    pip_install(&python, &reinstall)?;
    Ok(python)
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

/// `paytoken conform` with the example adapter of `kit` on the installed wheel.
fn conform(paytoken: &Path, python: &Path, root: &Path, kit: Kit) -> Result<(), String> {
    let adapter = match kit {
        Kit::Vectors => "conform_adapter.py",
        Kit::Http => "conform_http.py",
    };
    let adapter = root.join("crates/paytoken-python/examples").join(adapter);
    let client = format!("'{}' '{}'", python.display(), adapter.display());
    let env = [("PYTHONDONTWRITEBYTECODE", "1".as_ref())];
    score(paytoken, &client, "Python", kit, &env)
}
