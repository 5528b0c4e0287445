//! The public API snapshot: every library crate's public items, listed from its sources into
//! `api/<crate>.txt`, so that an API change is always a reviewed diff (ARCHITECTURE.md,
//! "The public API"). `cargo xtask api` writes the files; `cargo xtask ci` and
//! `cargo test -p xtask` fail when the sources and the files differ.
//!
//! The sources are read with `syn`, so this works with the stable toolchain (rustdoc's JSON
//! output would need a nightly one) and the files do not change with the compiler. What is
//! listed, one item per line, sorted by module and name:
//!
//! - every `pub` item, by the module that declares it (the crates deny unreachable `pub`
//!   items, so each one is reachable), with the attributes that change what a user may do
//!   (`derive`, `non_exhaustive`, `cfg`, `repr`, `deprecated`, `doc(hidden)`);
//! - the public fields and variants of public types, the items of public traits, the public
//!   items of inherent `impl` blocks, and the trait implementations of the crate's public
//!   types (with their associated types);
//! - every `pub use`, which says where an item is re-exported;
//! - the items a crate's own `macro_rules!` writes, read from the macro's template with its
//!   variables shown as `$name` (a call of another such macro in it, as that call), and
//!   every invocation of such a macro, so that a new method in a macro shows as clearly as
//!   one written by hand; an exported macro whole, unless hidden (the workspace's own), and
//!   the methods each `setters!` invocation writes, as if written by hand.
//!
//! Doc comments and function bodies are not listed: changing them changes no signature.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use syn::{Attribute, Item, Meta, Visibility};

use items::At;

mod items;
mod macros;
mod tokens;

/// The crates with a library, whose public items are snapshotted: the ones a user builds
/// on, and the command's library half (its life-cycle script and `main`).
pub(crate) const LIBRARY_CRATES: [&str; 7] = [
    "paytoken-types",
    "paytoken-checksum",
    "paytoken-protocol",
    "paytoken-sandbox",
    "paytoken-hyper",
    "paytoken",
    "paytoken-cli",
];

/// Where the snapshots live, from the project's root.
const SNAPSHOT_DIR: &str = "api";

/// What a macro's variable becomes while its template is read as Rust; shown as `$`.
pub(super) const PLACEHOLDER: &str = "__macro_var_";

/// How many differing lines a failed check shows per crate.
const SHOWN_DIFFERENCES: usize = 40;

/// Fails when a crate's public items differ from its snapshot, showing the difference.
pub(crate) fn check(root: &Path) -> Result<(), String> {
    let mut drifted = Vec::new();
    for krate in LIBRARY_CRATES {
        let listed = listing(root, krate)?;
        let recorded = fs::read_to_string(snapshot_path(root, krate)).unwrap_or_default();
        if listed != recorded {
            drifted.push(format!("{krate}:\n{}", difference(&recorded, &listed)));
        }
    }
    if drifted.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the public API differs from its snapshot in {SNAPSHOT_DIR}/ (- recorded, + in the sources).\n\
             If the change is meant, run `cargo xtask api` and say it in CHANGELOG.md.\n{}",
            drifted.join("\n")
        ))
    }
}

/// Writes every crate's snapshot.
pub(crate) fn record(root: &Path) -> Result<(), String> {
    let dir = root.join(SNAPSHOT_DIR);
    fs::create_dir_all(&dir).map_err(|error| format!("{}: {error}", dir.display()))?;
    for krate in LIBRARY_CRATES {
        let path = snapshot_path(root, krate);
        fs::write(&path, listing(root, krate)?)
            .map_err(|error| format!("{}: {error}", path.display()))?;
        eprintln!("xtask: wrote {}", path.display());
    }
    Ok(())
}

fn snapshot_path(root: &Path, krate: &str) -> PathBuf {
    root.join(SNAPSHOT_DIR).join(format!("{krate}.txt"))
}

/// The lines only in `recorded` (`-`) and only in `listed` (`+`).
fn difference(recorded: &str, listed: &str) -> String {
    let old: BTreeSet<&str> = recorded.lines().collect();
    let new: BTreeSet<&str> = listed.lines().collect();
    let gone = recorded.lines().filter(|line| !new.contains(line));
    let came = listed.lines().filter(|line| !old.contains(line));
    let lines: Vec<String> = gone
        .map(|line| format!("  - {line}"))
        .chain(came.map(|line| format!("  + {line}")))
        .collect();
    let hidden = lines.len().saturating_sub(SHOWN_DIFFERENCES);
    let mut shown = lines
        .into_iter()
        .take(SHOWN_DIFFERENCES)
        .collect::<Vec<_>>()
        .join("\n");
    if hidden > 0 {
        shown.push_str(&format!("\n  ... and {hidden} more lines"));
    }
    shown
}

