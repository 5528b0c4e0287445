//! The integration test of `paytoken-node`: the addon this crate builds, loaded by Node
//! through the package's `index.js` and run by the `node --test` suite in `tests/node/`
//! against a sandbox started here.
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

/// The addon cargo built for this test, beside it: `target/<profile>/deps/` holds the
/// library a test links (its copy one folder up is refreshed only by `cargo build`).
fn built_addon() -> PathBuf {
    let test = std::env::current_exe().unwrap();
    test.parent().unwrap().join("libpaytoken_node.so")
}

/// A `node_modules` folder holding the package `paytoken`: its `index.js`, `index.d.ts`
/// and `package.json`, and the addon under the name a plain `napi build` gives it.
fn node_modules() -> PathBuf {
    let root = std::env::temp_dir().join(format!("paytoken-node-{}", std::process::id()));
    let package = root.join("paytoken");
    std::fs::create_dir_all(&package).unwrap();
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in [
        "index.js",
        "index.mjs",
        "index.d.ts",
        "index.d.mts",
        "package.json",
    ] {
        std::fs::copy(crate_dir.join(file), package.join(file)).unwrap();
    }
    std::fs::copy(built_addon(), package.join("paytoken.node")).unwrap();
    root
}

#[test]
fn the_node_suite_passes_against_a_sandbox() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let sandbox = runtime.block_on(Sandbox::builder().start()).unwrap();
    let root = node_modules();
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/node");
    let output = Command::new("node")
        .arg("--test")
        .arg(&suite)
        .env("NODE_PATH", &root)
        .env("PAYTOKEN_BASE_URL", sandbox.base_url())
        .env("PAYTOKEN_MEMBER_ID", DEFAULT_MERCHANT_ID)
        .env("PAYTOKEN_SECURE_KEY", DEFAULT_MERCHANT_SECURE_KEY)
        .env("PAYTOKEN_PARTNER_ID", DEFAULT_PARTNER_ID)
        .env("PAYTOKEN_USERNAME", DEFAULT_MERCHANT_USERNAME)
        .output()
        .expect("node runs");
    runtime.block_on(sandbox.shutdown());
    let _ = std::fs::remove_dir_all(&root);
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "the Node suite failed:\n{said}");
    assert!(said.contains("# pass 23\n"), "{said}");
    assert!(said.contains("# fail 0\n"), "{said}");
}
