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

/// The command's flags: a count out of range is a usage error (exit 2) rather than a run
/// that checks nothing or grows without bound, and the largest seed is a seed.
#[test]
fn the_commands_counts_are_bounded_and_every_seed_runs() {
    let sim = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_paytoken-sim"))
            .args(args)
            .output()
            .unwrap()
    };
    for args in [
        ["--seeds", "0"],
        ["--seeds", "1000001"],
        ["--checkouts", "0"],
        ["--checkouts", "4294967295"],
    ] {
        let output = sim(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let said = String::from_utf8_lossy(&output.stderr);
        assert!(said.contains("is not in"), "{args:?}: {said}");
    }
    let output = sim(&["--seed", "18446744073709551615"]);
    assert!(output.status.success());
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("1 seed(s), 0 broke an invariant"), "{said}");
}