/// One module's items, by the module's path (`paytoken_types::amount`).
struct Module {
    path: String,
    items: Vec<Item>,
}

/// One line of a snapshot; lines sort by module, then name, then kind.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Line {
    module: String,
    key: String,
    kind: Kind,
    /// The order of lines that keep their source order (a macro invocation's).
    seq: usize,
    text: String,
}

/// What a line says, in the order lines of one name are shown.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Declaration,
    Member,
    Method,
    TraitImpl,
    /// What one of the crate's macros writes, from its template.
    Macro,
    /// An invocation of such a macro, or an exported macro, in source order.
    Invocation,
}

/// What the first pass learns about the whole crate.
#[derive(Default)]
struct Scope {
    /// Public types and traits: their trait implementations are API.
    public: BTreeSet<String>,
    /// The public traits alone: an implementation of one for a private type is API, an
    /// implementation of a std trait named like a public type (`Drop`) is not.
    public_traits: BTreeSet<String>,
    /// Traits private to the crate: their implementations are not.
    private_traits: BTreeSet<String>,
    /// The lines each of the crate's macros writes (empty when it writes no public item).
    macros: BTreeMap<String, Vec<Line>>,
}

/// The snapshot of one crate, as written to its file.
fn listing(root: &Path, krate: &str) -> Result<String, String> {
    let src = root.join("crates").join(krate).join("src");
    let lib = parse(&src.join("lib.rs"))?;
    let mut modules = Vec::new();
    gather(&krate.replace('-', "_"), lib.items, &src, &mut modules)?;

    let lines = lines_of(&modules);

    let mut out = format!(
        "// The public items of {krate}, listed from its sources by `cargo xtask api`.\n\
         // `cargo xtask ci` fails when they differ from this file: an API change is a reviewed\n\
         // diff here, with its line in CHANGELOG.md (ARCHITECTURE.md, \"The public API\").\n"
    );
    let mut module = "";
    for line in &lines {
        if line.module != module {
            module = &line.module;
            out.push_str(&format!("\nmod {module}\n"));
        }
        out.push_str(&line.text);
        out.push('\n');
    }
    Ok(out)
}

/// Every line of `modules`, sorted: a first pass learns the crate's names and what its
/// macros write, the second lists each item.
fn lines_of(modules: &[Module]) -> Vec<Line> {
    let mut scope = Scope::default();
    for item in modules.iter().flat_map(|module| &module.items) {
        learn_names(item, &mut scope);
    }
    // Twice: a template that invokes another of the crate's macros lists that invocation
    // once the first round has learnt what the other writes.
    for _ in 0..2 {
        let mut templates = BTreeMap::new();
        for module in modules {
            for item in &module.items {
                if let Item::Macro(mac) = item
                    && let Some(name) = &mac.ident
                {
                    templates.insert(
                        name.to_string(),
                        macros::template(&module.path, mac, &scope),
                    );
                }
            }
        }
        scope.macros = templates;
    }

    let mut lines = Vec::new();
    for module in modules {
        let at = At::new(&module.path, &scope, String::new());
        for item in &module.items {
            at.item(item, &mut lines);
        }
    }
    lines.extend(scope.macros.into_values().flatten());
    lines.sort();
    lines.dedup_by(|a, b| a.text == b.text && a.module == b.module);
    lines
}

fn parse(path: &Path) -> Result<syn::File, String> {
    let text = fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))?;
    syn::parse_file(&text).map_err(|error| format!("{}: {error}", path.display()))
}

