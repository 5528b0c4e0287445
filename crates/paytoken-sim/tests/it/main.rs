//! The simulation at work: a fixed count of seeds keep every invariant; one seed gives one
//! history; each planted defect (in the client, the sandbox, its state file, the shop's
//! duplicate store, the relay) is caught within the same seeds, with the command that
//! replays its seed and the history of the order it broke; each check the simulator owes
//! to a belief, a notification or the file is shown able to fail, its report holding the
//! line that caused it.

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
            Defect::NeverNotifies => "its notification was never posted",
            Defect::RefundLostInFile => "0.00 in the books",
            _ => "answered 2xx and never acted on it",
        };
        assert!(report.contains(expected), "{report}");
        assert!(report.contains("history:\n  "), "{report}");
    }
}

/// The report of the first run of the first 1,000 seeds under `defect` that breaks an
/// invariant saying `said`, if one does.
fn first_report(defect: Defect, said: &str) -> Option<String> {
    let plan = Plan {
        defects: vec![defect],
        ..Plan::default()
    };
    (0..1_000)
        .map(|seed| run(seed, &plan))
        .find(|run| run.broken().iter().any(|broken| broken.contains(said)))
        .map(|run| run.report())
}

/// The report's history lines (those after `history:`).
fn history_of(report: &str) -> Vec<&str> {
    report
        .split_once("history:\n")
        .map_or(Vec::new(), |(_, history)| history.lines().collect())
}

/// A payment id handed to a second order after a write the file lost: the client of the
/// first order holds someone else's payment. The report shows the restart that lost the
/// write, and the other order's lines.
#[test]
fn a_payment_id_handed_to_another_order_is_caught_with_the_restart_that_lost_it() {
    let report = first_report(Defect::WriteBehind, "which the books hold for order")
        .expect("caught within 1,000 seeds");
    let history = history_of(&report);
    assert!(
        history
            .iter()
            .any(|line| line.ends_with("sandbox restarted from its file")),
        "{report}"
    );
    let other = report
        .split("which the books hold for order ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_default();
    assert!(
        history
            .iter()
            .any(|line| line.contains(&format!("order {other}"))),
        "{report}"
    );
    assert!(
        history.iter().any(|line| line.contains(" mix: ")),
        "{report}"
    );
}

/// A gateway that never notifies a settled payment is caught; the report shows the
/// settlement from which its notification was owed.
#[test]
fn a_settled_payment_never_notified_is_caught_with_its_settlement() {
    let report = first_report(Defect::NeverNotifies, "its notification was never posted")
        .expect("caught within 1,000 seeds");
    let payment = report
        .split("payment ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_default();
    let settled = "gateway: settled, approved";
    assert!(
        history_of(&report)
            .iter()
            .any(|line| line.contains(settled) && line.contains(&format!("[{payment}]"))),
        "{report}"
    );
}

/// A refund the state file did not keep is caught by reading the books after the run's
/// last restart; the report shows the refund answered and that restart.
#[test]
fn a_refund_the_file_lost_is_caught_after_the_last_restart() {
    let report = first_report(Defect::RefundLostInFile, "0.00 in the books")
        .expect("caught within 1,000 seeds");
    let history = history_of(&report);
    assert!(
        history
            .iter()
            .any(|line| line.contains("refund ") && line.contains(": answered 200 00005")),
        "{report}"
    );
    assert!(
        history
            .iter()
            .any(|line| line.ends_with("sandbox restarted from its file before its books are read")),
        "{report}"
    );
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
