//! Why a request is refused: one or several result codes, joined the gateway's way.

use crate::codes::{self, Code};

/// One reason, with the field it concerns for the "missing" and "invalid" codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Problem {
    pub(crate) code: Code,
    pub(crate) field: Option<&'static str>,
}

impl From<Code> for Problem {
    fn from(code: Code) -> Self {
        Self { code, field: None }
    }
}

impl Problem {
    pub(crate) const fn missing(field: &'static str) -> Self {
        Self {
            code: codes::MISSING_FIELD,
            field: Some(field),
        }
    }

    pub(crate) const fn invalid(field: &'static str) -> Self {
        Self {
            code: codes::INVALID_FIELD,
            field: Some(field),
        }
    }
}

/// Every reason found, in the order found; validation collects them all before answering,
/// so that a client sees `"30001 | 30002"` as the gateway sends it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Problems(Vec<Problem>, Option<String>);

impl Problems {
    /// The problems with a diagnostic for the integrator (`--explain`), sent beside the
    /// refusal, never in it.
    pub(crate) fn explained(mut self, explanation: String) -> Self {
        self.1 = Some(explanation);
        self
    }

    /// The diagnostic, if one was made.
    pub(crate) fn explanation(&self) -> Option<&str> {
        self.1.as_deref()
    }

    pub(crate) fn push(&mut self, problem: impl Into<Problem>) {
        self.0.push(problem.into());
    }

    /// `Ok(())` when nothing was found.
    pub(crate) fn into_result(self) -> Result<(), Self> {
        if self.0.is_empty() { Ok(()) } else { Err(self) }
    }

    /// The values read, when nothing was found: each value missing pushed a problem as it
    /// was read, so `None` is never reached then (a malformed body if it were).
    pub(crate) fn or_values<T>(self, values: Option<T>) -> Result<T, Self> {
        self.into_result()?;
        values.ok_or_else(|| codes::MALFORMED_BODY.into())
    }

    /// `"30001 | 30002"`.
    pub(crate) fn code(&self) -> String {
        self.0
            .iter()
            .map(|problem| problem.code.code)
            .collect::<Vec<_>>()
            .join(" | ")
    }

    /// `"Invalid amount | Missing field: currency"`.
    pub(crate) fn description(&self) -> String {
        self.0
            .iter()
            .map(|problem| [problem.code.description, problem.field.unwrap_or_default()].concat())
            .collect::<Vec<_>>()
            .join(" | ")
    }
}

impl From<Problem> for Problems {
    fn from(problem: Problem) -> Self {
        Self(vec![problem], None)
    }
}

impl From<Code> for Problems {
    fn from(code: Code) -> Self {
        Self(vec![code.into()], None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_codes_and_descriptions_with_spaced_bars() {
        let mut problems = Problems::default();
        problems.push(codes::INVALID_AMOUNT);
        problems.push(Problem::missing("currency"));
        assert_eq!(problems.code(), "30001 | 30007");
        assert_eq!(
            problems.description(),
            "Invalid amount | Missing field: currency"
        );
    }
}
