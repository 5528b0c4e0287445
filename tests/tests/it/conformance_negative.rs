//! The negative vectors of the conformance kit (`fixtures/conformance/negative-vectors.json`):
//! a payment request made with each usual mistake (a checksum made wrong in each of the
//! ways integrators make it, a field missing or sent twice, a query string, a JSON body),
//! each sent to a sandbox that explains its refusals, and kept with the refusal code it
//! got and the explanation `--explain` gave; beside them, valid requests it took (positive
//! controls, which a client must not refuse). The file is what this test makes
//! (`PAYTOKEN_WRITE_CONFORMANCE=1` writes it).

use paytoken::ops::auth_token::FetchAuthToken;
use paytoken_sandbox::{DEFAULT_MERCHANT_ID, EXPLAIN_HEADER, Sandbox};
use paytoken_test_support::http;
use serde_json::{Value, json};

use crate::conformance::holds;

const PAYMENTS: &str = "/transactionServices/REST/v1/payments";

/// One mistaken request: what is sent, and how it was made.
struct Mistake {
    name: &'static str,
    /// A positive control: a valid request, which a client must not refuse.
    valid: bool,
    about: &'static str,
    /// The fields sent, in order, decoded (the checksum among them).
    form: Vec<(String, String)>,
    /// The body as sent, when it is not `form` encoded.
    body: Option<String>,
    query: Option<&'static str>,
    content_type: &'static str,
    source: Value,
    level: &'static str,
}

fn md5(text: &[u8]) -> String {
    format!("{:x}", md5_oracle::compute(text))
}

