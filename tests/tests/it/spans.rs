//! The client's spans as an OpenTelemetry SDK exports them (`paytoken::opentelemetry`): a
//! payment refused for its expired token, sent again with a renewed one and its answer
//! lost, settled by an inquiry that was sent twice, then refunded: every attribute of the
//! HTTP client conventions and paytoken's own, the parent-child shape, and no id in a URL.
//! The secret audit over what is exported: no secure key, auth token, card number or field
//! that carries one in a span's name, attributes or events, through that run and a whole
//! life cycle.

use std::collections::BTreeMap;
use std::time::Duration;

use opentelemetry::trace::{SpanId, SpanKind, Status, TracerProvider as _};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use paytoken::ops::payment::Payment;
use paytoken::ops::refund::Refund;
use paytoken::types::MerchantTransactionId;
use paytoken_sandbox::{AUTH_TOKEN_LIFETIME, FaultTarget, Faults, Sandbox, cards};
use tracing_subscriber::layer::SubscriberExt as _;

use crate::common::life_cycle::life_cycle;
use crate::common::{assert_no_secret, card, client_for, run_traced};

/// An order id that carries the card number, as merchants' have.
const ORDER: &str = "spans-4000000000000051";

/// A span's attributes, by key, as text.
fn attributes(span: &SpanData) -> BTreeMap<String, String> {
    span.attributes
        .iter()
        .map(|kv| (kv.key.to_string(), kv.value.to_string()))
        .collect()
}

/// The spans named `name`.
fn named<'a>(spans: &'a [SpanData], name: &str) -> Vec<&'a SpanData> {
    spans.iter().filter(|span| span.name == name).collect()
}

/// The one span named `name`.
fn one<'a>(spans: &'a [SpanData], name: &str) -> &'a SpanData {
    let found = named(spans, name);
    assert_eq!(found.len(), 1, "{name}: {:#?}", names(spans));
    found[0]
}

/// The children of `parent`, in the order they ended (the order they were exported in,
/// which for the requests and calls of one call, one after the other, is also the order
/// they started in).
fn children<'a>(spans: &'a [SpanData], parent: &SpanData) -> Vec<&'a SpanData> {
    spans
        .iter()
        .filter(|span| span.parent_span_id == parent.span_context.span_id())
        .collect()
}

fn names(spans: &[SpanData]) -> Vec<(String, SpanId, SpanId)> {
    spans
        .iter()
        .map(|span| {
            (
                span.name.to_string(),
                span.span_context.span_id(),
                span.parent_span_id,
            )
        })
        .collect()
}

/// Asserts that `span` holds each of `expected` (key, value).
fn holds(span: &SpanData, expected: &[(&str, &str)]) {
    let attributes = attributes(span);
    for (key, value) in expected {
        assert_eq!(
            attributes.get(*key).map(String::as_str),
            Some(*value),
            "{key} of {}: {attributes:#?}",
            span.name
        );
    }
}

/// Runs `work` with an OpenTelemetry SDK as the thread's subscriber: what it returned, and
/// every span it exported.
fn exported<T>(work: impl Future<Output = T>) -> (T, Vec<SpanData>) {
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    let subscriber = tracing_subscriber::registry()
        .with(paytoken::opentelemetry::layer(provider.tracer("spans")));
    let done = run_traced(&tracing::Dispatch::new(subscriber), work);
    provider.force_flush().unwrap();
    (done, exporter.get_finished_spans().unwrap())
}

/// Every span's name, attributes, and events' names and attributes, as text.
fn text_of(spans: &[SpanData]) -> String {
    let mut text = String::new();
    for span in spans {
        text.push_str(&format!("{}\n{:?}\n", span.name, span.attributes));
        for event in &span.events.events {
            text.push_str(&format!("{}\n{:?}\n", event.name, event.attributes));
        }
    }
    text
}

#[test]
fn a_whole_life_cycle_exports_no_secret() {
    let ((), spans) = exported(async {
        let sandbox = Sandbox::start().await.unwrap();
        let client = client_for(&sandbox).build().unwrap();
        life_cycle(&client, &sandbox).await;
    });
    assert!(spans.len() > 20, "{:#?}", names(&spans));
    assert_no_secret("spans", &text_of(&spans));
}

