//! The OpenAPI 3.1 description of the interface (`fixtures/conformance/openapi.yaml`),
//! made from the request vectors (every operation's path, form fields and checksum rule,
//! as paytoken sends them) and the answer schemas, so it cannot drift from the code. A test
//! fails when an operation of paytoken-protocol has no path there.
//! `PAYTOKEN_WRITE_CONFORMANCE=1 cargo test -p tests --test it conformance` writes it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use paytoken::OperationKind;
use paytoken::ops::auth_token;
use serde_json::{Map, Value, json};

use crate::conformance_schemas::answer_definition;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/conformance")
}

fn read(name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(root().join(name)).unwrap()).unwrap()
}

/// What each operation is, in a sentence.
fn summary(operation: &str) -> &'static str {
    match operation {
        "customer_signup" => "Sign a customer up",
        "pay" => "A payment by card (DB debit, PA pre-authorisation), optionally storing the card",
        "register" => "Store a card or a bank account as a token, without a payment",
        "pay_with_token" => "A payment with a stored token (paymentType DB or PA)",
        "delete_token" => "Delete a stored token (paymentType DL)",
        "installments" => "The installment plans a token's card offers",
        "cards_and_accounts" => "The stored cards and bank accounts, of every customer or of one",
        "invoices" => "One page of the invoice list",
        "fetch_auth_token" => {
            "An auth token for a merchant (authToken) or a partner (partnerAuthToken)"
        }
        "regenerate_auth_token" => "A fresh auth token in exchange for the current one",
        "inquiry" => {
            "The stored state of a transaction (paymentType IN; idType PID by payment id, MID by merchant transaction id)"
        }
        "capture" => "Capture a pre-authorisation (paymentType CP)",
        "refund" => "Refund a captured or debited payment, whole or in part (paymentType RF)",
        "cancel" => "Cancel (void) a pre-authorisation not yet captured (paymentType RV)",
        "repeat_payment" => {
            "A REPEATED recurring payment by the first payment's id (recurringType REPEATED)"
        }
        other => panic!("an operation without a summary: {other}"),
    }
}

/// The fields whose values an operation's form fixes: `paymentType` tells the operations
/// sharing a path apart (the discriminator), `recurringType` makes a payment by an earlier
/// payment's id a repeated one.
fn constants(operation: &str) -> &'static [(&'static str, &'static [&'static str])] {
    match operation {
        "pay" | "pay_with_token" => &[("paymentType", &["DB", "PA"])],
        "repeat_payment" => &[
            ("paymentType", &["DB", "PA"]),
            ("recurringType", &["REPEATED"]),
        ],
        "delete_token" => &[("paymentType", &["DL"])],
        "inquiry" => &[("paymentType", &["IN"])],
        "capture" => &[("paymentType", &["CP"])],
        "refund" => &[("paymentType", &["RF"])],
        "cancel" => &[("paymentType", &["RV"])],
        _ => &[],
    }
}

/// The request fields the interface specification names; every other field the vectors
/// send comes from the platform's documentation.
const SPECIFICATION_FIELDS: &[&str] = &[
    "authentication.memberId",
    "authentication.checksum",
    "authentication.accountId",
    "authentication.terminalId",
    "customer.givenName",
    "customer.surname",
    "customer.sex",
    "customer.email",
    "customer.phone",
    "customer.telnocc",
    "customer.birthDate",
    "customer.ip",
    "customer.customerId",
    "shipping.country",
    "shipping.city",
    "shipping.state",
    "shipping.postcode",
    "shipping.street1",
    "shipping.language",
    "shipping.givenName",
    "shipping.surname",
    "card.number",
    "card.expiryMonth",
    "card.expiryYear",
    "card.cvv",
    "merchantTransactionId",
    "amount",
    "currency",
    "paymentBrand",
    "paymentMode",
    "paymentType",
    "createRegistration",
    "recurringType",
    "pagination.pageno",
    "pagination.records",
];