fn sha_256(text: &str) -> String {
    ring::digest::digest(&ring::digest::SHA256, text.as_bytes())
        .as_ref()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

fn specification(section: &str, basis: &str) -> Value {
    json!({
        "kind": "specification",
        "section": section,
        "basis": basis,
        "note": SANDBOX_WORDS,
    })
}

/// The specification's words a checksum mistake breaks.
fn broken_words(name: &str) -> String {
    const JOINING: &str = "MD5 over a text built by joining the listed fields, in the stated order, with the vertical bar character";
    const PAYMENT: &str =
        "Store data during a payment | memberId, secureKey, merchantTransactionId, amount";
    match name {
        "upper-case-hex" => {
            "The result is the hash as lowercase hexadecimal, left-padded with zeros to 32 characters.".to_owned()
        }
        "amount-as-50" | "leading-zero-dropped" => {
            "Amount in the checksum is the same text as the amount parameter.".to_owned()
        }
        "percent-encoded" | "form-encoded" => {
            format!("{JOINING} (the fields' values, not an encoding of them); {PAYMENT}")
        }
        "sha-256" => "Checksum algorithm: MD5 over a text built by joining the listed fields".to_owned(),
        "another-separator" => JOINING.to_owned(),
        "another-callers-key" => "secureKey is a secret key generated in the service's dashboard … A partner has its own secure key".to_owned(),
        _ => format!("{JOINING}; {PAYMENT}"),
    }
}

fn other(kind: &str, note: &str) -> Value {
    json!({ "kind": kind, "note": note })
}

/// The refusal code and the explanation are the sandbox's.
const SANDBOX_WORDS: &str = "the refusal code and the explanation are the sandbox's own";

/// Every mistake, for the merchant `member` with `key` (and another caller's key).
fn mistakes(member: &str, key: &str, other_key: &str) -> Vec<Mistake> {
    let payment = |order: &str, amount: &str, checksum: String| -> Vec<(String, String)> {
        [
            ("authentication.memberId", member),
            ("authentication.checksum", checksum.as_str()),
            ("merchantTransactionId", order),
            ("amount", amount),
            ("currency", "EUR"),
            ("paymentType", "DB"),
            ("paymentBrand", "VISA"),
            ("paymentMode", "CC"),
            ("card.number", "4000000000000051"),
            ("card.expiryMonth", "12"),
            ("card.expiryYear", "2030"),
            ("card.cvv", "123"),
        ]
        .into_iter()
        .map(|(name, value)| (name.to_owned(), value.to_owned()))
        .collect()
    };
    let signed = |joined: String| md5(joined.as_bytes());
    let checksum_mistake = |name, about, order: &str, amount: &str, checksum: String| Mistake {
        name,
        valid: false,
        about,
        form: payment(order, amount, checksum),
        body: None,
        query: None,
        content_type: "application/x-www-form-urlencoded",
        source: specification("Authentication, 3 to 6", &broken_words(name)),
        level: "must",
    };
    let right = |order: &str, amount: &str| signed(format!("{member}|{key}|{order}|{amount}"));
    let latin_1: Vec<u8> = format!("{member}|{key}|Zoë-7|50.00")
        .chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap())
        .collect();
    let mut all = vec![
        checksum_mistake(
            "upper-case-hex",
            "the checksum in upper-case hexadecimal digits",
            "negative-1",
            "50.00",
            right("negative-1", "50.00").to_ascii_uppercase(),
        ),
        checksum_mistake(
            "key-last",
            "the secure key at the end of the joined text",
            "negative-2",
            "50.00",
            signed(format!("{member}|negative-2|50.00|{key}")),
        ),
        checksum_mistake(
            "key-first",
            "the secure key before the id",
            "negative-3",
            "50.00",
            signed(format!("{key}|{member}|negative-3|50.00")),
        ),
        checksum_mistake(
            "parts-swapped",
            "the amount before the merchant transaction id",
            "negative-4",
            "50.00",
            signed(format!("{member}|{key}|50.00|negative-4")),
        ),
        checksum_mistake(
            "amount-as-50",
            "the amount signed as 50 where the form sends 50.00",
            "negative-5",
            "50.00",
            signed(format!("{member}|{key}|negative-5|50")),
        ),
        checksum_mistake(
            "percent-encoded",
            "a value signed percent-encoded, as the URL would carry it",
            "negative 6",
            "50.00",
            signed(format!("{member}|{key}|negative%206|50.00")),
        ),
        checksum_mistake(
            "form-encoded",
            "a value signed form-encoded, as the body carries it",
            "negative 7",
            "50.00",
            signed(format!("{member}|{key}|negative+7|50.00")),
        ),
        Mistake {
            source: other(
                "platform-observed",
                "the joined text is hashed as UTF-8; the refusal code and the explanation are the sandbox's own",
            ),
            ..checksum_mistake(
                "latin-1",
                "the joined text hashed as Latin-1 bytes, not UTF-8",
                "Zoë-7",
                "50.00",
                md5(&latin_1),
            )
        },
        checksum_mistake(
            "sha-256",
            "SHA-256 where the rule is MD5",
            "negative-9",
            "50.00",
            sha_256(&format!("{member}|{key}|negative-9|50.00")),
        ),
        checksum_mistake(
            "leading-zero-dropped",
            "the amount 0.50 signed as .50",
            "negative-10",
            "0.50",
            signed(format!("{member}|{key}|negative-10|.50")),
        ),
        checksum_mistake(
            "another-separator",
            "the parts joined with ; where the separator is |",
            "negative-11",
            "50.00",
            signed(format!("{member};{key};negative-11;50.00")),
        ),
        checksum_mistake(
            "another-callers-key",
            "signed with another caller's secure key (its partner's)",
            "negative-12",
            "50.00",
            signed(format!("{member}|{other_key}|negative-12|50.00")),
        ),
        checksum_mistake(
            "extra-part",
            "the currency signed too, after the amount",
            "negative-13",
            "50.00",
            signed(format!("{member}|{key}|negative-13|50.00|EUR")),
        ),
    ];
    let mut missing = payment("negative-14", "50.00", right("negative-14", "50.00"));
    missing.retain(|(name, _)| name != "merchantTransactionId");
    all.push(Mistake {
        name: "field-missing",
        valid: false,
        about: "the merchant transaction id left out",
        form: missing,
        body: None,
        query: None,
        content_type: "application/x-www-form-urlencoded",
        source: other("sandbox-choice", SANDBOX_WORDS),
        level: "must",
    });
    let mut repeated = payment("negative-15", "50.00", right("negative-15", "50.00"));
    repeated.push(("amount".to_owned(), "5000.00".to_owned()));
    all.push(Mistake {
        name: "field-repeated",
        valid: false,
        about: "the amount sent twice: which one was signed?",
        form: repeated,
        body: None,
        query: None,
        content_type: "application/x-www-form-urlencoded",
        source: other(
            "sandbox-choice",
            "paytoken refuses a field sent twice; the refusal code and the explanation are the sandbox's own",
        ),
        level: "must",
    });
    all.push(Mistake {
        name: "query-string",
        valid: false,
        about: "a query string on the URL",
        form: payment("negative-16", "50.00", right("negative-16", "50.00")),
        body: None,
        query: Some("amount=50.00"),
        content_type: "application/x-www-form-urlencoded",
        source: other("sandbox-choice", SANDBOX_WORDS),
        level: "must",
    });
    let form = payment("negative-17", "50.00", right("negative-17", "50.00"));
    let object: serde_json::Map<String, Value> = form
        .iter()
        .map(|(name, value)| (name.clone(), Value::from(value.as_str())))
        .collect();
    all.push(Mistake {
        name: "json-body",
        valid: false,
        about: "the fields sent as a JSON object, not a form",
        form,
        body: Some(Value::Object(object).to_string()),
        query: None,
        content_type: "application/json",
        source: specification(
            "What the service does, 8; Endpoints",
            "Request parameters are sent as form fields … Parameters are form fields.",
        ),
        level: "must",
    });
    // Positive controls: valid requests beside the mistakes, so that a client refusing
    // everything fails too.
    let valid = |name, about, form, content_type, source| Mistake {
        name,
        valid: true,
        about,
        form,
        body: None,
        query: None,
        content_type,
        source,
        level: "must",
    };
    all.push(valid(
        "valid-payment",
        "a payment request made right: a client must not refuse it",
        payment("control-1", "50.00", right("control-1", "50.00")),
        "application/x-www-form-urlencoded",
        specification(
            "Authentication, 3 to 6",
            "MD5 over a text built by joining the listed fields, in the stated order, with the vertical bar character",
        ),
    ));
    let mut reordered = payment("control-2", "50.00", right("control-2", "50.00"));
    reordered.reverse();
    all.push(valid(
        "valid-fields-reordered",
        "the same request with its fields in another order, which a form leaves free: a client must not refuse it",
        reordered,
        "application/x-www-form-urlencoded",
        specification(
            "What the service does, 8; Endpoints",
            "Request parameters are sent as form fields … Parameters are form fields.",
        ),
    ));
    all.push(valid(
        "valid-charset",
        "the same request with a charset parameter on its content type, which is the client's: a client must not refuse it",
        payment("control-3", "50.00", right("control-3", "50.00")),
        "application/x-www-form-urlencoded; charset=UTF-8",
        other(
            "platform-observed",
            "the specification leaves the content type open; its parameters are the client's",
        ),
    ));
    all
}

