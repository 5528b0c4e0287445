//! # paytoken-checksum
//!
//! The request checksums of the card-tokenization gateway interface: MD5 over fields
//! joined with `|`, as 32 lowercase hex digits in `authentication.checksum`. One function
//! per rule of the interface (see [`rules`]), plus the inquiry rule the deployments document.
//!
//! **Layer:** above `paytoken-types`, below `paytoken-protocol`, which signs every request
//! with it; the sandbox uses [`verify`] to check what clients send. `#![no_std]`, no
//! allocation per checksum.
//!
//! The [`SecureKey`] is a secret: `Debug` shows `***`, there is no `Display`, and it is
//! wiped when dropped. A field that holds `|` would make the joined text ambiguous, so it
//! is refused ([`Error::Separator`]).
//!
//! ```
//! use paytoken_checksum::{Credentials, SecureKey, rules, verify};
//! use paytoken_types::{Amount, MemberId, MerchantTransactionId};
//!
//! let credentials = Credentials::merchant(MemberId::new("11344")?, SecureKey::new("k3y")?);
//! let transaction = MerchantTransactionId::new("RestTransaction01")?;
//! let input = rules::payment(&credentials, &transaction, "50.00".parse::<Amount>()?);
//!
//! assert_eq!(input.masked().to_string(), "11344|***|RestTransaction01|50.00");
//! let checksum = input.compute();
//! assert_eq!(checksum.to_string().len(), 32);
//! assert!(verify(&checksum.to_string(), &checksum));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Features
//! None: the crate needs only `core` and `alloc` (the key lives in a `String`).

#![no_std]
#![forbid(unsafe_code)]
// Only the `no_std` crates ask for `core` and `alloc` over `std`: the others are std crates.
#![warn(
    clippy::std_instead_of_core,
    clippy::std_instead_of_alloc,
    clippy::alloc_instead_of_core
)]

extern crate alloc;

mod checksum;
mod error;
mod key;
pub mod rules;
mod writer;

pub use checksum::{Checksum, HexChecksum, verify};
pub use error::Error;
pub use key::{Credentials, SecureKey};
pub use rules::{ChecksumInput, MaskedInput};
pub use writer::ChecksumWriter;
