//! A check's verdict, what the checks saw of the answers' shapes, and the report of them
//! all: a line per check (with what to do when it failed), the answer shapes seen, and the
//! JSON object with the settings as `whoami` says them.

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::connection::Trouble;
use crate::report::{Outcome, Report};
use crate::shapes::Shape;
use crate::terminal::escape;

/// What the checks learnt of the gateway's answers.
pub(super) struct Seen {
    pub(super) operation: &'static str,
    pub(super) shapes: Vec<Shape>,
}

/// A check's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verdict {
    Pass,
    Fail,
    Skipped,
}

impl Verdict {
    const fn name(self) -> &'static str {
        match self {
            Self::Pass => "pass",
            Self::Fail => "fail",
            Self::Skipped => "skipped",
        }
    }
}

/// One check: its name, verdict, what it found, and for a failure what to do.
#[derive(Debug)]
pub(super) struct Check {
    pub(super) name: &'static str,
    pub(super) verdict: Verdict,
    pub(super) detail: String,
    pub(super) advice: Option<String>,
}

impl Check {
    pub(super) fn pass(name: &'static str, detail: impl Into<String>) -> Self {
        Self {
            name,
            verdict: Verdict::Pass,
            detail: detail.into(),
            advice: None,
        }
    }

    pub(super) fn fail(
        name: &'static str,
        detail: impl Into<String>,
        advice: impl Into<String>,
    ) -> Self {
        Self {
            name,
            verdict: Verdict::Fail,
            detail: detail.into(),
            advice: Some(advice.into()),
        }
    }

    pub(super) fn skipped(name: &'static str, why: impl Into<String>) -> Self {
        Self {
            name,
            verdict: Verdict::Skipped,
            detail: why.into(),
            advice: None,
        }
    }

    pub(super) fn trouble(name: &'static str, trouble: Trouble) -> Self {
        Self::fail(name, trouble.detail, trouble.advice)
    }
}

/// The report: a line per check, the shapes seen, and the settings as `whoami` says them.
pub(super) fn report(checks: &[Check], seen: &[Seen], settings: Value) -> Report {
    let count = |verdict: Verdict| {
        checks
            .iter()
            .filter(|check| check.verdict == verdict)
            .count()
    };
    let (passed, failed, skipped) = (
        count(Verdict::Pass),
        count(Verdict::Fail),
        count(Verdict::Skipped),
    );
    let mut human = if failed == 0 {
        format!("doctor: every check passed ({passed} passed, {skipped} skipped)\n")
    } else {
        format!("doctor: {failed} check(s) failed ({passed} passed, {skipped} skipped)\n")
    };
    for check in checks {
        let verdict = match check.verdict {
            Verdict::Fail => "FAIL",
            other => other.name(),
        };
        let _ = writeln!(
            human,
            "  {verdict:<8} {:<14} {}",
            check.name,
            escape(&check.detail)
        );
        if let Some(advice) = &check.advice {
            let _ = writeln!(
                human,
                "  {:<8} {:<14} what to do: {}",
                "",
                "",
                escape(advice)
            );
        }
    }
    let mut shapes = Vec::new();
    for answer in seen {
        for shape in &answer.shapes {
            let _ = writeln!(
                human,
                "  {:<8} {:<14} {}: {} is {}",
                "",
                "",
                answer.operation,
                escape(&shape.field),
                shape.shape
            );
            shapes.push(json!({
                "operation": answer.operation,
                "field": shape.field,
                "shape": shape.shape,
            }));
        }
    }
    let checks: Vec<Value> = checks
        .iter()
        .map(|check| {
            json!({
                "name": check.name,
                "verdict": check.verdict.name(),
                "detail": check.detail,
                "advice": check.advice,
            })
        })
        .collect();
    let outcome = if failed == 0 {
        Outcome::Ok
    } else {
        Outcome::ChecksFailed
    };
    Report::checked(
        "doctor",
        outcome,
        human,
        json!({
            "passed": passed,
            "failed": failed,
            "skipped": skipped,
            "checks": checks,
            "answerShapes": shapes,
            "settings": settings,
        }),
    )
}
