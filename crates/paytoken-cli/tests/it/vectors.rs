//! `paytoken vectors --out DIR` writes the whole conformance kit, byte for byte as it is in
//! `fixtures/conformance/`, and nothing is left out of it.

use std::path::{Path, PathBuf};

use crate::common::paytoken;

/// Every file under `folder`, by its path from there.
fn files(folder: &Path, under: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, under, out);
        } else {
            out.push(path.strip_prefix(under).unwrap().to_owned());
        }
    }
}

#[tokio::test]
async fn the_kit_is_written_whole_and_as_it_is() {
    let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/conformance");
    let out =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("vectors-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let run = paytoken(&["vectors", "--out", out.to_str().unwrap(), "--json"], &[]).await;
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = run.json();
    assert_eq!(report["outcome"], "written");

    let (mut expected, mut written) = (Vec::new(), Vec::new());
    files(&kit, &kit, &mut expected);
    files(&out, &out, &mut written);
    expected.sort();
    written.sort();
    assert_eq!(
        written, expected,
        "the command writes every file of the kit, and no other"
    );
    assert_eq!(report["files"].as_array().unwrap().len(), expected.len());
    for file in &expected {
        assert_eq!(
            std::fs::read(out.join(file)).unwrap(),
            std::fs::read(kit.join(file)).unwrap(),
            "{}",
            file.display()
        );
    }

    // Again, into the same folder: the files are replaced, and the human report says where.
    let again = paytoken(&["vectors", "--out", out.to_str().unwrap()], &[]).await;
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(again.stdout.contains("check.py"), "{}", again.stdout);
    std::fs::remove_dir_all(&out).unwrap();
}

#[tokio::test]
async fn a_folder_that_cannot_be_written_is_a_clear_failure() {
    let blocker =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("vectors-file-{}", std::process::id()));
    std::fs::write(&blocker, "a file, not a folder").unwrap();
    let run = paytoken(&["vectors", "--out", blocker.to_str().unwrap()], &[]).await;
    // Exit 4: the command failed (not a usage error).
    assert_eq!(run.code, 4, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("cannot write"), "{}", run.stderr);
    std::fs::remove_file(&blocker).unwrap();
}
