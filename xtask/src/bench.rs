//! `cargo xtask bench`: every criterion benchmark of the workspace, then the record of the
//! run written into docs/PERFORMANCE.md between two markers: each figure, its baseline
//! measured in the same run and the ratio, the budget the issues set, the machine, the
//! date. The hand-written analysis around the markers is left as it is.

#![allow(
    clippy::float_arithmetic,
    clippy::print_stdout,
    reason = "benchmark times and their ratios, not money; the bench output is shown as it runs"
)]

use std::fmt::Write as _;
use std::io::{BufRead as _, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

const RECORD: &str = "docs/PERFORMANCE.md";
const BEGIN: &str = "<!-- cargo xtask bench: begin (generated; do not edit by hand) -->";
const END: &str = "<!-- cargo xtask bench: end -->";

/// A budget: a benchmark's median at most this many nanoseconds.
const TIME_BUDGETS: [(&str, f64, &str); 4] = [
    ("types/encode_payment_form", 700.0, "types"),
    (
        "protocol/payment_round_trip/paytoken",
        1_800.0,
        "sans-IO protocol",
    ),
    (
        "protocol/parse_100_invoices/array",
        150_000.0,
        "sans-IO protocol",
    ),
    (
        "protocol/parse_100_invoices/position_map",
        150_000.0,
        "sans-IO protocol",
    ),
];

/// Every checksum at most this many nanoseconds (the checksum issue).
const CHECKSUM_BUDGET: f64 = 250.0;

/// A ratio: `baseline` time ÷ `paytoken` time (how many times faster) at least `at_least`.
const RATIO_BUDGETS: [(&str, &str, f64, &str); 3] = [
    (
        "protocol/payment_round_trip/paytoken",
        "protocol/payment_round_trip/baseline_hand_written",
        1.6,
        "sans-IO protocol",
    ),
    (
        "client/64_in_flight/paytoken",
        "client/64_in_flight/bare-hyper",
        0.9,
        "the client",
    ),
    (
        "client/64_in_flight/paytoken",
        "client/64_in_flight/reqwest",
        1.2,
        "the client",
    ),
];

/// Runs the benchmarks, passing `args` to criterion, and writes the record.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let mut command = vec!["bench", "--workspace", "--locked", "--"];
    command.extend(args.iter().map(String::as_str));
    eprintln!("xtask: cargo {}", command.join(" "));
    let mut child = Command::new(crate::cargo_program())
        .args(&command)
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|error| format!("cannot run cargo bench: {error}"))?;
    // Shown as it comes, and kept: the client bench prints its summary table on stdout.
    let mut summary = Vec::new();
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            println!("{line}");
            if line.starts_with("| ") || line.starts_with("|---") {
                summary.push(line);
            }
        }
    }
    let status = child
        .wait()
        .map_err(|error| format!("cargo bench: {error}"))?;
    if !status.success() {
        return Err(format!("cargo bench failed ({status})"));
    }
    let medians = medians(Path::new("target/criterion"))?;
    let record = record(&medians, &summary);
    write_record(&record)?;
    eprintln!("xtask: wrote {} benchmarks into {RECORD}", medians.len());
    Ok(())
}

/// Every benchmark criterion kept: its id and its median time, in nanoseconds.
fn medians(root: &Path) -> Result<Vec<(String, f64)>, String> {
    let mut found = Vec::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            if path.file_name().is_none_or(|name| name != "benchmark.json")
                || path
                    .parent()
                    .and_then(Path::file_name)
                    .is_none_or(|name| name != "new")
            {
                continue;
            }
            let read = |path: &Path| -> Result<Value, String> {
                let text = std::fs::read_to_string(path)
                    .map_err(|error| format!("{}: {error}", path.display()))?;
                serde_json::from_str(&text).map_err(|error| format!("{}: {error}", path.display()))
            };
            let benchmark = read(&path)?;
            let estimates = read(&path.with_file_name("estimates.json"))?;
            let id = benchmark
                .pointer("/full_id")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            if let Some(median) = estimates
                .pointer("/median/point_estimate")
                .and_then(Value::as_f64)
            {
                found.push((id, median));
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(found)
}

/// A time for people: ns, µs or ms.
fn shown(nanos: f64) -> String {
    if nanos < 1_000.0 {
        format!("{nanos:.0} ns")
    } else if nanos < 1_000_000.0 {
        format!("{:.2} µs", nanos / 1_000.0)
    } else {
        format!("{:.2} ms", nanos / 1_000_000.0)
    }
}

/// The machine, from what the system says of itself.
fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|line| line.starts_with("model name"))
                .and_then(|line| line.split(':').nth(1))
                .map(|name| name.trim().to_owned())
        })
        .unwrap_or_else(|| "an unknown CPU".to_owned());
    let cores = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    let rustc = Command::new("rustc")
        .arg("--version")
        .output()
        .ok()
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned())
        .unwrap_or_default();
    format!("{cpu}, {cores} cores, {rustc}")
}