fn field_description(field: &str) -> Option<&'static str> {
    Some(match field {
        "authentication.memberId" => "The merchant's member id (a merchant caller).",
        "authentication.partnerId" => {
            "The partner's id (a partner caller, and the auth-token calls)."
        }
        "authentication.checksum" => {
            "MD5 of the operation's checksum rule (x-checksum), 32 lower-case hexadecimal digits."
        }
        "authentication.terminalId" => {
            "The merchant's terminal, where the deployment has terminals."
        }
        "authentication.accountId" => "The merchant's account, where the deployment asks for it.",
        "authentication.sKey" => "The secure key itself: only the auth-token call sends it.",
        "amount" => "Digits, a point and two decimals (50.00), as signed.",
        "currency" => "ISO 4217 code (EUR).",
        "card.number" => "Card number, digits only.",
        "card.cvv" => "Card verification value; never stored.",
        "merchantTransactionId" => "The merchant's own id of the transaction, unique per merchant.",
        _ => return None,
    })
}

/// The form schema of one operation: every field its vectors send, with where it comes
/// from (`x-source`). Required, as the specification has it (it shows no field as
/// required but says every server-to-server request carries the caller's id and the
/// checksum): the checksum of a signed request (the invoice request, which the
/// specification shows unsigned, excepted), one of `memberId` or `partnerId` (a merchant
/// or a partner calls), and the fields that fix which operation a shared path serves.
fn form_schema(operation: &str, vectors: &[&Value]) -> Value {
    let mut order: Vec<String> = Vec::new();
    for vector in vectors {
        for pair in vector["form"].as_array().unwrap() {
            let field = pair[0].as_str().unwrap().to_owned();
            if !order.contains(&field) {
                order.push(field.clone());
            }
        }
    }
    let signed = vectors.iter().any(|vector| vector["checksum"].is_object());
    // Who calls, a merchant (memberId) or a partner (partnerId), is the caller's choice.
    if signed {
        for (one, other) in [
            ("authentication.memberId", "authentication.partnerId"),
            ("authentication.partnerId", "authentication.memberId"),
        ] {
            if let Some(at) = order.iter().position(|field| field == one)
                && !order.iter().any(|field| field == other)
            {
                order.insert(at + 1, other.to_owned());
            }
        }
    }
    let mut properties = Map::new();
    for field in &order {
        let mut property = json!({ "type": "string" });
        if let Some(text) = field_description(field) {
            property["description"] = json!(text);
        }
        if let Some((_, values)) = constants(operation).iter().find(|(name, _)| name == field) {
            property = match values {
                [one] => json!({ "type": "string", "const": one }),
                several => json!({ "type": "string", "enum": several }),
            };
        }
        let source = if SPECIFICATION_FIELDS.contains(&field.as_str()) {
            "specification"
        } else {
            "platform-docs"
        };
        property["x-source"] = json!(source);
        properties.insert(field.clone(), property);
    }
    let mut required: Vec<&str> = Vec::new();
    if signed && operation != "invoices" {
        required.push("authentication.checksum");
    }
    let shared = matches!(
        operation,
        "pay_with_token"
            | "delete_token"
            | "inquiry"
            | "capture"
            | "refund"
            | "cancel"
            | "repeat_payment"
    );
    for (field, _) in constants(operation) {
        if shared || *field == "recurringType" {
            required.push(field);
        }
    }
    // No title: a generator names a model by its title before its schema's name, and
    // the operation's name is its answer's too.
    let mut schema = json!({
        "description": summary(operation),
        "type": "object",
        "properties": properties,
        "required": required,
    });
    if signed {
        // One or the other, said as `if`/`else` (client generators pass over it, where an
        // `anyOf` of bare `required` lists leaves them no type for the form at all).
        schema["if"] = json!({ "required": ["authentication.memberId"] });
        schema["else"] = json!({ "required": ["authentication.partnerId"] });
    }
    schema
}

