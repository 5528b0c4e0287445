//! One module per operation: a value built from typed input, its request, its answer.
//!
//! Every operation implements [`Operation`]: [`request`](Operation::request) checks the
//! input and builds the signed [`Request`] (or names the field at fault, and
//! nothing is sent), [`parse`](Operation::parse) turns the status and body into the typed
//! response or an [`Error`].

use paytoken_types::{Amount, CardNumber, PaymentBrand, PaymentType};

use crate::{Context, Error, OperationKind, Request};

pub mod auth_token;
pub(crate) mod back_office;
pub mod cancel;
pub mod capture;
pub mod cards_and_accounts;
pub mod customer_signup;
pub mod delete_token;
pub mod inquiry;
pub mod installments;
pub mod invoice_list;
pub mod payment;
pub mod refund;
pub mod registration;
pub mod repeat_payment;
pub mod token_payment;

/// An operation of the interface: its request and its answer.
pub trait Operation {
    /// What a successful answer holds.
    type Response;

    /// Which operation this is.
    const KIND: OperationKind;

    /// Checks the input and builds the signed request.
    ///
    /// # Errors
    /// An input error ([`Error::is_invalid_input`]) naming the field; nothing was sent.
    fn request(&self, context: &Context) -> Result<Request, Error>;

    /// Reads the answer to this operation's request: the HTTP status and the body.
    ///
    /// The answer is read tolerantly ([`crate::answer`]): its verdict rests on its deciding
    /// fields alone, and every other field is kept as the gateway sent it. What the answer
    /// echoes of the request is checked against it ([`crate::echo`]).
    ///
    /// # Errors
    /// [`Error::Refused`] when the gateway refused, [`Error::UnexpectedStatus`] for a status
    /// other than 200, [`Error::Undecodable`] for a body that is not JSON or whose deciding
    /// fields cannot be read, [`Error::Contradiction`] for an answer about another
    /// transaction.
    fn parse(&self, status: u16, body: &[u8]) -> Result<Self::Response, Error>;
}

/// Refuses an amount of zero: the gateway moves money, and zero is a mistake.
pub(crate) fn check_positive(field: &'static str, amount: Amount) -> Result<(), Error> {
    if amount.minor_units() == 0 {
        return Err(Error::Invalid {
            field,
            reason: "must be greater than zero",
        });
    }
    Ok(())
}

/// Refuses a zero amount, and a payment type other than a debit or a pre-authorisation
/// with `refusal`, which says what the operation takes.
pub(crate) fn check_charge(
    amount: Amount,
    payment_type: &PaymentType,
    refusal: &'static str,
) -> Result<(), Error> {
    check_positive("amount", amount)?;
    match payment_type {
        PaymentType::Debit | PaymentType::PreAuthorization => Ok(()),
        _ => Err(Error::Invalid {
            field: "paymentType",
            reason: refusal,
        }),
    }
}

/// The brand to send: the one set, or else the one the card number tells.
pub(crate) fn brand_for(
    set: Option<&PaymentBrand>,
    number: &CardNumber,
) -> Result<PaymentBrand, Error> {
    set.cloned()
        .or_else(|| number.brand())
        .ok_or(Error::Invalid {
            field: "paymentBrand",
            reason: "cannot be told from the card number; set it",
        })
}

/// The body's expected size, so the buffer is allocated once.
pub(crate) const SMALL_BODY: usize = 256;
/// The body of a payment or registration, with blocks: room for a full payment of every
/// block (about 1.1 KiB), so it is allocated once. (A larger one grows, its old buffer
/// wiped: see `paytoken_types::form`.)
pub(crate) const LARGE_BODY: usize = 1536;