/// A gateway's description that echoes the client's own key and auth token (plain and
/// form-encoded), a grouped card number and a spaced IBAN: no span, attribute, status or
/// event holds any of them, nor the error's message.
#[test]
fn a_description_echoing_the_clients_secrets_exports_none_of_them() {
    const KEY: &str = "client key/Q7";
    const TOKEN: &str = "tok-Q7-held-1";
    let ((shown, status), spans) = exported(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move {
            use tokio::io::AsyncWriteExt as _;
            while let Ok((mut stream, _)) = listener.accept().await {
                paytoken_test_support::http::read_request(&mut stream).await;
                let body = serde_json::json!({
                    "paymentId": "-",
                    "result": {
                        "code": "30001",
                        "description": format!(
                            "key {KEY} client+key%2FQ7 token {TOKEN} card 4000 0000 0000 0051 iban DE89 3704 0044 0532 0130 00"
                        ),
                    },
                })
                .to_string();
                let answer = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(answer.as_bytes()).await;
            }
        });
        let client = paytoken::Client::builder()
            .base_url(format!("http://{address}"))
            .credentials(paytoken::Credentials::merchant(
                "11344".parse().unwrap(),
                paytoken::SecureKey::new(KEY).unwrap(),
            ))
            .auth_token(paytoken::AuthToken::new(TOKEN).unwrap())
            .allow_http(true)
            .build()
            .unwrap();
        let payment = Payment::new(
            "spans-echo-1".parse().unwrap(),
            "1.00".parse().unwrap(),
            "EUR".parse().unwrap(),
            card(cards::APPROVED),
        );
        let error = client.pay(&payment).await.unwrap_err();
        (format!("{error} {error:?}"), error.refusal().is_some())
    });
    assert!(status, "refused: {shown}");
    let mut text = text_of(&spans);
    for span in &spans {
        text.push_str(&format!("{:?}\n", span.status));
    }
    text.push_str(&shown);
    for secret in [
        KEY,
        "client+key%2FQ7",
        TOKEN,
        "4000000000000051",
        "4000 0000 0000 0051",
        "DE89 3704",
    ] {
        assert!(!text.contains(secret), "{secret}: {text}");
    }
}

