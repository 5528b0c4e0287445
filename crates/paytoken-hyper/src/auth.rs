//! The context requests are signed with, and the auth token in it: fixed, or fetched and
//! renewed one renewal at a time.
//!
//! Calls read the current context under a short lock and go on; only when the token is due
//! does a call take the renewal lock, and every call that arrives meanwhile waits on it and
//! then uses the token the first one got.

use std::sync::{Arc, PoisonError, RwLock};
use std::time::Duration;

use paytoken_protocol::ops::auth_token::FetchAuthToken;
use paytoken_protocol::{AuthToken, AuthTokenLifecycle, Context};

/// Where the auth token comes from.
#[derive(Debug, Clone)]
pub(crate) enum TokenSource {
    /// No token: the calls go without the header.
    None,
    /// The caller's token, used as it is until the client is dropped.
    Fixed(AuthToken),
    /// Fetched with a login name, renewed before it expires and after the gateway refuses
    /// it.
    Fetched(FetchAuthToken),
}

/// The context to sign with, and when its token is due.
#[derive(Debug, Clone)]
pub(crate) struct Current {
    pub(crate) context: Arc<Context>,
    /// When to renew, on the client's timeline; `None` for a token that is never renewed.
    renew_at: Option<Duration>,
}

impl Current {
    /// Whether the token may still be used; `now` is read only for a token that is ever
    /// renewed, so a call with a fixed token reads no clock for it.
    pub(crate) fn is_fresh(&self, now: impl FnOnce() -> Duration) -> bool {
        self.renew_at.is_none_or(|due| now() < due)
    }
}

/// The client's auth state.
#[derive(Debug)]
pub(crate) struct Auth {
    /// tokio's instant, which a paused runtime's clock moves: a simulation's virtual hours
    /// pass for the token's life cycle too.
    epoch: tokio::time::Instant,
    current: RwLock<Current>,
    /// The fetched token's life cycle; held across the renewal's network round trip, which
    /// is what makes the renewal single-flight. It alone says when a token is due.
    pub(crate) renewal: Option<tokio::sync::Mutex<AuthTokenLifecycle>>,
}

impl Auth {
    pub(crate) fn new(
        mut context: Context,
        source: TokenSource,
        lifetime: Duration,
        refresh_before: Duration,
    ) -> Self {
        let (renew_at, renewal) = match source {
            TokenSource::None => (None, None),
            TokenSource::Fixed(token) => {
                context.auth_token = Some(token);
                (None, None)
            }
            TokenSource::Fetched(fetch) => {
                let lifecycle = AuthTokenLifecycle::new(fetch)
                    .lifetime(lifetime)
                    .refresh_before(refresh_before);
                // Due at once: the first call fetches the token.
                (
                    Some(Duration::ZERO),
                    Some(tokio::sync::Mutex::new(lifecycle)),
                )
            }
        };
        Self {
            epoch: tokio::time::Instant::now(),
            current: RwLock::new(Current {
                context: Arc::new(context),
                renew_at,
            }),
            renewal,
        }
    }

    /// The time on the client's own timeline, which the token life cycle runs on.
    pub(crate) fn now(&self) -> Duration {
        self.epoch.elapsed()
    }

    pub(crate) fn current(&self) -> Current {
        // A panic while holding this lock could only have happened in a clone or an
        // assignment, which leave the value whole: the poison carries no meaning here.
        self.current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Installs a fresh token, due for renewal at `renew_at` (the life cycle's word), and
    /// returns the context that carries it.
    pub(crate) fn install(
        &self,
        base: &Context,
        token: AuthToken,
        renew_at: Duration,
    ) -> Arc<Context> {
        let mut context = base.clone();
        context.auth_token = Some(token);
        let context = Arc::new(context);
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = Current {
            context: Arc::clone(&context),
            renew_at: Some(renew_at),
        };
        context
    }
}
