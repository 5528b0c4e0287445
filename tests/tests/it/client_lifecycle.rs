//! The whole tokenization life cycle through the real client against the real sandbox,
//! over TCP and over TLS with a certificate authority made at test time.

use crate::common;

use common::life_cycle::life_cycle;
use common::{client_for, test_ca};
use paytoken::TransportErrorKind;
use paytoken::ops::cards_and_accounts::CardsAndAccounts;
use paytoken_sandbox::Sandbox;

#[tokio::test]
async fn the_whole_life_cycle_over_tcp() {
    let sandbox = Sandbox::start().await.unwrap();
    let client = client_for(&sandbox).build().unwrap();
    life_cycle(&client, &sandbox).await;
    // One token for the whole run: the client fetched it once and kept it.
    let fetched = sandbox
        .received()
        .iter()
        .filter(|r| r.path.ends_with("/authToken"))
        .count();
    assert_eq!(fetched, 2, "the client's own token and the one asked for");
}

#[tokio::test]
async fn the_whole_life_cycle_over_tls() {
    let (ca, identity) = test_ca();
    let sandbox = Sandbox::builder().tls(identity).start().await.unwrap();
    assert!(sandbox.base_url().starts_with("https://127.0.0.1:"));
    let client = client_for(&sandbox)
        .built_in_roots(false)
        .add_root_certificate(ca)
        .build()
        .unwrap();
    life_cycle(&client, &sandbox).await;
}

#[tokio::test]
async fn an_untrusted_certificate_is_a_connect_error_and_nothing_is_sent() {
    let (_, identity) = test_ca();
    let sandbox = Sandbox::builder().tls(identity).start().await.unwrap();
    let client = client_for(&sandbox).build().unwrap();
    let error = client
        .cards_and_accounts(&CardsAndAccounts::all())
        .await
        .unwrap_err();
    assert_eq!(
        error.transport_kind(),
        Some(TransportErrorKind::Connect),
        "{error}"
    );
    assert!(!error.may_have_reached_gateway());
    assert!(sandbox.received().is_empty());
}

#[tokio::test]
async fn plain_http_needs_to_be_allowed() {
    let sandbox = Sandbox::start().await.unwrap();
    let error = client_for(&sandbox).allow_http(false).build().unwrap_err();
    assert!(
        matches!(
            error,
            paytoken::Error::Config {
                setting: "base_url",
                ..
            }
        ),
        "{error}"
    );
    assert!(error.to_string().contains("https"), "{error}");
}

/// Regression: rustls's refusal was flattened into the message; it is the error's source.
#[tokio::test]
async fn a_certificate_rustls_refuses_is_the_errors_source() {
    let (_, mut identity) = test_ca();
    identity.private_key = b"not a key".to_vec();
    let error = Sandbox::builder().tls(identity).start().await.unwrap_err();
    assert!(
        matches!(error, paytoken_sandbox::Error::Tls { .. }),
        "{error}"
    );
    let cause = std::error::Error::source(&error).expect("rustls's error");
    assert!(cause.downcast_ref::<rustls::Error>().is_some(), "{cause}");
    assert!(!error.to_string().contains(&cause.to_string()), "{error}");
}
