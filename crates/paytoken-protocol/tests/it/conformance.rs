//! The request, answer and notification vectors of the conformance kit
//! (`fixtures/conformance/`), made here from what this crate's own tests hold: the golden
//! requests, the answer fixtures with the verdicts the parsers give them, and notifications
//! verified by the code. A vector file that differs from what these tests make fails the
//! test; `PAYTOKEN_WRITE_CONFORMANCE=1 cargo test -p paytoken-protocol --test it conformance`
//! writes them after a deliberate change (then read the diff).
//!
//! Every vector is checked on the way: a request's checksum is rebuilt from the rule table
//! and its named values by the second MD5 implementation, so a vector cannot name values
//! its checksum was not made of.

use crate::common::{self, Asked};
use crate::provenance;

use std::collections::BTreeMap;
use std::path::PathBuf;

use md5_oracle as md5;
use paytoken_checksum::SecureKey;
use paytoken_protocol::notification::Notification;
use paytoken_protocol::{Error, Operation, OperationKind, Request, Transaction};
use serde_json::{Map, Value, json};

fn conformance() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/conformance")
}

/// Compares `fixtures/conformance/{file}` with `made`, or writes it when asked to.
fn holds(file: &str, made: &Value) {
    let path = conformance().join(file);
    let expected = serde_json::to_string_pretty(made).unwrap() + "\n";
    if std::env::var_os("PAYTOKEN_WRITE_CONFORMANCE").is_some() {
        std::fs::write(&path, &expected).unwrap();
    }
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        written == expected,
        "fixtures/conformance/{file} is not what the tests make: PAYTOKEN_WRITE_CONFORMANCE=1 cargo test -p paytoken-protocol --test it conformance writes it"
    );
}

/// The kit's version and the fingerprint of the interface specification it follows, as
/// the rule table holds them: in every file of the kit.
fn kit() -> Value {
    let text = std::fs::read_to_string(conformance().join("checksum-rules.json")).unwrap();
    serde_json::from_str::<Value>(&text).unwrap()["kit"].clone()
}

/// The checksum rules' table: rule name to its parts, and the separator.
fn rule_table() -> (BTreeMap<String, Vec<String>>, String) {
    let text = std::fs::read_to_string(conformance().join("checksum-rules.json")).unwrap();
    let table: Value = serde_json::from_str(&text).unwrap();
    let rules = table["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| {
            let parts = rule["joined"].as_array().unwrap().iter();
            (
                rule["rule"].as_str().unwrap().to_owned(),
                parts
                    .map(|part| part.as_str().unwrap().to_owned())
                    .collect(),
            )
        })
        .collect();
    (rules, table["separator"].as_str().unwrap().to_owned())
}

/// A card number as the vectors show it: its first six and last four digits.
fn masked_card(number: &str) -> String {
    let head = if number.len() >= 16 { &number[..6] } else { "" };
    let stars = "*".repeat(number.len() - head.len() - 4);
    format!("{head}{stars}{}", &number[number.len() - 4..])
}

// ---------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------

/// The caller a golden request was built for, as the context of `common` holds it.
fn caller(name: &str) -> Value {
    if name.contains("partner") {
        json!({
            "kind": "partner",
            "id": "100",
            "secureKey": common::PARTNER_KEY,
            "authToken": common::TOKEN,
        })
    } else {
        json!({
            "kind": "merchant",
            "id": "11344",
            "secureKey": common::SECURE_KEY,
            "authToken": common::TOKEN,
            "terminalId": "2541",
            "accountId": "5521",
        })
    }
}

/// Paths that end with an id, and the name of the id by operation.
const ID_PATHS: &[&str] = &[
    "/transactionServices/REST/v1/payments/",
    "/transactionServices/REST/v1/paywithtoken/",
    "/transactionServices/REST/v1/getInstallmentWithToken/",
];

/// The form's fields, decoded, in the order sent.
fn form(request: &Request) -> Vec<(String, String)> {
    serde_urlencoded::from_bytes(request.body()).unwrap()
}

fn field<'a>(form: &'a [(String, String)], name: &str) -> Option<&'a str> {
    form.iter()
        .find(|(field, _)| field == name)
        .map(|(_, value)| value.as_str())
}

