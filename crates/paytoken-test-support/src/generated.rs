//! The Python client openapi-python-client generates from the conformance kit's
//! `openapi.yaml`, for the tests that set it to work (`cargo xtask ci` runs them, with the
//! Python of its environment in `PAYTOKEN_CONFORMANCE_PYTHON`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The Python of `cargo xtask ci`'s environment, where openapi-python-client is installed.
pub fn python() -> PathBuf {
    std::env::var_os("PAYTOKEN_CONFORMANCE_PYTHON")
        .expect("PAYTOKEN_CONFORMANCE_PYTHON: a python3 with openapi-python-client (cargo xtask ci makes one)")
        .into()
}

/// The conformance kit's folder.
pub fn kit() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/conformance")
}

/// What a program printed, both streams.
pub fn printed(output: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Generates the client into `folder/gateway_client`, failing on any warning; its folder.
pub fn generate(folder: &Path) -> PathBuf {
    let _ = std::fs::remove_dir_all(folder);
    std::fs::create_dir_all(folder).unwrap();
    let package = folder.join("gateway_client");
    // No formatting of the generated code: nothing reads it but Python.
    let config = folder.join("generator.yaml");
    std::fs::write(&config, "post_hooks: []\n").unwrap();
    let output = Command::new(python())
        .args(["-m", "openapi_python_client", "generate", "--path"])
        .arg(kit().join("openapi.yaml"))
        .args(["--meta", "none", "--fail-on-warning", "--overwrite"])
        .arg("--config")
        .arg(&config)
        .arg("--output-path")
        .arg(&package)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", printed(&output));
    // A schema the generator cannot read may also leave a call without its answer's model,
    // unwarned: every call must read its answer into one.
    for entry in std::fs::read_dir(package.join("api/default")).unwrap() {
        let path = entry.unwrap().path();
        let code = std::fs::read_to_string(&path).unwrap();
        if path.file_name().unwrap() != "__init__.py" {
            assert!(
                code.contains(".from_dict(response.json())"),
                "{} reads no model of its answer",
                path.display()
            );
        }
    }
    package
}
