//! The checks' calls: the protocol's requests over doctor's one connection (another when
//! the gateway closed it, `connection::Upstream`), each answer read as the client reads it, its `Date` and its
//! unusual shapes kept.

use std::time::{Duration, SystemTime};

use paytoken::{CodeFamily, Context, Operation};
use serde_json::Value;

use super::check::Check;
use crate::connection::{Exchanged, Upstream};
use crate::report::operation_name;
use crate::shapes::{self, Shape};

/// What the checks learnt of the gateway's answers.
pub(super) struct Seen {
    pub(super) operation: &'static str,
    pub(super) shapes: Vec<Shape>,
}

/// The calls of the checks, over one connection.
pub(super) struct Caller {
    pub(super) upstream: Upstream,
    pub(super) limit: usize,
    /// The `Date` of the first answer: the gateway's clock.
    pub(super) first_date: Option<SystemTime>,
}

/// Why a call failed.
pub(super) enum Failed {
    Refused {
        code: String,
        description: String,
        family: CodeFamily,
        took: Duration,
    },
    Other(String),
}

impl Failed {
    pub(super) fn check(self, name: &'static str, advice: &str) -> Check {
        match self {
            Self::Refused {
                code,
                description,
                family,
                ..
            } => {
                let advice = if family == CodeFamily::SystemCheck {
                    advice.to_owned()
                } else {
                    format!("ask the gateway what code {code} means for this call")
                };
                Check::fail(name, format!("refused: {code} {description}"), advice)
            }
            Self::Other(problem) => Check::fail(
                name,
                problem,
                "run the check again; if it fails the same way, ask the gateway",
            ),
        }
    }
}

impl Caller {
    /// Sends `operation`, keeps the first `Date` and the answer's unusual shapes, and
    /// reads the answer as the client would.
    pub(super) async fn call<O: Operation>(
        &mut self,
        operation: &O,
        context: &Context,
        seen: &mut Vec<Seen>,
    ) -> Result<(O::Response, Duration), Failed> {
        let request = operation
            .request(context)
            .map_err(|error| Failed::Other(error.to_string()))?;
        let Exchanged {
            status,
            date,
            body,
            took,
            ..
        } = self
            .upstream
            .send(&request, "paytoken-doctor", self.limit)
            .await
            .map_err(Failed::Other)?;
        if self.first_date.is_none() {
            self.first_date = date;
        }
        if let Ok(answer) = serde_json::from_slice::<Value>(&body) {
            seen.push(Seen {
                operation: operation_name(O::KIND),
                shapes: shapes::unusual(&answer),
            });
        }
        match operation.parse(status, &body) {
            Ok(response) => Ok((response, took)),
            Err(error) => Err(match error.refusal() {
                Some(refusal) => Failed::Refused {
                    code: refusal.result.code.to_string(),
                    description: refusal.result.description.clone(),
                    family: refusal.family(),
                    took,
                },
                None => Failed::Other(error.to_string()),
            }),
        }
    }
}
