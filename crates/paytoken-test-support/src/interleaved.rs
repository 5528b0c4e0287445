//! Ratios to a baseline that hold on a machine whose speed moves: the two are timed in
//! alternating rounds, a round's ratio taken from two batches run back to back, and the
//! median of the rounds reported. `cargo xtask bench` reads the `RATIO` lines it prints.

#![allow(
    clippy::float_arithmetic,
    clippy::as_conversions,
    clippy::cast_precision_loss,
    clippy::indexing_slicing,
    clippy::print_stdout,
    reason = "bench code: times and their ratios are floats, the medians index sorted rounds"
)]

use std::time::Instant;

/// How many rounds, and how long each batch runs at least.
const ROUNDS: usize = 41;
const BATCH_NANOS: u128 = 20_000_000;

/// Criterion's flags that take a value; the other arguments that are not flags filter.
const FLAGS_WITH_VALUES: [&str; 12] = [
    "--warm-up-time",
    "--measurement-time",
    "--sample-size",
    "--profile-time",
    "--save-baseline",
    "--baseline",
    "--load-baseline",
    "--noise-threshold",
    "--confidence-level",
    "--significance-level",
    "--nresamples",
    "--color",
];

/// Whether the command line asks for `id`: no filter, or a filter it contains (criterion's
/// filters are regular expressions; a plain part of the id is what they are in practice).
/// With `--profile-time` (a profiler run) nothing is reported.
fn wanted(id: &str) -> bool {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|arg| arg == "--profile-time") {
        return false;
    }
    let mut filters = Vec::new();
    let mut skip_next = false;
    for arg in &args {
        if skip_next {
            skip_next = false;
        } else if FLAGS_WITH_VALUES.contains(&arg.as_str()) {
            skip_next = true;
        } else if !arg.starts_with('-') {
            filters.push(arg.trim_end_matches('$'));
        }
    }
    filters.is_empty() || filters.iter().any(|filter| id.contains(filter))
}

/// Times `ours` and `baseline` in alternating rounds and prints
/// `RATIO <ours_id> <baseline_id> <ratio> <ours ns> <baseline ns>`: the median of each
/// round's baseline ÷ ours, and the median time of each.
pub fn report(
    ours_id: &str,
    baseline_id: &str,
    mut ours: impl FnMut(),
    mut baseline: impl FnMut(),
) {
    if !wanted(ours_id) {
        return;
    }
    // Batches of a size that runs about `BATCH_NANOS`, from a first measure of each.
    let per_batch = |run: &mut dyn FnMut()| {
        let start = Instant::now();
        let mut count: u32 = 0;
        while start.elapsed().as_nanos() < BATCH_NANOS / 4 {
            run();
            count += 1;
        }
        count.saturating_mul(4).max(1)
    };
    let ours_batch = per_batch(&mut ours);
    let baseline_batch = per_batch(&mut baseline);
    let time = |run: &mut dyn FnMut(), batch: u32| {
        let start = Instant::now();
        for _ in 0..batch {
            run();
        }
        start.elapsed().as_nanos() as f64 / f64::from(batch)
    };
    let mut ratios = Vec::with_capacity(ROUNDS);
    let mut ours_times = Vec::with_capacity(ROUNDS);
    let mut baseline_times = Vec::with_capacity(ROUNDS);
    for round in 0..ROUNDS {
        // Alternate which goes first, so neither always meets the other's leftovers.
        let (a, b) = if round % 2 == 0 {
            let a = time(&mut ours, ours_batch);
            (a, time(&mut baseline, baseline_batch))
        } else {
            let b = time(&mut baseline, baseline_batch);
            (time(&mut ours, ours_batch), b)
        };
        ratios.push(b / a);
        ours_times.push(a);
        baseline_times.push(b);
    }
    let median = |values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    let ratio = median(&mut ratios);
    let (low, high) = (ratios[0], ratios[ratios.len() - 1]);
    println!(
        "RATIO {ours_id} {baseline_id} {ratio:.3} {:.1} {:.1}",
        median(&mut ours_times),
        median(&mut baseline_times)
    );
    println!(
        "{ours_id}: {ratio:.2}× faster than {baseline_id} (rounds from {low:.2}× to {high:.2}×)"
    );
}