/// The path as a template and the id it ends with, named.
fn path_of(request: &Request, form: &[(String, String)]) -> (String, Map<String, Value>) {
    let path = request.path();
    let mut values = Map::new();
    let Some(prefix) = ID_PATHS.iter().find(|prefix| path.starts_with(**prefix)) else {
        return (path.to_owned(), values);
    };
    let segment = &path[prefix.len()..];
    let name = match request.operation() {
        OperationKind::TokenPayment | OperationKind::DeleteToken | OperationKind::Installments => {
            "registrationId"
        }
        _ if field(form, "idType") == Some("MID") => "merchantTransactionId",
        _ => "paymentId",
    };
    // A path segment has no `+`: every byte but the unreserved ones is `%XX`.
    let decoded: Vec<(String, String)> =
        serde_urlencoded::from_str(&format!("v={segment}")).unwrap();
    values.insert(name.to_owned(), json!(decoded[0].1));
    (format!("{prefix}{{{name}}}"), values)
}

/// The checksum rule a request is signed by, or none (the auth-token calls).
fn rule_of(request: &Request, form: &[(String, String)]) -> Option<&'static str> {
    Some(match request.operation() {
        OperationKind::Payment => "payment",
        OperationKind::Registration if field(form, "card.number").is_some() => "card_registration",
        OperationKind::Registration => "bank_account_registration",
        OperationKind::TokenPayment => "token_payment",
        OperationKind::DeleteToken => "delete_token",
        OperationKind::Installments => "installments",
        OperationKind::CardsAndAccounts => "cards_and_accounts",
        OperationKind::InvoiceList => "invoice_list",
        OperationKind::CustomerSignup => "customer_signup",
        OperationKind::Inquiry if field(form, "idType") == Some("MID") => {
            "inquiry_by_merchant_transaction_id"
        }
        OperationKind::Inquiry => "inquiry_by_payment_id",
        OperationKind::Capture => "capture",
        OperationKind::Refund => "refund",
        OperationKind::Cancel => "cancel",
        OperationKind::RepeatPayment => "repeat_payment",
        _ => return None,
    })
}

/// The checksum of a request: its rule, each part's value (from the form or the path), the
/// joined text with the key masked, and the checksum sent, checked against MD5 of the
/// joined text rebuilt from the table (`rule_table()`, read once by the caller).
fn checksum_of(
    (rules, separator): &(BTreeMap<String, Vec<String>>, String),
    name: &str,
    rule: &str,
    caller: &Value,
    form: &[(String, String)],
    path_values: &Map<String, Value>,
) -> Value {
    let parts = &rules[rule];
    let mut values = Map::new();
    let (mut plain, mut masked) = (Vec::new(), Vec::new());
    for part in parts {
        let (value, shown) = match part.as_str() {
            "id" => {
                let id = caller["id"].as_str().unwrap().to_owned();
                (id.clone(), id)
            }
            "key" => (
                caller["secureKey"].as_str().unwrap().to_owned(),
                "***".into(),
            ),
            part => {
                let value = field(form, part)
                    .map(str::to_owned)
                    .or_else(|| path_values[part].as_str().map(str::to_owned))
                    .unwrap_or_else(|| panic!("{name}: no value for {part}"));
                values.insert(part.to_owned(), json!(value));
                let shown = if part == "card.number" {
                    masked_card(&value)
                } else {
                    value.clone()
                };
                (value, shown)
            }
        };
        plain.push(value);
        masked.push(shown);
    }
    let sent = field(form, "authentication.checksum").unwrap();
    assert_eq!(
        format!("{:x}", md5::compute(plain.join(separator).as_bytes())),
        sent,
        "{name}: the table's {rule} does not make the checksum sent"
    );
    json!({
        "rule": rule,
        "values": values,
        "joinedMasked": masked.join(separator),
        "checksum": sent,
    })
}

/// The golden requests, and each operation the golden files show only for a merchant
/// built for a partner too (`..._as_partner`): every operation with each kind of caller.
/// The auth-token calls are left out: a partner's is golden already, and regenerating
/// does not depend on the caller.
fn requests() -> Vec<(String, Request)> {
    let mut all: Vec<(String, Request)> = common::golden_requests()
        .into_iter()
        .map(|(name, request)| (name.to_owned(), request))
        .collect();
    let partner = common::partner();
    let golden_for_partner: Vec<&str> = all
        .iter()
        .filter(|(name, _)| name.contains("partner"))
        .map(|(_, request)| request.operation().name())
        .collect();
    let mut extra = Vec::new();
    for (name, request) in common::requests_in(&partner, &partner) {
        let operation = request.operation();
        if name.contains("partner")
            || golden_for_partner.contains(&operation.name())
            || !operation.sends_auth_token()
        {
            continue;
        }
        extra.push((format!("{name}_as_partner"), request));
    }
    all.extend(extra);
    all
}

