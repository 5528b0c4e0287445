//! The facade's API docs as a newcomer reads them: after `cargo doc --workspace --no-deps`,
//! every page of `paytoken` is searched for an intra-doc link to the project's own items
//! that rustdoc left as text (`[Error::Empty]`, `[DEFAULT_REQUEST_TIMEOUT]` with its
//! brackets, which rustdoc does not warn of when a re-exported item's docs name what the
//! facade does not document), for a link out to another of the project's crates, and for
//! a link to a page that was not written. Whether rustdoc writes a link to another crate's
//! pages or leaves it as text depends on whether that crate's docs were written first, so
//! both are breaches: `cargo doc --no-deps -p paytoken` alone then resolves every link.
//! Links into other projects' docs are theirs.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use crate::tidy::files_with;

/// The crate whose pages are read: the facade, which most users read.
const FACADE: &str = "paytoken";

/// Checks the facade's pages under `doc_root` (`target/doc`).
pub(crate) fn check(doc_root: &Path) -> Result<(), String> {
    let mut pages = Vec::new();
    files_with("html", &doc_root.join(FACADE), &mut pages)?;
    let own = own_names(doc_root)?;
    let mut breaches = Vec::new();
    for page in &pages {
        let text =
            fs::read_to_string(page).map_err(|error| format!("{}: {error}", page.display()))?;
        let shown = page
            .strip_prefix(doc_root)
            .unwrap_or(page)
            .display()
            .to_string();
        let folder = page.parent().unwrap_or(doc_root);
        breaches.extend(
            unresolved(&text, &own)
                .into_iter()
                .map(|name| format!("{shown}: the link [{name}] is shown as text")),
        );
        breaches.extend(bad_links(&text, folder).into_iter().map(|href| {
            format!("{shown}: links to {href}, not a page `cargo doc -p {FACADE}` writes")
        }));
    }
    breaches.sort();
    breaches.dedup();
    if breaches.is_empty() {
        Ok(())
    } else {
        Err(format!("doc links:\n  {}", breaches.join("\n  ")))
    }
}

/// The names of the project's own items: every item page of its crates' docs.
fn own_names(doc_root: &Path) -> Result<BTreeSet<String>, String> {
    let mut pages = Vec::new();
    let crates =
        fs::read_dir(doc_root).map_err(|error| format!("{}: {error}", doc_root.display()))?;
    for entry in crates.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == FACADE || name.starts_with("paytoken_") {
            files_with("html", &entry.path(), &mut pages)?;
        }
    }
    Ok(pages
        .iter()
        .filter_map(|page| page.file_stem()?.to_str())
        .filter_map(|stem| stem.split_once('.').map(|(_, name)| name.to_owned()))
        .collect())
}

/// The names of `text` written as a link left as text: `[<code>Name</code>]` or
/// `[Name::member]`, whose first segment is one of `own`.
fn unresolved(text: &str, own: &BTreeSet<String>) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find('[') {
        let after = rest.get(at + 1..).unwrap_or_default();
        rest = after;
        let (inner, code) = match after.strip_prefix("<code>") {
            Some(code) => match code.split_once("</code>]") {
                Some((inner, _)) => (inner, true),
                None => continue,
            },
            None => match after.split_once(']') {
                Some((inner, _)) => (inner, false),
                None => continue,
            },
        };
        let path = inner.trim_end_matches("()");
        let is_path = !path.is_empty()
            && path
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':');
        // Plain brackets are a link only as a path (`[Error::Empty]`): `#[non_exhaustive]`
        // and `[u8]` are code.
        if !is_path || (!code && !path.contains("::")) {
            continue;
        }
        let first = path.split("::").next().unwrap_or(path);
        if own.contains(first) {
            found.push(path.to_owned());
        }
    }
    found
}

/// The links of `text` (a page in `folder`) that leave the facade for another of the
/// project's crates, or lead to a page of the facade that does not exist.
fn bad_links(text: &str, folder: &Path) -> Vec<String> {
    let mut bad = Vec::new();
    for piece in text.split("href=\"").skip(1) {
        let Some((href, _)) = piece.split_once('"') else {
            continue;
        };
        let target = href.split('#').next().unwrap_or_default();
        if target.is_empty() || target.contains("://") || !target.ends_with(".html") {
            continue;
        }
        // A "Source" link shows the code, not the API, and comes with its crate's docs.
        if target.split('/').any(|part| part == "src") {
            continue;
        }
        let leaves = target.split('/').any(|part| part.starts_with("paytoken_"));
        if leaves || !folder.join(target).exists() {
            bad.push(href.to_owned());
        }
    }
    bad
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    #[test]
    fn a_link_left_as_text_to_an_own_item_is_found() {
        let own: BTreeSet<String> = ["Error", "DEFAULT_REQUEST_TIMEOUT"]
            .map(str::to_owned)
            .into();
        let page = "<p>See [<code>DEFAULT_REQUEST_TIMEOUT</code>] and [Error::Empty], \
                    not #[non_exhaustive], [u8], [<code>Span</code>] or \
                    <a href=\"x\"><code>Error</code></a>.</p>";
        assert_eq!(
            unresolved(page, &own),
            ["DEFAULT_REQUEST_TIMEOUT", "Error::Empty"]
        );
    }

    #[test]
    fn a_link_out_of_the_facade_or_to_a_page_not_written_is_found() {
        let folder = tempfile_folder();
        fs::write(folder.join("struct.Here.html"), "").unwrap();
        fs::create_dir_all(folder.join("paytoken_types")).unwrap();
        fs::write(folder.join("paytoken_types/struct.X.html"), "").unwrap();
        let page = "<a href=\"../paytoken_types/struct.X.html#method.y\">x</a>\
                    <a href=\"paytoken_types/struct.X.html\">x</a>\
                    <a href=\"struct.Gone.html\">g</a><a href=\"struct.Here.html#m\">h</a>\
                    <a href=\"../src/paytoken_types/card.rs.html#9\">s</a>\
                    <a href=\"https://docs.rs/tokio\">t</a><a href=\"#here\">h</a>";
        assert_eq!(
            bad_links(page, &folder),
            [
                "../paytoken_types/struct.X.html#method.y",
                "paytoken_types/struct.X.html",
                "struct.Gone.html"
            ]
        );
    }

    /// A fresh folder of this test's own.
    fn tempfile_folder() -> PathBuf {
        let folder = std::env::temp_dir().join(format!("doc-links-{}", std::process::id()));
        let _ = fs::remove_dir_all(&folder);
        fs::create_dir_all(&folder).unwrap();
        folder
    }
}
