//! `paytoken conform --http`: the client performs whole flows (the kit's `scenarios.json`)
//! through its own SDK and HTTP stack against a sandbox the harness starts in its own
//! process, one step a message (the harness fills in what a step takes from the outcomes
//! before it, and takes its own steps itself: moving the sandbox's clock, approving a 3-D
//! Secure payment as the cardholder, after which the sandbox notifies the listener the
//! client named in its handshake). It is scored on two things: the wire, every request the
//! sandbox received during the scenario, taken whole from the sandbox's tap and held to
//! the kit's rules (the sandbox's explanation of any request it refused, and the rules it
//! leaves to a client: a `POST` without a query, a form body with each field once, the
//! `AuthToken` header, the gateway's paths and headers only); and the outcome, each step's
//! reported verdict against the scenario's `expect`, and the sandbox's books of a payment
//! against its `books`. A score is earned: the sandbox serves the client the gateway's
//! paths only (no console, no 3-D Secure page, no fault header: the harness drives those
//! in its own process), a step that names an operation needs a request of it, and a
//! notification step needs the sandbox's notification answered `2xx` at the listener.

use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use paytoken::OperationKind;
use paytoken::protocol::{AUTH_TOKEN_HEADER, FORM_CONTENT_TYPE};
use paytoken_sandbox::internal::operation_of;
use paytoken_sandbox::tap::{TAP_BYTES, Tap, Tapped};
use paytoken_sandbox::{
    DEFAULT_MERCHANT_ID, DEFAULT_PARTNER_ID, FaultTarget, Faults, PaymentBooks, Sandbox, codes,
};
use serde_json::{Map, Value, json};

use super::lost::{self, Faulted};
use super::shown::shown;
use super::{Verdict, at};
use crate::report::Failure;

/// The scenarios' group, by the file of the kit that holds them.
pub(crate) const SCENARIOS: (&str, &str) = ("scenario", "scenarios.json");

/// The most explanations of refusals kept in a scenario, and breaches said of one: a
/// client that sends on and on is not followed without end.
const MAX_SAID: usize = 20;

/// How long the handshake asks the client to wait for an answer: shorter than the kit's
/// stalled answers, long enough for any answer of a sandbox on this machine.
const REQUEST_TIMEOUT_MS: u64 = 500;

/// How long a notification step waits for the sandbox's notification to be answered `2xx`
/// at the client's listener, after the client said it verified it: an honest client
/// answered once its listener had it.
const NOTIFIED_WITHIN: Duration = Duration::from_secs(3);

/// The operation of a scenario's step the client verifies rather than sends: a payment's
/// notification, at its listener.
const NOTIFICATION: &str = "notification";

/// The prefix of the sandbox's own headers, which a client of the gateway never sends.
const SANDBOX_HEADERS: &str = "paytoken-sandbox-";

/// The most requests one scenario's steps may send, all told: a scenario takes a few dozen,
/// retries included. With the tap's own bound on a step's requests and bytes, it bounds
/// what the harness holds of a client that floods the sandbox.
const MAX_SCENARIO_REQUESTS: usize = 1_000;

/// The sandbox the scenarios run against, on a thread of its own (the harness waits on
/// the client), with its tap and what it explained.
pub(crate) struct Http {
    sandbox: Arc<Sandbox>,
    tap: Tap,
    /// Whether the run takes the sandbox's choice that an order id is refused when sent
    /// again (RULES.md R3).
    same_order_safe: bool,
    explained: Arc<Mutex<Vec<String>>>,
    stop: mpsc::Sender<()>,
    thread: Option<JoinHandle<()>>,
}

