//! Auth tokens: JWT-shaped (three base64url parts), unpredictable, remembered by the
//! sandbox with their owner and expiry. Clients treat them as opaque, as they must the
//! real gateway's.

use crate::state::{IssuedToken, Principal, State};

/// How long a token lives: the interface's one hour, the constant the client's token life
/// cycle uses too.
pub use paytoken_protocol::TOKEN_LIFETIME as AUTH_TOKEN_LIFETIME;

/// `{"alg":"HS256","typ":"JWT"}` in base64url: the header every token carries.
const HEADER: &str = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9";

/// Issues a token for `principal` at `now`, forgetting tokens that expired.
pub(crate) fn issue(state: &mut State, principal: Principal, subject: &str, now: i64) -> String {
    state.expire_tokens(now);
    // An hour always fits; the saturation only guards the arithmetic.
    let lifetime = i64::try_from(AUTH_TOKEN_LIFETIME.as_secs()).unwrap_or(i64::MAX);
    let expires_at = now.saturating_add(lifetime);
    let payload = format!(r#"{{"sub":"{subject}","iat":{now},"exp":{expires_at}}}"#);
    let mut token = String::with_capacity(160);
    token.push_str(HEADER);
    token.push('.');
    base64url(payload.as_bytes(), &mut token);
    token.push('.');
    base64url(&state.entropy.bytes(), &mut token);
    state.issue_token(
        token.clone(),
        IssuedToken {
            principal,
            expires_at,
        },
    );
    token
}

/// Base64url without padding (RFC 4648, section 5).
fn base64url(bytes: &[u8], out: &mut String) {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let symbol = |bits: u32| {
        // `bits & 63` is below 64, the alphabet's length.
        char::from(
            ALPHABET
                .get(usize::try_from(bits & 63).unwrap_or(0))
                .copied()
                .unwrap_or(b'A'),
        )
    };
    for chunk in bytes.chunks(3) {
        let b = |i: usize| u32::from(chunk.get(i).copied().unwrap_or(0));
        let group = (b(0) << 16) | (b(1) << 8) | b(2);
        out.push(symbol(group >> 18));
        out.push(symbol(group >> 12));
        if chunk.len() > 1 {
            out.push(symbol(group >> 6));
        }
        if chunk.len() > 2 {
            out.push(symbol(group));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(bytes: &[u8]) -> String {
        let mut out = String::new();
        base64url(bytes, &mut out);
        out
    }

    #[test]
    fn base64url_matches_rfc_4648_vectors() {
        // RFC 4648 section 10, padding removed.
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(plain.as_bytes()), encoded);
        }
        assert_eq!(encode(br#"{"alg":"HS256","typ":"JWT"}"#), HEADER);
        assert_eq!(encode(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn tokens_differ_and_expire_after_an_hour() {
        let mut state = State::default();
        let owner = Principal::Partner { partner: 0 };
        let first = issue(&mut state, owner, "100", 1000);
        let second = issue(&mut state, owner, "100", 1000);
        assert_ne!(first, second);
        assert_eq!(first.split('.').count(), 3);
        assert_eq!(state.token(&first).unwrap().expires_at, 1000 + 3600);
        issue(&mut state, owner, "100", 1000 + 3600);
        assert!(
            state.token(&first).is_none(),
            "expired tokens are forgotten"
        );
    }
}
