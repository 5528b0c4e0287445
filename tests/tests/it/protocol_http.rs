//! A protocol request through the `http` crate, as a team with its own `http`-speaking
//! stack would send it: same bytes, same URL, the auth token marked sensitive.

use paytoken_checksum::{Credentials, SecureKey};
use paytoken_protocol::ops::token_payment::TokenPayment;
use paytoken_protocol::{AuthToken, BaseUrl, Context, Operation, parse_http};

#[test]
fn a_token_payment_through_http_and_back() {
    let context = Context {
        auth_token: Some(AuthToken::new("eyJ0.e30.c2ln").unwrap()),
        ..Context::new(Credentials::merchant(
            "11344".parse().unwrap(),
            SecureKey::new("key").unwrap(),
        ))
    };
    let payment = TokenPayment::new(
        "8a82944a4cc25ebf014cc2c782423202".parse().unwrap(),
        "25.00".parse().unwrap(),
        "EUR".parse().unwrap(),
    );
    let request = payment.request(&context).unwrap();
    let body = request.body().to_vec();
    let base = BaseUrl::new("https://preprod.brand.example/").unwrap();
    let http = request.into_http(&base).unwrap();
    assert_eq!(
        http.uri().to_string(),
        "https://preprod.brand.example/transactionServices/REST/v1/paywithtoken/8a82944a4cc25ebf014cc2c782423202"
    );
    assert_eq!(http.body().as_bytes(), body.as_slice());
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(http.body()).unwrap();
    assert!(pairs.contains(&("amount".into(), "25.00".into())));
    assert!(http.headers()["authtoken"].is_sensitive());

    let answer = http::Response::builder()
        .status(200)
        .body(br#"{"paymentId":"1","result":{"code":"00001","description":"ok"}}"#)
        .unwrap();
    let transaction = parse_http(&payment, &answer).unwrap();
    assert!(transaction.is_approved());
}
