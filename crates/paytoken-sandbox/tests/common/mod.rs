//! The sandbox's tests' helpers: a notification endpoint, and the plain HTTP/1.1 client and
//! sign-in helpers they share with the sandbox's benchmark (in `paytoken-test-support`).

pub(crate) mod listener;

pub(crate) use paytoken_test_support::raw::*;

use paytoken_sandbox::{Sandbox, SandboxBuilder};

/// What `PAYTOKEN_TEST_STORE` says the suite runs on: `file` for the file store, anything
/// else (or nothing) for memory. `cargo xtask ci` runs the suite once each way.
pub(crate) fn on_files() -> bool {
    std::env::var("PAYTOKEN_TEST_STORE").is_ok_and(|store| store == "file")
}

/// A sandbox builder for the suite: on the file store, each sandbox keeps its state in a
/// fresh file under cargo's temporary folder for tests, so the same tests check both stores.
pub(crate) fn builder() -> SandboxBuilder {
    let builder = Sandbox::builder();
    if !on_files() {
        return builder;
    }
    let folder = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sandbox-stores");
    std::fs::create_dir_all(&folder).unwrap();
    builder.state_file(folder.join(format!("{}.db", order_id())))
}

/// A sandbox with every default but the suite's store, started.
pub(crate) async fn sandbox() -> Sandbox {
    builder().start().await.unwrap()
}
