//! `cargo xtask bench`: every criterion benchmark of the workspace, then the record of the
//! run written into docs/PERFORMANCE.md between two markers: each budget's figure, its
//! baseline measured in the same run and the ratio, the verdict, every median, the machine,
//! the date. The text around the markers is left as it is.

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

/// A budget: `baseline` time ÷ `paytoken` time (how many times faster) at least
/// `at_least`, both measured in the same run, so that a busy machine slows both. Taken from
/// the `RATIO` lines the benches print (interleaved rounds, robust to the machine's moving
/// clock) when there is one, from criterion's medians otherwise. Set so that serde_json,
/// tokio and hyper doing the work meet them, and paytoken stays ahead of what users pick
/// instead.
const RATIO_BUDGETS: [(&str, &str, f64, &str); 11] = [
    (
        "protocol/payment_round_trip/paytoken",
        "protocol/payment_round_trip/baseline_hand_written",
        1.3,
        "full payment build + sign + parse ≥ 1.3× the hand-written baseline",
    ),
    (
        "types/encode_payment_form",
        "types/encode_payment_form_serde_urlencoded",
        2.5,
        "the payment form ≥ 2.5× serde_urlencoded",
    ),
    (
        "client/64_in_flight/paytoken",
        "client/64_in_flight/bare-hyper",
        0.65,
        "64 in flight: ≥ 0.65 of bare hyper's requests/s",
    ),
    (
        "client/64_in_flight/paytoken",
        "client/64_in_flight/reqwest",
        1.3,
        "64 in flight: ≥ 1.3× reqwest's requests/s",
    ),
    (
        "client/1_in_flight/paytoken_cpu",
        "client/1_in_flight/bare-hyper_cpu",
        1.0 / 1.2,
        "1 in flight: CPU per request ≤ 1.2× bare hyper's (ratio ≥ 0.83)",
    ),
    (
        "sandbox/payments_64_connections",
        "sandbox/fixed_answer_hyper_64_connections",
        0.5,
        "sandbox ≥ 0.5 of a fixed-answer hyper server's payments/s",
    ),
    (
        PYTHON_BENCH,
        "python/payment_round_trip/reference_adapter",
        1.0,
        "Python: payment build + sign + read ≥ 1× the pure-Python reference adapter",
    ),
    (
        "python/client_pay_1_thread/paytoken",
        "python/client_pay_1_thread/httpx",
        1.0,
        "Python: Client's payments/s from 1 thread ≥ 1× httpx.Client with the module",
    ),
    (
        "python/client_pay_16_threads/paytoken",
        "python/client_pay_16_threads/httpx",
        1.0,
        "Python: Client's payments/s from 16 threads ≥ 1× httpx.Client with the module",
    ),
    (
        "python/async_client_pay_16_in_flight/paytoken",
        "python/async_client_pay_16_in_flight/httpx",
        1.0,
        "Python: AsyncClient's payments/s, 16 in flight, ≥ 1× httpx.AsyncClient with the module",
    ),
    (
        NODE_BENCH,
        "node/payment_round_trip/plain_js",
        1.0,
        "Node: payment build + sign + read ≥ 1× plain JavaScript with node:crypto",
    ),
];

/// The Python binding's benchmark, run after criterion's unless a filter leaves it out.
const PYTHON_BENCH: &str = "python/payment_round_trip/paytoken";
/// The Node binding's, likewise.
const NODE_BENCH: &str = "node/payment_round_trip/paytoken";

/// A binding's benchmark: builds what it measures, runs it, and returns what it printed.
type BindingBench = fn() -> Result<String, String>;

/// One `RATIO ours baseline ratio ours_ns baseline_ns` line of a bench.
#[derive(Debug, Clone, PartialEq)]
struct Ratio {
    ours: String,
    baseline: String,
    ratio: f64,
    ours_ns: f64,
    baseline_ns: f64,
}

impl Ratio {
    fn parse(line: &str) -> Option<Self> {
        let mut words = line.strip_prefix("RATIO ")?.split_whitespace();
        let ours = words.next()?.to_owned();
        let baseline = words.next()?.to_owned();
        let mut number = || words.next()?.parse::<f64>().ok();
        Some(Self {
            ours,
            baseline,
            ratio: number()?,
            ours_ns: number()?,
            baseline_ns: number()?,
        })
    }
}

