//! Who is calling: credentials, account and terminal, and the current auth token.

use alloc::borrow::Cow;
use alloc::sync::Arc;
use core::fmt;

use paytoken_checksum::Credentials;
use paytoken_types::{AccountId, TerminalId};
use zeroize::Zeroizing;

use crate::InvalidValue;

/// What every request is built with.
///
/// Plain data with public fields: build it once and reuse it, set the optional fields with
/// struct update syntax, and replace [`auth_token`](Context::auth_token) when the token is
/// renewed ([`crate::AuthTokenLifecycle`] says when).
///
/// ```
/// use paytoken_checksum::{Credentials, SecureKey};
/// use paytoken_protocol::{AuthToken, Context};
///
/// let context = Context {
///     terminal_id: Some("2541".parse()?),
///     auth_token: Some(AuthToken::new("eyJ0.e30.c2ln")?),
///     ..Context::new(Credentials::merchant("11344".parse()?, SecureKey::new("key")?))
/// };
/// assert!(context.account_id.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    /// The merchant's or the partner's id and secure key.
    pub credentials: Credentials,
    /// `authentication.accountId`, sent on payments and deletes when present.
    pub account_id: Option<AccountId>,
    /// `authentication.terminalId`, sent on payments, token payments, deletes and
    /// registrations when present.
    pub terminal_id: Option<TerminalId>,
    /// The `AuthToken` header, sent on every call but the auth-token endpoints.
    pub auth_token: Option<AuthToken>,
}

impl Context {
    /// A context with credentials only.
    #[must_use]
    pub const fn new(credentials: Credentials) -> Self {
        Self {
            credentials,
            account_id: None,
            terminal_id: None,
            auth_token: None,
        }
    }

    /// `text` with this context's secure key and auth token masked, as a
    /// [`Redactor`](crate::redact::Redactor) holding them masks them; borrowed when neither
    /// stands in it. For the free text of an answer to a request built in this context,
    /// which a gateway may echo them in.
    #[must_use]
    pub fn mask_secrets<'t>(&self, text: &'t str) -> Cow<'t, str> {
        let key = self.credentials.secure_key().expose_secret();
        let token = self
            .auth_token
            .as_ref()
            .map_or("", AuthToken::expose_secret);
        crate::redact::mask_secrets(text, &[key, token])
    }
}

/// The longest auth token accepted. The gateway's tokens are JWTs of a few hundred bytes.
pub(crate) const MAX_AUTH_TOKEN_LEN: usize = 4096;

/// The auth token the gateway issues (a JWT, valid for an hour): a secret. `Debug` shows
/// `AuthToken(***)`, there is no `Display`, and it is wiped from memory when dropped.
///
/// A clone is a handle on the same token, not a copy (a request's header and the
/// `http::Request` a transport sends hold such handles), and the token is wiped when the
/// last handle is dropped.
#[derive(Clone, PartialEq, Eq)]
pub struct AuthToken(Arc<Zeroizing<String>>);

impl AuthToken {
    /// The field its errors name: the header that carries it.
    pub const FIELD: &'static str = crate::AUTH_TOKEN_HEADER;

    /// Takes a token. It goes into an HTTP header, so it must be visible ASCII without
    /// spaces, at most 4096 bytes.
    ///
    /// # Errors
    /// [`InvalidValue`] for `AuthToken` when the token is empty, too long, or holds a
    /// character a header cannot carry. The message never repeats the token.
    pub fn new(token: impl Into<String>) -> Result<Self, InvalidValue> {
        let token = Zeroizing::new(token.into());
        let invalid = |reason| InvalidValue {
            field: Self::FIELD,
            reason,
        };
        if token.is_empty() {
            return Err(invalid("is empty"));
        }
        if token.len() > MAX_AUTH_TOKEN_LEN {
            return Err(invalid("is longer than 4096 bytes"));
        }
        if !token.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(invalid("holds a character an http header cannot carry"));
        }
        Ok(Self(Arc::new(token)))
    }

    /// The token, to put on the wire.
    #[must_use]
    pub fn expose_secret(&self) -> &str {
        &self.0
    }

    /// How many handles on this token are alive: what tests read to see where it went.
    #[cfg(all(test, feature = "http"))]
    pub(crate) fn handles(&self) -> usize {
        Arc::strong_count(&self.0)
    }
}

impl fmt::Debug for AuthToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AuthToken(***)")
    }
}

/// A login name for the auth-token endpoints (`merchant.username`, `partner.userName`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Username(String);

impl Username {
    /// Takes a login name: 1 to 100 characters, no control characters, no `|`.
    ///
    /// # Errors
    /// [`InvalidValue`] for `username` when it is empty, too long or holds a control
    /// character.
    pub fn new(name: impl Into<String>) -> Result<Self, InvalidValue> {
        let name = name.into();
        let invalid = |reason| InvalidValue {
            field: "username",
            reason,
        };
        if name.trim().is_empty() {
            return Err(invalid("is empty"));
        }
        if name.chars().count() > 100 {
            return Err(invalid("is longer than 100 characters"));
        }
        if name.chars().any(char::is_control) {
            return Err(invalid("holds a control character"));
        }
        Ok(Self(name))
    }

    /// The name.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Username {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auth_tokens_are_checked_and_never_shown() {
        let token = AuthToken::new("eyJhbGciOiJIUzI1NiJ9.e30.sig").unwrap();
        assert_eq!(format!("{token:?}"), "AuthToken(***)");
        assert_eq!(token.expose_secret(), "eyJhbGciOiJIUzI1NiJ9.e30.sig");
        for bad in ["", "a b", "a\nb", "é"] {
            let error = AuthToken::new(bad).unwrap_err();
            assert_eq!(error.field, "AuthToken");
        }
        assert!(AuthToken::new("x".repeat(MAX_AUTH_TOKEN_LEN + 1)).is_err());
    }

    #[test]
    fn usernames_are_checked() {
        assert_eq!(Username::new("shop-admin").unwrap().as_str(), "shop-admin");
        assert!(Username::new(" ").is_err());
        assert!(Username::new("a\tb").is_err());
    }
}
