//! Lost answers in `paytoken conform --http` (RULES.md R1 to R3): the kit's fault scenarios
//! run once per fault, and what the client did about its faulted step is judged from the
//! sandbox's books and tap: no order charged twice (R1), no money-moving request sent again
//! before an inquiry (R2; the same merchant transaction id again is safe only where the
//! gateway refuses a reused one, as the sandbox does, R3), and an outcome that is the books'
//! truth or unknown with the id to ask about.

use paytoken::types::Amount;
use paytoken::types::internal::decode;
use paytoken_sandbox::PaymentBooks;
use paytoken_sandbox::internal::operation_of;
use paytoken_sandbox::tap::Tapped;
use serde_json::{Value, json};

use super::at;
use super::shown::shown;

/// The field that names an order.
const ORDER: &str = "merchantTransactionId";

/// The kit's scenarios, each with a faulted step (`"fault": true`) run once per fault of the
/// kit's `faults`: its id followed by `/name`, the step's `fault` the fault's directives,
/// and `{fault}` in its values the fault's name, so that each run's orders are its own.
pub(crate) fn expand(kit: &Value, scenarios: &[Value]) -> Vec<Value> {
    let faults = at(kit, "/faults").as_object();
    let mut all = Vec::new();
    for scenario in scenarios {
        let steps = at(scenario, "/steps").as_array().into_iter().flatten();
        if !steps.clone().any(|step| at(step, "/fault") == true) {
            all.push(scenario.clone());
            continue;
        }
        for (name, directives) in faults.into_iter().flatten() {
            let mut run = named(scenario, name);
            for step in run
                .pointer_mut("/steps")
                .and_then(Value::as_array_mut)
                .into_iter()
                .flatten()
            {
                if let Some(fault) = step.get_mut("fault").filter(|fault| **fault == true) {
                    *fault = directives.clone();
                }
            }
            if let (Some(id), Some(run)) = (at(scenario, "/id").as_str(), run.as_object_mut()) {
                run.insert("id".to_owned(), json!(format!("{id}/{name}")));
            }
            all.push(run);
        }
    }
    all
}

