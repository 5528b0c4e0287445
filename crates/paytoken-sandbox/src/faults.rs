//! Fault injection: what can go wrong between a client and the gateway, on demand.
//!
//! Faults are set for the whole sandbox ([`SandboxBuilder::faults`](crate::SandboxBuilder::faults)),
//! for the next requests of an operation, whoever sends them ([`Sandbox::fault_next`](crate::Sandbox::fault_next):
//! how a test breaks one exchange of an unmodified client), or for one request with the
//! header [`FAULT_HEADER`], which only the sandbox reads. A fault queued for the next
//! requests names what it hits ([`FaultTarget`]): by default the next request that moves
//! money, so that a client's quiet auth-token fetch before a payment does not take the
//! payment's fault. The header's directives (`latency=250ms, drop=after`; each one's
//! effect: docs/SANDBOX.md, "Faults") override the others, one by one.
//!
//! Every fault but `drop=before` lets the request take effect first, as a real gateway that
//! processed a payment and then lost the answer on the way back. A `notify` directive is
//! kept with the payment the request makes, and acts when its outcome is notified.

use std::collections::VecDeque;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use crate::Error;

/// The request header that carries per-request fault directives.
pub const FAULT_HEADER: &str = "paytoken-sandbox-fault";

/// The size of an `oversized` body: twice the client's default 1 MiB limit.
pub const OVERSIZED_BODY_LEN: usize = 2 * 1024 * 1024;

/// Where a connection is dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Drop {
    /// Before the request is handled.
    BeforeProcessing,
    /// After the request took effect, before any answer.
    AfterProcessing,
}

/// A body that is not the gateway's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BodyFault {
    /// Text that is not JSON.
    Malformed,
    /// The first half of the real answer.
    Truncated,
    /// [`OVERSIZED_BODY_LEN`] bytes of valid JSON.
    Oversized,
}

/// What goes wrong with a payment's notification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotificationFault {
    /// Sent twice, as a gateway that repeats itself: a listener must see a duplicate.
    Twice,
    /// Sent late, after [`NotificationPolicy::late_by`](crate::NotificationPolicy::late_by).
    Late,
    /// Sent with a checksum that does not verify: a listener must reject it.
    BrokenChecksum,
}

/// The faults applied to a request. Plain data: the default is no fault.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Faults {
    /// Waited before handling.
    pub latency: Option<Duration>,
    /// Waited between the headers and the body of the answer.
    pub stall: Option<Duration>,
    /// A dropped connection.
    pub drop: Option<Drop>,
    /// An HTTP status other than 200 (500 or 502), with an HTML page.
    pub status: Option<u16>,
    /// A broken body.
    pub body: Option<BodyFault>,
    /// What goes wrong with the notification of the payment the request makes.
    pub notification: Option<NotificationFault>,
}

