//! Where each vector's fact comes from, and how binding it is: the `source` and `level` of
//! every request, answer and notification vector of the conformance kit.
//!
//! Sources: `specification` (the interface specification, with its section), `platform-docs`
//! (the platform's own documentation beyond it), `platform-observed` (what deployments of
//! the interface were seen to send), `sandbox-choice` (paytoken's own choice where the
//! platform leaves a fact open: its sandbox answers so and its client reads so). Levels:
//! `must` (a client does exactly this, or reaches exactly this verdict), `tolerate` (a client
//! reads this variant to the same verdict, without failing), `optional` (a client may do
//! it; nothing depends on it).

use serde_json::{Value, json};

fn specification(section: &str, level: &'static str) -> (Value, &'static str) {
    (
        json!({ "kind": "specification", "section": section }),
        level,
    )
}

fn other(kind: &str, level: &'static str, note: &str) -> (Value, &'static str) {
    let mut source = json!({ "kind": kind });
    if !note.is_empty() {
        source["note"] = note.into();
    }
    (source, level)
}

/// Adds `source` and `level` to `vector`.
pub(crate) fn with(mut vector: Value, (source, level): (Value, &'static str)) -> Value {
    vector["source"] = source;
    vector["level"] = level.into();
    vector
}

/// The specification's endpoint section of an operation it describes, by its one name.
fn endpoint(operation: &str) -> Option<&'static str> {
    Some(match operation {
        "customer_signup" => "Endpoints, 1. Customer sign-up; Authentication",
        "pay" => "Endpoints, 2. Payment, optionally storing the data; Authentication",
        "register" => "Endpoints, 3. Stand-alone registration; Authentication",
        "delete_token" => "Endpoints, 5. Delete stored data; Authentication",
        "installments" => "Endpoints, 6. Installments for a token; Authentication",
        "cards_and_accounts" => "Endpoints, 7. List of registrations; Authentication",
        _ => return None,
    })
}

/// A request vector's: the specification's where it gives the operation's fields and
/// checksum for this kind of caller.
pub(crate) fn request(operation: &str, partner: bool) -> (Value, &'static str) {
    let partner_in_specification = matches!(operation, "customer_signup" | "cards_and_accounts");
    match (operation, endpoint(operation)) {
        ("invoices", _) => other(
            "platform-observed",
            "optional",
            "the specification shows the invoice request without a checksum; some gateways ask for memberId|secureKey",
        ),
        ("pay_with_token", _) => other(
            "platform-docs",
            "must",
            "the specification gives the checksum of a payment with stored data, not its fields",
        ),
        (_, Some(section)) if !partner || partner_in_specification => {
            specification(section, "must")
        }
        (_, Some(_)) => other(
            "platform-docs",
            "must",
            "a partner signs with its partner id and its own secure key",
        ),
        _ => other("platform-docs", "must", ""),
    }
}

/// A base answer vector's, by operation and fixture.
fn answer_fixture(operation: &str, fixture: &str) -> (Value, &'static str) {
    let success = |code: &str, response: &str| {
        specification(
            &format!("Errors (success code {code}); Resources and their fields, {response}"),
            "must",
        )
    };
    match (operation, fixture) {
        ("payment", "approved") => success("00001", "Payment response"),
        ("token_payment", "approved") => success("00001", "Stored-data payment response"),
        ("registration", "card" | "bank_account") => success("00002", "Registration response"),
        ("delete_token", "success") => success("00003", "Delete response"),
        ("customer_signup", "success" | "success_partner") => {
            success("00007", "Customer sign-up response")
        }
        ("cards_and_accounts", "success") => success("0008", "Cards-and-accounts response"),
        ("installments", "success") => {
            specification("Resources and their fields, Installment response", "must")
        }
        ("invoice_list", "position_map") => {
            specification("Resources and their fields, Invoice list response", "must")
        }
        (_, "bad_gateway_502" | "truncated" | "malformed_counts") => other(
            "platform-observed",
            "must",
            "a proxy's page, a cut body, a value that does not read: the request may have been processed",
        ),
        (_, joined) if joined.contains("joined") || joined == "refused_validation" => other(
            "platform-docs",
            "tolerate",
            "several codes joined with |: the family of the first decides; the codes are the sandbox's",
        ),
        (_, "not_found" | "no_plan" | "no_records") => refusal(),
        (_, refused) if refused.starts_with("refused") && !refused.contains("joined") => refusal(),
        (
            _,
            "approved_varied"
            | "three_d_secure_single_parameter"
            | "single_count"
            | "empty"
            | "array"
            | "single_object"
            | "no_status"
            | "approved_own_id_and_authorised_amount"
            | "single_card_partner",
        ) => other("platform-observed", "tolerate", ""),
        ("inquiry", "long_status_unknown") => other(
            "sandbox-choice",
            "must",
            "paytoken's reading: a long status the platform's documentation does not name is no reason to ship; the payment's status is unknown",
        ),
        ("cards_and_accounts", "no_registrations") => other(
            "platform-docs",
            "tolerate",
            "the documentation's words for a list with no registrations; its code is not public",
        ),
        _ => other("platform-docs", "must", ""),
    }
}

fn refusal() -> (Value, &'static str) {
    other(
        "sandbox-choice",
        "must",
        "the refusal is the platform's, by the code's family (2xxxx, 3xxxx, 9xxxx); the code itself is the sandbox's: do not match on it",
    )
}

/// An answer vector's, by its id (`answer/{operation}/{fixture}[/{variant}]`).
pub(crate) fn answer(id: &str) -> (Value, &'static str) {
    let mut parts = id.split('/').skip(1);
    let (operation, fixture) = (parts.next().unwrap(), parts.next().unwrap());
    match parts.next() {
        None => answer_fixture(operation, fixture),
        Some(variant) if variant.contains("-as-") => other(
            "platform-observed",
            "tolerate",
            "an echo in another form that means the same",
        ),
        Some(_) => other(
            "sandbox-choice",
            "must",
            "paytoken's reading: an echo that contradicts the request means the answer is about another transaction, whose verdict must not be taken for this one's",
        ),
    }
}

/// A notification vector's, by its name. The specification describes no notification.
pub(crate) fn notification(name: &str) -> (Value, &'static str) {
    match name {
        "amount-as-json-number"
        | "long-status-signed"
        | "pending-bank-transfer"
        | "no-transaction-status" => other("platform-observed", "tolerate", ""),
        "signed-form-field-repeated" | "signed-key-padded-and-repeated" => other(
            "sandbox-choice",
            "must",
            "paytoken's rule: a signed field that appears twice is refused, whatever the checksum",
        ),
        _ => other("platform-docs", "must", ""),
    }
}