/// `value` with `{fault}` in each text replaced by `name`.
fn named(value: &Value, name: &str) -> Value {
    match value {
        Value::String(text) => json!(text.replace("{fault}", name)),
        Value::Array(items) => items.iter().map(|item| named(item, name)).collect(),
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(key, item)| (key.clone(), named(item, name)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The faulted step `asked` (its `fields` and `pathValues` filled in), as it happened: the
/// books before and after it, and the requests the sandbox received during it, the first
/// numbered `first` in the scenario. Its breaches of R1 to R3 go to `breaches`;
/// `same_order_safe` says whether the run takes the sandbox's choice that a reused order id
/// is refused (R3).
pub(crate) struct Faulted<'a> {
    pub(crate) asked: &'a Value,
    pub(crate) before: &'a [PaymentBooks],
    pub(crate) after: &'a [PaymentBooks],
    pub(crate) sent: &'a [Tapped],
    pub(crate) first: usize,
    pub(crate) same_order_safe: bool,
}

impl Faulted<'_> {
    pub(crate) fn judge(&self, breaches: &mut Vec<String>) {
        self.charges(breaches);
        self.repeats(breaches);
    }

    /// R1: one charge for the step's order: one new payment, or one refund's amount.
    fn charges(&self, breaches: &mut Vec<String>) {
        let operation = at(self.asked, "/operation").as_str().unwrap_or_default();
        let field = |name: &str| field_of(self.asked, name);
        if let Some(payment_id) = at(self.asked, "/pathValues/paymentId").as_str()
            && matches!(operation, "capture" | "refund")
        {
            let moved = |books: &[PaymentBooks]| {
                let kept = books.iter().find(|kept| kept.payment_id == payment_id);
                let amount = kept.and_then(|kept| match operation {
                    "capture" => kept.captured,
                    _ => Some(kept.refunded),
                });
                amount.unwrap_or(Amount::ZERO)
            };
            let moved = moved(self.after).checked_sub(moved(self.before));
            let asked: Option<Amount> = field("amount").and_then(|amount| amount.parse().ok());
            if let (Some(moved), Some(asked)) = (moved, asked)
                && moved > asked
            {
                breaches.push(format!(
                    "payment {} moved {moved} by {operation} for one {operation} of {asked} (R1)",
                    shown(&json!(payment_id)),
                ));
            }
            return;
        }
        let made: Vec<&str> = self
            .after
            .iter()
            .filter(|kept| kept.approved)
            .filter(|kept| {
                !self
                    .before
                    .iter()
                    .any(|old| old.payment_id == kept.payment_id)
            })
            .map(|kept| kept.payment_id.as_str())
            .collect();
        if made.len() > 1 {
            let times = match made.len() {
                2 => "twice".to_owned(),
                count => format!("{count} times"),
            };
            breaches.push(format!(
                "order {} charged {times}: payments {} (R1)",
                shown(&json!(field(ORDER).unwrap_or_default())),
                made.join(", ")
            ));
        }
    }

    /// R2 and R3: the step's request sent again only after an inquiry (or, where the run
    /// takes the sandbox's choice, with the same order id).
    fn repeats(&self, breaches: &mut Vec<String>) {
        let operation = at(self.asked, "/operation").as_str().unwrap_or_default();
        let kind = |request: &Tapped| operation_of(&request.path, &request.body);
        let mut first_order = None;
        let mut inquired = false;
        let mut sent_before = false;
        for (offset, request) in self.sent.iter().enumerate() {
            match kind(request) {
                Some("inquiry") => inquired = true,
                Some(name) if name == operation => {
                    let order = order_of(request);
                    if !sent_before {
                        sent_before = true;
                        first_order = order;
                        continue;
                    }
                    let same_order = order.is_some() && order == first_order;
                    let safe = inquired || (same_order && self.same_order_safe);
                    if !safe {
                        let how = if same_order {
                            "with the same merchantTransactionId: safe only where the gateway refuses a reused one, which the specification does not promise (R2, R3)"
                        } else if order.is_some() {
                            "with another merchantTransactionId (R2)"
                        } else {
                            "(R2)"
                        };
                        breaches.push(format!(
                            "request {} ({operation}): sent again before an inquiry {how}",
                            self.first + offset
                        ));
                    }
                }
                _ => {}
            }
        }
    }
}

/// The merchant transaction id a request sends.
fn order_of(request: &Tapped) -> Option<String> {
    decode(&request.body)
        .filter_map(Result::ok)
        .find(|(name, _)| name == ORDER)
        .map(|(_, value)| value.into_owned())
}

/// The value of the field `name` the step sends.
fn field_of<'v>(step: &'v Value, name: &str) -> Option<&'v str> {
    at(step, "/fields")
        .as_array()
        .into_iter()
        .flatten()
        .find(|pair| at(pair, "/0") == name)
        .and_then(|pair| at(pair, "/1").as_str())
}

/// Whether `outcome` of the faulted step `step` is unknown (an error that may have been
/// processed), and then whether its `inquire` names the id to ask about: the order id the
/// step sends, or `payment_id`, the one its path holds. `None` when the outcome is not
/// unknown.
pub(crate) fn unknown(
    step: &Value,
    outcome: &Value,
    payment_id: Value,
) -> Option<Result<(), String>> {
    if at(outcome, "/outcome") != "error" || at(outcome, "/mayHaveBeenProcessed") != true {
        return None;
    }
    let name = at(step, "/name").as_str().unwrap_or_default();
    let (key, id) = match field_of(step, ORDER) {
        Some(order) => (ORDER, json!(order)),
        None => ("paymentId", payment_id),
    };
    let named = at(outcome, &format!("/inquire/{key}"));
    Some(if *named == id {
        Ok(())
    } else {
        Err(format!(
            "step {name}: an unknown outcome whose inquire.{key} is {}, not {}",
            shown(named),
            shown(&id)
        ))
    })
}
