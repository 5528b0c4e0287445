//! `paytoken-sim`: runs seeds of the simulation (`cargo xtask sim` runs it).
//!
//! ```text
//! paytoken-sim [--seeds N] [--seed S] [--checkouts K] [--defect NAME]...
//! ```
//!
//! `--seeds N` runs seeds 0 to N-1 (1,000 by default); `--seed S` runs seed S alone and
//! prints its whole history. It exits 1 when a seed broke an invariant, printing the
//! command that replays it and the history of the orders it broke.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Instant;

use paytoken_sim::{Defect, Plan, run};

fn main() -> ExitCode {
    let mut plan = Plan::default();
    let mut seeds = 0..1_000;
    let mut one = false;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().unwrap_or_default();
        let number = || value.parse::<u64>().ok();
        match flag.as_str() {
            "--seeds" => match number() {
                Some(count) => seeds = 0..count,
                None => return usage(&format!("--seeds {value}: a number")),
            },
            "--seed" => match number() {
                Some(seed) => {
                    seeds = seed..seed.saturating_add(1);
                    one = true;
                }
                None => return usage(&format!("--seed {value}: a number")),
            },
            "--checkouts" => match value.parse() {
                Ok(count) => plan.checkouts = count,
                Err(_) => return usage(&format!("--checkouts {value}: a number")),
            },
            "--defect" => match Defect::ALL.iter().find(|(name, _)| *name == value) {
                Some((_, defect)) => plan.defects.push(*defect),
                None => return usage(&format!("--defect {value}: not a planted defect")),
            },
            other => return usage(&format!("{other}: not a flag")),
        }
    }
    let mut out = std::io::stdout().lock();
    let started = Instant::now();
    let count = seeds.end.saturating_sub(seeds.start);
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

/// What a history line tells of a request, a notification's attempt, the relay's target
/// or the shop, as `kind: what`; `None` for the lines that tell an outcome.
fn tallied(line: &str) -> Option<String> {
    let (_, said) = line.split_once(" ms  ")?;
    if said.contains(": answered ") || said.starts_with("checkout ") {
        return None;
    }
    if let Some(rest) = said.strip_prefix("shop: ") {
        let (_, outcome) = rest.split_once(' ')?;
        return Some(format!("shop: {outcome}"));
    }
    if said.starts_with("relay target: ") {
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

fn usage(message: &str) -> ExitCode {
    let _ = writeln!(
        std::io::stderr(),
        "paytoken-sim: {message}\nusage: paytoken-sim [--seeds N] [--seed S] [--checkouts K] [--defect NAME]..."
    );
    ExitCode::from(2)
}
