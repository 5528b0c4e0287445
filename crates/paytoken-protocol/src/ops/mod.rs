//! One module per operation: a value built from typed input, its request, its answer.
//!
//! Every operation implements [`Operation`]: [`request`](Operation::request) checks the
//! input and builds the signed [`Request`] (or names the field at fault, and
//! nothing is sent), [`parse`](Operation::parse) turns the status and body into the typed
//! response or an [`Error`].

use paytoken_types::{Amount, Billing, CardNumber, Customer, PaymentBrand, Shipping};

use crate::{Context, Error, OperationKind, Request};

pub mod auth_token;
mod back_office;
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

/// The longest URL accepted in `merchantRedirectUrl` and `notificationUrl`.
pub(crate) const MAX_URL_LEN: usize = 2048;

/// Checks a URL the gateway will call or send a browser to: absolute `http(s)`, with a host,
/// no spaces or control characters, at most [`MAX_URL_LEN`] bytes.
pub(crate) fn check_url(field: &'static str, url: &str) -> Result<(), Error> {
    let invalid = |reason| Err(Error::Invalid { field, reason });
    let scheme = |prefix: &str| {
        url.get(..prefix.len())
            .filter(|head| head.eq_ignore_ascii_case(prefix))
            .and_then(|_| url.get(prefix.len()..))
    };
    let Some(rest) = scheme("https://").or_else(|| scheme("http://")) else {
        return invalid("must be an absolute http or https url");
    };
    if url.len() > MAX_URL_LEN {
        return invalid("is longer than 2048 bytes");
    }
    // One pass over the bytes: ASCII white space and controls are all at or below a space,
    // or DEL; other characters are looked at only in the rare URL that is not ASCII.
    // A fold rather than `any`: no early exit, so the compiler checks many bytes at once.
    let bad_byte = |b: u8| (b <= b' ') | (b == 0x7f);
    let bad_char = |c: char| c.is_whitespace() || c.is_control();
    if url.bytes().fold(false, |bad, b| bad | bad_byte(b))
        || (!url.is_ascii() && url.chars().any(bad_char))
    {
        return invalid("holds a space or a control character");
    }
    let rest = rest.as_bytes();
    let host_len = rest
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    if host_len == 0 {
        return invalid("has no host");
    }
    Ok(())
}

/// Checks free text that is not part of a block (`orderDescriptor`), and its length.
pub(crate) fn check_text(field: &'static str, text: &str, max_chars: usize) -> Result<(), Error> {
    paytoken_types::check_free_text(field, text)?;
    if text.chars().count() > max_chars {
        return Err(Error::Invalid {
            field,
            reason: "is too long",
        });
    }
    Ok(())
}

/// Checks the free text of whichever request blocks are present.
pub(crate) fn validate_blocks(
    customer: Option<&Customer>,
    shipping: Option<&Shipping>,
    billing: Option<&Billing>,
) -> Result<(), Error> {
    customer.map(Customer::validate).transpose()?;
    shipping.map(Shipping::validate).transpose()?;
    billing.map(Billing::validate).transpose()?;
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_checked() {
        assert!(check_url("u", "https://shop.example/return?order=1").is_ok());
        assert!(check_url("u", "HTTP://shop.example").is_ok());
        for bad in [
            "shop.example",
            "https://",
            "https:///x",
            "https://a b",
            "ftp://x",
        ] {
            assert_eq!(check_url("u", bad).unwrap_err().field(), Some("u"), "{bad}");
        }
    }
}
