//! The conformance kit for SDK authors in other languages (`fixtures/conformance/`): the
//! checksum rules as a language-neutral table, which must agree with every checksum vector
//! and name every rule paytoken has; and the Python reference checker, which must pass on
//! every vector (checksums, requests, answers, notifications) with the real table and fail
//! on one with an order swapped. The request, answer and notification vectors are made by
//! paytoken-protocol's tests (`tests/it/conformance.rs` there). A client generated from
//! the kit's OpenAPI document works against the sandbox (`generated_client`).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

mod generated_client;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn json(path: &str) -> Value {
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// `rule` name to its joined parts, from the table.
fn rules(table: &Value) -> Vec<(String, Vec<String>)> {
    table["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| {
            let parts = rule["joined"].as_array().unwrap();
            (
                rule["rule"].as_str().unwrap().to_owned(),
                parts
                    .iter()
                    .map(|part| part.as_str().unwrap().to_owned())
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn the_rule_table_joins_every_vector_to_its_hash() {
    let table = json("fixtures/conformance/checksum-rules.json");
    let separator = table["separator"].as_str().unwrap();
    let rules = rules(&table);
    let vectors = json("fixtures/checksum-vectors.json");
    for vector in vectors.as_array().unwrap() {
        let name = vector["rule"].as_str().unwrap();
        let (_, parts) = rules.iter().find(|(rule, _)| rule == name).unwrap();
        let mut fields = vector["fields"].as_array().unwrap().iter();
        let joined: Vec<&str> = parts
            .iter()
            .map(|part| match part.as_str() {
                "id" => vector["id"].as_str().unwrap(),
                "key" => vector["secureKey"].as_str().unwrap(),
                _ => fields.next().unwrap().as_str().unwrap(),
            })
            .collect();
        assert!(fields.next().is_none(), "{name}: more fields than parts");
        let text = joined.join(separator);
        assert_eq!(
            format!("{:x}", md5_oracle::compute(text.as_bytes())),
            vector["md5"].as_str().unwrap(),
            "{name}: {}",
            vector["masked"]
        );
    }
}

/// A value for each named part, to read the order of the code's joined text.
fn sentinel(part: &str) -> &'static str {
    match part {
        "id" => "11344",
        "key" => "***",
        "merchantTransactionId" => "MTI",
        "amount" => "1.23",
        "card.number" => "400000******0051",
        "bankAccount.bic" => "DEUTDEFF",
        "registrationId" => "REG1",
        "customer.givenName" => "Given",
        "customer.surname" => "Sur",
        "customer.email" => "e@x.io",
        "paymentId" => "777",
        "transactionStatus" => "Y",
        other => panic!("a part the sentinels do not know: {other}"),
    }
}

/// What paytoken's own rule joins for the sentinels: its masked text.
fn joined_by_the_code(rule: &str) -> String {
    use paytoken_checksum::{Credentials, SecureKey, rules};
    use paytoken_types::{
        Bic, CardNumber, Email, MerchantTransactionId, PaymentId, RegistrationId,
    };

    let key = SecureKey::new("the-key").unwrap();
    let credentials = Credentials::merchant("11344".parse().unwrap(), key.clone());
    let order = MerchantTransactionId::new("MTI").unwrap();
    let amount = "1.23".parse().unwrap();
    let card = CardNumber::new("4000000000000051").unwrap();
    let bic = Bic::new("DEUTDEFF").unwrap();
    let token = RegistrationId::new("REG1").unwrap();
    let email = Email::new("e@x.io").unwrap();
    let payment = PaymentId::new("777").unwrap();
    let input = match rule {
        "payment" => rules::payment(&credentials, &order, amount),
        "card_registration" => rules::card_registration(&credentials, &card),
        "bank_account_registration" => rules::bank_account_registration(&credentials, &bic),
        "token_payment" => rules::token_payment(&credentials, &token, amount),
        "delete_token" => rules::delete_token(&credentials, &token),
        "customer_signup" => rules::customer_signup(&credentials, "Given", "Sur", &email).unwrap(),
        "cards_and_accounts" => rules::cards_and_accounts(&credentials),
        "installments" => rules::installments(&credentials, &token),
        "invoice_list" => rules::invoice_list(&credentials),
        "inquiry_by_payment_id" => rules::inquiry_by_payment_id(&credentials, &payment),
        "inquiry_by_merchant_transaction_id" => {
            rules::inquiry_by_merchant_transaction_id(&credentials, &order)
        }
        "capture" => rules::capture(&credentials, &payment, amount),
        "refund" => rules::refund(&credentials, &payment, amount),
        "cancel" => rules::cancel(&credentials, &payment),
        "repeat_payment" => rules::repeat_payment(&credentials, &payment, amount),
        "notification" => {
            // No masked text: the order is read from which joined text hashes to its value.
            let checksum = rules::notification(&key, "777", "MTI", "1.23", "Y").unwrap();
            return checksum.to_hex().as_str().to_owned();
        }
        other => panic!("a rule this test does not know: {other}"),
    };
    input.masked().to_string()
}

#[test]
fn the_rule_table_orders_the_parts_as_the_code_does() {
    let table = json("fixtures/conformance/checksum-rules.json");
    for (rule, parts) in rules(&table) {
        let by_the_table: Vec<&str> = parts.iter().map(|part| sentinel(part)).collect();
        let by_the_table = by_the_table.join("|");
        let by_the_code = joined_by_the_code(&rule);
        if rule == "notification" {
            let with_key = by_the_table.replace("***", "the-key");
            assert_eq!(
                format!("{:x}", md5_oracle::compute(with_key.as_bytes())),
                by_the_code,
                "{rule}: {by_the_table}"
            );
        } else {
            assert_eq!(by_the_table, by_the_code, "{rule}");
        }
    }
}

#[test]
fn every_checksum_rule_of_paytoken_has_its_row_and_vectors() {
    let table = json("fixtures/conformance/checksum-rules.json");
    let rules = rules(&table);
    let vectors = json("fixtures/checksum-vectors.json");
    // The rules are the public functions of paytoken-checksum's `rules` module, as the
    // public API snapshot lists them.
    let api = std::fs::read_to_string(root().join("api/paytoken-checksum.txt")).unwrap();
    let section = api
        .split("mod paytoken_checksum::rules\n")
        .nth(1)
        .unwrap()
        .split("\n\n")
        .next()
        .unwrap();
    let in_code: Vec<&str> = section
        .lines()
        .filter_map(|line| line.strip_prefix("pub fn "))
        .map(|rest| rest.split(['<', '(']).next().unwrap().trim())
        .collect();
    assert!(in_code.len() >= 16, "{in_code:?}");
    for rule in &in_code {
        assert!(
            rules.iter().any(|(name, _)| name == rule),
            "{rule} has no row in fixtures/conformance/checksum-rules.json"
        );
        assert!(
            vectors
                .as_array()
                .unwrap()
                .iter()
                .any(|v| v["rule"] == *rule),
            "{rule} has no vector in fixtures/checksum-vectors.json"
        );
    }
    for (name, _) in &rules {
        assert!(
            in_code.contains(&name.as_str()),
            "{name} is no rule of paytoken's"
        );
    }
}

/// Where a checksum vector's fact comes from (see the kit's README), and how binding it is:
/// its rule's, as the table says, unless the vector goes beyond the specification's rule:
/// a partner signing where the specification shows only a merchant (all but sign-up and
/// the cards list), or text that is not ASCII (the specification does not say the
/// encoding).
fn checksum_provenance(rule: &Value, partner: bool, ascii: bool) -> (Value, Value) {
    let (source, level) = (rule["source"].clone(), rule["level"].clone());
    if source["kind"] != "specification" {
        return (source, level);
    }
    let partner_in_specification = matches!(
        rule["rule"].as_str(),
        Some("customer_signup" | "cards_and_accounts")
    );
    let note = if !ascii {
        "text beyond ASCII hashed as its UTF-8 bytes: the specification leaves the character encoding open"
    } else if partner && !partner_in_specification {
        "a partner signs with its partner id and its own secure key"
    } else {
        return (source, level);
    };
    let kind = if ascii {
        "platform-docs"
    } else {
        "platform-observed"
    };
    (serde_json::json!({ "kind": kind, "note": note }), level)
}

/// The conformance vectors: paytoken's checksum vectors, each value named by the part it
/// fills (by the table, which the test above holds to the code), with a stable id.
fn named_vectors() -> Value {
    let table = json("fixtures/conformance/checksum-rules.json");
    let rules = rules(&table);
    let vectors = json("fixtures/checksum-vectors.json");
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    let named: Vec<Value> = vectors
        .as_array()
        .unwrap()
        .iter()
        .map(|vector| {
            let rule = vector["rule"].as_str().unwrap();
            let (_, parts) = rules.iter().find(|(name, _)| name == rule).unwrap();
            let named_parts = parts
                .iter()
                .filter(|part| !matches!(part.as_str(), "id" | "key"));
            let values: serde_json::Map<String, Value> = named_parts
                .zip(vector["fields"].as_array().unwrap())
                .map(|(part, value)| (part.clone(), value.clone()))
                .collect();
            let count = counts.entry(rule.to_owned()).or_default();
            *count += 1;
            let ascii = values
                .values()
                .chain([&vector["secureKey"]])
                .all(|value| value.as_str().is_some_and(str::is_ascii));
            let entry = table["rules"]
                .as_array()
                .unwrap()
                .iter()
                .find(|entry| entry["rule"] == rule)
                .unwrap();
            let (source, level) =
                checksum_provenance(entry, vector["credentials"] == "partner", ascii);
            serde_json::json!({
                "id": format!("checksum/{rule}/{count}"),
                "rule": rule,
                "credentials": vector["credentials"],
                "callerId": vector["id"],
                "secureKey": vector["secureKey"],
                "values": values,
                "joinedMasked": vector["masked"],
                "checksum": vector["md5"],
                "source": source,
                "level": level,
            })
        })
        .collect();
    serde_json::json!({
        "kit": table["kit"],
        "about": "Checksum vectors: for each, the rule, the caller (merchant: authentication.memberId; partner: authentication.partnerId), the secure key, the value of each named part, the joined text with the key as *** (and a card number masked), and the checksum. Rules: checksum-rules.json. Hashes computed by Python's hashlib (fixtures/make_checksum_vectors.py) and by paytoken.",
        "vectors": named,
    })
}

/// The kit's version and the fingerprint of the specification, as the rule table holds them.
pub(crate) fn kit() -> Value {
    json("fixtures/conformance/checksum-rules.json")["kit"].clone()
}

/// Compares the kit's file `name` (under `fixtures/conformance/`) with `made`, or writes
/// it when `PAYTOKEN_WRITE_CONFORMANCE` is set.
pub(crate) fn holds(name: &str, made: &str) {
    let path = root().join("fixtures/conformance").join(name);
    if std::env::var_os("PAYTOKEN_WRITE_CONFORMANCE").is_some() {
        std::fs::write(&path, made).unwrap();
    }
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        written == made,
        "fixtures/conformance/{name} is not what the tests make: PAYTOKEN_WRITE_CONFORMANCE=1 cargo test -p tests --test it conformance writes it"
    );
}

#[test]
fn the_named_vectors_are_paytoken_s_vectors_named_by_the_table() {
    holds(
        "checksum-vectors.json",
        &(serde_json::to_string_pretty(&named_vectors()).unwrap() + "\n"),
    );
}

/// Runs the Python checker with `rules`; whether it passed, and what it printed.
fn python_checker(rules: &Path) -> (bool, String) {
    python_checker_in(rules, &root().join("fixtures/conformance"), &[])
}

/// Runs the Python checker with `rules` on the vectors in `folder`, with `flags`.
fn python_checker_in(rules: &Path, folder: &Path, flags: &[&str]) -> (bool, String) {
    let output = Command::new("python3")
        .arg(root().join("fixtures/conformance/check.py"))
        .arg("--rules")
        .arg(rules)
        .arg("--dir")
        .arg(folder)
        .args(flags)
        .output()
        .expect("python3: install Debian's python3 (cargo xtask ci does)");
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    (output.status.success(), text)
}

#[test]
#[ignore = "needs python3; cargo xtask ci installs it where missing and runs this test"]
fn the_python_checker_agrees_with_every_vector_and_catches_a_swapped_order() {
    let real = root().join("fixtures/conformance/checksum-rules.json");
    let (passed, printed) = python_checker(&real);
    assert!(passed, "{printed}");
    for kind in ["checksum", "request", "notification", "answer", "negative"] {
        let total = json(&format!("fixtures/conformance/{kind}-vectors.json"))["vectors"]
            .as_array()
            .unwrap()
            .len();
        assert!(
            printed.contains(&format!("{total} of {total} {kind} vectors agree")),
            "{printed}"
        );
    }

    // What the specification alone decides: those vectors, and the kit's safety rules,
    // which every selection takes.
    let (passed, printed) = python_checker_in(
        &real,
        &root().join("fixtures/conformance"),
        &["--source", "specification"],
    );
    assert!(passed, "{printed}");
    for kind in ["checksum", "request", "notification", "answer", "negative"] {
        let of_specification =
            json(&format!("fixtures/conformance/{kind}-vectors.json"))["vectors"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|vector| {
                    let kind = &vector["source"]["kind"];
                    kind == "specification" || kind == "safety"
                })
                .count();
        assert!(
            printed.contains(&format!(
                "{of_specification} of {of_specification} {kind} vectors agree"
            )),
            "{printed}"
        );
    }

    // One order swapped: the payment's amount before its merchant transaction id.
    let mut table = json("fixtures/conformance/checksum-rules.json");
    let payment = table["rules"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|rule| rule["rule"] == "payment")
        .unwrap();
    payment["joined"] = serde_json::json!(["id", "key", "amount", "merchantTransactionId"]);
    let broken =
        std::env::temp_dir().join(format!("paytoken-broken-rules-{}.json", std::process::id()));
    std::fs::write(&broken, table.to_string()).unwrap();
    let (passed, printed) = python_checker(&broken);
    let _ = std::fs::remove_file(&broken);
    assert!(!passed, "a swapped order must fail: {printed}");
    assert!(
        printed.contains("(payment)"),
        "it names the payment vectors: {printed}"
    );
}

/// A change made to a vector.
type Change = fn(&mut Value);

#[test]
#[ignore = "needs python3; cargo xtask ci installs it where missing and runs this test"]
fn the_python_checker_catches_a_wrong_byte_of_a_request_answer_or_notification() {
    let kit = root().join("fixtures/conformance");
    let rules = kit.join("checksum-rules.json");
    // Each change, to a copy of the kit, and the vector the checker must name.
    let changes: [(&str, &str, Change); 3] = [
        ("request-vectors.json", "request/", |v| {
            // A field more: the fields, as a multiset, differ.
            v["body"] = Value::from(format!("{}&surplus=1", v["body"].as_str().unwrap()));
        }),
        ("answer-vectors.json", "answer/", |v| {
            v["verdict"] = serde_json::json!({ "outcome": "refused", "resultCode": "00001", "mayHaveBeenProcessed": false });
        }),
        ("notification-vectors.json", "notification/", |v| {
            v["secureKey"] = Value::from("another key");
        }),
    ];
    for (file, id, change) in changes {
        let folder = std::env::temp_dir().join(format!(
            "paytoken-kit-{}-{}",
            std::process::id(),
            file.trim_end_matches(".json")
        ));
        std::fs::create_dir_all(&folder).unwrap();
        for name in [
            "checksum-vectors.json",
            "request-vectors.json",
            "answer-vectors.json",
            "notification-vectors.json",
            "negative-vectors.json",
        ] {
            std::fs::copy(kit.join(name), folder.join(name)).unwrap();
        }
        let mut vectors = json(&format!("fixtures/conformance/{file}"));
        let first = &mut vectors["vectors"][0];
        let named = first["id"].as_str().unwrap().to_owned();
        change(first);
        std::fs::write(folder.join(file), vectors.to_string()).unwrap();
        let (passed, printed) = python_checker_in(&rules, &folder, &[]);
        let _ = std::fs::remove_dir_all(&folder);
        assert!(!passed, "{file}: a changed vector must fail: {printed}");
        assert!(
            named.starts_with(id) && printed.contains(&named),
            "{file}: {printed}"
        );
    }
}

/// Copies the kit's folder, files and schemas, into `to`.
fn copy_kit(to: &Path) {
    let kit = root().join("fixtures/conformance");
    for folder in ["", "schemas"] {
        std::fs::create_dir_all(to.join(folder)).unwrap();
        for entry in std::fs::read_dir(kit.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                std::fs::copy(&path, to.join(folder).join(path.file_name().unwrap())).unwrap();
            }
        }
    }
}

/// Runs `validate.py` in `folder` with the validators' Python; whether it passed, and what
/// it printed.
fn standard_validators(folder: &Path) -> (bool, String) {
    let python = std::env::var_os("PAYTOKEN_CONFORMANCE_PYTHON").expect(
        "PAYTOKEN_CONFORMANCE_PYTHON: a python3 with openapi-spec-validator and jsonschema (cargo xtask ci makes one)",
    );
    let output = Command::new(python)
        .arg(folder.join("validate.py"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    (output.status.success(), text)
}

#[test]
#[ignore = "needs openapi-spec-validator and jsonschema; cargo xtask ci installs them and runs this test"]
fn the_standard_validators_accept_the_kit_and_reject_its_negative_examples() {
    let (passed, printed) = standard_validators(&root().join("fixtures/conformance"));
    assert!(passed, "{printed}");
    let answers = json("fixtures/conformance/answer-vectors.json")["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|vector| {
            vector["status"] == 200
                && serde_json::from_str::<Value>(vector["body"].as_str().unwrap()).is_ok()
        })
        .count();
    assert!(
        printed.contains(&format!(
            "{answers} answer vectors checked against their tolerant and path schemas"
        )),
        "{printed}"
    );
    let requests = json("fixtures/conformance/request-vectors.json")["vectors"]
        .as_array()
        .unwrap()
        .len();
    assert!(
        printed.contains(&format!(
            "{requests} request vectors checked against their forms"
        )),
        "{printed}"
    );

    // A schema gone soft is caught: an approval listed as what `transaction` rejects.
    let folder =
        std::env::temp_dir().join(format!("paytoken-kit-validators-{}", std::process::id()));
    copy_kit(&folder);
    let schemas = folder.join("schemas/answers.schema.json");
    let mut schema: Value =
        serde_json::from_str(&std::fs::read_to_string(&schemas).unwrap()).unwrap();
    schema["$defs"]["transaction"]["x-rejects"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({ "paymentId": "1", "result": { "code": "00001" } }));
    std::fs::write(&schemas, schema.to_string()).unwrap();
    let (passed, printed) = standard_validators(&folder);
    let _ = std::fs::remove_dir_all(&folder);
    assert!(!passed, "{printed}");
    assert!(
        printed.contains("transaction accepts"),
        "it names the definition: {printed}"
    );
}