#[test]
fn a_retried_settled_and_refunded_payment_exports_its_spans() {
    let ((base_url, port), spans) = exported(pay_settle_and_refund());

    // The first payment fetched the token inside its call.
    let pays = named(&spans, "pay");
    let [first_pay, pay] = pays[..] else {
        panic!("two payments: {:#?}", names(&spans))
    };
    let fetched = children(&spans, first_pay);
    holds(fetched[0], &[("paytoken.operation", "fetch_auth_token")]);
    holds(
        children(&spans, fetched[0])[0],
        &[("url.template", "/transactionServices/REST/v1/authToken")],
    );

    // The second: refused for its expired token, the token renewed in a call of its own,
    // the payment sent again and its answer lost.
    assert_eq!(pay.parent_span_id, SpanId::INVALID, "{:#?}", names(&spans));
    holds(
        pay,
        &[
            ("paytoken.operation", "pay"),
            ("paytoken.merchant_transaction_id", "spans-400000******0051"),
            ("paytoken.attempts", "2"),
            ("paytoken.outcome", "outcome_unknown"),
            ("error.type", "outcome_unknown"),
        ],
    );
    assert!(
        matches!(pay.status, Status::Error { .. }),
        "{:?}",
        pay.status
    );
    let [refused, renewal, sent] = children(&spans, pay)[..] else {
        panic!(
            "a request, the token's renewal, the request again: {:#?}",
            names(&spans)
        )
    };
    holds(refused, &[("http.response.status_code", "200")]);
    holds(renewal, &[("paytoken.outcome", "ok")]);
    assert!(
        attributes(renewal)["paytoken.operation"].ends_with("auth_token"),
        "{:?}",
        attributes(renewal)
    );
    let template = "/transactionServices/REST/v1/payments";
    assert_eq!(sent.name, format!("POST {template}"));
    assert_eq!(sent.span_kind, SpanKind::Client);
    holds(
        sent,
        &[
            ("http.request.method", "POST"),
            ("url.template", template),
            ("url.full", &format!("{base_url}{template}")),
            ("server.address", "127.0.0.1"),
            ("server.port", &port.to_string()),
            ("paytoken.attempt", "2"),
            ("http.request.resend_count", "1"),
        ],
    );
    assert!(
        attributes(sent).contains_key("error.type"),
        "the lost answer: {:?}",
        attributes(sent)
    );

    // The settlement: its inquiry's call sent twice, the first answer a 502.
    let settle = one(&spans, "paytoken.settle");
    holds(
        settle,
        &[
            ("paytoken.settles", "pay"),
            ("paytoken.merchant_transaction_id", "spans-400000******0051"),
            ("paytoken.outcome", "ok"),
        ],
    );
    let [inquiry] = children(&spans, settle)[..] else {
        panic!("one inquiry: {:#?}", names(&spans))
    };
    holds(
        inquiry,
        &[
            ("paytoken.operation", "inquiry"),
            ("paytoken.attempts", "2"),
            ("paytoken.outcome", "ok"),
        ],
    );
    assert!(attributes(inquiry).contains_key("paytoken.result_code"));
    let by_order = "/transactionServices/REST/v1/payments/{merchantTransactionId}";
    let [first, second] = children(&spans, inquiry)[..] else {
        panic!("two requests: {:#?}", names(&spans))
    };
    holds(
        first,
        &[
            ("url.template", by_order),
            ("url.full", &format!("{base_url}{by_order}")),
            ("http.response.status_code", "502"),
            ("error.type", "502"),
            ("paytoken.attempt", "1"),
        ],
    );
    assert!(!attributes(first).contains_key("http.request.resend_count"));
    holds(
        second,
        &[
            ("http.response.status_code", "200"),
            ("http.request.resend_count", "1"),
            ("paytoken.attempt", "2"),
        ],
    );
    assert!(!attributes(second).contains_key("error.type"));

    // The refund: its payment id named, never in the URL.
    let refund = one(&spans, "refund");
    let payment_id = attributes(refund)["paytoken.payment_id"].clone();
    let by_payment = "/transactionServices/REST/v1/payments/{paymentId}";
    let [refunded] = children(&spans, refund)[..] else {
        panic!("one request")
    };
    holds(
        refunded,
        &[
            ("url.template", by_payment),
            ("url.full", &format!("{base_url}{by_payment}")),
            ("http.response.status_code", "200"),
        ],
    );

    // No id in a URL, no secret or whole card number anywhere.
    for span in &spans {
        let attributes = attributes(span);
        let path = attributes.get("url.full").map(|url| {
            url.strip_prefix(&base_url)
                .unwrap_or_else(|| panic!("{url} is not under {base_url}"))
        });
        for path in path
            .into_iter()
            .chain(attributes.get("url.template").map(String::as_str))
        {
            assert!(
                !path.contains(&payment_id) && !path.contains("spans-"),
                "{path}"
            );
        }
    }
    assert_no_secret("spans", &text_of(&spans));
}

/// Pays once (fetching the token), then past the token's life on the gateway's clock with
/// the second sending's answer lost; settles by an inquiry whose first answer is a 502;
/// refunds: the base URL and the port the spans name.
async fn pay_settle_and_refund() -> (String, u16) {
    let sandbox = Sandbox::start().await.unwrap();
    let client = client_for(&sandbox).build().unwrap();
    let payment = |order: &str| {
        Payment::new(
            order.parse::<MerchantTransactionId>().unwrap(),
            "10.00".parse().unwrap(),
            "EUR".parse().unwrap(),
            card(cards::APPROVED),
        )
    };
    client.pay(&payment("spans-first")).await.unwrap();
    sandbox
        .advance_clock(AUTH_TOKEN_LIFETIME + Duration::from_secs(60))
        .unwrap();
    // The refused sending takes no fault; the one after the renewal loses its answer.
    sandbox.fault_next(FaultTarget::MONEY_MOVING, Faults::parse("none").unwrap());
    sandbox.fault_next(
        FaultTarget::MONEY_MOVING,
        Faults::parse("drop=after").unwrap(),
    );
    let payment = payment(ORDER);
    let lost = client.pay(&payment).await.unwrap_err();
    assert!(lost.is_outcome_unknown(), "{lost}");
    sandbox.fault_next(
        FaultTarget::parse("inquiry").unwrap(),
        Faults::parse("status=502").unwrap(),
    );
    let settled = client.settle(lost).await.unwrap();
    let payment_id = settled.payment_id;
    client
        .refund(&Refund::new(
            payment_id,
            "10.00".parse().unwrap(),
            "EUR".parse().unwrap(),
        ))
        .await
        .unwrap();
    let address = sandbox.address();
    (format!("http://{address}"), address.port())
}
