//! Unpredictable identifiers without a random-number crate.
//!
//! `std`'s `RandomState` is seeded from the operating system's randomness once per thread
//! and moved on for every new state, so hashing a counter through a fresh state gives
//! values nobody outside the process can predict. That is all a sandbox needs for auth
//! tokens and registration ids; it is not key material.

use paytoken_types::RegistrationId;
use std::hash::{BuildHasher, Hasher, RandomState};
use std::sync::atomic::{AtomicU64, Ordering};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// 64 unpredictable bits.
pub(crate) fn random_u64() -> u64 {
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.finish()
}

/// 32 lowercase hex digits: the shape of the gateway's registration ids.
pub(crate) fn registration_id() -> RegistrationId {
    let hex = format!("{:016x}{:016x}", random_u64(), random_u64());
    // Invariant: 32 hexadecimal digits are always a registration id (alphanumeric, 32 long).
    #[expect(clippy::expect_used, reason = "32 hex digits are always an id")]
    RegistrationId::new(&hex).expect("32 hex digits are a registration id")
}

/// 16 unpredictable bytes.
pub(crate) fn random_bytes() -> [u8; 16] {
    let mut bytes = [0; 16];
    let (high, low) = bytes.split_at_mut(8);
    high.copy_from_slice(&random_u64().to_le_bytes());
    low.copy_from_slice(&random_u64().to_le_bytes());
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registration_ids_are_32_hex_digits_and_differ() {
        let first = registration_id();
        let second = registration_id();
        assert_eq!(first.as_str().len(), 32);
        assert!(first.as_str().bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(first, second);
    }
}