/// Runs the benchmarks, passing `args` to criterion, and writes the record.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let mut command = vec!["bench", "--workspace", "--locked", "--"];
    command.extend(args.iter().map(String::as_str));
    eprintln!("xtask: cargo {}", command.join(" "));
    let root = crate::project_root();
    // Criterion keeps the results of benchmarks that no longer exist: only this run's count.
    let started = std::time::SystemTime::now();
    let mut child = crate::cargo_command()
        .args(&command)
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|error| format!("cannot run cargo bench: {error}"))?;
    // Shown as it comes, and kept: the client bench prints its summary table on stdout.
    let mut summary = Vec::new();
    let mut ratios = Vec::new();
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            println!("{line}");
            if line.starts_with("| ") || line.starts_with("|---") {
                summary.push(line);
            } else if let Some(ratio) = Ratio::parse(&line) {
                ratios.push(ratio);
            }
        }
    }
    let status = child
        .wait()
        .map_err(|error| format!("cargo bench: {error}"))?;
    if !status.success() {
        return Err(format!("cargo bench failed ({status})"));
    }
    let bindings: [(&str, &str, BindingBench); 2] = [
        (
            PYTHON_BENCH,
            "paytoken for Python against the reference adapter",
            crate::binding::bench,
        ),
        (
            NODE_BENCH,
            "paytoken for Node against plain JavaScript",
            crate::node::bench,
        ),
    ];
    for (id, what, bench) in bindings {
        if args
            .iter()
            .all(|arg| arg.starts_with('-') || id.contains(arg.as_str()))
        {
            eprintln!("xtask: {what}");
            for line in bench()?.lines() {
                println!("{line}");
                ratios.extend(Ratio::parse(line));
            }
        }
    }
    let medians = medians(&crate::target_dir().join("criterion"), started)?;
    let record = record(&medians, &ratios, &summary);
    write_record(&root.join(RECORD), &record)?;
    eprintln!("xtask: wrote {} benchmarks into {RECORD}", medians.len());
    Ok(())
}

/// Every benchmark criterion measured since `since`: its id and its median time, in
/// nanoseconds.
fn medians(root: &Path, since: std::time::SystemTime) -> Result<Vec<(String, f64)>, String> {
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
                || entry
                    .metadata()
                    .and_then(|found| found.modified())
                    .is_ok_and(|modified| modified < since)
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

/// Today's date (UTC) from the system clock, by the types crate's calendar.
fn today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    i64::try_from(seconds)
        .ok()
        .and_then(paytoken_types::Timestamp::from_unix_seconds)
        .map_or_else(String::new, |now| {
            format!("{:04}-{:02}-{:02}", now.year(), now.month(), now.day())
        })
}

fn record(medians: &[(String, f64)], ratios: &[Ratio], summary: &[String]) -> String {
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
    let _ = writeln!(out, "### Budgets\n");
    let _ = writeln!(
        out,
        "| figure | measured | baseline, same run | budget | verdict |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|");
    // A ratio of `ours` to `baseline`: from the interleaved rounds, else criterion's medians.
    let measure = |ours: &str, baseline: &str| {
        let interleaved = ratios
            .iter()
            .find(|ratio| ratio.ours == ours && ratio.baseline == baseline);
        match interleaved {
            Some(ratio) => Some((ratio.ratio, ratio.ours_ns, ratio.baseline_ns, "interleaved")),
            None => match (find(ours), find(baseline)) {
                (Some(ours_ns), Some(base_ns)) => {
                    Some((base_ns / ours_ns, ours_ns, base_ns, "criterion"))
                }
                _ => None,
            },
        }
    };
    for (ours, baseline, at_least, budget) in RATIO_BUDGETS {
        if let Some((ratio, ours_ns, base_ns, how)) = measure(ours, baseline) {
            let verdict = if ratio >= at_least {
                "met"
            } else {
                "**missed**"
            };
            let _ = writeln!(
                out,
                "| `{ours}` | {} | `{baseline}` {}: **{ratio:.2}×** ({how}) | {budget} | {verdict} |",
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

/// Puts `record` between the markers of `path` (docs/PERFORMANCE.md), or at its end the
/// first time.
fn write_record(path: &Path, record: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|error| format!("{RECORD}: {error}"))?;
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
    std::fs::write(path, updated).map_err(|error| format!("{RECORD}: {error}"))
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
        ];
        let record = record(&medians, &[], &[]);
        assert!(record.starts_with(BEGIN) && record.trim_end().ends_with(END));
        assert!(
            record.contains("**0.60×**") && record.contains("**1.35×**"),
            "{record}"
        );
        assert!(record.contains("| **missed** |"), "{record}");
        assert!(!record.contains("### The floors"), "{record}");
    }

    #[test]
    fn interleaved_ratios_win_over_medians() {
        let line = "RATIO types/encode_payment_form types/encode_payment_form_serde_urlencoded 2.604 1234.5 3214.0";
        let ratio = Ratio::parse(line).unwrap();
        assert_eq!(ratio.ours, "types/encode_payment_form");
        assert!((ratio.ratio - 2.604).abs() < 1e-9);
        assert_eq!(Ratio::parse("RATIO a b not-a-number 1 2"), None);
        let medians = vec![
            ("types/encode_payment_form".to_owned(), 1_000.0),
            (
                "types/encode_payment_form_serde_urlencoded".to_owned(),
                2_000.0,
            ),
        ];
        let record = record(&medians, &[ratio], &[]);
        assert!(record.contains("**2.60×** (interleaved)"), "{record}");
        assert!(record.contains("| met |"), "{record}");
    }

    #[test]
    fn dates_are_civil() {
        let date = today();
        assert_eq!(date.len(), 10);
        assert!(date.starts_with("20"));
    }
}
