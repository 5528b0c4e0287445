//! Each run's mix of faults, drawn from its seed (swarm testing): every fault's base weight
//! multiplied by a factor of the run's own, some faults left out, others made common, so
//! that combinations one fixed mix makes rare come up in some seeds. The mix is the first
//! lines of the run's history, and of every report of it.

use std::fmt::Display;

/// What a fault's base weight is multiplied by, one drawn per fault and run: left out, as
/// common, twice and four times as common.
const FACTORS: [u32; 4] = [0, 1, 2, 4];

/// `table` with each fault's weight multiplied by a factor `random` draws; its first
/// entry, the way things go without a fault, keeps its weight.
pub(crate) fn swarm<T: Copy>(random: &mut fastrand::Rng, table: &[(T, u32)]) -> Vec<(T, u32)> {
    table
        .iter()
        .enumerate()
        .map(|(at, &(choice, weight))| {
            let factor = if at == 0 {
                1
            } else {
                random.choice(FACTORS).unwrap_or(1)
            };
            (choice, weight.saturating_mul(factor))
        })
        .collect()
}

/// The history's line for `what`'s mix: each fault and its weight.
pub(crate) fn described<T: Display>(what: &str, mix: &[(T, u32)]) -> String {
    let weights: Vec<String> = mix
        .iter()
        .map(|(choice, weight)| format!("{choice} {weight}"))
        .collect();
    format!("{what} mix: {}", weights.join(", "))
}

/// Whether a history line is a mix's.
pub(crate) fn is_mix(line: &str) -> bool {
    line.contains(" mix: ")
}
