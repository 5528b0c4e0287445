//! Merchant transaction ids the client makes up for money-moving calls sent without one.

use paytoken_types::MerchantTransactionId;

/// A fresh merchant transaction id, for a money-moving call sent without one: `pt-`, the
/// milliseconds since the UNIX epoch and 64 random bits, all in hexadecimal
/// (`pt-19ab2c3d4e5-8f1e2d3c4b5a6978`). Unique across processes in practice: the random
/// part comes from the standard library's per-process random keys and a counter.
#[must_use]
pub fn new_merchant_transaction_id() -> MerchantTransactionId {
    use std::hash::{BuildHasher as _, Hasher as _};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_millis());
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.write_u128(millis);
    let text = format!("pt-{millis:x}-{:016x}", hasher.finish());
    #[expect(
        clippy::expect_used,
        reason = "ASCII letters, digits and hyphens, at most 56 characters: always a valid id"
    )]
    MerchantTransactionId::new(&text).expect("a generated id is valid")
}
