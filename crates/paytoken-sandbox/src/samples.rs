//! Values to try the sandbox with, shared by the demo and the tests so that each is
//! defined once: a test card that outlives any sandbox clock, and order ids that no other
//! call of this process (nor another process) has used.
//!
//! ```
//! use paytoken_sandbox::{cards, samples};
//!
//! let card = samples::card(cards::APPROVED).unwrap();
//! assert_eq!(card.expiry_year.to_string(), "2099");
//! let (first, second) = (samples::order_id("demo")?, samples::order_id("demo")?);
//! assert_ne!(first, second);
//! # Ok::<(), paytoken_types::Error>(())
//! ```

use core::sync::atomic::{AtomicU64, Ordering};

use paytoken_types::{Card, CardNumber, Cvv, Error, MerchantTransactionId};

/// A card with `number`, expiring in December 2099 (so no test or demo outlives it), CVV
/// `123` (the sandbox takes any), held by Ada Lovelace.
///
/// # Errors
/// The card number's own errors: a number that is not 12 to 19 digits or fails the Luhn
/// check.
pub fn card(number: &str) -> Result<Card, Error> {
    Ok(Card {
        number: CardNumber::new(number)?,
        expiry_month: "12".parse()?,
        expiry_year: "2099".parse()?,
        cvv: Cvv::new("123")?,
        holder: Some("Ada Lovelace".into()),
    })
}

/// `{prefix}{process id}x{n}`, with `n` counting from 1 in this process: no two calls of
/// one process, nor of two processes running at once, give the same id.
///
/// # Errors
/// What [`MerchantTransactionId::new`] refuses in the prefix (a control character, a
/// `|`, more than 255 characters with the suffix).
pub fn order_id(prefix: &str) -> Result<MerchantTransactionId, Error> {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    MerchantTransactionId::new(&format!("{prefix}{}x{n}", std::process::id()))
}
