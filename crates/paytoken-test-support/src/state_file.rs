//! What a sandbox's state file holds, read as the tests that search it for secrets read it.

use std::path::Path;

/// Everything a state file and its journal (`-wal`) hold, as text (bytes that are not
/// UTF-8 replaced): what a test searches for a value the file must not keep.
#[must_use]
pub fn text(path: &Path) -> String {
    let mut text = String::new();
    for suffix in ["", "-wal"] {
        let mut file = path.as_os_str().to_owned();
        file.push(suffix);
        if let Ok(bytes) = std::fs::read(&file) {
            text.push_str(&String::from_utf8_lossy(&bytes));
        }
    }
    text
}
