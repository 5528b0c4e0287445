//! Unpredictable identifiers without a random-number crate, or the same ones every run.
//!
//! `std`'s `RandomState` is seeded from the operating system's randomness once per thread
//! and moved on for every new state, so hashing a counter through a fresh state gives
//! values nobody outside the process can predict. That is all a sandbox needs for auth
//! tokens and registration ids; it is not key material. A seeded source hashes the seed
//! and the counter with `std`'s fixed keys instead: the same values in every run of the
//! same build, which is what a deterministic simulation needs.

use paytoken_types::RegistrationId;
use std::hash::{BuildHasher, DefaultHasher, Hasher, RandomState};

/// Where the sandbox's ids and tokens come from: a counter hashed by unpredictable keys,
/// or by fixed ones after a seed.
#[derive(Debug, Clone, Default)]
pub(crate) struct Entropy {
    seed: Option<u64>,
    drawn: u64,
}

impl Entropy {
    /// The same values in the same order every run.
    #[cfg(any(test, feature = "simulation"))]
    pub(crate) const fn seeded(seed: u64) -> Self {
        Self {
            seed: Some(seed),
            drawn: 0,
        }
    }

    /// 64 bits: unpredictable, or the seed's next.
    pub(crate) fn next_u64(&mut self) -> u64 {
        let mut hasher = match self.seed {
            None => RandomState::new().build_hasher(),
            Some(seed) => {
                let mut hasher = DefaultHasher::new();
                hasher.write_u64(seed);
                hasher
            }
        };
        hasher.write_u64(self.drawn);
        self.drawn = self.drawn.wrapping_add(1);
        hasher.finish()
    }

    /// 32 lowercase hex digits: the shape of the gateway's registration ids.
    pub(crate) fn registration_id(&mut self) -> RegistrationId {
        let hex = format!("{:016x}{:016x}", self.next_u64(), self.next_u64());
        // Invariant: 32 hexadecimal digits are always a registration id (alphanumeric, 32 long).
        #[expect(clippy::expect_used, reason = "32 hex digits are always an id")]
        RegistrationId::new(&hex).expect("32 hex digits are a registration id")
    }

    /// 16 bytes.
    pub(crate) fn bytes(&mut self) -> [u8; 16] {
        let mut bytes = [0; 16];
        let (high, low) = bytes.split_at_mut(8);
        high.copy_from_slice(&self.next_u64().to_le_bytes());
        low.copy_from_slice(&self.next_u64().to_le_bytes());
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registration_ids_are_32_hex_digits_and_differ() {
        let mut entropy = Entropy::default();
        let first = entropy.registration_id();
        let second = entropy.registration_id();
        assert_eq!(first.as_str().len(), 32);
        assert!(first.as_str().bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(first, second);
    }

    #[test]
    fn a_seed_gives_the_same_values_every_time_and_another_seed_others() {
        let draw = |seed| {
            let mut entropy = Entropy::seeded(seed);
            (entropy.registration_id(), entropy.bytes())
        };
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
        assert_ne!(draw(7).0, Entropy::default().registration_id());
    }
}
