//! Which vectors a run asks for (`--source`, `--level`, `--only`) and which of them the
//! client is known to fail (`--expect FILE`, as the Web Platform Tests keep expectations):
//! an expected failure does not fail the run, and an expected failure that passes is said.

use std::collections::BTreeSet;

use serde_json::Value;

use super::at;
use crate::bounded::{open_regular, read_bounded};
use crate::cli::ConformArgs;
use crate::report::Failure;
use crate::terminal::escape;

/// The sources a vector may name.
const SOURCES: [&str; 4] = [
    "specification",
    "platform-docs",
    "platform-observed",
    "sandbox-choice",
];

/// The source of the kit's own safety rules (an unknown status is never approved; R1, R2),
/// which every run takes: `--source` narrows the interface's vectors only.
const SAFETY: &str = "safety";

/// The levels a vector may have.
const LEVELS: [&str; 3] = ["must", "optional", "tolerate"];

/// The largest `--expect` file read.
const MAX_EXPECT_BYTES: u64 = 1024 * 1024;

/// What a run takes of the kit, and the failures it expects.
#[derive(Debug, Default)]
pub(crate) struct Selection {
    sources: Vec<String>,
    levels: Vec<String>,
    only: Vec<String>,
    expected: BTreeSet<String>,
}

impl Selection {
    /// The selection `args` asks for, each value checked against the kit's `vectors`
    /// (group, vector): a source, level, group, id or id prefix the kit does not have is a
    /// usage error, so a typo never silently selects nothing.
    pub(crate) fn of(args: &ConformArgs, vectors: &[(&str, Value)]) -> Result<Self, Failure> {
        let id = |vector: &Value| at(vector, "/id").as_str().unwrap_or_default().to_owned();
        let ids: BTreeSet<String> = vectors.iter().map(|(_, vector)| id(vector)).collect();
        for (flag, given, known) in [
            ("--source", &args.source, &SOURCES[..]),
            ("--level", &args.level, &LEVELS[..]),
        ] {
            if let Some(unknown) = given.iter().find(|value| !known.contains(&value.as_str())) {
                return Err(Failure::usage(format!(
                    "{flag} {}: not one of {}",
                    escape(unknown),
                    known.join(", ")
                )));
            }
        }
        if let Some(unknown) = args.only.iter().find(|only| {
            !vectors.iter().any(|(group, _)| group == only) && !ids.iter().any(|id| names(only, id))
        }) {
            return Err(Failure::usage(format!(
                "--only {}: no group, vector id or id prefix (ending in /) of the kit",
                escape(unknown)
            )));
        }
        let expected = match &args.expect {
            None => BTreeSet::new(),
            Some(path) => {
                let file = open_regular(path, "--expect")?;
                let text = read_bounded(file, MAX_EXPECT_BYTES, "--expect", "more than 1 MiB")?;
                let listed: BTreeSet<String> = text
                    .lines()
                    .map(|line| line.split('#').next().unwrap_or_default().trim())
                    .filter(|line| !line.is_empty())
                    .map(str::to_owned)
                    .collect();
                if let Some(unknown) = listed.iter().find(|listed| !ids.contains(*listed)) {
                    return Err(Failure::usage(format!(
                        "--expect: {} is no vector id of the kit",
                        escape(unknown)
                    )));
                }
                listed
            }
        };
        Ok(Self {
            sources: args.source.clone(),
            levels: args.level.clone(),
            only: args.only.clone(),
            expected,
        })
    }

    /// Whether the run asks for `vector` of `group`.
    pub(crate) fn takes(&self, group: &str, vector: &Value) -> bool {
        let id = at(vector, "/id").as_str().unwrap_or_default();
        self.labelled(vector)
            && (self.only.is_empty()
                || self
                    .only
                    .iter()
                    .any(|only| only == group || names(only, id)))
    }

    /// Whether `--source` and `--level` take what carries this `source` and `level`: the
    /// kit's safety rules whatever `--source` says.
    fn labelled(&self, labelled: &Value) -> bool {
        let level = at(labelled, "/level").as_str().unwrap_or_default();
        let source = at(labelled, "/source/kind").as_str().unwrap_or_default();
        (source == SAFETY || self.takes_source(source))
            && (self.levels.is_empty() || self.levels.iter().any(|asked| asked == level))
    }

    /// Names in the request `vector`'s `headersOpen` each header whose own label
    /// (`headerRules`) the run does not take: the judge neither asks for it nor refuses it.
    pub(crate) fn leave_open(&self, vector: &mut Value) {
        let open: Vec<Value> = at(vector, "/headerRules")
            .as_array()
            .into_iter()
            .flatten()
            .filter(|rule| !self.labelled(rule))
            .map(|rule| at(rule, "/name").clone())
            .collect();
        if let Some(vector) = vector.as_object_mut() {
            vector.insert("headersOpen".to_owned(), Value::Array(open));
        }
    }

    /// Whether the run takes what carries the source `kind` (every source, unless
    /// `--source` names some).
    pub(crate) fn takes_source(&self, kind: &str) -> bool {
        self.sources.is_empty() || self.sources.iter().any(|source| source == kind)
    }

    pub(crate) fn expects_failure(&self, id: &str) -> bool {
        self.expected.contains(id)
    }
}

/// Whether `only` names the vector `id`: the id itself, or a prefix of it ending in `/`.
fn names(only: &str, id: &str) -> bool {
    only == id || (only.ends_with('/') && id.starts_with(only))
}
