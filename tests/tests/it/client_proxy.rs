//! The client through an HTTP proxy, by `CONNECT`, with TLS end to end to a sandbox whose
//! certificate a test CA signed (trusted from its PEM text): the proxy a test writes here
//! sees only the tunnel's destination and its credentials; a loopback address is never
//! proxied.

use crate::common;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use common::{client_for, payment_with, test_ca_with_pem};
use paytoken::{PaymentStatus, Proxy, TransportErrorKind};
use paytoken_sandbox::{Sandbox, cards};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};

/// What the proxy was asked: each `CONNECT` line, with its `Proxy-Authorization`.
type Asked = Arc<Mutex<Vec<String>>>;

/// A `CONNECT` proxy on loopback that resolves `gateway.test` to this machine: it opens
/// the tunnel each request asks for and copies both ways; anything but `CONNECT` is
/// answered `405`.
async fn connect_proxy() -> (SocketAddr, Asked) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let asked = Asked::default();
    let kept = Arc::clone(&asked);
    tokio::spawn(async move {
        loop {
            let Ok((mut client, _)) = listener.accept().await else {
                return;
            };
            let kept = Arc::clone(&kept);
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut byte = [0_u8; 1];
                while !head.ends_with(b"\r\n\r\n") && head.len() < 8192 {
                    if client.read_exact(&mut byte).await.is_err() {
                        return;
                    }
                    head.push(byte[0]);
                }
                let head = String::from_utf8_lossy(&head).into_owned();
                let line = head.lines().next().unwrap_or_default().to_owned();
                let authorization = head
                    .lines()
                    .find(|line| {
                        line.to_ascii_lowercase()
                            .starts_with("proxy-authorization:")
                    })
                    .map(str::to_owned);
                kept.lock().unwrap().push(match authorization {
                    Some(authorization) => format!("{line} / {authorization}"),
                    None => line.clone(),
                });
                let Some(target) = line
                    .strip_prefix("CONNECT ")
                    .and_then(|rest| rest.split(' ').next())
                else {
                    let _ = client
                        .write_all(b"HTTP/1.1 405 Method Not Allowed\r\n\r\n")
                        .await;
                    return;
                };
                let target = target.replace("gateway.test", "127.0.0.1");
                let Ok(mut server) = TcpStream::connect(target).await else {
                    let _ = client.write_all(b"HTTP/1.1 502 Bad Gateway\r\n\r\n").await;
                    return;
                };
                let _ = client
                    .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
                    .await;
                let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
            });
        }
    });
    (address, asked)
}

/// A client of `sandbox` trusting only the test CA of `ca_pem`, through `proxy`.
fn trusting(sandbox: &Sandbox, ca_pem: &str, proxy: Proxy) -> paytoken::ClientBuilder {
    client_for(sandbox)
        .built_in_roots(false)
        .add_root_certificates_pem(ca_pem)
        .proxy(proxy)
}

#[tokio::test]
async fn a_payment_goes_through_the_proxy_with_tls_end_to_end() {
    let (_, identity, ca_pem) = test_ca_with_pem();
    let sandbox = Sandbox::builder().tls(identity).start().await.unwrap();
    let port = sandbox.base_url().rsplit(':').next().unwrap().to_owned();
    let (proxy, asked) = connect_proxy().await;
    let gateway_test = format!("https://gateway.test:{port}");
    let through = Proxy::Url(format!("http://shop:s3cret@{proxy}"));
    let client = trusting(&sandbox, &ca_pem, through)
        .base_url(&gateway_test)
        .build()
        .unwrap();
    let paid = client.pay(&payment_with(cards::APPROVED)).await.unwrap();
    assert_eq!(paid.status, PaymentStatus::Approved);
    let asked = asked.lock().unwrap().clone();
    assert!(!asked.is_empty());
    for line in &asked {
        // Basic authentication of shop:s3cret, and nothing of the payment: TLS runs
        // through the tunnel.
        assert!(
            line.starts_with(&format!("CONNECT gateway.test:{port} HTTP/1.1"))
                && line.ends_with("Basic c2hvcDpzM2NyZXQ="),
            "{line}"
        );
    }
    // Without the proxy, the name resolves nowhere: nothing is sent.
    let direct = trusting(&sandbox, &ca_pem, Proxy::Direct)
        .base_url(&gateway_test)
        .build()
        .unwrap();
    let error = direct
        .pay(&payment_with(cards::APPROVED))
        .await
        .unwrap_err();
    assert_eq!(
        error.transport_kind(),
        Some(TransportErrorKind::Connect),
        "{error}"
    );
}

#[tokio::test]
async fn a_loopback_gateway_is_never_proxied_and_a_bad_pem_is_a_setting_error() {
    let (_, identity, ca_pem) = test_ca_with_pem();
    let sandbox = Sandbox::builder().tls(identity).start().await.unwrap();
    let (proxy, asked) = connect_proxy().await;
    let client = trusting(&sandbox, &ca_pem, Proxy::Url(format!("http://{proxy}")))
        .build()
        .unwrap();
    let paid = client.pay(&payment_with(cards::APPROVED)).await.unwrap();
    assert_eq!(paid.status, PaymentStatus::Approved);
    assert!(asked.lock().unwrap().is_empty(), "the proxy was not asked");
    let error = client_for(&sandbox)
        .add_root_certificates_pem("not a certificate")
        .build()
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "client setting add_root_certificates_pem: holds no certificate (-----BEGIN CERTIFICATE-----)"
    );
}
