//! Fault injection, per request (the header) and per sandbox (the builder), seen from a
//! plain client: what arrives, and what the gateway did anyway.

use crate::common;

use std::time::Duration;

use common::*;
use paytoken_protocol::ops::inquiry::Inquiry;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::{Error, Operation, PaymentStatus};
use paytoken_sandbox::{FAULT_HEADER, Faults, Sandbox, cards, faults::OVERSIZED_BODY_LEN};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Long enough that nothing arrives while the test waits for it.
const NEVER: &str = "60s";
/// How long the test waits for what must not arrive.
const PATIENCE: Duration = Duration::from_millis(300);

fn pay(number: &str) -> Payment {
    Payment::new(
        order_id().parse().unwrap(),
        "10.00".parse().unwrap(),
        "EUR".parse().unwrap(),
        card(number),
    )
}

/// Whether a payment with this order id exists, by inquiry.
async fn exists(
    sandbox: &Sandbox,
    context: &paytoken_protocol::Context,
    payment: &Payment,
) -> bool {
    let inquiry = Inquiry::ByMerchantTransactionId(payment.merchant_transaction_id.clone());
    match call(sandbox, context, &inquiry).await {
        Ok(found) => {
            assert_eq!(found.status, PaymentStatus::Approved);
            true
        }
        Err(error) => {
            assert_eq!(error.refusal().unwrap().result.code.as_str(), "30040");
            false
        }
    }
}

#[tokio::test]
async fn a_dropped_connection_before_or_after_processing() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    for (directive, processed) in [("drop=before", false), ("drop=after", true)] {
        let payment = pay(cards::APPROVED);
        let request = payment.request(&context).unwrap();
        let headers = headers_of(&request, &[(FAULT_HEADER, directive)]);
        let answer = exchange(
            sandbox.address(),
            "POST",
            request.path(),
            &headers,
            request.body(),
        )
        .await;
        assert!(
            answer.is_err(),
            "{directive}: the connection closes without an answer"
        );
        assert_eq!(
            exists(&sandbox, &context, &payment).await,
            processed,
            "{directive}"
        );
    }
}

#[tokio::test]
async fn proxy_pages_and_broken_bodies_come_after_the_payment_took_effect() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    for directive in [
        "status=500",
        "status=502",
        "body=malformed",
        "body=truncated",
        "body=oversized",
    ] {
        let payment = pay(cards::APPROVED);
        let raw = send_with(
            &sandbox,
            &payment.request(&context).unwrap(),
            &[(FAULT_HEADER, directive)],
        )
        .await;
        match directive {
            "status=500" | "status=502" => {
                assert_eq!(raw.status.to_string(), directive["status=".len()..]);
                assert!(raw.header("content-type").unwrap().starts_with("text/html"));
                assert!(raw.text().contains("<html>"));
            }
            "body=oversized" => {
                assert_eq!(raw.status, 200);
                assert_eq!(raw.body.len(), OVERSIZED_BODY_LEN);
            }
            _ => {
                assert_eq!(raw.status, 200);
                assert!(
                    serde_json::from_slice::<serde_json::Value>(&raw.body).is_err(),
                    "{directive}"
                );
            }
        }
        if directive != "body=oversized" {
            let error = payment.parse(raw.status, &raw.body).unwrap_err();
            assert!(error.may_have_been_processed(), "{directive}: {error}");
        }
        assert!(exists(&sandbox, &context, &payment).await, "{directive}");
    }
}

#[tokio::test]
async fn latency_and_a_stall_after_the_headers() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;

    let request = pay(cards::APPROVED).request(&context).unwrap();
    let latency = format!("latency={NEVER}");
    let fault = [(FAULT_HEADER, latency.as_str())];
    let slow = send_with(&sandbox, &request, &fault);
    assert!(
        tokio::time::timeout(PATIENCE, slow).await.is_err(),
        "no answer during the latency"
    );

    // A stall: the status line and headers arrive, the body does not.
    let request = pay(cards::APPROVED).request(&context).unwrap();
    let mut stream = TcpStream::connect(sandbox.address()).await.unwrap();
    let stall = format!("stall={NEVER}");
    let headers = headers_of(&request, &[(FAULT_HEADER, stall.as_str())]);
    let bytes = http_request("POST", request.path(), &headers, request.body());
    stream.write_all(&bytes).await.unwrap();
    let mut received = Vec::new();
    let mut buffer = [0; 4096];
    while !received.windows(4).any(|w| w == b"\r\n\r\n") {
        let read = stream.read(&mut buffer).await.unwrap();
        assert!(read > 0, "the headers arrive");
        received.extend_from_slice(&buffer[..read]);
    }
    let head = String::from_utf8_lossy(&received).into_owned();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let body_start = received.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    assert_eq!(
        received.len(),
        body_start,
        "no body byte came with the headers"
    );
    let more = tokio::time::timeout(PATIENCE, stream.read(&mut buffer)).await;
    assert!(more.is_err(), "the body stalls");
}

#[tokio::test]
async fn the_timeout_card_never_answers_but_its_payment_exists() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let payment = pay(cards::TIMEOUT);
    let request = payment.request(&context).unwrap();
    let waiting = send(&sandbox, &request);
    assert!(tokio::time::timeout(PATIENCE, waiting).await.is_err());
    assert!(exists(&sandbox, &context, &payment).await);
}

#[tokio::test]
async fn sandbox_wide_faults_apply_to_every_request_and_a_header_overrides_them() {
    let faults = Faults::parse("status=502").unwrap();
    let sandbox = builder().faults(faults).start().await.unwrap();
    let merchant = merchant(&sandbox);
    let fetch = paytoken_protocol::ops::auth_token::FetchAuthToken::new(
        partner(&sandbox).partner_id,
        merchant.username.clone(),
    );
    let request = fetch.request(&merchant.context()).unwrap();
    assert_eq!(send(&sandbox, &request).await.status, 502);
    let raw = send_with(&sandbox, &request, &[(FAULT_HEADER, "none")]).await;
    assert_eq!(raw.json()["result"]["code"], "200");

    let bad = send_with(&sandbox, &request, &[(FAULT_HEADER, "explode")]).await;
    assert_eq!(bad.status, 400);
    assert!(bad.text().contains("explode"), "{}", bad.text());
    let parse_error = fetch.parse(bad.status, &bad.body);
    assert!(matches!(parse_error, Err(Error::UnexpectedStatus { .. })));
}
