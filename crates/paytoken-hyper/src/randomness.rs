//! What the client draws at random: the retries' jitter and the merchant transaction ids
//! it makes up. Unpredictable by default; the same in every run after a seed
//! ([`ClientBuilder::seed`](crate::ClientBuilder::seed)), as a deterministic simulation
//! needs.

use std::hash::{BuildHasher, DefaultHasher, Hasher, RandomState};
use std::sync::atomic::{AtomicU64, Ordering};

use paytoken_types::MerchantTransactionId;

use crate::new_merchant_transaction_id;

/// The client's source: `std`'s `RandomState` (seeded from the operating system once per
/// thread, and moved on with every new state; not key material), or, after a seed, a
/// counter hashed with `std`'s fixed keys.
#[derive(Debug, Default)]
pub(crate) struct Randomness {
    seed: Option<u64>,
    drawn: AtomicU64,
}

impl Randomness {
    pub(crate) const fn seeded(seed: Option<u64>) -> Self {
        Self {
            seed,
            drawn: AtomicU64::new(0),
        }
    }

    /// The next 64 bits.
    pub(crate) fn next_u64(&self) -> u64 {
        let mut hasher = match self.seed {
            None => RandomState::new().build_hasher(),
            Some(seed) => {
                let mut hasher = DefaultHasher::new();
                hasher.write_u64(seed);
                hasher
            }
        };
        hasher.write_u64(self.drawn.fetch_add(1, Ordering::Relaxed));
        hasher.finish()
    }

    /// A merchant transaction id for a money-moving call sent without one: a fresh one
    /// ([`new_merchant_transaction_id`]), or after a seed `pt-0-` and 64 bits of it in
    /// hexadecimal, no clock in it.
    pub(crate) fn order_id(&self) -> MerchantTransactionId {
        if self.seed.is_none() {
            return new_merchant_transaction_id();
        }
        let text = format!("pt-0-{:016x}", self.next_u64());
        #[expect(
            clippy::expect_used,
            reason = "ASCII letters, digits and hyphens, 21 characters: always a valid id"
        )]
        MerchantTransactionId::new(&text).expect("a generated id is valid")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_draws_the_same_jitter_and_ids_every_time() {
        let draw = |seed| {
            let randomness = Randomness::seeded(seed);
            (randomness.next_u64(), randomness.order_id())
        };
        assert_eq!(draw(Some(5)), draw(Some(5)));
        assert_ne!(draw(Some(5)), draw(Some(6)));
        assert!(draw(Some(5)).1.as_str().starts_with("pt-0-"));
        assert_ne!(draw(None), draw(None));
    }
}
