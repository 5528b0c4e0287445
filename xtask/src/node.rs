//! `paytoken` for Node as a user gets it: the package `napi build` makes (a debug build,
//! into the target folder; a release build for `cargo xtask bench`) with its TypeScript
//! definitions, assembled in `target/node/<profile>/paytoken`; then the definitions
//! checked against a typed example by `tsc`, the `node --test` suite against a `paytoken
//! sandbox` it starts, and the example adapters under `paytoken conform`, which must pass
//! every vector of the kit and every scenario of `--http`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::conform::{Kit, score};
use crate::python_tools::{run, stdout_of};
use crate::{cargo, forget_xtask, project_root, target_dir};

/// The crate, its `package.json` and the files the package ships beside the addon.
const CRATE: &str = "crates/paytoken-node";
const SHIPPED: [&str; 5] = [
    "index.js",
    "index.mjs",
    "index.d.mts",
    "package.json",
    "README.md",
];

/// Builds the package, checks its types, runs the suite and scores the adapters.
pub(crate) fn check() -> Result<(), String> {
    let root = project_root();
    let modules = package(Profile::Debug)?;
    same_definitions(&modules)?;
    linted(&modules)?;
    let shop = typecheck(&modules)?;
    // The command the suite starts its sandbox with, and that scores the adapter: the one
    // the workspace's tests built (see `binding::check`).
    cargo(&["test", "--workspace", "--no-run", "--locked"], &[])?;
    let paytoken = target_dir().join("debug").join("paytoken");
    run(Command::new("node")
        .arg("--test")
        .arg(root.join(CRATE).join("tests/node"))
        .env("NODE_PATH", &modules)
        .env("PAYTOKEN_COMMAND", &paytoken)
        .env("PAYTOKEN_SHOP_JS", &shop)
        .env("PAYTOKEN_RECIPES_REQUIRED", "1"))?;
    for (adapter, kit) in [
        ("conform_adapter.js", Kit::Vectors),
        ("conform_http.js", Kit::Http),
    ] {
        let adapter = root.join(CRATE).join("examples").join(adapter);
        let client = format!("node '{}'", adapter.display());
        let env = [("NODE_PATH", modules.as_os_str())];
        score(&paytoken, &client, "Node", kit, &env)?;
    }
    Ok(())
}

/// The binding's benchmark against plain JavaScript, on the release package: what it
/// printed (its `RATIO` line among it).
pub(crate) fn bench() -> Result<String, String> {
    let modules = package(Profile::Release)?;
    let script = project_root()
        .join(CRATE)
        .join("benches/payment_round_trip.js");
    stdout_of(Command::new("node").arg(&script).env("NODE_PATH", &modules))
}

/// How `napi build` builds the addon: debug for the checks, release for the benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Profile {
    Debug,
    Release,
}

/// The folder to put in `NODE_PATH` for `require('paytoken')`: `target/node/<profile>`,
/// holding the package `paytoken` as npm would install it: the addon `napi build` wrote
/// for this platform, the TypeScript definitions it wrote, and the shipped files.
pub(crate) fn package(profile: Profile) -> Result<PathBuf, String> {
    let napi = tools()?.join("node_modules/.bin/napi");
    let modules = target_dir()
        .join("node")
        .join(format!("{profile:?}").to_lowercase());
    let package = modules.join("paytoken");
    let _ = fs::remove_dir_all(&package);
    let crate_dir = project_root().join(CRATE);
    let mut build = Command::new(napi);
    forget_xtask(&mut build);
    build
        .args(["build", "--platform", "--no-js", "--dts", "index.d.ts"])
        .arg("--output-dir")
        .arg(&package)
        .current_dir(&crate_dir);
    if profile == Profile::Release {
        build.arg("--release");
    }
    run(&mut build)?;
    for file in SHIPPED {
        let shipped = crate_dir.join(file);
        fs::copy(&shipped, package.join(file))
            .map_err(|error| format!("{}: {error}", shipped.display()))?;
    }
    Ok(modules)
}