/// Which request a fault queued for the next requests hits: the first to arrive that it
/// names. Written `money-moving` (the default), `any`, or an operation's name as the
/// request log gives it (`pay`, `pay_with_token`, `repeat_payment`, `capture`, `refund`,
/// `cancel`, `inquiry`, `fetch_auth_token`, ...).
///
/// ```
/// use paytoken_sandbox::FaultTarget;
///
/// assert_eq!(FaultTarget::default(), FaultTarget::MONEY_MOVING);
/// assert_eq!(FaultTarget::parse("capture")?.name(), "capture");
/// assert!(FaultTarget::parse("payment").is_err(), "the log calls it `pay`");
/// # Ok::<(), paytoken_sandbox::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FaultTarget(Target);

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Target {
    #[default]
    MoneyMoving,
    /// One of [`crate::operation_names::OPERATIONS`].
    Operation(&'static str),
    Any,
}

impl FaultTarget {
    /// The next request that moves money: a payment, a token payment, a repeat, a capture,
    /// a refund or a cancel. The default.
    pub const MONEY_MOVING: Self = Self(Target::MoneyMoving);
    /// The next request, whatever it is (an auth-token fetch too).
    pub const ANY: Self = Self(Target::Any);

    /// The target of that name: `money-moving`, `any`, or an operation's.
    ///
    /// # Errors
    /// [`Error::FaultTarget`] when the name is none of these.
    pub fn parse(name: &str) -> Result<Self, Error> {
        match name.trim() {
            "money-moving" => Ok(Self::MONEY_MOVING),
            "any" => Ok(Self::ANY),
            name => crate::operation_names::OPERATIONS
                .iter()
                .find(|known| **known == name)
                .map(|known| Self(Target::Operation(known)))
                .ok_or_else(|| Error::FaultTarget {
                    target: name.to_owned(),
                }),
        }
    }

    /// Its name, as [`FaultTarget::parse`] reads it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self.0 {
            Target::MoneyMoving => "money-moving",
            Target::Operation(name) => name,
            Target::Any => "any",
        }
    }

    /// Whether it hits a request of `operation` (`None`: a request that is no operation).
    fn hits(self, operation: Option<&str>) -> bool {
        match self.0 {
            Target::Any => true,
            Target::MoneyMoving => {
                operation.is_some_and(|name| crate::operation_names::MONEY_MOVING.contains(&name))
            }
            Target::Operation(target) => operation == Some(target),
        }
    }
}

impl Drop {
    const ALL: [Self; 2] = [Self::BeforeProcessing, Self::AfterProcessing];

    /// Its value in a directive: `before`, `after`.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Self::BeforeProcessing => "before",
            Self::AfterProcessing => "after",
        }
    }
}

impl BodyFault {
    const ALL: [Self; 3] = [Self::Malformed, Self::Truncated, Self::Oversized];

    /// Its value in a directive: `malformed`, `truncated`, `oversized`.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Self::Malformed => "malformed",
            Self::Truncated => "truncated",
            Self::Oversized => "oversized",
        }
    }
}

impl NotificationFault {
    const ALL: [Self; 3] = [Self::Twice, Self::Late, Self::BrokenChecksum];

    /// Its value in a directive (and in a state file): `twice`, `late`, `broken-checksum`.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Self::Twice => "twice",
            Self::Late => "late",
            Self::BrokenChecksum => "broken-checksum",
        }
    }

    /// The fault of that name.
    pub(crate) fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|fault| fault.name() == name)
    }
}

/// The faults as directives in the header's syntax (`latency=250ms, drop=after`, or
/// `none`), which [`Faults::parse`] reads back.
impl std::fmt::Display for Faults {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut directives = Vec::new();
        if let Some(latency) = self.latency {
            directives.push(format!("latency={}ms", latency.as_millis()));
        }
        if let Some(stall) = self.stall {
            directives.push(format!("stall={}ms", stall.as_millis()));
        }
        if let Some(drop) = self.drop {
            directives.push(format!("drop={}", drop.name()));
        }
        if let Some(status) = self.status {
            directives.push(format!("status={status}"));
        }
        if let Some(body) = self.body {
            directives.push(format!("body={}", body.name()));
        }
        if let Some(notification) = self.notification {
            directives.push(format!("notify={}", notification.name()));
        }
        if directives.is_empty() {
            return f.write_str("none");
        }
        f.write_str(&directives.join(", "))
    }
}

impl Faults {
    /// No fault.
    pub const NONE: Self = Self {
        latency: None,
        stall: None,
        drop: None,
        status: None,
        body: None,
        notification: None,
    };

    /// Reads directives in the header's syntax (`latency=250ms, drop=after`).
    ///
    /// # Errors
    /// [`Error::Fault`] naming the first directive that cannot be read.
    pub fn parse(directives: &str) -> Result<Self, Error> {
        Self::NONE.with_directives(directives)
    }