/// The body of `form`, form-encoded.
fn encoded(form: &[(String, String)]) -> String {
    serde_urlencoded::to_string(form).unwrap()
}

/// POSTs `body` to the sandbox with the auth token; the answer's status, its body and the
/// explanation header, if any.
async fn post(
    base_url: &str,
    target: &str,
    content_type: &str,
    token: &str,
    body: &str,
) -> (u16, Value, Option<String>) {
    let answer = http::post(
        &format!("{base_url}{target}"),
        &[("Content-Type", content_type), ("AuthToken", token)],
        body,
    )
    .await;
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let explanation = http::header(head, EXPLAIN_HEADER).map(str::to_owned);
    (status, serde_json::from_str(body).unwrap(), explanation)
}

async fn negative_vectors() -> Value {
    let sandbox = Sandbox::builder().explain(|_| {}).start().await.unwrap();
    let config = sandbox.config().clone();
    let merchant = config.merchant(DEFAULT_MERCHANT_ID).unwrap();
    let partner = &config.partners[0];
    let (builder, key) = paytoken::sandbox::client_builder(&sandbox).unwrap();
    let client = builder.build().unwrap();
    let grant = client
        .fetch_auth_token(&FetchAuthToken::new(
            partner.partner_id,
            merchant.username.clone(),
        ))
        .await
        .unwrap();
    let member = merchant.member_id.as_str();
    let mut vectors = Vec::new();
    for mistake in mistakes(
        member,
        key.expose_secret(),
        partner.secure_key.expose_secret(),
    ) {
        let body = mistake
            .body
            .clone()
            .unwrap_or_else(|| encoded(&mistake.form));
        let target = match mistake.query {
            Some(query) => format!("{PAYMENTS}?{query}"),
            None => PAYMENTS.to_owned(),
        };
        let (status, answer, explanation) = post(
            sandbox.base_url(),
            &target,
            mistake.content_type,
            grant.token.expose_secret(),
            &body,
        )
        .await;
        let code = answer["result"]["code"].as_str().unwrap().to_owned();
        assert_eq!(status, 200, "{}", mistake.name);
        assert_eq!(
            code.starts_with('0'),
            mistake.valid,
            "{}: accepted {}: {answer}",
            mistake.name,
            code.starts_with('0')
        );
        let explanation = explanation.filter(|_| !mistake.valid);
        assert_eq!(explanation.is_some(), !mistake.valid, "{}", mistake.name);
        let refusal = (!mistake.valid).then(|| json!({ "status": status, "resultCode": code }));
        if let Some(explanation) = &explanation {
            assert!(!explanation.contains(key.expose_secret()), "{explanation}");
        }
        vectors.push(json!({
            "id": format!("negative/{}", mistake.name),
            "about": mistake.about,
            "caller": {
                "kind": "merchant",
                "id": member,
                "secureKey": key.expose_secret(),
            },
            "rule": "payment",
            "form": mistake.form.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
            "method": "POST",
            "path": PAYMENTS,
            "query": mistake.query,
            "contentType": mistake.content_type,
            "body": body,
            "refusal": refusal,
            "explanation": explanation,
            "source": mistake.source,
            "level": mistake.level,
        }));
    }
    sandbox.shutdown().await;
    let kit = crate::conformance::kit();
    json!({
        "kit": kit,
        "about": "Negative vectors: a payment request by the sandbox's merchant made with each usual mistake (a checksum made wrong in each of the ways integrators make it, a field missing or sent twice, a query string, a JSON body), what was sent (the form's fields decoded, in order; the body as sent), the refusal paytoken's sandbox answered it with, and the explanation its --explain gave. A client must never send any of these; each rebuilt by the rule from its form gives another checksum than the one sent. Beside them, positive controls (negative/valid-*, refusal and explanation null): valid requests the sandbox took, which a client must not refuse. The AuthToken header of each held a token fetched first.",
        "vectors": vectors,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_mistake_is_refused_and_explained_as_the_kit_says() {
    let vectors = negative_vectors().await;
    let all = vectors["vectors"].as_array().unwrap();
    assert!(
        all.iter().any(|vector| vector["refusal"].is_null()),
        "a positive control"
    );
    for vector in all.iter().filter(|vector| !vector["refusal"].is_null()) {
        let explanation = vector["explanation"].as_str().unwrap();
        assert!(
            !explanation.contains("no usual mistake matches"),
            "{}: {explanation}",
            vector["id"]
        );
    }
    holds(
        "negative-vectors.json",
        &(serde_json::to_string_pretty(&vectors).unwrap() + "\n"),
    );
}