fn request_vectors() -> Value {
    let table = rule_table();
    let vectors: Vec<Value> = requests()
        .into_iter()
        .map(|(name, request)| {
            let name = name.as_str();
            let caller = caller(name);
            let form = form(&request);
            let (template, path_values) = path_of(&request, &form);
            let checksum = rule_of(&request, &form)
                .map(|rule| checksum_of(&table, name, rule, &caller, &form, &path_values));
            let headers: Vec<Value> = request
                .headers()
                .iter()
                .map(|header| json!([header.name(), header.value()]))
                .collect();
            let header_rules = provenance::header_rules(request.operation().name(), &headers);
            let vector = json!({
                "id": format!("request/{name}"),
                "operation": request.operation().name(),
                "caller": caller,
                "pathTemplate": template,
                "pathValues": path_values,
                "form": form.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
                "checksum": checksum,
                "method": request.method().as_str(),
                "path": request.path(),
                "headers": headers,
                "headerRules": header_rules,
                "body": std::str::from_utf8(request.body()).unwrap(),
            });
            let provenance = provenance::request(&vector);
            provenance::with(vector, provenance)
        })
        .collect();
    let mut vectors = vectors;
    vectors.push(unsigned_invoice_list(&vectors));
    json!({
        "kit": kit(),
        "about": "Request vectors: for each operation and kind of caller, the caller, the form's fields in the order sent (decoded), the id the path ends with, the checksum (its rule, the value of each part, the joined text with the key as ***, the checksum sent), and the exact method, path, headers and body. Made from paytoken's golden requests (fixtures/requests/), and the same operations built for a partner where the golden files show a merchant only (ids ending _as_partner).",
        "vectors": vectors,
    })
}

/// The invoice request as the specification shows it, without a checksum (paytoken signs
/// it, as some gateways ask; the sandbox, as the platform, checks none): the signed
/// vector with the checksum taken out of its form and body.
fn unsigned_invoice_list(vectors: &[Value]) -> Value {
    let signed = vectors
        .iter()
        .find(|vector| vector["id"] == "request/invoice_list")
        .unwrap();
    let mut vector = signed.clone();
    let checksum = signed["checksum"]["checksum"].as_str().unwrap();
    vector["id"] = json!("request/invoice_list_unsigned");
    vector["checksum"] = Value::Null;
    vector["form"]
        .as_array_mut()
        .unwrap()
        .retain(|pair| pair[0] != "authentication.checksum");
    let body = signed["body"]
        .as_str()
        .unwrap()
        .replace(&format!("&authentication.checksum={checksum}"), "");
    vector["body"] = json!(body);
    let provenance = provenance::request(&vector);
    provenance::with(vector, provenance)
}

