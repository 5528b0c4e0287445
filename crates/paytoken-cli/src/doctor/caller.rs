//! The checks' calls: the client's, on a transport over doctor's one connection (another
//! when the gateway closed it, `connection::Link`), each answer read as every command reads
//! it; its `Date`, its time and its unusual shapes kept.

use std::time::{Duration, SystemTime};

use paytoken::protocol::OperationKind;
use paytoken::{Client, CodeFamily};
use serde_json::Value;

use super::check::{Check, Seen};
use crate::connection::Link;
use crate::shapes;

/// The calls of the checks, over one connection.
pub(super) struct Caller {
    pub(super) client: Client<Link>,
    pub(super) link: Link,
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
    /// What a call of `operation` came to (`result`, as the client gave it): keeps the
    /// first `Date` and the answer's unusual shapes, and says how long the exchange took.
    pub(super) fn read<R>(
        &mut self,
        operation: OperationKind,
        result: Result<R, paytoken::Error>,
        seen: &mut Vec<Seen>,
    ) -> Result<(R, Duration), Failed> {
        let last = self.link.take_last();
        let took = last
            .as_ref()
            .map_or(Duration::ZERO, |exchanged| exchanged.took);
        if let Some(exchanged) = &last {
            if self.first_date.is_none() {
                self.first_date = exchanged.date;
            }
            if let Ok(answer) = serde_json::from_slice::<Value>(&exchanged.body) {
                seen.push(Seen {
                    operation: operation.name(),
                    shapes: shapes::unusual(&answer),
                });
            }
        }
        result
            .map(|response| (response, took))
            .map_err(|error| match error.refusal() {
                Some(refusal) => Failed::Refused {
                    code: refusal.result.code.to_string(),
                    description: refusal.result.description.clone(),
                    family: refusal.family(),
                    took,
                },
                None => Failed::Other(error.to_string()),
            })
    }
}
