//! `paytoken sandbox --explain`: a payment signed with the amount as `50` where the form
//! sends `50.00` is refused as the gateway would, and the sandbox says why on stderr and in
//! a header, with the key masked and the card number never shown.

use std::io::{Read as _, Write as _};
use std::net::TcpStream;

use paytoken_sandbox::{EXPLAIN_HEADER, cards};
use serde_json::Value;

use crate::common::sandbox_process;

/// A form encoded the plain way: letters and digits as they are, the rest `%XX`.
fn form(fields: &[(&str, &str)]) -> String {
    let encode = |text: &str| -> String {
        text.bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || b"-._".contains(&b) {
                    char::from(b).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect()
    };
    fields
        .iter()
        .map(|(name, value)| format!("{}={}", encode(name), encode(value)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Posts `body` to `path` over a plain socket; the answer's head and body.
fn post(address: &str, path: &str, token: Option<&str>, body: &str) -> (String, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    let token = token
        .map(|t| format!("AuthToken: {t}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/x-www-form-urlencoded\r\n{token}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    (head.to_owned(), body.to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_checksum_mistake_is_named_on_stderr_and_in_a_header() {
    let (mut child, first) = sandbox_process(&["--addr", "127.0.0.1:0", "--explain"]).await;
    let announced: Value = serde_json::from_str(&first).unwrap();
    let text = |name: &str| announced[name].as_str().unwrap().to_owned();
    let address = text("baseUrl").trim_start_matches("http://").to_owned();
    let (member, key) = (text("memberId"), text("secureKey"));

    let (head, head_and_body) = tokio::task::spawn_blocking({
        let (address, member, key) = (address.clone(), member.clone(), key.clone());
        let username = text("username");
        let partner = text("partnerId");
        move || {
            let (_, body) = post(
                &address,
                "/transactionServices/REST/v1/authToken",
                None,
                &form(&[
                    ("authentication.partnerId", &partner),
                    ("merchant.username", &username),
                    ("authentication.sKey", &key),
                ]),
            );
            let granted: Value = serde_json::from_str(&body).unwrap();
            let token = granted["AuthToken"].as_str().unwrap().to_owned();
            // Signed over the amount as `50`, sent as `50.00`.
            let joined = format!("{member}|{key}|order explained|50");
            let checksum = format!("{:x}", md5_oracle::compute(joined.as_bytes()));
            post(
                &address,
                "/transactionServices/REST/v1/payments",
                Some(&token),
                &form(&[
                    ("authentication.memberId", &member),
                    ("authentication.checksum", &checksum),
                    ("merchantTransactionId", "order explained"),
                    ("amount", "50.00"),
                    ("currency", "EUR"),
                    ("paymentType", "DB"),
                    ("paymentBrand", "VISA"),
                    ("paymentMode", "CC"),
                    ("card.number", cards::APPROVED),
                    ("card.expiryMonth", "12"),
                    ("card.expiryYear", "2099"),
                    ("card.cvv", "123"),
                ]),
            )
        }
    })
    .await
    .unwrap();
    assert!(head_and_body.contains("\"20010\""), "{head_and_body}");
    let header = paytoken_test_support::http::header(&head, EXPLAIN_HEADER)
        .expect("the diagnostic header")
        .to_owned();
    assert!(header.contains("the amount signed as \"50\""), "{header}");

    child.kill().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let _ = child.wait();
    let line = stderr
        .lines()
        .find(|line| line.starts_with("paytoken sandbox: explain: checksum mismatch"))
        .unwrap_or_else(|| panic!("no diagnostic on stderr: {stderr}"));
    assert!(
        line.contains(&format!(
            "rule payment expects MD5 of id|key|merchantTransactionId|amount = \"{member}|***|order explained|50.00\""
        )),
        "{line}"
    );
    assert!(line.ends_with(&header), "{line}");
    for secret in [key.as_str(), cards::APPROVED, "123&"] {
        assert!(!stderr.contains(secret), "stderr shows a secret: {stderr}");
    }
}
