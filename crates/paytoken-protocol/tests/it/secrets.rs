//! No secret reaches `Debug` or `Display`: the secure key, the auth token, the card number
//! and the CVV, in requests, contexts, answers and errors.

use crate::common;

use paytoken_protocol::ops::auth_token::FetchAuthToken;
use paytoken_protocol::{AuthTokenLifecycle, Operation, Username};

fn assert_clean(what: &str, text: &str) {
    for secret in [
        common::SECURE_KEY,
        common::PARTNER_KEY,
        common::TOKEN,
        "4000000000000051",
        "cvv=745",
        "Cvv(\"745\")",
    ] {
        assert!(!text.contains(secret), "{what} shows a secret: {text}");
    }
}

#[test]
fn requests_contexts_and_operations_redact_their_secrets() {
    for (name, request) in common::golden_requests() {
        assert_clean(name, &format!("{request:?}"));
    }
    assert_clean("merchant context", &format!("{:?}", common::merchant()));
    assert_clean("partner context", &format!("{:?}", common::partner()));
    assert_clean("payment", &format!("{:?}", common::full_payment()));
    assert_clean(
        "token payment",
        &format!("{:?}", common::token_payment().cvv("745".parse().unwrap())),
    );
    let fetch = FetchAuthToken::new("100".parse().unwrap(), Username::new("shop").unwrap());
    let mut tokens = AuthTokenLifecycle::new(fetch);
    let answer = format!(
        r#"{{"result":{{"code":"200"}},"AuthToken":"{}"}}"#,
        common::TOKEN
    );
    tokens
        .parse(200, answer.as_bytes(), std::time::Duration::ZERO)
        .unwrap();
    assert_clean("token life cycle", &format!("{tokens:?}"));
    let grant = FetchAuthToken::new("100".parse().unwrap(), Username::new("shop").unwrap())
        .parse(200, answer.as_bytes())
        .unwrap();
    assert_clean("token grant", &format!("{grant:?}"));
}

#[test]
fn errors_redact_what_the_gateway_echoes() {
    let echo = format!(
        r#"{{"paymentId":"-","result":{{"code":"30001","description":"bad card 4000000000000051, token {}"}}}}"#,
        common::TOKEN
    );
    let broken = format!(
        r#"{{"paymentId":"1","card":"4000000000000051","AuthToken":"{}","#,
        common::TOKEN
    );
    for (status, body) in [
        (200, echo.as_str()),
        (200, broken.as_str()),
        (500, broken.as_str()),
    ] {
        let error = common::full_payment()
            .parse(status, body.as_bytes())
            .unwrap_err();
        assert_clean("error", &format!("{error} {error:?}"));
    }
    let bad_token = FetchAuthToken::new("100".parse().unwrap(), Username::new("shop").unwrap())
        .parse(
            200,
            br#"{"result":{"code":"200"},"AuthToken":"has space 4000000000000051"}"#,
        )
        .unwrap_err();
    assert_clean("bad token", &format!("{bad_token} {bad_token:?}"));
}
