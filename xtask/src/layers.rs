//! `cargo xtask ci`'s check that no crate's modules import each other in a circle: the
//! top-level modules of each crate under `crates/` must form layers (ARCHITECTURE.md,
//! invariant 16). Read from the sources: every `crate::module` path outside comments and
//! test modules is an edge from the module that names it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The top-level modules of a crate and the ones each of them names.
type Edges = BTreeMap<String, BTreeSet<String>>;

/// Fails with the first circle found, as `a -> b -> a`.
pub(crate) fn check(crates_dir: &Path) -> Result<(), String> {
    let entries =
        fs::read_dir(crates_dir).map_err(|error| format!("cannot read crates/: {error}"))?;
    for entry in entries.flatten() {
        let src = entry.path().join("src");
        if !src.is_dir() {
            continue;
        }
        let mut sources = Vec::new();
        collect(&src, &src, &mut sources)?;
        let modules: BTreeSet<String> = sources.iter().map(|(top, _)| top.clone()).collect();
        let mut edges = Edges::new();
        for (top, text) in &sources {
            for named in named_modules(text) {
                if named != *top && modules.contains(&named) {
                    edges.entry(top.clone()).or_default().insert(named);
                }
            }
        }
        if let Some(circle) = find_circle(&edges) {
            return Err(format!(
                "{}: modules import each other in a circle: {}",
                entry.file_name().to_string_lossy(),
                circle.join(" -> ")
            ));
        }
    }
    Ok(())
}

/// Every `.rs` file under `dir`, keyed by its top-level module (`ops` for `ops/x.rs`);
/// the crate root (`lib.rs`, `main.rs`) is no module of its own.
fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) -> Result<(), String> {
    let entries =
        fs::read_dir(dir).map_err(|error| format!("cannot read {}: {error}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(root, &path, out)?;
            continue;
        }
        if path.extension().is_none_or(|ext| ext != "rs") {
            continue;
        }
        let relative = path.strip_prefix(root).unwrap_or(&path);
        let Some(first) = relative.components().next() else {
            continue;
        };
        let top = first.as_os_str().to_string_lossy();
        let top = top.trim_end_matches(".rs");
        if matches!(top, "lib" | "main") {
            continue;
        }
        let text = fs::read_to_string(&path)
            .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        out.push((top.to_owned(), text));
    }
    Ok(())
}

/// The modules a file names as `crate::module` or inside `crate::{...}`, outside comments
/// and before its test module.
fn named_modules(text: &str) -> Vec<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    let code: String = code
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    let mut named = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("crate::") {
        rest = rest.get(at + "crate::".len()..).unwrap_or_default();
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group.get(..end).unwrap_or_default().split(',') {
                named.push(leading_ident(item.trim()));
            }
        } else {
            named.push(leading_ident(rest));
        }
    }
    named.retain(|name| name.starts_with(|c: char| c.is_ascii_lowercase()));
    named
}

fn leading_ident(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// A circle of `edges`, if there is one: depth first, a module met again on the path.
fn find_circle(edges: &Edges) -> Option<Vec<String>> {
    fn visit(
        module: &str,
        edges: &Edges,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|m| m == module) {
            let mut circle = path.get(start..).unwrap_or_default().to_vec();
            circle.push(module.to_owned());
            return Some(circle);
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_owned());
        for next in edges.get(module).into_iter().flatten() {
            if let Some(circle) = visit(next, edges, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(module.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|module| visit(module, edges, &mut Vec::new(), &mut done))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_modules_a_file_names() {
        let text = "use crate::gateway::{Answer, Gateway};\nuse crate::{json, codes::Code, Error};\n// crate::ignored\nfn f() { crate::ops::x(); }\n#[cfg(test)]\nmod tests { use crate::late; }";
        assert_eq!(named_modules(text), ["gateway", "json", "codes", "ops"]);
    }

    #[test]
    fn finds_a_circle_and_none_in_layers() {
        let mut edges = Edges::new();
        edges
            .entry("router".into())
            .or_default()
            .insert("ops".into());
        edges
            .entry("ops".into())
            .or_default()
            .insert("gateway".into());
        assert_eq!(find_circle(&edges), None);
        edges
            .entry("gateway".into())
            .or_default()
            .insert("ops".into());
        assert_eq!(
            find_circle(&edges),
            Some(vec!["gateway".into(), "ops".into(), "gateway".into()])
        );
    }

    #[test]
    fn the_workspace_has_no_circle() {
        let crates = crate::project_root().join("crates");
        assert_eq!(check(&crates), Ok(()));
    }
}
