//! The auth-token life cycle as a pure state: given `now`, either a valid token or the
//! request that gets a new one. The caller owns the clock and the sending.
//!
//! Time is a [`Duration`] on the caller's own timeline: since any origin it picks (the
//! start of its process with `start.elapsed()`, or the UNIX epoch), as long as it keeps
//! the same one. This crate never reads a clock, so tests can move time by hand.

use core::time::Duration;

use crate::ops::Operation;
use crate::ops::auth_token::{AuthTokenGrant, FetchAuthToken, RegenerateAuthToken};
use crate::{AuthToken, Context, Error, Request};

/// How long the gateway's tokens live (one hour, as the deployments issue them).
pub const TOKEN_LIFETIME: Duration = Duration::from_secs(60 * 60);
/// How long before expiry a token is renewed, by default.
pub const DEFAULT_REFRESH_BEFORE: Duration = Duration::from_secs(5 * 60);

/// What to do next.
#[derive(Debug)]
#[non_exhaustive]
pub enum TokenStep<'a> {
    /// Use this token.
    Valid(&'a AuthToken),
    /// Send this request, then hand its answer to [`AuthTokenLifecycle::parse`]. While the
    /// old token is still valid this is a regenerate request; otherwise a fetch.
    Renew(Request),
}

/// Keeps one auth token fresh.
///
/// ```
/// use std::time::Duration;
/// use paytoken_checksum::{Credentials, SecureKey};
/// use paytoken_protocol::{AuthTokenLifecycle, Context, TokenStep, Username};
/// use paytoken_protocol::ops::auth_token::FetchAuthToken;
///
/// let context = Context::new(Credentials::merchant("11344".parse()?, SecureKey::new("key")?));
/// let mut tokens = AuthTokenLifecycle::new(FetchAuthToken::new("100".parse()?, Username::new("shop")?));
/// // Readings of the caller's clock; a client passes `start.elapsed()` of an `Instant`.
/// let start = Duration::from_secs(0);
/// let TokenStep::Renew(request) = tokens.step(&context, start)? else { unreachable!() };
/// assert_eq!(request.path(), "/transactionServices/REST/v1/authToken");
/// // ... send it; hand the answer over:
/// let answer = br#"{"result":{"code":"200","description":"Token generated successfully"},"AuthToken":"eyJ0.e30.c2ln"}"#;
/// tokens.parse(200, answer, start)?;
/// assert!(matches!(tokens.step(&context, start + Duration::from_secs(60))?, TokenStep::Valid(_)));
/// assert!(matches!(tokens.step(&context, start + Duration::from_secs(3500))?, TokenStep::Renew(_)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct AuthTokenLifecycle {
    fetch: FetchAuthToken,
    lifetime: Duration,
    refresh_before: Duration,
    current: Option<(AuthToken, Duration)>,
}

impl AuthTokenLifecycle {
    /// Starts without a token; the first step fetches one with `fetch`.
    #[must_use]
    pub const fn new(fetch: FetchAuthToken) -> Self {
        Self {
            fetch,
            lifetime: TOKEN_LIFETIME,
            refresh_before: DEFAULT_REFRESH_BEFORE,
            current: None,
        }
    }

    /// Renews this long before expiry instead of [`DEFAULT_REFRESH_BEFORE`].
    #[must_use]
    pub const fn refresh_before(mut self, margin: Duration) -> Self {
        self.refresh_before = margin;
        self
    }

    /// Takes tokens to live this long instead of [`TOKEN_LIFETIME`] (a gateway with
    /// another policy, or a test).
    #[must_use]
    pub const fn lifetime(mut self, lifetime: Duration) -> Self {
        self.lifetime = lifetime;
        self
    }

    /// The token, when there is one that needs no renewal at `now`.
    #[must_use]
    pub fn token(&self, now: Duration) -> Option<&AuthToken> {
        // Read off `renew_at`, so that the two can never disagree.
        let due = self.renew_at()?;
        self.current
            .as_ref()
            .filter(|_| now < due)
            .map(|(token, _)| token)
    }

    /// When the token is due for renewal, on the caller's timeline: [`refresh_before`]
    /// ahead of its expiry. `None` without a token: renew now. Until then
    /// [`token`](Self::token) gives the token; from then on [`step`](Self::step) renews.
    ///
    /// [`refresh_before`]: Self::refresh_before
    #[must_use]
    pub fn renew_at(&self) -> Option<Duration> {
        self.current
            .as_ref()
            .map(|(_, expires)| expires.saturating_sub(self.refresh_before))
    }

    /// What to do at `now`: use the token, or send the request that renews it.
    ///
    /// # Errors
    /// An input error from building the request (a partner id that does not match the
    /// credentials).
    pub fn step(&self, context: &Context, now: Duration) -> Result<TokenStep<'_>, Error> {
        match self.token(now) {
            Some(token) => Ok(TokenStep::Valid(token)),
            None => self.renewal(context, now).map(TokenStep::Renew),
        }
    }

    /// The request that renews the token at `now`, whether or not it is due: a regenerate
    /// request while the current token has not expired, a fetch otherwise. For a caller
    /// that keeps its own schedule with [`renew_at`](Self::renew_at).
    ///
    /// # Errors
    /// An input error from building the request (a partner id that does not match the
    /// credentials).
    pub fn renewal(&self, context: &Context, now: Duration) -> Result<Request, Error> {
        match &self.current {
            Some((token, expires)) if now < *expires => RegenerateAuthToken {
                partner_id: self.fetch.partner_id,
                token: token.clone(),
            }
            .request(context),
            _ => self.fetch.request(context),
        }
    }

    /// Reads the answer to the renewal request sent at `sent_at`, and keeps the new token:
    /// it is taken to expire one lifetime after it was asked for, never later.
    ///
    /// # Errors
    /// The error of the answer. A refusal also drops the current token, so that the next
    /// step fetches a new one rather than asking to regenerate a token the gateway refused.
    pub fn parse(
        &mut self,
        status: u16,
        body: &[u8],
        sent_at: Duration,
    ) -> Result<&AuthToken, Error> {
        match self.fetch.parse(status, body) {
            Ok(grant) => Ok(self.accept(grant, sent_at)),
            Err(error) => {
                if error.refusal().is_some() {
                    self.invalidate();
                }
                Err(error)
            }
        }
    }

    /// Keeps a token obtained some other way, asked for at `sent_at`.
    pub fn accept(&mut self, grant: AuthTokenGrant, sent_at: Duration) -> &AuthToken {
        let expires = sent_at.checked_add(self.lifetime).unwrap_or(sent_at);
        let (token, _) = self.current.insert((grant.token, expires));
        token
    }

    /// Drops the token (the gateway refused it with a `2xxxx` code): the next step fetches a
    /// new one.
    pub fn invalidate(&mut self) {
        self.current = None;
    }
}
