//! The client takes HTTP/2 when a server offers it in the TLS handshake, and keeps to
//! HTTP/1.1 when told to.

use crate::common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{card, test_ca};
use http_body_util::{BodyExt as _, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, Version};
use hyper_util::rt::{TokioExecutor, TokioIo};
use paytoken::ops::payment::Payment;
use paytoken::{AuthToken, Client, Credentials, PaymentStatus, SecureKey, TransportErrorKind};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

const APPROVED: &[u8] = include_bytes!("../../../fixtures/responses/payment/approved.json");

/// A TLS server that offers only `h2` and answers every HTTP/2 request with the approved
/// payment (anything else gets a 505). Returns its address, the CA to trust and the count
/// of requests it answered.
async fn h2_only_server() -> (SocketAddr, Vec<u8>, Arc<AtomicUsize>) {
    let (ca, identity) = test_ca();
    let chain = identity
        .certificate_chain
        .iter()
        .map(|der| CertificateDer::from(der.clone()))
        .collect();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(identity.private_key.clone()));
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .unwrap();
    config.alpn_protocols = vec![b"h2".to_vec()];
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let answered = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&answered);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            let counter = Arc::clone(&counter);
            tokio::spawn(async move {
                let Ok(stream) = acceptor.accept(stream).await else {
                    return;
                };
                let service = hyper::service::service_fn(move |request: Request<Incoming>| {
                    counter.fetch_add(1, Ordering::Relaxed);
                    async move {
                        let version = request.version();
                        let _ = request.into_body().collect().await;
                        let (status, body) = if version == Version::HTTP_2 {
                            (200, APPROVED)
                        } else {
                            (505, &b"http/2 only"[..])
                        };
                        let mut answer = Response::new(Full::new(Bytes::from_static(body)));
                        *answer.status_mut() = hyper::StatusCode::from_u16(status).unwrap();
                        Ok::<_, std::convert::Infallible>(answer)
                    }
                });
                let _ = hyper::server::conn::http2::Builder::new(TokioExecutor::new())
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    (address, ca, answered)
}

fn client(address: SocketAddr, ca: Vec<u8>, http2: bool) -> Client {
    Client::builder()
        .base_url(format!("https://127.0.0.1:{}", address.port()))
        .credentials(Credentials::merchant(
            "11344".parse().unwrap(),
            SecureKey::new("key").unwrap(),
        ))
        .auth_token(AuthToken::new("fixed.token.value").unwrap())
        .built_in_roots(false)
        .add_root_certificate(ca)
        .http2(http2)
        .build()
        .unwrap()
}

/// What the server's fixed answer (`payment/approved.json`) is about, so its echoes agree.
fn payment() -> Payment {
    Payment::new(
        "order20261122A".parse().unwrap(),
        "1250.50".parse().unwrap(),
        "EUR".parse().unwrap(),
        card(paytoken_sandbox::cards::APPROVED),
    )
}

#[tokio::test]
async fn a_server_that_offers_h2_is_spoken_to_in_h2() {
    let (address, ca, answered) = h2_only_server().await;
    let client = client(address, ca, true);
    for _ in 0..3 {
        let paid = client.pay(&payment()).await.unwrap();
        assert_eq!(paid.status, PaymentStatus::Approved);
    }
    assert_eq!(answered.load(Ordering::Relaxed), 3);
}

#[tokio::test]
async fn with_http2_off_the_client_offers_only_http_1_1() {
    let (address, ca, answered) = h2_only_server().await;
    let client = client(address, ca, false);
    // The client speaks HTTP/1.1 to a server that reads only HTTP/2: no request is made
    // of it. The client cannot know that, so a payment's outcome is unknown.
    let error = client.pay(&payment()).await.unwrap_err();
    assert_eq!(
        error.transport_kind(),
        Some(TransportErrorKind::Broken),
        "{error}"
    );
    assert!(error.is_outcome_unknown());
    assert_eq!(answered.load(Ordering::Relaxed), 0);
}
