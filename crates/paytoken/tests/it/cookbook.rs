//! Every public operation of the client has a recipe that runs: a method without one fails
//! here, listed from the client's sources.

/// The cookbook's recipes, as written.
const RECIPES: [&str; 10] = [
    include_str!("../../src/cookbook/auth_tokens.rs"),
    include_str!("../../src/cookbook/back_office.rs"),
    include_str!("../../src/cookbook/customers.rs"),
    include_str!("../../src/cookbook/invoices.rs"),
    include_str!("../../src/cookbook/notifications.rs"),
    include_str!("../../src/cookbook/payments.rs"),
    include_str!("../../src/cookbook/recovery.rs"),
    include_str!("../../src/cookbook/three_d_secure.rs"),
    include_str!("../../src/cookbook/tokens.rs"),
    include_str!("../../src/cookbook/tracing.rs"),
];

/// The sources of the client's methods.
const CLIENT: [&str; 2] = [
    include_str!("../../../paytoken-hyper/src/client.rs"),
    include_str!("../../../paytoken-hyper/src/settlement.rs"),
];

/// The client's public async methods: its operations and recoveries.
fn operations() -> Vec<&'static str> {
    CLIENT
        .iter()
        .flat_map(|source| source.lines())
        .filter_map(|line| line.trim_start().strip_prefix("pub async fn "))
        .filter_map(|rest| rest.split(['(', '<']).next())
        .collect()
}

#[test]
fn every_operation_of_the_client_has_a_recipe() {
    let operations = operations();
    assert!(operations.len() >= 20, "{operations:?}");
    let recipes = RECIPES.concat();
    let missing: Vec<_> = operations
        .iter()
        .filter(|name| !recipes.contains(&format!(".{name}(")))
        .collect();
    assert!(missing.is_empty(), "no recipe uses {missing:?}");
}

#[test]
fn every_recipe_file_is_in_the_cookbook() {
    let listed = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/src/cookbook"))
        .unwrap()
        .count();
    assert_eq!(listed, RECIPES.len());
}

/// The OTLP recipe's dependency block and code, as written: the lines under `# Cargo.toml`
/// up to the first blank line, then the code.
fn otlp_recipe() -> (Vec<String>, String) {
    let recipe = include_str!("../../src/cookbook/tracing.rs");
    let lines: Vec<&str> = recipe
        .lines()
        .map(|line| line.strip_prefix("//!").unwrap_or(line).trim())
        .collect();
    let start = lines
        .iter()
        .position(|line| *line == "# Cargo.toml")
        .unwrap()
        + 1;
    let blank = start
        + lines[start..]
            .iter()
            .position(|line| line.is_empty())
            .unwrap();
    let listed = lines[start..blank]
        .iter()
        .map(|line| line.split([' ', '=']).next().unwrap().replace('-', "_"))
        .collect();
    let end = blank
        + lines[blank..]
            .iter()
            .position(|line| *line == "```")
            .unwrap();
    (listed, lines[blank..end].join("\n"))
}

/// The crates a piece of code names: each lowercase path's first segment (`tracing::`,
/// `opentelemetry_sdk::trace::...`), but the language's own.
fn crates_named(code: &str) -> Vec<String> {
    let mut named = Vec::new();
    for (at, _) in code.match_indices("::") {
        let before = &code[..at];
        let start = before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |index| index + 1);
        let name = &before[start..];
        let first_segment = !before[..start].ends_with("::");
        let lowercase = name.chars().next().is_some_and(|c| c.is_ascii_lowercase());
        if first_segment && lowercase && !["std", "crate", "self", "super"].contains(&name) {
            named.push(name.to_owned());
        }
    }
    named.sort();
    named.dedup();
    named
}

#[test]
fn the_otlp_recipe_lists_every_crate_its_code_names() {
    let (listed, code) = otlp_recipe();
    assert!(listed.contains(&"paytoken".to_owned()), "{listed:?}");
    let named = crates_named(&code);
    assert!(named.len() >= 5, "{named:?}");
    let missing: Vec<_> = named.iter().filter(|name| !listed.contains(name)).collect();
    assert!(
        missing.is_empty(),
        "the recipe's code names {missing:?}, not in {listed:?}"
    );
    // paytoken named as the README names it: a path, no published version.
    let recipe = include_str!("../../src/cookbook/tracing.rs");
    assert!(recipe.contains(r#"paytoken = { path = "crates/paytoken""#));
}
