//! What a shop's code uses in almost every file: `use paytoken::prelude::*;`.
//!
//! The client and its error (feature `hyper`), every operation, the values a payment is
//! made of, and the enums answers are matched on. Everything here is also at the crate
//! root or under [`ops`](crate::ops).
//!
//! ```
//! use paytoken::prelude::*;
//!
//! let payment = Payment::new(
//!     MerchantTransactionId::new("order1001")?,
//!     Amount::from_minor_units(5000),
//!     Currency::EUR,
//!     Card::new(
//!         CardNumber::new("4000000000000051")?,
//!         ExpiryMonth::new(6)?,
//!         ExpiryYear::new(2030)?,
//!         Cvv::new("745")?,
//!     ),
//! )
//! .recurring(RecurringType::Initial);
//! assert_eq!(Payment::KIND, OperationKind::Payment);
//! # drop(payment);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use crate::ops::auth_token::{FetchAuthToken, RegenerateAuthToken};
pub use crate::ops::cancel::Cancel;
pub use crate::ops::capture::Capture;
pub use crate::ops::cards_and_accounts::CardsAndAccounts;
pub use crate::ops::customer_signup::CustomerSignup;
pub use crate::ops::delete_token::DeleteToken;
pub use crate::ops::inquiry::Inquiry;
pub use crate::ops::installments::Installments;
pub use crate::ops::invoice_list::InvoiceList;
pub use crate::ops::payment::Payment;
pub use crate::ops::refund::Refund;
pub use crate::ops::registration::Registration;
pub use crate::ops::repeat_payment::RepeatPayment;
pub use crate::ops::token_payment::TokenPayment;
pub use crate::{
    Amount, BankAccount, Billing, Card, CardNumber, Credentials, Currency, Customer, CustomerId,
    Cvv, Email, ExpiryMonth, ExpiryYear, FieldValue as _, MemberId, MerchantTransactionId,
    Operation as _, OperationKind, PartnerId, PaymentBrand, PaymentId, PaymentMode, PaymentStatus,
    PaymentType, RecurringType, RegistrationId, SecureKey, Shipping, Transaction, TransactionState,
    TransactionStatus, Username,
};
#[cfg(feature = "hyper")]
pub use crate::{Client, ClientBuilder, MemoryDuplicates};
pub use crate::{DuplicateStore as _, Error, ErrorKind};