    /// These faults, with each directive of `directives` laid over them.
    ///
    /// # Errors
    /// [`Error::Fault`] naming the first directive that cannot be read.
    pub fn with_directives(mut self, directives: &str) -> Result<Self, Error> {
        for directive in directives
            .split(',')
            .map(str::trim)
            .filter(|d| !d.is_empty())
        {
            let bad = |reason| Error::Fault {
                directive: directive.to_owned(),
                reason,
            };
            let (name, value) = directive.split_once('=').unwrap_or((directive, ""));
            match (name.trim(), value.trim()) {
                ("none", "") => self = Self::NONE,
                ("latency", value) => {
                    self.latency = Some(parse_duration(value).ok_or_else(|| bad(DURATION))?);
                }
                ("stall", value) => {
                    self.stall = Some(parse_duration(value).ok_or_else(|| bad(DURATION))?);
                }
                ("drop", value) => {
                    let drop = Drop::ALL.into_iter().find(|drop| drop.name() == value);
                    self.drop =
                        Some(drop.ok_or_else(|| bad("expected drop=before or drop=after"))?);
                }
                ("status", "500") => self.status = Some(500),
                ("status", "502") => self.status = Some(502),
                ("status", _) => return Err(bad("expected status=500 or status=502")),
                ("body", value) => {
                    let body = BodyFault::ALL.into_iter().find(|body| body.name() == value);
                    let expected = "expected body=malformed, truncated or oversized";
                    self.body = Some(body.ok_or_else(|| bad(expected))?);
                }
                ("notify", value) => {
                    let expected = "expected notify=twice, late or broken-checksum";
                    self.notification =
                        Some(NotificationFault::named(value).ok_or_else(|| bad(expected))?);
                }
                _ => {
                    return Err(bad(
                        "expected latency, stall, drop, status, body, notify or none",
                    ));
                }
            }
        }
        Ok(self)
    }
}

const DURATION: &str = "expected a whole number of ms or s up to 300s, such as 250ms or 2s";

/// The longest latency or stall a directive may ask for: longer than any client's timeout,
/// short enough that a connection cannot be held forever by asking.
pub const MAX_FAULT_DURATION: Duration = Duration::from_secs(300);

