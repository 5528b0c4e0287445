//! `cargo xtask ci`'s check that no crate's modules import each other in a circle: the
//! files of each crate under `crates/`, and of xtask, must form layers (ARCHITECTURE.md,
//! invariant 16). A file is a module (`doctor/check.rs` is `doctor::check`), and it names
//! another by a `crate::` path (the longest module it reaches), by `super::` or `self::`,
//! or by a path through a module it declares (`check::Check` in `doctor.rs`), outside
//! comments and test modules. Files beside each other inside a module are layers too
//! (`doctor::caller` and `doctor::check` may not name each other both ways); a file may
//! name its own ancestors, which declare it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use crate::tidy::files_with;

/// Each module of a crate, by its path (`doctor::check`), and the ones it names.
type Edges = BTreeMap<String, BTreeSet<String>>;

/// Fails naming every circle found, each as `a -> b -> a`.
pub(crate) fn check(crate_dirs: &[PathBuf]) -> Result<(), String> {
    let mut circles = Vec::new();
    for dir in crate_dirs {
        let src = dir.join("src");
        if !src.is_dir() {
            continue;
        }
        let mut sources = Vec::new();
        collect(&src, &mut sources)?;
        let modules: BTreeSet<String> = sources.iter().map(|(path, _)| path.clone()).collect();
        let mut edges = Edges::new();
        for (module, text) in &sources {
            for named in named_modules(module, text, &modules) {
                // A module's own ancestors are its context (`super::Verdict`), not a layer
                // beside it: the parent declares the child and may use it.
                let ancestor = module.starts_with(&format!("{named}::"));
                if named != *module && !ancestor {
                    edges.entry(module.clone()).or_default().insert(named);
                }
            }
        }
        let name = dir.file_name().unwrap_or_default().to_string_lossy();
        // Each circle found is broken where it closes, so that the next can be found too.
        while let Some(circle) = find_circle(&edges) {
            circles.push(format!("{name}: {}", circle.join(" -> ")));
            if let [.., from, to] = circle.as_slice()
                && let Some(named) = edges.get_mut(from)
            {
                named.remove(to);
            }
        }
    }
    if circles.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "modules import each other in a circle:\n  {}",
            circles.join("\n  ")
        ))
    }
}

/// Every `.rs` file under `root`, by its module path (`ops::payment` for `ops/payment.rs`,
/// `ops` for `ops.rs` or `ops/mod.rs`); the crate root (`lib.rs`, `main.rs`) is no module
/// of its own.
fn collect(root: &Path, out: &mut Vec<(String, String)>) -> Result<(), String> {
    let mut files = Vec::new();
    files_with("rs", root, &mut files)?;
    for path in files {
        let relative = path.strip_prefix(root).unwrap_or(&path);
        let mut parts: Vec<String> = relative
            .components()
            .map(|part| part.as_os_str().to_string_lossy().into_owned())
            .collect();
        if let Some(last) = parts.last_mut() {
            *last = last.trim_end_matches(".rs").to_owned();
        }
        if parts.last().is_some_and(|last| last == "mod") {
            parts.pop();
        }
        if matches!(parts.as_slice(), [only] if only == "lib" || only == "main") {
            continue;
        }
        let text = fs::read_to_string(&path)
            .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        out.push((parts.join("::"), text));
    }
    Ok(())
}

/// The modules of `modules` that the file of `module` names, outside comments and before
/// its test module.
fn named_modules(module: &str, text: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    let code: String = code
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    let own: Vec<&str> = module.split("::").collect();
    let parent = own.get(..own.len().saturating_sub(1)).unwrap_or_default();
    let mut named = BTreeSet::new();
    for path in paths(&code) {
        let mut segments: Vec<&str> = path.split("::").collect();
        let base: Vec<&str> = match segments.first().copied() {
            Some("crate") => {
                segments.remove(0);
                Vec::new()
            }
            Some("super") => {
                let mut base = parent.to_vec();
                segments.remove(0);
                while segments.first() == Some(&"super") {
                    base.pop();
                    segments.remove(0);
                }
                base
            }
            Some("self") => {
                segments.remove(0);
                own.clone()
            }
            // A path through a module this one declares (`check::Check`).
            Some(first) if modules.contains(&[module, first].join("::")) => own.clone(),
            _ => continue,
        };
        if let Some(found) = longest_module(&base, &segments, modules) {
            named.insert(found);
        } else if !base.is_empty() {
            named.insert(base.join("::"));
        }
    }
    named
}

/// The longest module `base::segments[..n]` that exists.
fn longest_module(base: &[&str], segments: &[&str], modules: &BTreeSet<String>) -> Option<String> {
    (1..=segments.len()).rev().find_map(|n| {
        let mut full = base.to_vec();
        full.extend(segments.get(..n).unwrap_or_default());
        let name = full.join("::");
        modules.contains(&name).then_some(name)
    })
}

/// Every path of `code` that has a `::`, with each item of a `{...}` group spelled out
/// after its prefix (`crate::a::{b, c::d}` is `crate::a::b` and `crate::a::c::d`), and a
/// glob's prefix alone (`super::*` is `super`).
fn paths(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_') {
        let before = rest.get(..start).unwrap_or_default();
        let tail = rest.get(start..).unwrap_or_default();
        let length = tail.find(|c: char| !is_path_char(c)).unwrap_or(tail.len());
        let raw = tail.get(..length).unwrap_or_default();
        let after = tail.get(length..).unwrap_or_default();
        rest = after;
        if before.ends_with(is_path_char) {
            continue;
        }
        match raw.strip_suffix("::") {
            Some(prefix) if after.starts_with('{') => {
                let close = after.find('}').unwrap_or(after.len());
                for item in after.get(1..close).unwrap_or_default().split(',') {
                    let item = item.trim();
                    if item.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                        found.push(format!("{prefix}::{item}"));
                    }
                }
                rest = after.get(close..).unwrap_or_default();
            }
            Some(prefix) if after.starts_with('*') => found.push(prefix.to_owned()),
            _ if raw.contains("::") => found.push(raw.to_owned()),
            _ => {}
        }
    }
    found
}

const fn is_path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == ':'
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

    fn modules(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|name| (*name).to_owned()).collect()
    }

    #[test]
    fn finds_the_modules_a_file_names_by_crate_super_self_and_its_children() {
        let known = modules(&[
            "gateway",
            "json",
            "codes",
            "ops",
            "ops::pay",
            "doctor",
            "doctor::check",
            "late",
        ]);
        let text = "use crate::gateway::{Answer, Gateway};\nuse crate::{json, codes::Code, Error};\n\
                    // crate::ignored\nfn f() { crate::ops::pay::x(); }\n\
                    #[cfg(test)]\nmod tests { use crate::late; }";
        assert_eq!(
            named_modules("router", text, &known),
            modules(&["gateway", "json", "codes", "ops::pay"])
        );
        let parent = "mod check;\nuse check::Check;\nfn g() -> std::io::Result<()> { Ok(()) }";
        assert_eq!(
            named_modules("doctor", parent, &known),
            modules(&["doctor::check"])
        );
        let child = "use super::*;\nuse super::super::json::Value;";
        assert_eq!(
            named_modules("doctor::check", child, &known),
            modules(&["doctor", "json"])
        );
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
        let root = crate::project_root();
        assert_eq!(check(&crate::layered_crates(&root)), Ok(()));
    }
}
