//! `paytoken vectors [--out DIR]`: writes the conformance kit (the vectors, their schemas,
//! the OpenAPI description, the Python reference checker and its README) for people who
//! install only the binary. The files are paytoken's own `fixtures/conformance/`, built into
//! the binary; a test holds this list to that folder.

use std::path::Path;

use serde_json::json;

use crate::cli::VectorsArgs;
use crate::report::{Exit, Failure, Report};

/// Every file of the kit, by its path in the kit, with its text.
pub(crate) const FILES: &[(&str, &str)] = &[
    (
        "README.md",
        include_str!("../../../fixtures/conformance/README.md"),
    ),
    (
        "checksum-rules.json",
        include_str!("../../../fixtures/conformance/checksum-rules.json"),
    ),
    (
        "checksum-vectors.json",
        include_str!("../../../fixtures/conformance/checksum-vectors.json"),
    ),
    (
        "request-vectors.json",
        include_str!("../../../fixtures/conformance/request-vectors.json"),
    ),
    (
        "answer-vectors.json",
        include_str!("../../../fixtures/conformance/answer-vectors.json"),
    ),
    (
        "notification-vectors.json",
        include_str!("../../../fixtures/conformance/notification-vectors.json"),
    ),
    (
        "openapi.yaml",
        include_str!("../../../fixtures/conformance/openapi.yaml"),
    ),
    (
        "check.py",
        include_str!("../../../fixtures/conformance/check.py"),
    ),
    (
        "answers.py",
        include_str!("../../../fixtures/conformance/answers.py"),
    ),
    (
        "schemas/checksum-rules.schema.json",
        include_str!("../../../fixtures/conformance/schemas/checksum-rules.schema.json"),
    ),
    (
        "schemas/checksum-vectors.schema.json",
        include_str!("../../../fixtures/conformance/schemas/checksum-vectors.schema.json"),
    ),
    (
        "schemas/request-vectors.schema.json",
        include_str!("../../../fixtures/conformance/schemas/request-vectors.schema.json"),
    ),
    (
        "schemas/answer-vectors.schema.json",
        include_str!("../../../fixtures/conformance/schemas/answer-vectors.schema.json"),
    ),
    (
        "schemas/notification-vectors.schema.json",
        include_str!("../../../fixtures/conformance/schemas/notification-vectors.schema.json"),
    ),
    (
        "schemas/answers.schema.json",
        include_str!("../../../fixtures/conformance/schemas/answers.schema.json"),
    ),
];

/// Writes the kit under `args.out`, creating the folders it needs; a file already there
/// is replaced.
pub(crate) fn run(args: &VectorsArgs) -> Report {
    let out = &args.out;
    let mut written = Vec::with_capacity(FILES.len());
    for (name, text) in FILES {
        let path = out.join(name);
        if let Err(failure) = write(&path, text) {
            return Report::from(failure);
        }
        written.push(path.display().to_string());
    }
    let folder = out.display().to_string();
    let mut human = format!(
        "vectors: wrote the conformance kit, {} files, to {folder}\n",
        written.len()
    );
    human.push_str(&format!(
        "  check them with: python3 {}\n",
        out.join("check.py").display()
    ));
    Report {
        exit: Exit::Success,
        json: json!({ "outcome": "written", "folder": folder, "files": written }),
        human,
        error_line: None,
    }
}

fn write(path: &Path, text: &str) -> Result<(), Failure> {
    let failed = |error: std::io::Error| {
        Failure::failed(format!("cannot write {}: {error}", path.display()))
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(failed)?;
    }
    std::fs::write(path, text).map_err(failed)
}