/// Collects `items` as the module `path` (whose child modules live in `dir`), then its
/// child modules, skipping test modules.
fn gather(path: &str, items: Vec<Item>, dir: &Path, out: &mut Vec<Module>) -> Result<(), String> {
    let mut kept = Vec::new();
    let mut children = Vec::new();
    for item in items {
        if is_test_only(attributes(&item)) {
            continue;
        }
        let Item::Mod(mut module) = item else {
            kept.push(item);
            continue;
        };
        let name = module.ident.to_string();
        let child_dir = dir.join(&name);
        let content = match module.content.take() {
            Some((_, items)) => items,
            None => {
                if module.attrs.iter().any(|attr| attr.path().is_ident("path")) {
                    return Err(format!(
                        "{}: `#[path]` on `mod {name}` is not followed by xtask/src/api.rs",
                        dir.display()
                    ));
                }
                let file = [dir.join(format!("{name}.rs")), child_dir.join("mod.rs")]
                    .into_iter()
                    .find(|file| file.is_file())
                    .ok_or_else(|| format!("{}: no file for `mod {name}`", dir.display()))?;
                parse(&file)?.items
            }
        };
        children.push((format!("{path}::{name}"), content, child_dir));
        kept.push(Item::Mod(module));
    }
    out.push(Module {
        path: path.to_owned(),
        items: kept,
    });
    for (child, items, child_dir) in children {
        gather(&child, items, &child_dir, out)?;
    }
    Ok(())
}

fn attributes(item: &Item) -> &[Attribute] {
    match item {
        Item::Const(item) => &item.attrs,
        Item::Enum(item) => &item.attrs,
        Item::ExternCrate(item) => &item.attrs,
        Item::Fn(item) => &item.attrs,
        Item::ForeignMod(item) => &item.attrs,
        Item::Impl(item) => &item.attrs,
        Item::Macro(item) => &item.attrs,
        Item::Mod(item) => &item.attrs,
        Item::Static(item) => &item.attrs,
        Item::Struct(item) => &item.attrs,
        Item::Trait(item) => &item.attrs,
        Item::TraitAlias(item) => &item.attrs,
        Item::Type(item) => &item.attrs,
        Item::Union(item) => &item.attrs,
        Item::Use(item) => &item.attrs,
        _ => &[],
    }
}

/// `#[cfg(test)]` or `#[cfg(doctest)]`.
fn is_test_only(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|attr| {
        matches!(&attr.meta, Meta::List(list)
            if list.path.is_ident("cfg") && matches!(list.tokens.to_string().as_str(), "test" | "doctest"))
    })
}

pub(super) fn is_pub(vis: &Visibility) -> bool {
    matches!(vis, Visibility::Public(_))
}