#[test]
fn the_request_vectors_are_the_golden_requests() {
    let vectors = request_vectors();
    let operations: std::collections::BTreeSet<&str> = vectors["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|vector| vector["operation"].as_str().unwrap())
        .collect();
    assert_eq!(operations.len(), 15, "every operation: {operations:?}");
    // Each operation that takes a caller's credentials, with each kind of caller.
    for operation in &operations {
        for kind in ["merchant", "partner"] {
            assert!(
                vectors["vectors"].as_array().unwrap().iter().any(|vector| {
                    vector["operation"] == *operation && vector["caller"]["kind"] == kind
                }) || *operation == "regenerate_auth_token",
                "no {operation} vector for a {kind}"
            );
        }
    }
    holds("request-vectors.json", &vectors);
}

// ---------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------

/// What an answer's reader must decide, as data: the outcome, the ids and codes, or the
/// refusal or error and whether the request may have been processed.
fn verdict(asked: &Asked, status: u16, body: &[u8]) -> Value {
    fn decided<R>(result: Result<R, Error>, decide: impl Fn(&R) -> Value) -> Value {
        match result {
            Ok(response) => {
                let mut verdict = json!({ "outcome": "ok" });
                verdict
                    .as_object_mut()
                    .unwrap()
                    .extend(decide(&response).as_object().unwrap().clone());
                verdict
            }
            Err(error) => match error.refusal() {
                Some(refusal) => json!({
                    "outcome": "refused",
                    "resultCode": refusal.result.code.as_str(),
                    "mayHaveBeenProcessed": error.may_have_been_processed(),
                }),
                None => json!({
                    "outcome": "error",
                    "error": match error {
                        Error::Contradiction { .. } => "contradiction",
                        Error::Undecodable { .. } => "undecodable",
                        Error::UnexpectedStatus { .. } => "unexpected_status",
                        ref other => panic!("an answer's error: {other:?}"),
                    },
                    "mayHaveBeenProcessed": error.may_have_been_processed(),
                }),
            },
        }
    }
    let code = |code: &paytoken_types::ResultCode| json!(code.as_str());
    match asked {
        Asked::Payment(op) => decided(op.parse(status, body), transaction),
        Asked::TokenPayment(op) => decided(op.parse(status, body), transaction),
        Asked::Inquiry(op) => decided(op.parse(status, body), transaction),
        Asked::Capture(op) => decided(op.parse(status, body), transaction),
        Asked::Refund(op) => decided(op.parse(status, body), transaction),
        Asked::Cancel(op) => decided(op.parse(status, body), transaction),
        Asked::RepeatPayment(op) => decided(op.parse(status, body), transaction),
        Asked::Registration(op) => decided(
            op.parse(status, body),
            |r| json!({ "registrationId": r.registration_id.as_str(), "resultCode": code(&r.result.code) }),
        ),
        Asked::CustomerSignup(op) => decided(
            op.parse(status, body),
            |r| json!({ "customerId": r.customer_id.to_string(), "resultCode": code(&r.result.code) }),
        ),
        Asked::DeleteToken(op) => decided(
            op.parse(status, body),
            |r| json!({ "resultCode": code(&r.result.code) }),
        ),
        Asked::Installments(op) => decided(
            op.parse(status, body),
            |r| json!({ "installmentCounts": r.counts }),
        ),
        Asked::CardsAndAccounts(op) => decided(op.parse(status, body), |r| {
            json!({
                "resultCode": code(&r.result.code),
                "cards": r.cards.len(),
                "bankAccounts": r.bank_accounts.len(),
            })
        }),
        Asked::InvoiceList(op) => decided(op.parse(status, body), |r| {
            json!({
                "resultCode": r.result.as_ref().map(|result| result.code.as_str()),
                "invoices": r.invoices.len(),
            })
        }),
        Asked::FetchAuthToken(op) => decided(
            op.parse(status, body),
            |r| json!({ "authToken": r.token.expose_secret(), "resultCode": code(&r.result.code) }),
        ),
        Asked::RegenerateAuthToken(op) => decided(
            op.parse(status, body),
            |r| json!({ "authToken": r.token.expose_secret(), "resultCode": code(&r.result.code) }),
        ),
    }
}

fn transaction(tx: &Transaction) -> Value {
    json!({
        "paymentStatus": tx.status.name(),
        "paymentId": tx.payment_id.as_str(),
        "resultCode": tx.result.code.as_str(),
        "transactionStatus": tx.transaction_status.as_ref().map(|status| status.as_str()),
    })
}

/// What the request a fixture answers sent that the answer may echo: the operation, and
/// the ids, amount and currency of its form and path.
fn asked_json(asked: &Asked) -> Value {
    let context = common::merchant();
    let request = match asked {
        Asked::Payment(op) => op.request(&context),
        Asked::TokenPayment(op) => op.request(&context),
        Asked::Registration(op) => op.request(&context),
        Asked::CustomerSignup(op) => op.request(&context),
        Asked::DeleteToken(op) => op.request(&context),
        Asked::Installments(op) => op.request(&context),
        Asked::CardsAndAccounts(op) => op.request(&context),
        Asked::InvoiceList(op) => op.request(&context),
        Asked::FetchAuthToken(op) => op.request(&context),
        Asked::RegenerateAuthToken(op) => op.request(&context),
        Asked::Inquiry(op) => op.request(&context),
        Asked::Capture(op) => op.request(&context),
        Asked::Refund(op) => op.request(&context),
        Asked::Cancel(op) => op.request(&context),
        Asked::RepeatPayment(op) => op.request(&context),
    }
    .unwrap();
    let form = form(&request);
    let (_, mut sent) = path_of(&request, &form);
    for name in [
        "merchantTransactionId",
        "amount",
        "currency",
        "customer.customerId",
    ] {
        if let Some(value) = field(&form, name) {
            sent.insert(name.to_owned(), json!(value));
        }
    }
    json!({ "operation": request.operation().name(), "sent": sent })
}

/// Every answer fixture with the status it came with: the proxy's page is an HTML 502;
/// every other fixture came with a 200.
fn answer_fixtures() -> Vec<(String, u16, Vec<u8>)> {
    common::response_fixtures()
        .into_iter()
        .map(|(name, body)| {
            let status = if name.ends_with(".html") { 502 } else { 200 };
            (name, status, body)
        })
        .collect()
}

fn answer_vector(id: String, asked: &Asked, status: u16, body: &str, about: &str) -> Value {
    let provenance = provenance::answer(&id);
    let vector = json!({
        "id": id,
        "about": about,
        "asked": asked_json(asked),
        "status": status,
        "body": body,
        "verdict": verdict(asked, status, body.as_bytes()),
    });
    provenance::with(vector, provenance)
}

fn answer_vectors() -> Value {
    let mut vectors = Vec::new();
    for (name, status, body) in answer_fixtures() {
        let asked = common::asked(&name);
        let body = String::from_utf8(body).unwrap();
        let stem = name.rsplit_once('.').unwrap().0;
        vectors.push(answer_vector(
            format!("answer/{stem}"),
            &asked,
            status,
            &body,
            "an answer as a gateway sent it",
        ));
    }
    // The varied shapes: each success answer with its echoes in forms that mean the same,
    // and with each echo changed, which must be a contradiction.
    for (name, asked, value) in crate::tolerance::successes() {
        let stem = name.rsplit_once('.').unwrap().0;
        for (key, original) in value.as_object().unwrap() {
            if !crate::tolerance::ECHOED.contains(&key.as_str()) {
                continue;
            }
            for (n, form) in crate::tolerance::equivalent_forms(key, original)
                .into_iter()
                .enumerate()
            {
                let mut answer = value.clone();
                answer[key] = form;
                vectors.push(answer_vector(
                    format!("answer/{stem}/{key}-as-{}", n + 1),
                    &asked,
                    200,
                    &answer.to_string(),
                    "an echo in a form that means the same: the verdict does not change",
                ));
            }
        }
        let mut made = BTreeMap::<&str, usize>::new();
        for (key, other) in crate::tolerance::contradicting(&asked, &value) {
            let mut answer = value.clone();
            answer[key] = other;
            // `amount-contradicts`, then `amount-contradicts-2`...
            let count = made.entry(key).or_default();
            *count += 1;
            let nth = if *count == 1 {
                String::new()
            } else {
                format!("-{count}")
            };
            vectors.push(answer_vector(
                format!("answer/{stem}/{key}-contradicts{nth}"),
                &asked,
                200,
                &answer.to_string(),
                "an answer about another transaction: a contradiction, never a success",
            ));
        }
    }
    safety_vectors(&mut vectors);
    json!({
        "kit": kit(),
        "about": "Answer vectors: for each, what the request sent that the answer may echo, the HTTP status and the raw body, and the verdict a reader must reach: ok with the deciding values, refused with the gateway's code, or an error (contradiction, undecodable, unexpected_status), with whether the request may have been processed. Made from paytoken's answer fixtures (fixtures/responses/) read by paytoken's parsers.",
        "vectors": vectors,
    })
}

/// The operations whose answer says that money moved, or may have.
const MONEY_MOVING: [&str; 6] = [
    "payment",
    "token_payment",
    "repeat_payment",
    "capture",
    "refund",
    "cancel",
];

/// A short status no rule names.
const UNKNOWN_STATUS: &str = "Q";

/// The kit's safety rule, a status read approved only where the rules say so, held by
/// vectors no selection leaves out (`answer/{operation}/safety/...`): every long status of
/// A8 on an inquiry, with the short status `Y` (read by the long one) and `N` (declined);
/// an unknown short status on each money-moving operation's approved answer, with its
/// success code and with a pending one (read by the code's family).
fn safety_vectors(vectors: &mut Vec<Value>) {
    let successes = crate::tolerance::successes();
    let success = |fixture: &str| {
        successes
            .iter()
            .find(|(name, _, _)| name == fixture)
            .unwrap_or_else(|| panic!("no success fixture {fixture}"))
    };
    let (_, inquiry, approved) = success("inquiry/approved.json");
    for long in paytoken_types::TransactionState::KNOWN {
        for (short, tail) in [("Y", "y"), ("N", "n")] {
            let mut answer = approved.clone();
            answer["status"] = (*long).into();
            answer["transactionStatus"] = short.into();
            vectors.push(answer_vector(
                format!("answer/inquiry/safety/{long}-{tail}"),
                inquiry,
                200,
                &answer.to_string(),
                "an inquiry's long status with a short one: approved only where the rules read it so",
            ));
        }
    }
    for operation in MONEY_MOVING {
        let (name, asked, value) = successes
            .iter()
            .find(|(name, _, _)| name.starts_with(&format!("{operation}/approved")))
            .unwrap_or_else(|| panic!("no approved answer of {operation}"));
        for (code, tail) in [(None, ""), (Some("10004"), "-pending-code")] {
            let mut answer = value.clone();
            answer["transactionStatus"] = UNKNOWN_STATUS.into();
            if let Some(code) = code {
                answer["result"]["code"] = code.into();
            }
            vectors.push(answer_vector(
                format!("answer/{operation}/safety/unknown-status{tail}"),
                asked,
                200,
                &answer.to_string(),
                &format!("{name} with a short status no rule names: read by the code's family, never approved by the status"),
            ));
        }
    }
}

#[test]
fn the_answer_vectors_are_the_fixtures_with_their_verdicts() {
    let vectors = answer_vectors();
    let all = vectors["vectors"].as_array().unwrap();
    for (name, _, _) in answer_fixtures() {
        let id = format!("answer/{}", name.rsplit_once('.').unwrap().0);
        assert!(
            all.iter().any(|vector| vector["id"] == id.as_str()),
            "{name}: no vector"
        );
    }
    for outcome in ["ok", "refused", "error"] {
        assert!(
            all.iter().any(|v| v["verdict"]["outcome"] == outcome),
            "no {outcome}"
        );
    }
    holds("answer-vectors.json", &vectors);
}

// ---------------------------------------------------------------------------------------
// Notifications
// ---------------------------------------------------------------------------------------

const NOTIFICATION_KEY: &str = "w2Q8aZ2CrGc1dEbx0f9LkKmWu3YnN6sP";

fn signed(joined: &str) -> String {
    format!("{:x}", md5::compute(joined.as_bytes()))
}

/// The documentation's sample shape with `amount` as given, signed as `checksum`.
fn documented(amount_json: &str, status: &str, checksum: &str) -> String {
    format!(
        r#"{{"paymentId":"21565","status":"capturesuccess","transactionStatus":"{status}","paymentBrand":"VISA","paymentMode":"CC","amount":{amount_json},"currency":"EUR","merchantTransactionId":"testTransaction","remark":"","result":{{"code":"00001","description":"Transaction succeeded"}},"card":{{"bin":"400000","lastFourDigits":"0051","expiryMonth":"06","expiryYear":"2030"}},"timestamp":"2026-11-22 10:15:00","checksum":"{checksum}"}}"#
    )
}

fn notification_vectors() -> Value {
    let key = NOTIFICATION_KEY;
    let sign = |text: &str| signed(&format!("{text}|{key}"));
    let y = sign("21565|testTransaction|50.00|Y");
    let cases: Vec<(&str, &str, String, &str)> = vec![
        (
            "documented",
            "json",
            documented("\"50.00\"", "Y", &y),
            "the documentation's shape, signed paymentId|merchantTransactionId|amount|transactionStatus|key",
        ),
        (
            "unknown-status",
            "json",
            documented(
                "\"50.00\"",
                UNKNOWN_STATUS,
                &sign(&format!("21565|testTransaction|50.00|{UNKNOWN_STATUS}")),
            ),
            "a genuine notification whose short status no rule names: verified, never approved",
        ),
        (
            "amount-as-json-number",
            "json",
            documented("50", "Y", &sign("21565|testTransaction|50|Y")),
            "an amount sent as the JSON number 50 is signed as the text 50",
        ),
        (
            "amount-reformatted",
            "json",
            documented("50", "Y", &y),
            "50 signed as 50.00: the signed text is the text received, so this does not verify",
        ),
        (
            "upper-case-hex",
            "json",
            documented("\"50.00\"", "Y", &y.to_ascii_uppercase()),
            "the same checksum in upper-case hex verifies",
        ),
        (
            "another-key",
            "json",
            documented(
                "\"50.00\"",
                "Y",
                &signed("21565|testTransaction|50.00|Y|another-key"),
            ),
            "signed with another key: a forgery",
        ),
        (
            "amount-changed",
            "json",
            documented("\"5000.00\"", "Y", &y),
            "the amount changed after signing",
        ),
        (
            "long-status-signed",
            "json",
            documented(
                "\"50.00\"",
                "Y",
                &sign("21565|testTransaction|50.00|capturesuccess"),
            ),
            "signed over the long status instead of the short transactionStatus",
        ),
        (
            "key-first",
            "json",
            documented(
                "\"50.00\"",
                "Y",
                &signed(&format!("{key}|21565|testTransaction|50.00|Y")),
            ),
            "the key at the wrong end: the notification's key comes last",
        ),
        (
            "declined",
            "json",
            documented("\"50.00\"", "N", &sign("21565|testTransaction|50.00|N")),
            "a declined payment",
        ),
        (
            "pending-bank-transfer",
            "json",
            format!(
                r#"{{"paymentId":"60007","merchantTransactionId":"order-60007","amount":"12.00","transactionStatus":"P","paymentMode":"BT","card":{{}},"checksum":"{}"}}"#,
                sign("60007|order-60007|12.00|P")
            ),
            "a pending bank transfer with an empty card object",
        ),
        (
            "browser-return-form",
            "form",
            format!(
                "paymentId=21565&merchantTransactionId=Rest+Transaction+01&amount=50.00&transactionStatus=3D&status=begun&result.code=90026&checksum={}",
                sign("21565|Rest Transaction 01|50.00|3D")
            ),
            "the browser's return to merchantRedirectUrl, as a form: the same rule over the decoded values",
        ),
        (
            "no-checksum",
            "json",
            r#"{"paymentId":"21565","merchantTransactionId":"testTransaction","amount":"50.00","transactionStatus":"Y"}"#.to_owned(),
            "no checksum at all",
        ),
        (
            "short-checksum",
            "json",
            documented("\"50.00\"", "Y", "abc123"),
            "a checksum that is not 32 hexadecimal digits",
        ),
        (
            "no-transaction-status",
            "json",
            format!(
                r#"{{"paymentId":"21565","merchantTransactionId":"testTransaction","amount":"50.00","checksum":"{y}"}}"#
            ),
            "no transactionStatus to sign",
        ),
        (
            "not-json",
            "json",
            "not json".to_owned(),
            "a body that is not a JSON object",
        ),
        (
            "signed-key-padded-and-repeated",
            "json",
            format!(
                r#"{{"paymentId":"21566","paymentId ":"21565","merchantTransactionId":"testTransaction","amount":"50.00","transactionStatus":"Y","checksum":"{y}"}}"#
            ),
            "paymentId twice, once with a blank after its name: readers disagree on its value, so it is refused whatever the checksum",
        ),
        (
            "signed-form-field-repeated",
            "form",
            format!(
                "paymentId=21566&paymentId=21565&merchantTransactionId=testTransaction&amount=50.00&transactionStatus=Y&checksum={y}"
            ),
            "paymentId twice in a form: frameworks take the first or the last, so it is refused whatever the checksum",
        ),
    ];
    let vectors: Vec<Value> = cases
        .into_iter()
        .map(|(name, format, body, about)| {
            let read = if format == "form" {
                Notification::from_form(body.as_bytes())
            } else {
                Notification::from_json(body.as_bytes())
            };
            let verdict = match read.and_then(|n| n.verify(&SecureKey::new(key).unwrap())) {
                Ok(verified) => json!({
                    "verifies": true,
                    "paymentId": verified.payment_id.as_str(),
                    "transactionStatus": verified.transaction_status.raw(),
                    "paymentStatus": verified.status.name(),
                }),
                Err(Error::Unverified { check }) => json!({
                    "verifies": false,
                    "reason": check.name(),
                }),
                Err(other) => panic!("{name}: {other:?}"),
            };
            let vector = json!({
                "id": format!("notification/{name}"),
                "about": about,
                "format": format,
                "secureKey": key,
                "body": body,
                "verdict": verdict,
            });
            provenance::with(vector, provenance::notification(name))
        })
        .collect();
    json!({
        "kit": kit(),
        "about": "Notification vectors: bodies a gateway posts to notificationUrl (JSON) or a browser brings back to merchantRedirectUrl (a form), the merchant's secure key, and whether each verifies by the notification rule (checksum-rules.json, rule notification) over the texts as received; if it does, the payment and its status, and if not, why.",
        "vectors": vectors,
    })
}

#[test]
fn the_notification_vectors_verify_as_the_code_says() {
    let vectors = notification_vectors();
    let all = vectors["vectors"].as_array().unwrap();
    let verifying = all
        .iter()
        .filter(|v| v["verdict"]["verifies"] == true)
        .count();
    assert!(
        verifying >= 5 && all.len() - verifying >= 5,
        "{verifying} of {}",
        all.len()
    );
    holds("notification-vectors.json", &vectors);
}

// ---------------------------------------------------------------------------------------
// Requests read back
// ---------------------------------------------------------------------------------------

/// The context a request vector's caller signs in.
fn caller_context(caller: &Value) -> paytoken_protocol::Context {
    let text = |name: &str| caller[name].as_str();
    let key = SecureKey::new(text("secureKey").unwrap()).unwrap();
    let id = text("id").unwrap();
    let credentials = match text("kind") {
        Some("partner") => paytoken_checksum::Credentials::partner(id.parse().unwrap(), key),
        _ => paytoken_checksum::Credentials::merchant(id.parse().unwrap(), key),
    };
    let mut context = paytoken_protocol::Context::new(credentials);
    context.auth_token =
        text("authToken").map(|token| paytoken_protocol::AuthToken::new(token).unwrap());
    context.account_id = text("accountId").map(|id| id.parse().unwrap());
    context.terminal_id = text("terminalId").map(|id| id.parse().unwrap());
    context
}

#[test]
fn every_request_vector_reads_back_into_the_operation_that_sends_it() {
    let text = std::fs::read_to_string(conformance().join("request-vectors.json")).unwrap();
    let vectors: Value = serde_json::from_str(&text).unwrap();
    for vector in vectors["vectors"].as_array().unwrap() {
        let id = vector["id"].as_str().unwrap();
        let kind = OperationKind::ALL
            .into_iter()
            .find(|kind| vector["operation"] == kind.name())
            .unwrap();
        let pairs = |form: &Value| -> Vec<(String, String)> {
            let mut pairs: Vec<(String, String)> = form
                .as_array()
                .unwrap()
                .iter()
                .map(|pair| {
                    (
                        pair[0].as_str().unwrap().into(),
                        pair[1].as_str().unwrap().into(),
                    )
                })
                .collect();
            pairs.sort();
            pairs
        };
        let form = pairs(&vector["form"]);
        let path_id = vector["pathValues"].as_object().unwrap().values().next();
        let asked = paytoken_protocol::recorded::asked(
            kind,
            path_id.and_then(Value::as_str),
            form.iter()
                .map(|(name, value)| (name.as_str(), value.as_str())),
        )
        .unwrap_or_else(|error| panic!("{id}: {error}"));
        let request = asked.request(&caller_context(&vector["caller"])).unwrap();
        let sent: Vec<(String, String)> = paytoken_types::internal::decode(request.body())
            .map(|pair| pair.map(|(name, value)| (name.into_owned(), value.into_owned())))
            .collect::<Result<_, _>>()
            .unwrap();
        let mut sent = sent;
        if vector["checksum"].is_null() {
            // The invoice request as the specification shows it: paytoken signs it anyway.
            sent.retain(|(name, _)| name != "authentication.checksum");
        }
        sent.sort();
        assert_eq!(sent, form, "{id}");
        assert_eq!(request.path(), vector["path"].as_str().unwrap(), "{id}");
    }
}

#[test]
fn a_field_an_operation_never_sends_is_refused_by_name_of_the_form() {
    let error = paytoken_protocol::recorded::asked(
        OperationKind::Cancel,
        Some("54279"),
        [("paymentType", "RV"), ("amount", "1.00")],
    )
    .unwrap_err();
    assert_eq!(error.field(), Some("form"));
    let error =
        paytoken_protocol::recorded::asked(OperationKind::Cancel, None, [("paymentType", "RV")])
            .unwrap_err();
    assert_eq!(error.field(), Some("path"));
}

#[test]
fn every_checksum_vector_is_signed_by_its_rule_name() {
    let text = std::fs::read_to_string(conformance().join("checksum-vectors.json")).unwrap();
    let vectors: Value = serde_json::from_str(&text).unwrap();
    let vectors = vectors["vectors"].as_array().unwrap();
    assert!(vectors.len() > 30, "the kit's checksum vectors");
    for vector in vectors {
        let key = SecureKey::new(vector["secureKey"].as_str().unwrap()).unwrap();
        let id = vector["callerId"].as_str().unwrap();
        let credentials = match vector["credentials"].as_str() {
            Some("partner") => paytoken_checksum::Credentials::partner(id.parse().unwrap(), key),
            _ => paytoken_checksum::Credentials::merchant(id.parse().unwrap(), key),
        };
        let values = &vector["values"];
        let value = |name: &str| values[name].as_str();
        let rule = vector["rule"].as_str().unwrap();
        let checksum =
            paytoken_protocol::recorded::checksum_by_rule(rule, &credentials, value).unwrap();
        assert_eq!(
            checksum.to_hex().as_str(),
            vector["checksum"],
            "{}",
            vector["id"]
        );
    }
    let credentials = paytoken_checksum::Credentials::merchant(
        "11344".parse().unwrap(),
        SecureKey::new("key").unwrap(),
    );
    let none = |_: &str| None;
    for (rule, field) in [
        ("no_such_rule", "rule"),
        ("payment", "merchantTransactionId"),
    ] {
        let error =
            paytoken_protocol::recorded::checksum_by_rule(rule, &credentials, none).unwrap_err();
        assert_eq!(error.field(), Some(field), "{rule}");
    }
}
