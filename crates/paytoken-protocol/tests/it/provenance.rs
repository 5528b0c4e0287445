//! Where each vector's fact comes from, and how binding it is: the `source` and `level` of
//! every request, answer and notification vector of the conformance kit.
//!
//! Sources: `specification` (the interface specification, with its section and `basis`, the
//! few words of it the fact rests on), `platform-docs` (the platform's own documentation
//! beyond it), `platform-observed` (what deployments of the interface were seen to send),
//! `sandbox-choice` (paytoken's own choice where the platform leaves a fact open: its
//! sandbox answers so and its client reads so), `safety` (the kit's own safety rules: an
//! unknown status is never approved; never filtered out by `--source`). Levels: `must` (a client does exactly
//! this, or reaches exactly this verdict), `tolerate` (a client reads this variant to the
//! same verdict, without failing), `optional` (a client may do it; nothing depends on it).
//!
//! A request vector is `specification` only when everything it holds is the
//! specification's: a merchant's `memberId`, only the fields its endpoint section lists as
//! sent, and text in ASCII (the specification leaves the character encoding open). Its
//! headers carry their own labels (`headerRules`): the specification shows no content type,
//! and the `AuthToken` header only on some requests.

use serde_json::{Value, json};

fn specification(section: &str, basis: &str, level: &'static str) -> (Value, &'static str) {
    (
        json!({ "kind": "specification", "section": section, "basis": basis }),
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

/// What the specification's endpoint section of an operation shows: its section, the words
/// the label rests on, and the fields it lists as sent.
struct Endpoint {
    section: &'static str,
    basis: &'static str,
    sent: Vec<&'static str>,
}

/// The fields every signed request of the specification sends.
const SIGNED: [&str; 2] = ["authentication.memberId", "authentication.checksum"];

/// The specification's endpoint section of an operation it describes, by its one name.
fn endpoint(operation: &str) -> Option<Endpoint> {
    const CUSTOMER: [&str; 8] = [
        "customer.givenName",
        "customer.surname",
        "customer.email",
        "customer.phone",
        "customer.birthDate",
        "customer.telnocc",
        "customer.ip",
        "customer.customerId",
    ];
    const SHIPPING: [&str; 8] = [
        "shipping.country",
        "shipping.city",
        "shipping.state",
        "shipping.postcode",
        "shipping.street1",
        "shipping.language",
        "shipping.givenName",
        "shipping.surname",
    ];
    const CARD: [&str; 4] = [
        "card.number",
        "card.expiryMonth",
        "card.expiryYear",
        "card.cvv",
    ];
    const TERMINAL: [&str; 2] = ["authentication.accountId", "authentication.terminalId"];
    const PAYMENT: [&str; 6] = [
        "merchantTransactionId",
        "amount",
        "currency",
        "paymentBrand",
        "paymentMode",
        "paymentType",
    ];
    let fields = |groups: &[&[&'static str]]| groups.concat();
    Some(match operation {
        "customer_signup" => Endpoint {
            section: "Endpoints, 1. Customer sign-up",
            basis: "Sent: authentication.memberId, authentication.checksum, customer.givenName, customer.surname, customer.sex, customer.email, customer.phone, customer.birthDate, shipping.country, shipping.postcode",
            sent: fields(&[
                &SIGNED,
                &CUSTOMER[..5],
                &["customer.sex"],
                &SHIPPING[..1],
                &SHIPPING[3..4],
            ]),
        },
        "pay" => Endpoint {
            section: "Endpoints, 2. Payment, optionally storing the data",
            basis: "Sent: authentication.memberId, authentication.accountId, authentication.checksum, authentication.terminalId, merchantTransactionId, amount, currency, the shipping fields …, the customer fields …, the card fields, paymentBrand, paymentMode, paymentType, the service, createRegistration",
            sent: fields(&[
                &SIGNED,
                &TERMINAL,
                &PAYMENT,
                &SHIPPING[..5],
                &CUSTOMER,
                &CARD,
                &["createRegistration"],
            ]),
        },
        "register" => Endpoint {
            section: "Endpoints, 3. Stand-alone registration",
            basis: "Sent: authentication.memberId, authentication.checksum, shipping.language, …, customer.customerId, the card fields, paymentBrand, paymentMode, createRegistration",
            sent: fields(&[
                &SIGNED,
                &SHIPPING,
                &CUSTOMER[2..],
                &CARD,
                &PAYMENT[3..5],
                &["createRegistration"],
            ]),
        },
        "delete_token" => Endpoint {
            section: "Endpoints, 5. Delete stored data",
            basis: "Sent: authentication.memberId, authentication.accountId, authentication.checksum, authentication.terminalId, paymentType with value DL",
            sent: fields(&[&SIGNED, &TERMINAL, &PAYMENT[5..]]),
        },
        "installments" => Endpoint {
            section: "Endpoints, 6. Installments for a token",
            basis: "Sent: authentication.memberId, authentication.checksum",
            sent: SIGNED.to_vec(),
        },
        "cards_and_accounts" => Endpoint {
            section: "Endpoints, 7. List of registrations",
            basis: "Sent: authentication.memberId, authentication.checksum; customer.customerId is sent when customer-specific details are wanted",
            sent: fields(&[&SIGNED, &CUSTOMER[7..]]),
        },
        "invoices" => Endpoint {
            section: "Endpoints, 8. Invoice list",
            basis: "Sent: authentication.memberId, pagination.pageno, pagination.records",
            sent: vec![
                "authentication.memberId",
                "pagination.pageno",
                "pagination.records",
            ],
        },
        _ => return None,
    })
}

/// A request vector's, by what it holds: `specification` when its operation's endpoint
/// section shows every field it sends, for a merchant, in ASCII; otherwise what it holds
/// beyond the specification, named.
pub(crate) fn request(vector: &Value) -> (Value, &'static str) {
    let operation = vector["operation"].as_str().unwrap();
    let form: Vec<(&str, &str)> = vector["form"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| (pair[0].as_str().unwrap(), pair[1].as_str().unwrap()))
        .collect();
    let signed = form.iter().any(|(name, _)| *name == SIGNED[1]);
    match (operation, endpoint(operation)) {
        ("invoices", _) if signed => other(
            "platform-observed",
            "optional",
            "the specification shows the invoice request without a checksum; some gateways ask for memberId|secureKey",
        ),
        ("pay_with_token", _) => other(
            "platform-docs",
            "must",
            "the specification gives the checksum of a payment with stored data, not its fields",
        ),
        (_, Some(endpoint)) => {
            let beyond: Vec<&str> = form
                .iter()
                .map(|(name, _)| *name)
                .filter(|name| !endpoint.sent.contains(name))
                .collect();
            let utf8 = form.iter().any(|(_, value)| !value.is_ascii());
            let mut beyond_words = Vec::new();
            if utf8 {
                beyond_words.push("text beyond ASCII, signed and sent as UTF-8: the specification leaves the character encoding open".to_owned());
            }
            if !beyond.is_empty() {
                beyond_words.push(format!(
                    "fields the specification's {} does not list: {}",
                    endpoint.section,
                    beyond.join(", ")
                ));
            }
            if !beyond_words.is_empty() {
                let kind = if utf8 {
                    "platform-observed"
                } else {
                    "platform-docs"
                };
                other(kind, "must", &beyond_words.join("; "))
            } else {
                let section = if signed {
                    format!("{}; Authentication, 4", endpoint.section)
                } else {
                    endpoint.section.to_owned()
                };
                specification(&section, endpoint.basis, "must")
            }
        }
        _ => other("platform-docs", "must", ""),
    }
}

/// The operations the specification shows the `AuthToken` header on.
const TOKEN_SHOWN: [&str; 6] = [
    "customer_signup",
    "pay",
    "register",
    "installments",
    "cards_and_accounts",
    "invoices",
];

/// Each header of a request vector with its own source and level: the vector's label
/// covers its method, path, fields and checksum.
pub(crate) fn header_rules(operation: &str, headers: &[Value]) -> Value {
    let rules: Vec<Value> = headers
        .iter()
        .map(|header| {
            let name = header[0].as_str().unwrap();
            let (source, level) = match name {
                "Content-Type" => other(
                    "platform-observed",
                    "must",
                    "the specification leaves the content type open (\"content type header of the requests: not shown\"); gateways read the form as application/x-www-form-urlencoded; parameters such as charset are the client's",
                ),
                _ if TOKEN_SHOWN.contains(&operation) => specification(
                    "Authentication, 1",
                    "Requests carry an AuthToken header holding an authentication token. This header is shown on customer sign-up, payments, registrations, installment, cards-and-accounts and invoice list requests.",
                    "must",
                ),
                _ => other(
                    "platform-docs",
                    "must",
                    "the platform's documentation sends the token on every call but the auth-token calls; the specification leaves this request open",
                ),
            };
            let mut rule = json!({ "name": name, "source": source, "level": level });
            if name == "Content-Type" {
                rule["compare"] = "media type".into();
            }
            rule
        })
        .collect();
    Value::Array(rules)
}

/// A base answer vector's, by operation and fixture.
fn answer_fixture(operation: &str, fixture: &str) -> (Value, &'static str) {
    let success = |code: &str, words: &str, response: &str, fields: &str| {
        specification(
            &format!("Errors; Resources and their fields, {response}"),
            &format!("{code} | {words}; {response}: {fields}"),
            "must",
        )
    };
    match (operation, fixture) {
        ("payment", "approved") => success(
            "00001",
            "Transaction succeeded | payment, payment with stored data",
            "Payment response",
            "paymentId, …, result, …, transactionStatus (Y is shown)",
        ),
        ("token_payment", "approved") => success(
            "00001",
            "Transaction succeeded | payment, payment with stored data",
            "Stored-data payment response",
            "paymentId, paymentType, result, timestamp",
        ),
        ("registration", "card") => success(
            "00002",
            "Registration successful | stand-alone registration",
            "Registration response",
            "registrationId, memberId, paymentBrand, paymentMode, result, timestamp",
        ),
        ("registration", "bank_account") => other(
            "platform-docs",
            "must",
            "a bank account's registration (paymentBrand DIRECTDEBIT, paymentMode SEPA) is the platform's; the specification names the BIC in the checksum only",
        ),
        ("delete_token", "success") => success(
            "00003",
            "Registration successfully deleted | delete stored data",
            "Delete response",
            "registrationId, result, timestamp",
        ),
        ("customer_signup", "success") => success(
            "00007",
            "Cardholder successfully registered | customer sign-up",
            "Customer sign-up response",
            "memberId, customerId, result, timestamp",
        ),
        ("customer_signup", "success_partner") => other(
            "platform-docs",
            "must",
            "a partner's sign-up answers partnerId where the specification shows memberId",
        ),
        ("cards_and_accounts", "success") => success(
            "0008",
            "Your request processed successfully | cards and accounts list",
            "Cards-and-accounts response",
            "cards.card | list of card registrations; bankaccounts.bankaccount | bank account registration; shown as a single object",
        ),
        ("installments", "success") => specification(
            "Resources and their fields, Installment response",
            "registrationId | the token; installment | one text value holding installment counts separated by commas",
            "must",
        ),
        ("invoice_list", "position_map") => other(
            "platform-observed",
            "must",
            "the specification's invoice list, a map of position labels, as gateways send it: with a statusInvoiceResult object and its code 00001, which the specification does not show",
        ),
        ("invoice_list", "no_records") => other(
            "sandbox-choice",
            "must",
            "paytoken's reading: a refusal whose description says there are no records (no record, no invoice, no data) and that holds no invoice is an empty page; the code is the sandbox's",
        ),
        ("installments", "malformed_counts") => other(
            "sandbox-choice",
            "must",
            "paytoken's reading: installment counts that do not read make the answer undecodable, never a plan of fewer counts",
        ),
        (_, "bad_gateway_502" | "truncated") => other(
            "platform-observed",
            "must",
            "a proxy's page, a cut body: the request may have been processed",
        ),
        (_, joined) if joined.contains("joined") || joined == "refused_validation" => other(
            "platform-docs",
            "tolerate",
            "several codes joined with |: the family of the first decides; the codes are the sandbox's",
        ),
        (_, "not_found" | "no_plan") => refusal(),
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
        ("inquiry", "long_status_unknown") => safety(),
        ("cards_and_accounts", "no_registrations") => other(
            "platform-docs",
            "tolerate",
            "the documentation's words for a list with no registrations; its code is not public",
        ),
        _ => other("platform-docs", "must", ""),
    }
}

/// The kit's safety rule, which no `--source` leaves out: a status is read approved only
/// where the rules read it so; one they do not name is never approved.
pub(crate) fn safety() -> (Value, &'static str) {
    other(
        "safety",
        "must",
        "the kit's safety rule: a payment is read approved only where the rules say so; a status they do not name (a long status, or a short one) is never reason to ship",
    )
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
        Some(_) if fixture == "safety" => safety(),
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
        "amount-as-json-number" | "pending-bank-transfer" => {
            other("platform-observed", "tolerate", "")
        }
        "long-status-signed" | "no-transaction-status" => other(
            "platform-docs",
            "must",
            "the notification rule signs the short transactionStatus: without it, or signed over another text, a notification does not verify",
        ),
        "unknown-status" => safety(),
        "signed-form-field-repeated" | "signed-key-padded-and-repeated" => other(
            "sandbox-choice",
            "must",
            "paytoken's rule: a signed field that appears twice is refused, whatever the checksum",
        ),
        _ => other("platform-docs", "must", ""),
    }
}

/// Every label the kit's files hold, with the id of what carries it: each vector's and
/// rule's `source` and `level`, and each header rule's of a request vector.
fn labels(conformance: &std::path::Path) -> Vec<(String, Value, Value)> {
    let mut labels = Vec::new();
    for file in [
        "checksum-rules.json",
        "checksum-vectors.json",
        "request-vectors.json",
        "answer-vectors.json",
        "notification-vectors.json",
        "negative-vectors.json",
    ] {
        let text = std::fs::read_to_string(conformance.join(file)).unwrap();
        let kit: Value = serde_json::from_str(&text).unwrap();
        let entries = kit.get("vectors").or_else(|| kit.get("rules")).unwrap();
        for entry in entries.as_array().unwrap() {
            let id = entry.get("id").or_else(|| entry.get("rule")).unwrap();
            let id = id.as_str().unwrap().to_owned();
            labels.push((id.clone(), entry["source"].clone(), entry["level"].clone()));
            for rule in entry["headerRules"].as_array().into_iter().flatten() {
                let header = format!("{id} header {}", rule["name"].as_str().unwrap());
                labels.push((header, rule["source"].clone(), rule["level"].clone()));
            }
        }
    }
    labels
}

#[test]
fn every_specification_label_quotes_the_words_it_rests_on() {
    let conformance =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/conformance");
    let labels = labels(&conformance);
    let quoted = labels
        .iter()
        .filter(|(_, source, _)| source["kind"] == "specification")
        .inspect(|(id, source, _)| {
            for key in ["section", "basis"] {
                let words = source[key].as_str().unwrap_or_default();
                assert!(words.len() > 10, "{id}: no {key} in {source}");
            }
        })
        .count();
    assert!(quoted > 30, "{quoted} labels of the specification");
}

#[test]
fn the_specification_s_vectors_sign_ascii_text_only() {
    let conformance =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/conformance");
    for file in ["checksum-vectors.json", "request-vectors.json"] {
        let text = std::fs::read_to_string(conformance.join(file)).unwrap();
        let kit: Value = serde_json::from_str(&text).unwrap();
        for vector in kit["vectors"].as_array().unwrap() {
            if vector["source"]["kind"] != "specification" {
                continue;
            }
            let signed = [&vector["secureKey"], &vector["values"], &vector["form"]];
            let text = serde_json::to_string(&signed).unwrap();
            assert!(text.is_ascii(), "{}: {text}", vector["id"]);
        }
    }
}

#[test]
fn a_fact_the_specification_leaves_open_is_not_labelled_specification() {
    let conformance =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/conformance");
    let labels = labels(&conformance);
    let label = |id: &str| {
        let (_, source, level) = labels.iter().find(|(of, ..)| of == id).unwrap();
        (source["kind"].as_str().unwrap(), level.as_str().unwrap())
    };
    let open = [
        // The content type, on every request.
        "request/payment header Content-Type",
        "request/installments header Content-Type",
        // partnerId: the specification's caller field is memberId.
        "request/customer_signup_partner",
        "request/cards_and_accounts_partner_customer",
        // Whether delete sends the AuthToken header.
        "request/delete_token header AuthToken",
        // UTF-8 signing.
        "request/customer_signup",
        "checksum/payment/3",
        "checksum/bank_account_registration/2",
        "checksum/delete_token/2",
        // terminalId on a registration, a bank account's fields, DIRECTDEBIT and SEPA.
        "request/registration_card",
        "request/registration_bank_account",
        "answer/registration/bank_account",
        // statusInvoiceResult and its 00001.
        "answer/invoice_list/position_map",
    ];
    for id in open {
        assert_ne!(label(id).0, "specification", "{id}");
    }
    for id in [
        "request/delete_token",
        "request/installments",
        "request/cards_and_accounts",
        "request/invoice_list_unsigned",
        "request/installments header AuthToken",
    ] {
        assert_eq!(label(id).0, "specification", "{id}");
    }
    // Expected rejections are not tolerance; the kit's own readings are its choice.
    for id in [
        "notification/long-status-signed",
        "notification/no-transaction-status",
    ] {
        assert_eq!(label(id).1, "must", "{id}");
    }
    for id in [
        "answer/invoice_list/no_records",
        "answer/installments/malformed_counts",
        "answer/payment/approved/merchantTransactionId-contradicts",
    ] {
        assert_eq!(label(id), ("sandbox-choice", "must"), "{id}");
    }
}
