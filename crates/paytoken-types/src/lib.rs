//! # paytoken-types
//!
//! The domain of the card-tokenization gateway interface, as `#![no_std]` types (with
//! `alloc`): identifiers, money, card and bank-account data, the customer, shipping and
//! billing blocks, open enums, result codes and timestamps.
//!
//! **Layer:** the bottom of paytoken. `paytoken-checksum` signs these values,
//! `paytoken-protocol` builds requests from them and parses answers into them. Nothing here
//! does I/O or reads a clock.
//!
//! Every value is checked when it is made (strictly: `FromStr` accepts the one text paytoken
//! sends; [`Tolerant`] reads the many forms answers come in), so a request built from them is well formed,
//! and a refusal names the field ([`Error`]) without repeating the value. Card numbers,
//! CVVs and IBANs are secrets: their `Debug` is redacted, they have no `Display`, and they
//! are wiped from memory when dropped.
//!
//! ```
//! use paytoken_types::{Amount, Card, CardNumber, Currency, Cvv, Customer, Email};
//!
//! let card = Card {
//!     number: CardNumber::new(" 4000000000000051")?,
//!     expiry_month: "06".parse()?,
//!     expiry_year: "2030".parse()?,
//!     cvv: Cvv::new("745")?,
//!     holder: None,
//! };
//! let customer = Customer {
//!     given_name: Some("Zoë".into()),
//!     email: Some(Email::new("zoe@example.com")?),
//!     ..Customer::default()
//! };
//! customer.validate()?;
//! let amount: Amount = "50.00".parse()?;
//! assert_eq!(amount.to_wire().as_str(), "50.00");
//! assert_eq!(Currency::EUR.as_str(), "EUR");
//! assert_eq!(format!("{card:?}").contains("4000000000000051"), false);
//! # Ok::<(), paytoken_types::Error>(())
//! ```
//!
//! ## Features
//! - `serde` (default): `Deserialize` for the response-side types (identifiers, amounts,
//!   currencies, enums, result codes, timestamps), reading the wire's JSON strings.
//!
//! Without default features the crate needs only `core` and `alloc`.

#![no_std]
#![forbid(unsafe_code)]
// Only the `no_std` crates ask for `core` and `alloc` over `std`: the others are std crates.
#![warn(
    clippy::std_instead_of_core,
    clippy::std_instead_of_alloc,
    clippy::alloc_instead_of_core
)]

extern crate alloc;
#[cfg(test)]
extern crate std;

/// What the unit tests of a `no_std` crate need from `alloc`.
#[cfg(test)]
mod test_prelude {
    pub(crate) use alloc::borrow::ToOwned;
    pub(crate) use alloc::string::ToString;
    pub(crate) use alloc::vec::Vec;
    pub(crate) use alloc::{format, vec};
}

/// A table of one value per byte, worked out when the program is compiled:
/// `byte_table!([bool; 256], false, |b| b.is_ascii_digit())`.
macro_rules! byte_table {
    ($table:ty, $empty:expr, |$byte:ident| $value:expr) => {{
        let mut table: $table = [$empty; 256];
        let mut index = 0;
        while index < 256 {
            #[expect(clippy::as_conversions, reason = "index < 256 fits in u8")]
            let $byte = index as u8;
            #[expect(clippy::indexing_slicing, reason = "index < 256, the table's length")]
            let slot = &mut table[index];
            *slot = $value;
            index += 1;
        }
        table
    }};
}

/// Chained setters, each written as the one assignment it makes:
/// `pub fn brand(brand: PaymentBrand) => payment_brand = Some(brand);` is
/// `pub fn brand(mut self, brand: PaymentBrand) -> Self`, which sets the field and returns
/// `self` (the field may be a path, `connection.http2`); the doc comment above a line is
/// its method's. The builders of paytoken's own crates use it; not part of the API, like
/// [`internal`].
#[doc(hidden)]
#[macro_export]
macro_rules! setters {
    ($($(#[$doc:meta])* pub fn $name:ident($($arg:ident: $ty:ty),*) => $($field:ident).+ = $value:expr;)*) => {
        $(
            $(#[$doc])*
            #[must_use]
            pub fn $name(mut self, $($arg: $ty),*) -> Self {
                self.$($field).+ = $value;
                self
            }
        )*
    };
}

mod amount;
mod bank;
mod blocks;
mod brand;
mod calendar;
mod card;
mod contact;
mod currency;
mod digits;
mod enums;
mod error;
mod fields;
mod form;
mod id;
mod inline;
mod merchant_transaction_id;
mod result_code;
mod sensitive;
mod text_rule;
mod text_traits;
mod timestamp;
mod tolerant;

/// The form writer and reader that paytoken's own crates share (the blocks here write their
/// fields, `paytoken-protocol` the rest of each request, the sandbox reads them back), and
/// the table of the wire's fields (`fields`) and their masks (`sensitive`). Not part of the
/// API: no promise holds for anything under this path.
#[doc(hidden)]
pub mod internal {
    pub use crate::form::{
        Decode, FormFields, FormValue, FormWriter, Signer, decode, decode_path_segment,
        encode_into, is_form, path_segment,
    };
    /// The table of the wire's fields: what each is to a reader and to whoever shows it.
    pub mod fields {
        pub use crate::fields::*;
    }
    /// How each field of the wire is shown.
    pub mod sensitive {
        pub use crate::sensitive::*;
    }
}

pub use amount::{Amount, AmountText};
pub use bank::{BankAccount, Bic, Iban};
pub use blocks::{Billing, Customer, Shipping};
pub use card::{Card, CardNumber, Cvv, ExpiryMonth, ExpiryYear, MaskedCardNumber};
pub use contact::{BirthDate, CountryCode, Email, LanguageCode, Phone, TelephoneCountryCode};
pub use currency::Currency;
pub use digits::Digits;
pub use enums::{
    PaymentBrand, PaymentMode, PaymentType, RecurringType, RegistrationStatus, Sex,
    TransactionState, TransactionStatus,
};
pub use error::Error;
pub use id::{AccountId, CustomerId, MemberId, PartnerId, PaymentId, RegistrationId, TerminalId};
pub use merchant_transaction_id::{MAX_MERCHANT_TRANSACTION_ID_CHARS, MerchantTransactionId};
pub use result_code::{CodeFamily, GatewayResult, ResultCode};
pub use text_rule::{MAX_URL_LEN, TextRule, check_authority};
pub use timestamp::Timestamp;
pub use tolerant::{Tolerant, trimmed};
