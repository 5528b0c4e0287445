//! `paytoken vectors [--out DIR]`: writes the conformance kit (the vectors, their schemas,
//! the OpenAPI description, the Python reference checker and its README) for people who
//! install only the binary. The files are paytoken's own `fixtures/conformance/`, built into
//! the binary; a test holds this list to that folder.

use std::os::unix::fs::OpenOptionsExt as _;
use std::path::Path;

use serde_json::json;

use crate::cli::VectorsArgs;
use crate::report::{Exit, Failure, Outcome, Report};

/// The kit's files by their paths in the kit, each with its text, built in.
macro_rules! kit {
    ($($path:literal),* $(,)?) => {
        &[$(($path, include_str!(concat!("../../../fixtures/conformance/", $path)))),*]
    };
}

/// Every file of the kit, by its path in the kit, with its text.
pub(crate) const FILES: &[(&str, &str)] = kit![
    "README.md",
    "CHANGELOG.md",
    "RULES.md",
    "checksum-rules.json",
    "checksum-vectors.json",
    "request-vectors.json",
    "answer-vectors.json",
    "notification-vectors.json",
    "negative-vectors.json",
    "scenarios.json",
    "openapi.yaml",
    "check.py",
    "answers.py",
    "adapter.py",
    "validate.py",
    "generated_client.py",
    "generated_http_adapter.py",
    "schemas/checksum-rules.schema.json",
    "schemas/checksum-vectors.schema.json",
    "schemas/request-vectors.schema.json",
    "schemas/answer-vectors.schema.json",
    "schemas/notification-vectors.schema.json",
    "schemas/conform-protocol.schema.json",
    "schemas/conform-report.schema.json",
    "schemas/negative-vectors.schema.json",
    "schemas/scenarios.schema.json",
    "schemas/answers.schema.json",
];

/// Writes the kit under `args.out`, creating the folders it needs; a file of the kit
/// already there is replaced.
pub(crate) fn run(args: &VectorsArgs) -> Result<Report, Failure> {
    let out = &args.out;
    let written = write_all(out, FILES)?;
    let folder = out.display().to_string();
    let mut human = format!(
        "vectors: wrote the conformance kit, {} files, to {folder}\n",
        written.len()
    );
    human.push_str(&format!(
        "  check them with: python3 {}\n",
        out.join("check.py").display()
    ));
    Ok(Report {
        exit: Exit::Success,
        json: json!({ "outcome": Outcome::Ok.name(), "folder": folder, "files": written }),
        human,
        error_line: None,
    })
}

/// Writes each of `files` (name, text) under `out`, once every place is checked (a
/// refusal leaves the folder as it was); the paths written, in order.
pub(crate) fn write_all<N: AsRef<str>, T: AsRef<str>>(
    out: &Path,
    files: &[(N, T)],
) -> Result<Vec<String>, Failure> {
    for (name, _) in files {
        place(out, name.as_ref(), false)?;
    }
    files
        .iter()
        .map(|(name, text)| {
            write(out, name.as_ref(), text.as_ref())?;
            Ok(out.join(name.as_ref()).display().to_string())
        })
        .collect()
}

/// Writes `text` as `name` (a path with `/`) under `out`, once [`place`] allows it. The
/// text goes to a new file beside it first, then takes its name, so a link planted in
/// between is replaced, not written through.
pub(crate) fn write(out: &Path, name: &str, text: &str) -> Result<(), Failure> {
    place(out, name, true)?;
    let path = out.join(name);
    let parent = path.parent().unwrap_or(out);
    let file_name = path.file_name().unwrap_or_default().to_string_lossy();
    let temporary = parent.join(format!(".{file_name}.{}.tmp", std::process::id()));
    // `create_new` never opens what is there: not a file, nor what a link points to. The
    // Python scripts are programs (`--client ~/kit/adapter.py`): executable.
    let mode = if name.ends_with(".py") { 0o755 } else { 0o644 };
    let written = std::fs::File::options()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(&temporary)
        .and_then(|mut file| {
            std::io::Write::write_all(&mut file, text.as_bytes())?;
            file.sync_all()
        })
        .and_then(|()| std::fs::rename(&temporary, &path));
    if let Err(error) = written {
        let _ = std::fs::remove_file(&temporary);
        return Err(Failure::failed(format!(
            "cannot write {}: {error}",
            path.display()
        )));
    }
    Ok(())
}

/// Checks that `name` under `out` is free or a regular file (written before, replaced), and
/// every folder on the way free or a real folder: a symbolic link is never followed, a
/// FIFO or a device never opened. With `create`, makes the folders that are missing.
pub(crate) fn place(out: &Path, name: &str, create: bool) -> Result<(), Failure> {
    let path = out.join(name);
    let failed = |error: std::io::Error| {
        Failure::failed(format!("cannot write {}: {error}", path.display()))
    };
    let refused = |what: &Path, kind: &str| {
        Failure::failed(format!(
            "cannot write {}: {} is {kind}, not a file written here before; remove it or choose another folder",
            path.display(),
            what.display()
        ))
    };
    if create {
        std::fs::create_dir_all(out).map_err(failed)?;
    }
    let mut folder = out.to_path_buf();
    let mut parts = name.split('/').peekable();
    while let Some(part) = parts.next() {
        folder.push(part);
        let found = match std::fs::symlink_metadata(&folder) {
            Ok(found) => Some(found.file_type()),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
            Err(error) => return Err(failed(error)),
        };
        let last = parts.peek().is_none();
        match found {
            None if last || !create => {}
            None => std::fs::create_dir(&folder).map_err(failed)?,
            Some(kind) if last && kind.is_file() => {}
            Some(kind) if !last && kind.is_dir() => {}
            Some(kind) => return Err(refused(&folder, kind_name(kind))),
        }
    }
    Ok(())
}

/// What a file type is, in words.
fn kind_name(kind: std::fs::FileType) -> &'static str {
    if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_dir() {
        "a folder"
    } else if kind.is_file() {
        "a file"
    } else {
        "a FIFO, a device or a socket"
    }
}