/// The TypeScript definitions `napi build` wrote, checked against the ones the crate
/// commits (`crates/paytoken-node/index.d.ts`): a change to what the package declares is
/// made on purpose, by copying the new file over the committed one, and reviewed as a diff.
fn same_definitions(modules: &Path) -> Result<(), String> {
    let written = modules.join("paytoken").join("index.d.ts");
    let committed = project_root().join(CRATE).join("index.d.ts");
    let read = |path: &Path| {
        fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))
    };
    let (written_text, committed_text) = (read(&written)?, read(&committed)?);
    if written_text == committed_text {
        return Ok(());
    }
    let first = (written_text.lines().zip(committed_text.lines()))
        .position(|(new, old)| new != old)
        .unwrap_or_else(|| {
            written_text
                .lines()
                .count()
                .min(committed_text.lines().count())
        });
    Err(format!(
        "{}: the definitions napi build wrote differ from the committed ones from line {}; \
         if the change is meant, copy {} over it and commit the diff",
        committed.display(),
        first + 1,
        written.display()
    ))
}

/// The package as npm packs it, checked by publint and by `@arethetypeswrong/cli` (both
/// pinned): its files and exports map, and its types as `import` and `require` each resolve
/// them.
fn linted(modules: &Path) -> Result<(), String> {
    let tools = tools()?.join("node_modules/.bin");
    let package = modules.join("paytoken");
    let packed = modules.join("packed");
    let _ = fs::remove_dir_all(&packed);
    fs::create_dir_all(&packed).map_err(|error| format!("{}: {error}", packed.display()))?;
    let tarball = stdout_of(
        Command::new("npm")
            .args(["pack", "--silent", "--pack-destination"])
            .arg(&packed)
            .current_dir(&package),
    )?;
    run(Command::new(tools.join("publint")).arg(&package))?;
    run(Command::new(tools.join("attw")).arg(packed.join(tarball.trim())))
}

/// `tsc --strict` on the typed example, `paytoken` resolved to the package in `modules`
/// and Node's own types pinned: the definitions hold what the example does. What `tsc`
/// made of it, for the suite to run.
fn typecheck(modules: &Path) -> Result<PathBuf, String> {
    let tools = tools()?.join("node_modules");
    let tsc = tools.join(".bin/tsc");
    let example = project_root().join(CRATE).join("examples/shop.ts");
    let checked = modules.join("typecheck");
    let _ = fs::remove_dir_all(&checked);
    let linked = checked.join("node_modules");
    fs::create_dir_all(&linked).map_err(|error| format!("{}: {error}", linked.display()))?;
    std::os::unix::fs::symlink(modules.join("paytoken"), linked.join("paytoken"))
        .map_err(|error| format!("{}: {error}", linked.display()))?;
    let copied = checked.join("shop.ts");
    fs::copy(&example, &copied).map_err(|error| format!("{}: {error}", example.display()))?;
    run(Command::new(tsc)
        .args(["--strict", "--target", "es2022", "--lib", "es2022,dom"])
        .args(["--module", "nodenext", "--types", "node", "--typeRoots"])
        .arg(tools.join("@types"))
        .arg("--outDir")
        .arg(&checked)
        .arg(&copied))?;
    Ok(checked.join("shop.js"))
}

/// The folder where npm installed the package's `devDependencies` at the versions
/// `package.json` pins (the napi-rs command line, TypeScript, Node's types): installed once, again when
/// the pins change.
fn tools() -> Result<PathBuf, String> {
    let manifest = project_root().join(CRATE).join("package.json");
    let text = fs::read_to_string(&manifest)
        .map_err(|error| format!("{}: {error}", manifest.display()))?;
    let parsed: serde_json::Value =
        serde_json::from_str(&text).map_err(|error| format!("{}: {error}", manifest.display()))?;
    let pins: Vec<String> = (parsed.get("devDependencies"))
        .and_then(serde_json::Value::as_object)
        .ok_or_else(|| format!("{}: no devDependencies", manifest.display()))?
        .iter()
        .map(|(name, version)| format!("{name}@{}", version.as_str().unwrap_or_default()))
        .collect();
    let tools = target_dir().join("node-tools");
    let stamp = tools.join("paytoken-tools.txt");
    let pinned = pins.join("\n");
    if fs::read_to_string(&stamp).is_ok_and(|text| text == pinned) {
        return Ok(tools);
    }
    eprintln!(
        "xtask: installing {} in {}",
        pins.join(", "),
        tools.display()
    );
    let _ = fs::remove_dir_all(&tools);
    fs::create_dir_all(&tools).map_err(|error| format!("{}: {error}", tools.display()))?;
    run(Command::new("npm")
        .args([
            "install",
            "--no-save",
            "--no-audit",
            "--no-fund",
            "--prefix",
        ])
        .arg(&tools)
        .args(&pins))?;
    fs::write(&stamp, pinned).map_err(|error| format!("{}: {error}", stamp.display()))?;
    Ok(tools)
}