/// `250ms` or `2s`: whole milliseconds or seconds, at most [`MAX_FAULT_DURATION`] (the
/// command's duration flags read theirs with it too).
#[must_use]
pub fn parse_duration(text: &str) -> Option<Duration> {
    let (digits, unit): (&str, fn(u64) -> Duration) = if let Some(ms) = text.strip_suffix("ms") {
        (ms, Duration::from_millis)
    } else {
        (text.strip_suffix('s')?, Duration::from_secs)
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits
        .parse()
        .ok()
        .map(unit)
        .filter(|duration| *duration <= MAX_FAULT_DURATION)
}

/// The most faults that may wait for the next requests.
const FAULTS_QUEUED: usize = 1000;

/// Faults for the next requests, one each, in order, each waiting for a request its target
/// hits ([`crate::Sandbox::fault_next`], the console's `faults`); at most [`FAULTS_QUEUED`].
#[derive(Debug, Default)]
pub(crate) struct FaultQueue(Mutex<VecDeque<(FaultTarget, Faults)>>);

impl FaultQueue {
    /// Queues `faults` for the next request `target` hits not yet faulted; `false` when the
    /// queue is full.
    pub(crate) fn push(&self, target: FaultTarget, faults: Faults) -> bool {
        let mut queue = self.lock();
        if queue.len() >= FAULTS_QUEUED {
            return false;
        }
        queue.push_back((target, faults));
        true
    }

    /// Drops every fault waiting.
    pub(crate) fn clear(&self) {
        self.lock().clear();
    }

    /// The faults waiting, in order: each one's target and directives.
    pub(crate) fn waiting(&self) -> Vec<(FaultTarget, String)> {
        self.lock()
            .iter()
            .map(|(target, faults)| (*target, faults.to_string()))
            .collect()
    }

    /// Whether no fault waits: then a request need not be classified.
    pub(crate) fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    /// Takes the first fault waiting whose target hits a request of `operation`.
    pub(crate) fn take_for(&self, operation: Option<&str>) -> Option<Faults> {
        let mut queue = self.lock();
        let index = queue
            .iter()
            .position(|(target, _)| target.hits(operation))?;
        queue.remove(index).map(|(_, faults)| faults)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<(FaultTarget, Faults)>> {
        // A push or a pop cannot leave the queue half-changed: the poison means nothing.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_directive() {
        let faults = Faults::parse(
            "latency=250ms, stall=2s,drop=after,status=502,body=truncated,notify=late",
        )
        .unwrap();
        assert_eq!(
            faults,
            Faults {
                latency: Some(Duration::from_millis(250)),
                stall: Some(Duration::from_secs(2)),
                drop: Some(Drop::AfterProcessing),
                status: Some(502),
                body: Some(BodyFault::Truncated),
                notification: Some(NotificationFault::Late),
            }
        );
        for (directive, fault) in [
            ("notify=twice", NotificationFault::Twice),
            ("notify=broken-checksum", NotificationFault::BrokenChecksum),
        ] {
            assert_eq!(Faults::parse(directive).unwrap().notification, Some(fault));
        }
    }

    #[test]
    fn faults_print_as_directives_that_read_back() {
        for text in [
            "latency=250ms, stall=2000ms, drop=after, status=502, body=truncated, notify=late",
            "drop=before",
            "body=oversized, notify=broken-checksum",
            "none",
        ] {
            let faults = Faults::parse(text).unwrap();
            assert_eq!(faults.to_string(), text);
            assert_eq!(Faults::parse(&faults.to_string()).unwrap(), faults);
        }
    }

    #[test]
    fn header_directives_override_the_sandbox_ones() {
        let sandbox = Faults::parse("latency=1s, status=500").unwrap();
        let merged = sandbox.with_directives("latency=5ms").unwrap();
        assert_eq!(merged.latency, Some(Duration::from_millis(5)));
        assert_eq!(merged.status, Some(500));
        assert_eq!(sandbox.with_directives("none").unwrap(), Faults::NONE);
    }

    #[test]
    fn a_queued_fault_waits_for_the_request_it_names() {
        let queue = FaultQueue::default();
        let drop = Faults::parse("drop=after").unwrap();
        let stall = Faults::parse("stall=1s").unwrap();
        assert!(queue.push(FaultTarget::default(), drop));
        assert!(queue.push(FaultTarget::parse("fetch_auth_token").unwrap(), stall));
        // The auth-token fetch before a payment takes its own fault, not the payment's.
        assert_eq!(queue.take_for(Some("fetch_auth_token")), Some(stall));
        assert_eq!(queue.take_for(Some("inquiry")), None);
        assert_eq!(queue.take_for(None), None);
        assert_eq!(queue.take_for(Some("pay")), Some(drop));
        assert!(queue.is_empty());
        assert!(queue.push(FaultTarget::ANY, drop));
        assert_eq!(queue.take_for(None), Some(drop));
        for name in ["money-moving", "any", "capture", "pay_with_token"] {
            assert_eq!(FaultTarget::parse(name).unwrap().name(), name);
        }
        for money in crate::operation_names::MONEY_MOVING {
            assert!(FaultTarget::MONEY_MOVING.hits(Some(money)), "{money}");
            assert!(
                crate::operation_names::OPERATIONS.contains(&money),
                "{money}"
            );
        }
        let error = FaultTarget::parse("payment").unwrap_err();
        assert!(error.to_string().contains("payment"), "{error}");
    }

    #[test]
    fn names_the_directive_it_cannot_read() {
        for bad in [
            "latency=fast",
            "drop=sideways",
            "status=404",
            "notify=never",
            "explode",
            "stall=-1s",
            "latency=18446744073709551615s",
            "latency=301s",
            "stall=300001ms",
        ] {
            let error = Faults::parse(bad).unwrap_err();
            assert!(error.to_string().contains(bad), "{error}");
        }
    }
}
