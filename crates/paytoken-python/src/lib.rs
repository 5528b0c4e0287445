//! # paytoken-python
//!
//! paytoken for Python: the module `paytoken`, built by maturin from this crate. Two faces:
//! `paytoken.Client`, the Rust client (`paytoken-hyper`) on a tokio runtime of the module's
//! own, which does the whole call and settles a lost answer; and the protocol crate's
//! sans-IO core as Python sees it: build an operation's signed request from keyword
//! arguments, send it with any HTTP library, read the answer into a result or a typed
//! exception. Nothing is re-implemented here: every rule (the form, the checksum, the
//! verdicts) is `paytoken-protocol`'s, every call the client's.
//!
//! **Layer:** above `paytoken-hyper` and `paytoken-protocol`; nothing depends on it.
//! PyO3's macros write the glue to CPython's API, the one `unsafe` this crate holds: none
//! is written by hand.
//!
//! ```
//! // The Rust behind `paytoken.payment(...).request(context)`: the protocol crate's.
//! use paytoken_protocol::Operation as _;
//! use paytoken_protocol::ops::inquiry::Inquiry;
//!
//! let context = paytoken_protocol::Context::new(paytoken_checksum::Credentials::merchant(
//!     "11344".parse()?,
//!     paytoken_checksum::SecureKey::new("key")?,
//! ));
//! let request = Inquiry::ByPaymentId("54279".parse()?).request(&context)?;
//! assert_eq!(request.path(), "/transactionServices/REST/v1/payments/54279");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Features
//! - `extension-module`: links as a module Python loads (libpython's symbols left to the
//!   interpreter); maturin turns it on, `cargo test` leaves it off.

// PyO3's macros write their `unsafe` glue from outside the crate, which the lint does not
// count: this forbids any written here.
#![forbid(unsafe_code)]

mod answer;
mod awaiting;
mod call;
mod checksum;
mod client;
mod credentials;
mod errors;
mod notification;
mod operation;
mod per_process;
mod recorded;
mod request;
mod runtime;
mod settings;
mod values;

use pyo3::prelude::*;

/// The module `paytoken._paytoken`, which `paytoken` re-exports.
#[pymodule]
fn _paytoken(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add_class::<client::Client>()?;
    module.add_class::<credentials::SecureKey>()?;
    module.add_class::<credentials::Credentials>()?;
    module.add_class::<credentials::Context>()?;
    module.add_class::<values::Card>()?;
    module.add_class::<operation::Operation>()?;
    module.add_class::<request::Request>()?;
    module.add_class::<answer::Transaction>()?;
    module.add_class::<answer::Redirect>()?;
    module.add_class::<answer::AuthTokenGrant>()?;
    module.add_class::<answer::Registered>()?;
    module.add_class::<answer::SignedUp>()?;
    module.add_class::<answer::Deleted>()?;
    module.add_class::<answer::StoredRegistrations>()?;
    module.add_class::<answer::StoredCard>()?;
    module.add_class::<answer::StoredBankAccount>()?;
    module.add_class::<answer::Invoice>()?;
    module.add_class::<answer::InvoicePage>()?;
    module.add_class::<notification::VerifiedNotification>()?;
    module.add_function(wrap_pyfunction!(notification::verify_notification, module)?)?;
    module.add_function(wrap_pyfunction!(checksum::sign, module)?)?;
    module.add_function(wrap_pyfunction!(runtime::configure_runtime, module)?)?;
    module.add_function(wrap_pyfunction!(runtime::finish_interrupted, module)?)?;
    module.add_function(wrap_pyfunction!(awaiting::_deliver, module)?)?;
    module.add_function(wrap_pyfunction!(recorded::read_answer, module)?)?;
    module.add_function(wrap_pyfunction!(recorded::asked, module)?)?;
    module.add_function(wrap_pyfunction!(operation::fetch_auth_token, module)?)?;
    module.add_function(wrap_pyfunction!(operation::payment, module)?)?;
    module.add_function(wrap_pyfunction!(operation::token_payment, module)?)?;
    module.add_function(wrap_pyfunction!(operation::capture, module)?)?;
    module.add_function(wrap_pyfunction!(operation::refund, module)?)?;
    module.add_function(wrap_pyfunction!(operation::cancel, module)?)?;
    module.add_function(wrap_pyfunction!(operation::inquiry, module)?)?;
    module.add_function(wrap_pyfunction!(operation::repeat_payment, module)?)?;
    module.add_function(wrap_pyfunction!(operation::register_card, module)?)?;
    module.add_function(wrap_pyfunction!(operation::register_bank_account, module)?)?;
    module.add_function(wrap_pyfunction!(operation::regenerate_auth_token, module)?)?;
    module.add_function(wrap_pyfunction!(operation::customer_signup, module)?)?;
    module.add_function(wrap_pyfunction!(operation::delete_token, module)?)?;
    module.add_function(wrap_pyfunction!(operation::installments, module)?)?;
    module.add_function(wrap_pyfunction!(operation::cards_and_accounts, module)?)?;
    module.add_function(wrap_pyfunction!(operation::invoice_list, module)?)?;
    module.add("PaytokenError", py.get_type::<errors::PaytokenError>())?;
    module.add("InvalidInput", py.get_type::<errors::InvalidInput>())?;
    module.add("Refused", py.get_type::<errors::Refused>())?;
    module.add("OutcomeUnknown", py.get_type::<errors::OutcomeUnknown>())?;
    module.add("Unreadable", py.get_type::<errors::Unreadable>())?;
    module.add("Contradiction", py.get_type::<errors::Contradiction>())?;
    module.add("TransportFailed", py.get_type::<errors::TransportFailed>())?;
    module.add("NotApplied", py.get_type::<errors::NotApplied>())?;
    module.add(
        "NotificationRejected",
        py.get_type::<errors::NotificationRejected>(),
    )?;
    Ok(())
}