fn openapi() -> Value {
    let requests = read("request-vectors.json");
    let rules = read("checksum-rules.json");
    let rule_parts: BTreeMap<&str, &Value> = rules["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| (rule["rule"].as_str().unwrap(), &rule["joined"]))
        .collect();
    // Path template to its operations, in the order the vectors name them.
    let mut by_path: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut by_operation: BTreeMap<String, Vec<&Value>> = BTreeMap::new();
    for vector in requests["vectors"].as_array().unwrap() {
        let operation = vector["operation"].as_str().unwrap().to_owned();
        // OpenAPI holds paths that differ only in a parameter's name to be the same path:
        // the payment's id and the merchant transaction id (an inquiry by idType MID) share
        // `payments/{id}`.
        let template = vector["pathTemplate"]
            .as_str()
            .unwrap()
            .replace("{paymentId}", "{id}")
            .replace("{merchantTransactionId}", "{id}");
        let operations = by_path.entry(template).or_default();
        if !operations.contains(&operation) {
            operations.push(operation.clone());
        }
        by_operation.entry(operation).or_default().push(vector);
    }
    let mut paths = Map::new();
    let mut schemas = Map::new();
    for (template, operations) in &by_path {
        let mut forms = Vec::new();
        let mut answers = Vec::new();
        let mut checksums = Map::new();
        let mut signed = false;
        for operation in operations {
            let vectors = &by_operation[operation];
            forms.push(form_schema(operation, vectors));
            let definition = format!("#/components/schemas/{}", answer_definition(operation));
            if !answers.contains(&json!({ "$ref": definition })) {
                answers.push(json!({ "$ref": definition }));
            }
            let rules: BTreeSet<&str> = vectors
                .iter()
                .filter_map(|vector| vector["checksum"]["rule"].as_str())
                .collect();
            for rule in rules {
                signed = true;
                checksums.insert(rule.to_owned(), rule_parts[rule].clone());
            }
        }
        // Each form is a schema of its own, `{operation}_form` (a generator names its model
        // so). A path several operations share takes one form each, told apart by
        // paymentType (a discriminator a generator makes one method per form of), and
        // answers in one schema each answer matches once.
        let mut mapping = Map::new();
        let mut options = Vec::new();
        for (operation, form) in operations.iter().zip(forms) {
            let reference = format!("#/components/schemas/{operation}_form");
            for (field, values) in constants(operation) {
                if *field == "paymentType" {
                    for value in *values {
                        mapping.insert((*value).to_owned(), json!(reference));
                    }
                }
            }
            schemas.insert(format!("{operation}_form"), form);
            options.push(json!({ "$ref": reference }));
        }
        let request_schema = match options.as_slice() {
            [one] => one.clone(),
            _ => json!({
                "oneOf": options,
                "discriminator": { "propertyName": "paymentType", "mapping": mapping },
            }),
        };
        let answer_schema = match answers.as_slice() {
            [one] => one.clone(),
            _ => {
                assert_eq!(
                    operations,
                    &["pay_with_token", "delete_token"],
                    "{template}"
                );
                json!({ "$ref": "#/components/schemas/paywithtokenAnswer" })
            }
        };
        let mut post = json!({
            // Unique per document: the auth-token call has a path per kind of caller.
            "operationId": match template.as_str() {
                auth_token::PARTNER_PATH => "fetch_auth_token_partner".to_owned(),
                auth_token::MERCHANT_PATH => "fetch_auth_token_merchant".to_owned(),
                _ => operations.join("_or_"),
            },
            "summary": operations.iter().map(|op| summary(op)).collect::<Vec<_>>().join("; "),
            "x-paytoken-operations": operations,
            "requestBody": {
                "required": true,
                "content": { "application/x-www-form-urlencoded": { "schema": request_schema } },
            },
            "responses": {
                "200": {
                    "description": "Every outcome, refusals included: read result.code (and paymentId, transactionStatus) to tell. A refused request has paymentId '-' (or no id) and a code outside the success family.",
                    "content": { "application/json": { "schema": answer_schema } },
                },
                "default": {
                    "description": "Any other status comes from something between you and the gateway (a proxy's HTML 502 page, a timeout): the request may have been processed; ask by an inquiry before sending it again.",
                },
            },
        });
        if signed {
            post["security"] = json!([{ "AuthToken": [] }]);
            post["x-checksum"] = json!({
                "separator": "|",
                "rules": checksums,
                "about": "authentication.checksum = MD5 of the parts joined by '|', in lower-case hex: 'id' is the caller's memberId or partnerId, 'key' the secure key, every other part the value of that field (or of the id in the path) as sent. See checksum-rules.json.",
            });
        } else {
            post["security"] = json!([]);
        }
        if let Some(start) = template.find('{') {
            let name = &template[start + 1..template.len() - 1];
            post["parameters"] = json!([{
                "name": name,
                "in": "path",
                "required": true,
                "description": if name == "id" {
                    "The payment's id (paymentId); for an inquiry with idType MID, the merchant transaction id. Percent-encoded: every byte but A-Z a-z 0-9 - . _ ~ as %XX. The checksum signs the id's text, not its encoded form."
                } else {
                    "The token. Percent-encoded: every byte but A-Z a-z 0-9 - . _ ~ as %XX. The checksum signs the id's text, not its encoded form."
                },
                "schema": { "type": "string" },
            }]);
        }
        paths.insert(template.clone(), json!({ "post": post }));
    }
    json!({
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {
            "title": "Card-tokenization gateway interface",
            "version": rules["kit"]["version"],
            "description": "The interface many white-label card-tokenization gateways answer: stored cards and bank accounts (tokens), customer sign-up, payments that store or use a token, recurring payments, installments, lists of stored cards and of invoices. What OpenAPI cannot say: (1) every outcome, refusals too, comes with HTTP 200; the result code decides (families: 000xx, 0008 and 200 succeed; 10001 failed; 10004 pending; 90026 3-D Secure pending; 2xxxx system checks such as checksum or auth token; 3xxxx validation; 9xxxx rejections; several codes may be joined with '|'). (2) Answers are irregular across deployments: a number where text is documented, null, '' or [] for absence, a one-element list for a value, a single object for a list, the invoice list as a map of positions with repeated keys; only the deciding fields decide (the id the call exists for, result.code, transactionStatus, and an inquiry's long status: a payment cancelled, refunded or charged back since its approval is no longer approved) and what the answer echoes (merchantTransactionId, amount, currency) must agree with what was sent. (3) Every signed request carries authentication.checksum, MD5 of its rule (x-checksum), and the AuthToken header; the auth-token calls are unsigned and send the secure key instead. (4) Form fields are encoded A-Z a-z 0-9 * - . _ as is, space as +, every other byte as %XX in upper case. (5) Each operation's form is components/schemas/{operation}_form; where several operations share a path, paymentType tells their forms apart (the discriminator). (6) The gateway posts late outcomes to notificationUrl (#/components/schemas/notification), signed paymentId|merchantTransactionId|amount|transactionStatus|key. (7) Required fields are the specification's: it shows none as required, but every signed request carries the checksum and the caller's id (memberId or partnerId: if/else, as every presence rule here, which client generators pass over); x-source on each field says where it comes from. Vectors: request-vectors.json, answer-vectors.json, notification-vectors.json, negative-vectors.json.",
        },
        "x-kit": rules["kit"],
        "servers": [{
            "url": "{baseUrl}",
            "description": "Each deployment has its own base URL.",
            "variables": { "baseUrl": { "default": "https://gateway.example" } },
        }],
        "components": {
            "schemas": with_answers(schemas),
            "securitySchemes": {
                "AuthToken": {
                    "type": "apiKey",
                    "in": "header",
                    "name": "AuthToken",
                    "description": "The token of the auth-token call (about an hour's lifetime at the usual deployments; regenerate it before it ends).",
                },
            },
        },
        "paths": paths,
    })
}

/// The forms, and every definition of `schemas/answers.schema.json` beside them (their
/// references rewritten to `components/schemas`): the document stands alone, as client
/// generators need it to (they follow no reference into another file).
fn with_answers(mut schemas: Map<String, Value>) -> Value {
    let answers = read("schemas/answers.schema.json");
    let text = serde_json::to_string(&answers["$defs"])
        .unwrap()
        .replace("#/$defs/", "#/components/schemas/");
    let definitions: Map<String, Value> = serde_json::from_str(&text).unwrap();
    for (name, definition) in definitions {
        assert!(
            schemas.insert(name.clone(), definition).is_none(),
            "{name} is a form's name and an answer's"
        );
    }
    Value::Object(schemas)
}

/// A JSON value as YAML: block mappings and sequences, every string double-quoted (a JSON
/// string is a valid YAML double-quoted scalar), keys quoted unless plain words.
fn yaml(value: &Value) -> String {
    fn key(name: &str) -> String {
        let plain = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '$')
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-.$".contains(c));
        if plain {
            name.to_owned()
        } else {
            Value::from(name).to_string()
        }
    }
    fn scalar(value: &Value) -> Option<String> {
        match value {
            Value::Object(map) if map.is_empty() => Some("{}".to_owned()),
            Value::Array(items) if items.is_empty() => Some("[]".to_owned()),
            Value::Object(_) | Value::Array(_) => None,
            other => Some(other.to_string()),
        }
    }
    fn emit(value: &Value, indent: usize, out: &mut String) {
        let pad = " ".repeat(indent);
        match value {
            Value::Object(map) => {
                for (name, child) in map {
                    match scalar(child) {
                        Some(text) => writeln!(out, "{pad}{}: {text}", key(name)).unwrap(),
                        None => {
                            writeln!(out, "{pad}{}:", key(name)).unwrap();
                            emit(child, indent + 2, out);
                        }
                    }
                }
            }
            Value::Array(items) => {
                for item in items {
                    match scalar(item) {
                        Some(text) => writeln!(out, "{pad}- {text}").unwrap(),
                        None => {
                            // The item's block, its first line after the dash.
                            let mut block = String::new();
                            emit(item, indent + 2, &mut block);
                            let block = block.get(indent + 2..).unwrap_or_default();
                            write!(out, "{pad}- {block}").unwrap();
                        }
                    }
                }
            }
            other => writeln!(out, "{pad}{other}").unwrap(),
        }
    }
    let mut out = String::from(
        "# Made by paytoken's tests (tests/tests/it/conformance_openapi.rs) from the\n# request vectors and the answer schemas beside this file: do not edit by hand.\n",
    );
    // The document's own keys in the order readers expect, `openapi` first.
    let order = [
        "openapi",
        "jsonSchemaDialect",
        "info",
        "x-kit",
        "servers",
        "components",
        "paths",
    ];
    let mut top: Vec<(&String, &Value)> = value.as_object().unwrap().iter().collect();
    top.sort_by_key(|(name, _)| order.iter().position(|o| o == name).unwrap_or(order.len()));
    for (name, child) in top {
        emit(&json!({ name.as_str(): child }), 0, &mut out);
    }
    out
}

