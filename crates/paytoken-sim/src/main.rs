//! `paytoken-sim`: runs seeds of the simulation (`cargo xtask sim` runs it).
//!
//! ```text
//! paytoken-sim [--seeds N] [--seed S] [--checkouts K] [--defect NAME]...
//! ```
//!
//! `--seeds N` runs seeds 0 to N-1 (1,000 by default, 1 to 1,000,000); `--seed S` runs seed
//! S alone (any 64-bit seed) and prints its whole history; `--checkouts K` gives each run K
//! checkouts at once (1 to 1,000). It exits 1 when a seed broke an invariant, printing the
//! command that replays it and the history of the orders it broke; 2, with a usage
//! message, for a count out of its range (a run that checks nothing is no pass).

use std::collections::BTreeMap;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use paytoken_sim::{Defect, Plan, run};

/// The most seeds one command runs: a CI run takes thousands.
const MAX_SEEDS: u64 = 1_000_000;
/// The most checkouts a run has at once: each holds a sandbox's books and a history in
/// memory, so a count without a bound grows without one.
const MAX_CHECKOUTS: u64 = 1_000;

/// Runs seeds of the simulation.
#[derive(Parser)]
#[command(name = "paytoken-sim")]
struct Args {
    /// Runs seeds 0 to N-1 (1 to 1,000,000).
    #[arg(long, value_name = "N", default_value_t = 1_000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_SEEDS))]
    seeds: u64,
    /// Runs seed S alone and prints its whole history.
    #[arg(long, value_name = "S", conflicts_with = "seeds")]
    seed: Option<u64>,
    /// How many checkouts each run has (1 to 1,000).
    #[arg(long, value_name = "K",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_CHECKOUTS))]
    checkouts: Option<usize>,
    /// Plants a defect the invariants must catch (repeatable).
    #[arg(long, value_name = "NAME", value_parser = defect)]
    defect: Vec<Defect>,
}

/// A planted defect by its name in [`Defect::ALL`].
fn defect(name: &str) -> Result<Defect, String> {
    Defect::ALL
        .iter()
        .find(|(known, _)| *known == name)
        .map(|(_, defect)| *defect)
        .ok_or_else(|| "not a planted defect".to_owned())
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut plan = Plan {
        defects: args.defect,
        ..Plan::default()
    };
    if let Some(checkouts) = args.checkouts {
        plan.checkouts = checkouts;
    }
    // Inclusive: seed 18446744073709551615 is one seed too. `--seeds` is at least 1.
    let seeds = args
        .seed
        .map_or(0..=args.seeds.saturating_sub(1), |seed| seed..=seed);
    let one = args.seed.is_some();
    let mut out = std::io::stdout().lock();
    let started = Instant::now();
    let count = seeds.end().saturating_sub(*seeds.start()).saturating_add(1);
    let mut failed = 0_u64;
    let mut unknown_left = 0_usize;
    // What the network did to the requests and the notifications, what the relay's target
    // and the shop did, by the words the history says it in.
    let mut mix: BTreeMap<String, u64> = BTreeMap::new();
    for seed in seeds {
        let run = run(seed, &plan);
        unknown_left += run.unknown_left();
        for line in run.history() {
            if let Some(what) = tallied(line) {
                *mix.entry(what).or_default() += 1;
            }
        }
        if one {
            for line in run.history() {
                let _ = writeln!(out, "{line}");
            }
        }
        if !run.passed() {
            failed += 1;
            let _ = write!(out, "{}", run.report());
        }
    }
    let _ = writeln!(
        out,
        "{count} seed(s), {failed} broke an invariant, in {:.1?} ({} checkouts each)",
        started.elapsed(),
        plan.checkouts
    );
    let requests: u64 = mix
        .iter()
        .filter(|(what, _)| what.starts_with("request: "))
        .map(|(_, times)| times)
        .sum();
    let _ = writeln!(
        out,
        "{unknown_left} call(s) no inquiry could settle; {requests} requests:"
    );
    for (what, times) in &mix {
        let _ = writeln!(out, "  {what}: {times}");
    }
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// What a history line tells of a request, a notification's attempt, the relay, its
/// target, the shop or the gateway's settlements, as `kind: what` (without the ids and
/// fences in its trailing brackets); `None` for the lines that tell an outcome or a mix.
fn tallied(line: &str) -> Option<String> {
    let (_, said) = line.split_once(" ms  ")?;
    let said = said.split_once(" [").map_or(said, |(said, _)| said);
    if said.contains(": answered ") || said.starts_with("checkout ") || said.contains(" mix: ") {
        return None;
    }
    if let Some(rest) = said.strip_prefix("shop: ") {
        let (_, outcome) = rest.split_once(' ')?;
        return Some(format!("shop: {outcome}"));
    }
    if ["relay target: ", "relay: ", "gateway: "]
        .iter()
        .any(|kind| said.starts_with(kind))
    {
        return Some(said.to_owned());
    }
    let (subject, what) = said.rsplit_once(": ")?;
    let kind = if subject.starts_with("notification of ") {
        "notification"
    } else {
        "request"
    };
    Some(format!("{kind}: {what}"))
}
