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
    assert_eq!(report["outcome"], "ok");

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

/// Regression: a link planted in the folder (`README.md -> ../victim.txt`) was followed and
/// its target overwritten; a FIFO in a file's place made the command hang.
#[tokio::test]
async fn planted_links_and_fifos_are_refused_never_written_through() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("vectors-planted-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let out = root.join("kit");
    std::fs::create_dir_all(out.join("schemas")).unwrap();
    let victim = root.join("victim.txt");
    std::fs::write(&victim, "the victim's own text").unwrap();
    let out_arg = out.to_str().unwrap().to_owned();

    // A link in a file's place, and one in a folder's place.
    std::os::unix::fs::symlink("../victim.txt", out.join("README.md")).unwrap();
    let run = paytoken(&["vectors", "--out", &out_arg], &[]).await;
    assert_eq!(run.code, 4, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("is a symbolic link"), "{}", run.stderr);
    std::fs::remove_file(out.join("README.md")).unwrap();
    std::fs::remove_dir(out.join("schemas")).unwrap();
    std::os::unix::fs::symlink("..", out.join("schemas")).unwrap();
    let run = paytoken(&["vectors", "--out", &out_arg], &[]).await;
    assert_eq!(run.code, 4, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("is a symbolic link"), "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "the victim's own text"
    );
    assert!(!root.join("checksum-rules.schema.json").exists());
    std::fs::remove_file(out.join("schemas")).unwrap();
    let untouched = std::fs::read_dir(&out).unwrap().count();
    assert_eq!(untouched, 0, "a refusal writes nothing");

    // A FIFO in a file's place: refused at once, never opened.
    let fifo = out.join("check.py");
    crate::common::mkfifo(&fifo);
    let run = tokio::time::timeout(
        std::time::Duration::from_secs(60),
        paytoken(&["vectors", "--out", &out_arg], &[]),
    )
    .await
    .expect("no hang on a FIFO");
    assert_eq!(run.code, 4, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("a FIFO"), "{}", run.stderr);
    std::fs::remove_file(&fifo).unwrap();

    // The folder cleared of them, the kit is written, and written again over its own files.
    for _ in 0..2 {
        let run = paytoken(&["vectors", "--out", &out_arg], &[]).await;
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    }
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    std::fs::remove_dir_all(&root).unwrap();
}
