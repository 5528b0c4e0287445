//! The integration test of `paytoken-python`: the module this crate builds, loaded by
//! Python and run by the Python suite in `tests/python/` (the standard library's
//! `unittest`) against a sandbox started here.
//!
//! `#![cfg(test)]` puts every module, helpers included, under the test settings of
//! `clippy.toml` (unwrap, expect, panics, indexing and printing allowed in tests).
#![cfg(test)]

use std::path::{Path, PathBuf};
use std::process::Command;

use paytoken_sandbox::{
    DEFAULT_MERCHANT_ID, DEFAULT_MERCHANT_SECURE_KEY, DEFAULT_MERCHANT_USERNAME,
    DEFAULT_PARTNER_ID, Sandbox,
};

/// The module cargo built for this test, beside it: `target/<profile>/deps/` holds the
/// library a test links (its copy one folder up is refreshed only by `cargo build`).
fn built_module() -> PathBuf {
    let test = std::env::current_exe().unwrap();
    test.parent().unwrap().join("libpaytoken_python.so")
}

/// A folder Python imports `paytoken` from: the package's Python files and the module.
fn package() -> PathBuf {
    let root = std::env::temp_dir().join(format!("paytoken-python-{}", std::process::id()));
    let package = root.join("paytoken");
    std::fs::create_dir_all(&package).unwrap();
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/paytoken");
    for entry in std::fs::read_dir(sources).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, package.join(path.file_name().unwrap())).unwrap();
    }
    std::fs::copy(built_module(), package.join("_paytoken.abi3.so")).unwrap();
    root
}

#[test]
fn the_python_suite_passes_against_a_sandbox() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let sandbox = runtime.block_on(Sandbox::builder().start()).unwrap();
    let root = package();
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let suite = crate_dir.join("tests/python");
    let output = Command::new("python3")
        .args([
            "-m",
            "unittest",
            "discover",
            "--verbose",
            "--start-directory",
        ])
        .arg(&suite)
        .env("PYTHONPATH", &root)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("PAYTOKEN_BASE_URL", sandbox.base_url())
        .env("PAYTOKEN_MEMBER_ID", DEFAULT_MERCHANT_ID)
        .env("PAYTOKEN_SECURE_KEY", DEFAULT_MERCHANT_SECURE_KEY)
        .env("PAYTOKEN_PARTNER_ID", DEFAULT_PARTNER_ID)
        .env("PAYTOKEN_USERNAME", DEFAULT_MERCHANT_USERNAME)
        .output()
        .expect("python3 runs");
    runtime.block_on(sandbox.shutdown());
    let _ = std::fs::remove_dir_all(&root);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the Python suite failed:\n{said}");
    assert!(said.contains("Ran 47 tests"), "{said}");
}
