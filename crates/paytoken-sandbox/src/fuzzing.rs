//! The sandbox's request handling for the fuzz targets in `fuzz/` (built with
//! `--cfg fuzzing`): a gateway without the network, and a valid auth token to send. Not part
//! of the API.

use std::sync::Arc;

use paytoken_protocol::Operation;
use paytoken_protocol::ops::auth_token::FetchAuthToken;

use crate::clock::SystemClock;
use crate::gateway::Gateway;
use crate::invoices::InvoiceShape;
use crate::{DEFAULT_MERCHANT_ID, DEFAULT_PARTNER_ID, SandboxConfig};

/// Every path the sandbox answers, and one it does not.
const PATHS: [&str; 14] = [
    "/transactionServices/REST/v1/authToken",
    "/transactionServices/REST/v1/partnerAuthToken",
    "/transactionServices/REST/v1/regenerateToken",
    "/merchantServices/api/v1/customerSignup",
    "/transactionServices/REST/v1/payments",
    "/transactionServices/REST/v1/registrations",
    "/transactionServices/REST/v1/paywithtoken/8a82944a4cc25ebf014cc2c782423202",
    "/transactionServices/REST/v1/getInstallmentWithToken/8a82944a4cc25ebf014cc2c782423202",
    "/transactionServices/REST/v1/getCardsAndAccounts",
    "/invoiceServices/REST/v1/getInvoice",
    "/transactionServices/REST/v1/payments/60001",
    "/transactionServices/REST/v1/payments/order1",
    "/sandbox/3ds/60001",
    "/no/such/path",
];

/// A gateway with the default partners and merchants, and a token of the default
/// merchant's.
#[allow(missing_debug_implementations, reason = "fuzzing only")]
pub struct Target {
    gateway: Gateway,
    token: String,
}

impl Target {
    /// A fresh gateway, signed in.
    ///
    /// # Panics
    /// When the default merchant cannot sign in: the sandbox itself would be broken.
    #[allow(
        clippy::expect_used,
        clippy::new_without_default,
        reason = "fuzzing only"
    )]
    #[must_use]
    pub fn new() -> Self {
        let config = SandboxConfig::default();
        let merchant = config
            .merchant(DEFAULT_MERCHANT_ID)
            .expect("the default merchant")
            .clone();
        let gateway = Gateway::new(
            config,
            Arc::new(SystemClock),
            InvoiceShape::default(),
            "http://127.0.0.1:1".to_owned(),
        );
        let fetch = FetchAuthToken::new(
            DEFAULT_PARTNER_ID.parse().expect("the default partner id"),
            merchant.username.clone(),
        );
        let request = fetch.request(&merchant.context()).expect("a token request");
        let answer = gateway.handle("POST", request.path(), None, None, request.body(), None);
        let grant = fetch
            .parse(answer.status, answer.body.as_bytes())
            .expect("the default merchant signs in");
        Self {
            gateway,
            token: grant.token.expose_secret().to_owned(),
        }
    }

    /// Handles `body` sent to the path chosen by `path`, with the token or without: the
    /// status and the body of the answer.
    pub fn handle(&self, path: u8, with_token: bool, body: &[u8]) -> (u16, String) {
        let path = PATHS
            .get(usize::from(path) % PATHS.len())
            .copied()
            .unwrap_or_default();
        let token = with_token.then_some(self.token.as_str());
        let answer = self.gateway.handle("POST", path, None, token, body, None);
        (answer.status, answer.body)
    }
}