impl Http {
    /// Starts the sandbox, tapped and explaining; `same_order_safe` when the run takes the
    /// sandbox's choices.
    pub(crate) fn start(same_order_safe: bool) -> Result<Self, Failure> {
        let tap = Tap::default();
        let explained = Arc::new(Mutex::new(Vec::new()));
        let builder = Sandbox::builder().gateway_only().tap(tap.clone()).explain({
            let explained = Arc::clone(&explained);
            move |line| {
                let mut kept = lock(&explained);
                if kept.len() < MAX_SAID {
                    kept.push(line.to_owned());
                }
            }
        });
        let (ready, started) = mpsc::channel();
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build();
            let Ok(runtime) = runtime else {
                let _ = ready.send(Err("cannot start tokio".to_owned()));
                return;
            };
            runtime.block_on(async move {
                match builder.start().await {
                    Ok(sandbox) => {
                        let _ = ready.send(Ok(Arc::new(sandbox)));
                        // Serves until the harness is done (or gone).
                        let _ = tokio::task::spawn_blocking(move || stopped.recv()).await;
                    }
                    Err(error) => {
                        let _ = ready.send(Err(error.to_string()));
                    }
                }
            });
        });
        let sandbox = started
            .recv()
            .map_err(|_| "the sandbox's thread ended".to_owned())
            .and_then(|started| started)
            .map_err(|reason| Failure::failed(format!("cannot start the sandbox: {reason}")))?;
        Ok(Self {
            sandbox,
            tap,
            same_order_safe,
            explained,
            stop,
            thread: Some(thread),
        })
    }

    /// The handshake: the sandbox's base URL and the merchant and partner the scenarios
    /// run as (sandbox credentials, public on purpose).
    pub(crate) fn hello(&self, protocol: u64, kit: &Value) -> Value {
        let config = self.sandbox.config();
        let merchant = config.merchant(DEFAULT_MERCHANT_ID).map(|merchant| {
            json!({
                "kind": "merchant",
                "id": merchant.member_id.as_str(),
                "secureKey": merchant.secure_key.expose_secret(),
                "username": merchant.username.as_str(),
                "partnerId": DEFAULT_PARTNER_ID,
                "accountId": merchant.account_id.as_ref().map(|id| id.as_str()),
                "terminalId": merchant.terminal_id.as_ref().map(|id| id.as_str()),
            })
        });
        let partner = config.partner(DEFAULT_PARTNER_ID).map(|partner| {
            json!({
                "kind": "partner",
                "id": partner.partner_id.as_str(),
                "secureKey": partner.secure_key.expose_secret(),
                "username": partner.username.as_str(),
            })
        });
        json!({
            "type": "hello",
            "protocol": protocol,
            "kit": kit,
            "mode": "http",
            "baseUrl": self.sandbox.base_url(),
            "requestTimeoutMs": REQUEST_TIMEOUT_MS,
            "merchant": merchant,
            "partner": partner,
        })
    }

    /// Runs `scenario`: each of its steps asked of the client by `ask` (a message
    /// `{"type": "step", "id", "step"}`, answered with its `outcome`), or taken by the
    /// harness; then judged. What a step takes (`{step.key}`) comes from an earlier step's
    /// outcome, or from the client's `greeting` (`{hello.listener}`, where its notifications
    /// go). What the sandbox received or explained before it is set aside.
    pub(crate) fn run(
        &self,
        scenario: &Value,
        greeting: &Value,
        mut ask: impl FnMut(&Value) -> Result<Value, Verdict>,
    ) -> Verdict {
        // What arrived before the scenario, kept or not, is not its.
        drop(self.tap.take());
        lock(&self.explained).clear();
        let mut outcomes = Map::new();
        outcomes.insert("hello".to_owned(), greeting.clone());
        // Every request of the scenario, in order, and what its faulted steps broke.
        let mut requests: Vec<Tapped> = Vec::new();
        let mut breaches = Vec::new();
        let performed = self.perform(
            scenario,
            &mut ask,
            &mut outcomes,
            &mut requests,
            &mut breaches,
        );
        // A fault no request took must not hit the next scenario.
        self.sandbox.clear_faults();
        if let Err(verdict) = performed {
            return verdict;
        }
        match self.judge(scenario, &outcomes, &requests, breaches) {
            Ok(()) => Verdict::Passed,
            Err(reason) => Verdict::Failed(reason),
        }
    }

    /// Performs the steps of `scenario`: the client's asked by `ask`, their outcomes kept
    /// by name in `outcomes`, the requests the sandbox received in `requests`, what a
    /// faulted step broke in `breaches`; the harness's own taken here.
    fn perform(
        &self,
        scenario: &Value,
        ask: &mut impl FnMut(&Value) -> Result<Value, Verdict>,
        outcomes: &mut Map<String, Value>,
        requests: &mut Vec<Tapped>,
        breaches: &mut Vec<String>,
    ) -> Result<(), Verdict> {
        for step in at(scenario, "/steps").as_array().into_iter().flatten() {
            if let Some(seconds) = at(step, "/advanceClock").as_u64() {
                if let Err(error) = self.sandbox.advance_clock(Duration::from_secs(seconds)) {
                    return Err(Verdict::Failed(format!(
                        "the harness cannot move the clock: {error}"
                    )));
                }
                continue;
            }
            let approve = taken(at(step, "/approveThreeDSecure"), outcomes);
            if let Some(payment_id) = approve.as_str() {
                if !self.sandbox.approve_three_d_secure(payment_id) {
                    let shown_id = shown(&approve);
                    return Err(Verdict::Failed(format!(
                        "the harness cannot approve the 3-D Secure payment {shown_id}: no such payment waits"
                    )));
                }
                continue;
            }
            let asked = filled(step, outcomes);
            let before = at(step, "/fault")
                .as_str()
                .map(|directives| self.fault(&asked, directives))
                .transpose()?;
            let message = json!({ "type": "step", "id": at(scenario, "/id"), "step": asked });
            let answer = ask(&message)?;
            let name = at(&asked, "/name").as_str().unwrap_or_default().to_owned();
            outcomes.insert(name.clone(), at(&answer, "/outcome").clone());
            let sent = self.tap.take().map_err(|full| {
                Verdict::Failed(format!("the client flooded the sandbox: {full}"))
            })?;
            let held = |requests: &[Tapped]| requests.iter().map(Tapped::size).sum::<usize>();
            if requests.len() + sent.len() > MAX_SCENARIO_REQUESTS
                || held(requests) + held(&sent) > TAP_BYTES
            {
                return Err(Verdict::Failed(format!(
                    "the client sent more than {MAX_SCENARIO_REQUESTS} requests or {} MiB in one scenario",
                    TAP_BYTES / (1024 * 1024)
                )));
            }
            let operation = at(&asked, "/operation").as_str().unwrap_or_default();
            if let Some(kind) = OperationKind::from_name(operation) {
                if !sent
                    .iter()
                    .any(|request| operation_of_tapped(request) == Some(kind))
                {
                    breaches.push(format!(
                        "step {name}: the client sent no {operation} request to the gateway"
                    ));
                }
            } else if operation == NOTIFICATION {
                self.notified(&asked, outcomes, &name, breaches);
            }
            if let Some(before) = before {
                let faulted = Faulted {
                    asked: &asked,
                    before: &before,
                    after: &self.sandbox.books(),
                    sent: &sent,
                    first: requests.len() + 1,
                    same_order_safe: self.same_order_safe,
                };
                faulted.judge(breaches);
            }
            requests.extend(sent);
        }
        Ok(())
    }

    /// Holds the notification step `asked` (named `name`) to the sandbox's own record: its
    /// notification of the step's payment answered `2xx` at the listener the client
    /// named, within [`NOTIFIED_WITHIN`].
    fn notified(
        &self,
        asked: &Value,
        outcomes: &Map<String, Value>,
        name: &str,
        breaches: &mut Vec<String>,
    ) {
        let payment_id = at(asked, "/fields")
            .as_array()
            .into_iter()
            .flatten()
            .find(|pair| at(pair, "/0") == "paymentId")
            .map_or(Value::Null, |pair| at(pair, "/1").clone());
        let listener = at(outcomes.get("hello").unwrap_or(&Value::Null), "/listener").clone();
        let deadline = std::time::Instant::now() + NOTIFIED_WITHIN;
        loop {
            let sent: Vec<_> = self
                .sandbox
                .notifications()
                .into_iter()
                .filter(|sent| Some(sent.payment_id.as_str()) == payment_id.as_str())
                .collect();
            if sent.iter().any(|sent| sent.delivered) {
                return;
            }
            if std::time::Instant::now() >= deadline {
                let attempts: Vec<String> = sent
                    .iter()
                    .flat_map(|sent| sent.attempts.iter().map(|attempt| format!("{attempt:?}")))
                    .collect();
                breaches.push(format!(
                    "step {name}: the sandbox's notification of payment {} was not answered 2xx at the listener {} (attempts: {})",
                    shown(&payment_id),
                    shown(&listener),
                    shown(&json!(attempts.join(", ")))
                ));
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Queues the kit's fault `directives` for the request of the step `asked`; the books
    /// before it.
    fn fault(&self, asked: &Value, directives: &str) -> Result<Vec<PaymentBooks>, Verdict> {
        let operation = at(asked, "/operation").as_str().unwrap_or_default();
        let target = FaultTarget::parse(operation);
        let faults = Faults::parse(directives);
        let (Ok(target), Ok(faults)) = (target, faults) else {
            return Err(Verdict::Failed(format!(
                "the harness cannot fault {} with {}",
                shown(&json!(operation)),
                shown(&json!(directives))
            )));
        };
        let before = self.sandbox.books();
        self.sandbox.fault_next(target, faults);
        Ok(before)
    }

    /// Whether the client's run of `scenario` holds: its requests to the rules, its
    /// `outcomes` to `expect`, the books to `books`; or why not, each breach named.
    fn judge(
        &self,
        scenario: &Value,
        outcomes: &Map<String, Value>,
        requests: &[Tapped],
        mut breaches: Vec<String>,
    ) -> Result<(), String> {
        for (number, request) in requests.iter().enumerate() {
            wire(number + 1, request, &mut breaches);
        }
        let steps = at(scenario, "/steps").as_array().into_iter().flatten();
        let faulted = steps.clone().any(|step| at(step, "/fault").is_string());
        let mut provoked: Vec<String> = at(scenario, "/provokes")
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|code| code.as_str().map(|code| format!("refused {code}:")))
            .collect();
        // The refusal of an order id sent again, which a run that takes the sandbox's
        // choice (R3) does not count against the client.
        if faulted && self.same_order_safe {
            provoked.push(format!("refused {}:", codes::DUPLICATE_TRANSACTION.code));
        }
        // Only a refusal counts: a note on a request the sandbox took breaks nothing.
        for line in lock(&self.explained).drain(..) {
            let refused = line.starts_with("refused ");
            if refused
                && !provoked
                    .iter()
                    .any(|prefix| line.starts_with(prefix.as_str()))
            {
                breaches.push(format!("the sandbox refused a request: {line}"));
            }
        }
        let books = self.sandbox.books();
        for step in steps {
            if at(step, "/operation").is_null() {
                continue; // the harness's own step
            }
            let name = at(step, "/name").as_str().unwrap_or_default();
            let outcome = outcomes.get(name).unwrap_or(&Value::Null);
            if outcome.is_null() {
                breaches.push(format!("step {name}: no outcome"));
                continue;
            }
            // A faulted step may end unknown, naming what to ask: the books are judged
            // by the charges (R1), not by an outcome it does not have.
            if at(step, "/fault").is_string() {
                let payment_id = taken(at(step, "/pathValues/paymentId"), outcomes);
                match lost::unknown(step, outcome, payment_id) {
                    Some(Ok(())) => continue,
                    Some(Err(breach)) => {
                        breaches.push(breach);
                        continue;
                    }
                    None => {}
                }
            }
            for (key, expected) in at(step, "/expect").as_object().into_iter().flatten() {
                let reached = at(outcome, &format!("/{key}"));
                if reached != expected {
                    breaches.push(format!(
                        "step {name}: {key} {}, expected {}",
                        shown(reached),
                        shown(expected)
                    ));
                }
            }
            if let Some(expected) = at(step, "/books").as_object() {
                let payment_id = at(outcome, "/paymentId").as_str();
                match books
                    .iter()
                    .find(|kept| Some(kept.payment_id.as_str()) == payment_id)
                {
                    None if payment_id.is_none() => {
                        breaches.push(format!("step {name}: no paymentId to find in the books"));
                    }
                    None => breaches.push(format!(
                        "step {name}: the books hold no payment {}",
                        shown(at(outcome, "/paymentId"))
                    )),
                    Some(kept) => {
                        let held = held(kept);
                        for (key, value) in expected {
                            if at(&held, &format!("/{key}")) != value {
                                breaches.push(format!(
                                    "step {name}: the books' {key} {}, expected {}",
                                    shown(at(&held, &format!("/{key}"))),
                                    shown(value)
                                ));
                            }
                        }
                    }
                }
            }
        }
        if breaches.len() > MAX_SAID {
            let more = breaches.len() - MAX_SAID;
            breaches.truncate(MAX_SAID);
            breaches.push(format!("and {more} more"));
        }
        if breaches.is_empty() {
            Ok(())
        } else {
            Err(breaches.join("; "))
        }
    }

    /// Stops the sandbox and its thread.
    pub(crate) fn finish(mut self) {
        let _ = self.stop.send(());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The step as the client is asked it: its name, operation, fields and path values, what
/// they take from earlier `outcomes` filled in.
fn filled(step: &Value, outcomes: &Map<String, Value>) -> Value {
    let resolve = |value: &Value| taken(value, outcomes);
    let fields: Vec<Value> = at(step, "/fields")
        .as_array()
        .into_iter()
        .flatten()
        .map(|pair| json!([at(pair, "/0"), resolve(at(pair, "/1"))]))
        .collect();
    let path: Map<String, Value> = at(step, "/pathValues")
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, value)| (name.clone(), resolve(value)))
        .collect();
    json!({
        "name": at(step, "/name"),
        "operation": at(step, "/operation"),
        "fields": fields,
        "pathValues": path,
    })
}

/// `value`, or what it refers to: `{step.key}` is the text `key` of the outcome of the
/// earlier step `step` (empty when it has none).
fn taken(value: &Value, outcomes: &Map<String, Value>) -> Value {
    let reference = value
        .as_str()
        .and_then(|text| text.strip_prefix('{')?.strip_suffix('}')?.split_once('.'));
    match reference {
        Some((step, key)) => {
            let outcome = outcomes.get(step).unwrap_or(&Value::Null);
            json!(at(outcome, &format!("/{key}")).as_str().unwrap_or_default())
        }
        None => value.clone(),
    }
}

/// What the books hold of a payment, in a scenario's words.
fn held(kept: &PaymentBooks) -> Value {
    json!({
        "approved": kept.approved,
        "captured": kept.captured.map(|amount| amount.to_string()),
        "refunded": kept.refunded.to_string(),
        "cancelled": kept.cancelled,
    })
}

/// The operation a tapped request is, as the path and form the harness saw tell it.
fn operation_of_tapped(request: &Tapped) -> Option<OperationKind> {
    operation_of(&request.path, &request.body).and_then(OperationKind::from_name)
}

/// The rules a sandbox leaves to the client (RULES.md Q1 to Q3, Q5), held for the request
/// numbered `number` of the scenario: what breaks one is named, never a value.
fn wire(number: usize, request: &Tapped, breaches: &mut Vec<String>) {
    let operation = operation_of_tapped(request);
    let what = operation.map_or("a request to no operation", |kind| kind.name());
    let mut breach = |rule: &str, broken: String| {
        breaches.push(format!("request {number} ({what}): {broken} ({rule})"));
    };
    if operation.is_none() {
        breach(
            "Q5",
            format!(
                "{} {} is not the gateway's (the harness drives the sandbox; a client reaches the gateway's paths only)",
                shown(&json!(request.method)),
                shown(&json!(request.path))
            ),
        );
    }
    for (name, _) in &request.headers {
        if name.to_ascii_lowercase().starts_with(SANDBOX_HEADERS) {
            breach(
                "Q5",
                format!(
                    "the sandbox's own header {} (a client sends the gateway's headers only)",
                    shown(&json!(name))
                ),
            );
        }
    }
    if request.method != "POST" {
        breach(
            "Q1",
            format!("method {}, not POST", shown(&json!(request.method))),
        );
    }
    if request.query.is_some() {
        breach("Q2", "a query string; the fields go in the body".to_owned());
    }
    let header = |name: &str| {
        request
            .headers
            .iter()
            .find(|(sent, _)| sent.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    };
    let media_type = header("content-type")
        .and_then(|value| value.split(';').next())
        .map(|essence| essence.trim().to_ascii_lowercase());
    if media_type.as_deref() != Some(FORM_CONTENT_TYPE) {
        let sent = shown(&json!(media_type));
        breach(
            "Q3",
            format!("content type {sent}, not {FORM_CONTENT_TYPE}"),
        );
    }
    let wants_token = operation.is_none_or(OperationKind::sends_auth_token);
    if wants_token && header(AUTH_TOKEN_HEADER).is_none_or(|token| token.trim().is_empty()) {
        breach("Q3", format!("no {AUTH_TOKEN_HEADER} header"));
    }
    let mut names: Vec<String> = Vec::new();
    for pair in paytoken::types::internal::decode(&request.body) {
        match pair {
            Ok((name, _)) if names.contains(&name.to_string()) => {
                breach(
                    "Q2",
                    format!("the field {} sent twice", shown(&json!(name))),
                );
            }
            Ok((name, _)) => names.push(name.into_owned()),
            Err(_) => {
                breach("Q2", "a body that does not decode as a form".to_owned());
                break;
            }
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A line is pushed whole or not at all: a poison means nothing.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