/// The first pass: which names are public types or traits, which traits are private.
fn learn_names(item: &Item, scope: &mut Scope) {
    let (vis, name, is_trait) = match item {
        Item::Struct(item) => (&item.vis, &item.ident, false),
        Item::Enum(item) => (&item.vis, &item.ident, false),
        Item::Union(item) => (&item.vis, &item.ident, false),
        Item::Type(item) => (&item.vis, &item.ident, false),
        Item::Trait(item) => (&item.vis, &item.ident, true),
        _ => return,
    };
    if is_pub(vis) {
        scope.public.insert(name.to_string());
        if is_trait {
            scope.public_traits.insert(name.to_string());
        }
    } else if is_trait {
        scope.private_traits.insert(name.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(source: &str) -> Vec<String> {
        let file = syn::parse_file(source).unwrap();
        let modules = [Module {
            path: String::from("demo"),
            items: file.items,
        }];
        super::lines_of(&modules)
            .into_iter()
            .map(|line| line.text)
            .collect()
    }

    #[test]
    fn lists_public_items_and_leaves_the_rest_out() {
        let lines = lines_of(
            "/// Docs are not API.\n\
             #[derive(Clone, Debug)]\n#[non_exhaustive]\n\
             pub struct Amount { pub minor: u64, currency: u8 }\n\
             impl Amount {\n  pub fn new(minor: u64) -> Result<Self, Error> { todo() }\n  fn private(&self) {}\n  pub(crate) fn internal(&self) {}\n}\n\
             impl core::fmt::Display for Amount { fn fmt(&self, f: &mut Formatter<'_>) -> Result { Ok(()) } }\n\
             impl Private for Amount {}\n\
             trait Private {}\n\
             struct Hidden;\n\
             impl Clone for Hidden { fn clone(&self) -> Self { Hidden } }\n\
             pub enum Drop { Before }\n\
             struct Guard;\n\
             impl Drop for Guard { fn drop(&mut self) {} }\n\
             pub(crate) const INTERNAL: usize = 1;\n\
             pub use inner::Thing;\n",
        );
        assert_eq!(
            lines,
            [
                "#[derive(Clone, Debug)] #[non_exhaustive] pub struct Amount { private fields }",
                "pub struct Amount { pub minor: u64 }",
                "impl Amount { pub fn new(minor: u64) -> Result<Self, Error> }",
                "impl core::fmt::Display for Amount",
                "pub enum Drop",
                "pub enum Drop { Before }",
                "pub use inner::Thing;",
            ]
        );
    }

    #[test]
    fn reads_what_a_macro_writes_and_lists_its_invocations() {
        let lines = lines_of(
            "macro_rules! identifier {\n\
               ($($(#[$doc:meta])* $name:ident => $field:literal;)+) => {$(\n\
                 $(#[$doc])*\n\
                 pub struct $name(u8);\n\
                 impl $name { pub const FIELD: &'static str = $field; pub fn as_str(&self) -> &str { \"\" } }\n\
                 impl FromStr for $name { type Err = Error; fn from_str(v: &str) -> Result<Self, Error> { todo() } }\n\
               )+};\n\
             }\n\
             macro_rules! private_only { ($t:ty) => { impl Private for $t {} }; }\n\
             identifier! {\n  /// A member.\n  MemberId => \"authentication.memberId\";\n}\n\
             trait Private {}\n\
             private_only!(u8);\n",
        );
        assert_eq!(
            lines,
            [
                "macro_rules! identifier => impl $name { pub const FIELD: &'static str = $field; }",
                "macro_rules! identifier => impl $name { pub fn as_str(&self) -> &str }",
                "macro_rules! identifier => impl FromStr for $name { type Err = Error; }",
                "macro_rules! identifier => pub struct $name(_);",
                "identifier! | MemberId => \"authentication.memberId\";",
            ]
        );
    }

    #[test]
    fn a_template_lists_the_crate_s_macros_it_calls_but_not_its_own_arms() {
        let lines = lines_of(
            "macro_rules! identifier { ($name:ident) => { pub struct $name(u8); traits!($name(Display)); }; }\n\
             macro_rules! traits {\n\
               ($($name:ident($($t:ident),+)),+) => {$($(traits!(@$t $name);)+)+};\n\
               (@Display $name:ident) => { impl Display for $name { fn fmt(&self) {} } };\n\
             }\n",
        );
        assert_eq!(
            lines,
            [
                "macro_rules! identifier => pub struct $name(_);",
                "macro_rules! identifier => traits! | $name(Display)",
                "macro_rules! traits => impl Display for $name",
            ]
        );
    }

    #[test]
    fn lists_the_methods_a_setters_invocation_writes() {
        let lines = lines_of(
            "#[doc(hidden)] #[macro_export] macro_rules! setters { ($($t:tt)*) => {}; }\n\
             pub struct Payment { brand: Option<Brand> }\n\
             impl Payment {\n\
               paytoken_types::setters! {\n\
                 /// Sets the brand.\n\
                 pub fn brand(brand: Brand) => brand = Some(brand);\n\
                 pub fn debit() => kind = Kind::Debit;\n\
                 /// Stores in a file.\n\
                 #[cfg(feature = \"file\")]\n\
                 pub fn file(path: impl Into<PathBuf>) => file = Some(path.into());\n\
               }\n\
             }\n",
        );
        assert_eq!(
            lines,
            [
                "pub struct Payment { private fields }",
                "impl Payment { #[cfg(feature = \"file\")] pub fn file(mut self, path: impl Into<PathBuf>) -> Self }",
                "impl Payment { pub fn brand(mut self, brand: Brand) -> Self }",
                "impl Payment { pub fn debit(mut self) -> Self }",
            ]
        );
    }

    #[test]
    fn enums_list_every_variant_and_traits_every_item() {
        let lines = lines_of(
            "pub enum Outcome { Approved, Declined { code: String }, Pending(u8) = 3 }\n\
             pub trait Transport: Send { type Error; fn send(&self, request: Request) -> Self::Error; fn name(&self) -> &str { \"\" } }\n",
        );
        assert_eq!(
            lines,
            [
                "pub enum Outcome",
                "pub enum Outcome { Approved }",
                "pub enum Outcome { Declined { code: String } }",
                "pub enum Outcome { Pending(u8) = 3 }",
                "pub trait Transport: Send",
                "pub trait Transport { fn name(&self) -> &str; // provided }",
                "pub trait Transport { fn send(&self, request: Request) -> Self::Error; }",
                "pub trait Transport { type Error; }",
            ]
        );
    }

    #[test]
    fn a_difference_names_the_lines_that_went_and_came() {
        assert_eq!(difference("a\nb\n", "a\nc\n"), "  - b\n  + c");
    }

    #[test]
    fn the_snapshots_are_current() {
        let root = crate::project_root();
        if let Err(drift) = check(&root) {
            panic!("{drift}");
        }
    }
}