#[test]
fn the_yaml_writer_writes_blocks_and_quoted_strings() {
    let value = json!({
        "openapi": "3.1.0",
        "/a/{id}": { "list": [{ "name": "x", "n": 1 }, "y: z", []], "empty": {} },
    });
    assert_eq!(
        yaml(&value).lines().skip(2).collect::<Vec<_>>().join("\n"),
        "openapi: \"3.1.0\"\n\"/a/{id}\":\n  empty: {}\n  list:\n    - n: 1\n      name: \"x\"\n    - \"y: z\"\n    - []"
    );
}

#[test]
fn the_openapi_document_is_made_from_the_vectors() {
    crate::conformance::holds("openapi.yaml", &yaml(&openapi()));
}

#[test]
fn every_operation_of_the_protocol_has_a_path() {
    // Every operation, by the one name the vectors use too.
    let variants = OperationKind::ALL.map(OperationKind::name);
    let document = openapi();
    let described: BTreeSet<&str> = document["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|path| path["post"]["x-paytoken-operations"].as_array().unwrap())
        .map(|operation| operation.as_str().unwrap())
        .collect();
    for variant in &variants {
        assert!(
            described.contains(variant),
            "{variant} has no path in openapi.yaml"
        );
    }
    // Every reference of the document is to a schema it holds.
    let text = serde_json::to_string(&document).unwrap();
    for reference in text.split("#/components/schemas/").skip(1) {
        let name = reference
            .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .next()
            .unwrap();
        assert!(
            document["components"]["schemas"][name].is_object(),
            "no schema {name}"
        );
    }
    assert!(
        !text.contains("answers.schema.json#"),
        "a reference into another file"
    );
}