/// Today's date (UTC) from the system clock: days since 1970 to a civil date.
fn today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    let days = i64::try_from(seconds / 86_400).unwrap_or(0);
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

fn record(medians: &[(String, f64)], summary: &[String]) -> String {
    let find = |id: &str| {
        medians
            .iter()
            .find(|(name, _)| name == id)
            .map(|(_, ns)| *ns)
    };
    let mut out = String::new();
    let _ = writeln!(out, "{BEGIN}");
    let _ = writeln!(out, "## The latest `cargo xtask bench`\n");
    let _ = writeln!(
        out,
        "Run on {}, {}. Medians of criterion's samples; compare figures within this run only.\n",
        today(),
        machine()
    );
    let _ = writeln!(out, "### Budgets and baselines\n");
    let _ = writeln!(
        out,
        "| figure | measured | baseline, same run | budget (issue) | verdict |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|");
    for (id, budget, issue) in TIME_BUDGETS {
        if let Some(ns) = find(id) {
            let verdict = if ns <= budget { "met" } else { "**over**" };
            let _ = writeln!(
                out,
                "| `{id}` | {} | | ≤ {} ({issue}) | {verdict} |",
                shown(ns),
                shown(budget)
            );
        }
    }
    for (id, ns) in medians.iter().filter(|(id, _)| id.starts_with("checksum/")) {
        let verdict = if *ns <= CHECKSUM_BUDGET {
            "met"
        } else {
            "**over**"
        };
        let _ = writeln!(
            out,
            "| `{id}` | {} | | ≤ {} (checksums) | {verdict} |",
            shown(*ns),
            shown(CHECKSUM_BUDGET)
        );
    }
    for (ours, baseline, at_least, issue) in RATIO_BUDGETS {
        if let (Some(ours_ns), Some(base_ns)) = (find(ours), find(baseline)) {
            let ratio = base_ns / ours_ns;
            let verdict = if ratio >= at_least {
                "met"
            } else {
                "**missed**"
            };
            let _ = writeln!(
                out,
                "| `{ours}` | {} | `{baseline}` {}: **{ratio:.2}×** | ≥ {at_least}× ({issue}) | {verdict} |",
                shown(ours_ns),
                shown(base_ns)
            );
        }
    }
    if !summary.is_empty() {
        let _ = writeln!(
            out,
            "\n### The client against its baselines (requests/s and CPU, medians of interleaved rounds)\n"
        );
        for line in summary {
            let _ = writeln!(out, "{line}");
        }
    }
    let _ = writeln!(out, "\n### Every benchmark\n");
    let _ = writeln!(out, "| benchmark | median |");
    let _ = writeln!(out, "|---|---|");
    for (id, ns) in medians {
        let _ = writeln!(out, "| `{id}` | {} |", shown(*ns));
    }
    let _ = writeln!(out, "{END}");
    out
}

/// Puts `record` between the markers of docs/PERFORMANCE.md, or at its end the first time.
fn write_record(record: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(RECORD).map_err(|error| format!("{RECORD}: {error}"))?;
    let updated = match (text.find(BEGIN), text.find(END)) {
        (Some(begin), Some(end)) if begin < end => {
            let after = text
                .get(end + END.len()..)
                .unwrap_or_default()
                .trim_start_matches('\n');
            format!(
                "{}{record}{}{after}",
                text.get(..begin).unwrap_or_default(),
                if after.is_empty() { "" } else { "\n" }
            )
        }
        _ => format!(
            "{}\n{record}",
            text.trim_end_matches('\n').to_owned() + "\n"
        ),
    };
    std::fs::write(RECORD, updated).map_err(|error| format!("{RECORD}: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_shown_in_their_unit() {
        assert_eq!(shown(151.2), "151 ns");
        assert_eq!(shown(4_430.0), "4.43 µs");
        assert_eq!(shown(148_000.0), "148.00 µs");
        assert_eq!(shown(18_000_000.0), "18.00 ms");
    }

    #[test]
    fn the_record_names_budgets_and_ratios() {
        let medians = vec![
            ("client/64_in_flight/bare-hyper".to_owned(), 12_000.0),
            ("client/64_in_flight/paytoken".to_owned(), 20_000.0),
            ("client/64_in_flight/reqwest".to_owned(), 27_000.0),
            ("checksum/payment".to_owned(), 311.0),
        ];
        let record = record(&medians, &[]);
        assert!(record.starts_with(BEGIN) && record.trim_end().ends_with(END));
        assert!(
            record.contains("**0.60×**") && record.contains("**1.35×**"),
            "{record}"
        );
        assert!(
            record.contains("| `checksum/payment` | 311 ns | | ≤ 250 ns (checksums) | **over** |")
        );
    }

    #[test]
    fn dates_are_civil() {
        let date = today();
        assert_eq!(date.len(), 10);
        assert!(date.starts_with("20"));
    }
}
