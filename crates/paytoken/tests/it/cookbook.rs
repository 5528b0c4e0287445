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
