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
    // What the network did to the requests, by the words the history says it in.
    let mut mix: BTreeMap<String, u64> = BTreeMap::new();
    for seed in seeds {
        let run = run(seed, &plan);
        unknown_left += run.unknown_left();
        for line in run.history() {
            let request = !line.contains(": answered ") && !line.contains(" checkout ");
            if let Some((_, fault)) = line.rsplit_once(": ").filter(|_| request) {
                *mix.entry(fault.to_owned()).or_default() += 1;
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
    let requests: u64 = mix.values().sum();
    let _ = writeln!(
        out,
        "{unknown_left} call(s) no inquiry could settle; {requests} requests:"
    );
    for (fault, times) in &mix {
        let _ = writeln!(out, "  {fault}: {times}");
    }
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn usage(message: &str) -> ExitCode {
    let _ = writeln!(
        std::io::stderr(),
        "paytoken-sim: {message}\nusage: paytoken-sim [--seeds N] [--seed S] [--checkouts K] [--defect NAME]..."
    );
    ExitCode::from(2)
}
