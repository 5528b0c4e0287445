//! Tests in a line (feature `sandbox`): the gateway simulated in the test's own process,
//! over real HTTP on loopback, and a client signed in to it as its default merchant.
//!
//! ```
//! use paytoken::prelude::*;
//! use paytoken::sandbox::{TestGateway, cards};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let gateway = TestGateway::start().await?;
//! let payment = Payment::new(
//!     gateway.order_id(),
//!     Amount::from_minor_units(5000),
//!     Currency::EUR,
//!     gateway.card(cards::APPROVED),
//! );
//! let transaction = gateway.client().pay(&payment).await?;
//! assert!(transaction.is_approved());
//! assert_eq!(gateway.sandbox().books().len(), 1);
//! gateway.shutdown().await;
//! # Ok(()) }
//! ```
//!
//! It is a dev-dependency's feature: `paytoken = { version = "0.1", features = ["sandbox"] }`
//! under `[dev-dependencies]`. It brings the sandbox without its SQLite file store; every
//! item of `paytoken-sandbox` is here too.

// The whole sandbox, so that every item its docs link to is documented here too.
pub use paytoken_sandbox::*;

use crate::{
    Card, Client, ClientBuilder, MerchantTransactionId, PaymentStatus, SecureKey, Transaction,
};

/// A sandbox started in this process and a client for its first merchant, with a token
/// fetched by its login name as a shop's would be.
#[derive(Debug)]
pub struct TestGateway {
    sandbox: Sandbox,
    client: Client,
    secure_key: SecureKey,
}

impl TestGateway {
    /// A sandbox with every default, started, and its client.
    ///
    /// # Errors
    /// [`Error::Bind`] when no loopback port can be opened.
    pub async fn start() -> Result<Self, Error> {
        Self::from_builder(Sandbox::builder()).await
    }

    /// The sandbox `builder` makes (its configuration, faults, clock...), started, and a
    /// client for the first merchant of its first partner.
    ///
    /// # Errors
    /// What [`SandboxBuilder::start`] refuses, and [`Error::Config`] for a configuration
    /// without a merchant.
    pub async fn from_builder(builder: SandboxBuilder) -> Result<Self, Error> {
        let sandbox = builder.start().await?;
        let Some((builder, secure_key)) = client_builder(&sandbox) else {
            return Err(Error::Config {
                what: "partners".to_owned(),
                reason: "no merchant to pay as".to_owned(),
            });
        };
        // Invariant: the sandbox's own base URL (plain HTTP allowed) and its
        // configuration's credentials are settings a client takes.
        #[expect(clippy::expect_used, reason = "the invariant above")]
        let client = builder
            .build()
            .expect("the sandbox's own settings make a client");
        Ok(Self {
            sandbox,
            client,
            secure_key,
        })
    }

    /// The client, signed in as the sandbox's merchant.
    #[must_use]
    pub const fn client(&self) -> &Client {
        &self.client
    }

    /// The merchant's secure key, which signs the notifications the sandbox sends.
    #[must_use]
    pub const fn secure_key(&self) -> &SecureKey {
        &self.secure_key
    }

    /// The sandbox: its books, the requests it received, the notifications it sent.
    #[must_use]
    pub const fn sandbox(&self) -> &Sandbox {
        &self.sandbox
    }

    /// A test card (the numbers are in [`cards`]), expiring in December 2099.
    ///
    /// # Panics
    /// When `number` is not a card number (12 to 19 digits that pass the Luhn check).
    #[must_use]
    pub fn card(&self, number: &str) -> Card {
        #[expect(clippy::expect_used, reason = "documented: a test's own card number")]
        samples::card(number).expect("a card number of `cards`")
    }

    /// A merchant transaction id no other call of this process uses.
    #[must_use]
    pub fn order_id(&self) -> MerchantTransactionId {
        #[expect(clippy::expect_used, reason = "`order` and a number make a valid id")]
        samples::order_id("order").expect("a valid prefix")
    }

    /// Breaks the next request `target` hits with `faults` ([`Sandbox::fault_next`]);
    /// called again, the one after it. [`FaultTarget::MONEY_MOVING`] waits for the next
    /// payment, token payment, repeat, capture, refund or cancel.
    pub fn fault_next(&self, target: FaultTarget, faults: Faults) {
        self.sandbox.fault_next(target, faults);
    }

    /// Approves the 3-D Secure challenge of `transaction` as its cardholder would on the
    /// sandbox's page; `false` when it is not waiting for one.
    pub fn approve_3ds(&self, transaction: &Transaction) -> bool {
        waits_for_3ds(transaction)
            && self
                .sandbox
                .approve_three_d_secure(transaction.payment_id.as_str())
    }

    /// Declines the 3-D Secure challenge of `transaction` (authentication failed); `false`
    /// when it is not waiting for one.
    pub fn decline_3ds(&self, transaction: &Transaction) -> bool {
        waits_for_3ds(transaction)
            && self
                .sandbox
                .decline_three_d_secure(transaction.payment_id.as_str())
    }

    /// Stops the sandbox ([`Sandbox::shutdown`]).
    pub async fn shutdown(self) {
        self.sandbox.shutdown().await;
    }
}

/// A client builder for `sandbox`'s first merchant (of its first partner that has one):
/// its credentials, account and terminal, a token fetched with its login name, plain HTTP
/// allowed when the sandbox serves it; with the merchant's secure key. `None` for a
/// configuration without a merchant.
#[must_use]
pub fn client_builder(sandbox: &Sandbox) -> Option<(ClientBuilder, SecureKey)> {
    client_builder_at(sandbox.config(), sandbox.base_url())
}

/// The same for a sandbox of the configuration `config` reached at `base_url`: one that is
/// not a [`Sandbox`] of this process's, or none at all (a simulation's network, which hands
/// each request to the sandbox's request handling itself, never dials it).
#[must_use]
pub fn client_builder_at(
    config: &SandboxConfig,
    base_url: &str,
) -> Option<(ClientBuilder, SecureKey)> {
    let (partner, merchant) = config.partners.iter().find_map(|partner| {
        partner
            .merchants
            .first()
            .map(|merchant| (partner, merchant))
    })?;
    let mut builder = Client::builder()
        .base_url(base_url)
        .allow_http(base_url.starts_with("http://"))
        .credentials(merchant.credentials())
        .fetch_auth_token(partner.partner_id, merchant.username.clone());
    if let Some(account) = merchant.account_id {
        builder = builder.account_id(account);
    }
    if let Some(terminal) = merchant.terminal_id {
        builder = builder.terminal_id(terminal);
    }
    Some((builder, merchant.secure_key.clone()))
}

fn waits_for_3ds(transaction: &Transaction) -> bool {
    matches!(transaction.status, PaymentStatus::ThreeDSecure { .. })
}
