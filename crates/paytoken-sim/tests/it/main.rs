//! The simulation at work: a fixed count of seeds keep every invariant; one seed gives one
//! history; each planted defect (in the client, the sandbox, its state file, the shop's
//! duplicate store, the relay) is caught within the same seeds, with the command that
//! replays its seed and the history of the order it broke.

use paytoken_sim::{Defect, Plan, run};

/// The seeds `cargo test` runs, sized to the CI budget (`cargo xtask sim` runs more).
const SEEDS: u64 = 300;

#[test]
fn every_seed_keeps_every_invariant() {
    let plan = Plan::default();
    let failed: Vec<String> = (0..SEEDS)
        .map(|seed| run(seed, &plan))
        .filter(|run| !run.passed())
        .map(|run| run.report())
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn one_seed_gives_one_history() {
    let plan = Plan::default();
    let (first, again, other) = (run(7, &plan), run(7, &plan), run(8, &plan));
    assert_eq!(first.history(), again.history());
    assert_eq!(first.digest(), again.digest());
    assert_ne!(first.digest(), other.digest());
    // The network did something worth replaying.
    assert!(first.history().len() > 20, "{:#?}", first.history());
}

#[test]
fn each_planted_defect_is_caught_within_the_seeds() {
    for (name, defect) in Defect::ALL {
        let plan = Plan {
            defects: vec![defect],
            ..Plan::default()
        };
        let caught = (0..SEEDS)
            .map(|seed| run(seed, &plan))
            .find(|run| !run.passed())
            .unwrap_or_else(|| panic!("{name} was not caught in {SEEDS} seeds"));
        let report = caught.report();
        assert!(
            report.contains("replay: cargo xtask sim --seed "),
            "{report}"
        );
        assert!(report.contains(&format!("--defect {name}")), "{report}");
        let expected = match defect {
            Defect::FreshOrderOnLostAnswer => "charged 2 times",
            Defect::StaleRefundCheck => "refunded",
            Defect::ForgetfulDuplicateStore | Defect::UnfencedAction => "acted on 2 times",
            // What the client was answered and the books after the kill disagree.
            Defect::WriteBehind => "the books",
            _ => "answered 2xx and never acted on it",
        };
        assert!(report.contains(expected), "{report}");
        assert!(report.contains("history:\n  "), "{report}");
    }
}
