//! Auth tokens: JWT-shaped (three base64url parts), unpredictable, remembered by the
//! sandbox by their digest only (`state::TokenDigest`) with their owner and expiry. Clients treat them as opaque, as they must the
//! real gateway's.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use crate::state::{IssuedToken, Principal, State};

/// How long a token lives: the interface's one hour, the constant the client's token life
/// cycle uses too.
pub use paytoken_protocol::TOKEN_LIFETIME as AUTH_TOKEN_LIFETIME;

/// The header every token carries.
const HEADER: &str = r#"{"alg":"HS256","typ":"JWT"}"#;

/// Issues a token for `principal` at `now`, forgetting tokens that expired.
pub(crate) fn issue(state: &mut State, principal: Principal, subject: &str, now: i64) -> String {
    state.expire_tokens(now);
    // An hour always fits; the saturation only guards the arithmetic.
    let lifetime = i64::try_from(AUTH_TOKEN_LIFETIME.as_secs()).unwrap_or(i64::MAX);
    let expires_at = now.saturating_add(lifetime);
    let payload = format!(r#"{{"sub":"{subject}","iat":{now},"exp":{expires_at}}}"#);
    let mut token = String::with_capacity(160);
    URL_SAFE_NO_PAD.encode_string(HEADER, &mut token);
    token.push('.');
    URL_SAFE_NO_PAD.encode_string(payload, &mut token);
    token.push('.');
    URL_SAFE_NO_PAD.encode_string(state.entropy.bytes(), &mut token);
    state.issue_token(
        &token,
        IssuedToken {
            principal,
            expires_at,
        },
    );
    token
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_differ_and_expire_after_an_hour() {
        let mut state = State::default();
        let owner = Principal::Partner { partner: 0 };
        let first = issue(&mut state, owner, "100", 1000);
        let second = issue(&mut state, owner, "100", 1000);
        assert_ne!(first, second);
        let parts: Vec<&str> = first.split('.').collect();
        assert_eq!(parts.first(), Some(&"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"));
        assert_eq!(parts.len(), 3);
        assert_eq!(state.token(&first).unwrap().expires_at, 1000 + 3600);
        issue(&mut state, owner, "100", 1000 + 3600);
        assert!(
            state.token(&first).is_none(),
            "expired tokens are forgotten"
        );
    }
}
