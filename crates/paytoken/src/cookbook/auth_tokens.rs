//! Auth tokens: the client fetches and renews its own ([`ClientBuilder::fetch_auth_token`](
//! crate::ClientBuilder::fetch_auth_token)); a partner's tool may fetch one for a merchant's
//! login, or exchange a valid token for a fresh one.
//!
//! ```
//! use paytoken::prelude::*;
//! use paytoken::sandbox::TestGateway;
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let gateway = TestGateway::start().await?;
//! let client = gateway.client();
//! let config = gateway.sandbox().config();
//! let partner = &config.partners[0];
//! let merchant = &partner.merchants[0];
//!
//! let fetch = FetchAuthToken::new(partner.partner_id, merchant.username.clone());
//! let grant = client.fetch_auth_token(&fetch).await?;
//! let regenerate = RegenerateAuthToken::new(partner.partner_id, grant.token);
//! let fresh = client.regenerate_auth_token(&regenerate).await?;
//! assert!(!fresh.token.expose_secret().is_empty());
//! gateway.shutdown().await;
//! # Ok(()) }
//! ```
