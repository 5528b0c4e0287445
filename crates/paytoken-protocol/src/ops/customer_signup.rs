//! Customer sign-up (`POST /merchantServices/api/v1/customerSignup`), by a merchant or a
//! partner. The answer's `customerId` goes into later requests as `customer.customerId`.

use paytoken_types::{
    Customer, CustomerId, Email, GatewayResult, MemberId, PartnerId, Shipping, Timestamp,
};

use super::{Operation, SMALL_BODY};
use crate::answer::{Field, wire_object};
use crate::signed::{AuthFields, Signed, SignedRequest};
use crate::wire::{self, Owner, require_success};
use crate::{Context, Error, OperationKind, Request};

/// The path of customer sign-up.
pub const PATH: &str = "/merchantServices/api/v1/customerSignup";

/// Signs a customer up. The given name, surname and e-mail are required (the checksum
/// hashes them); sex, phone and birth date are sent when present, and from the shipping
/// block the country and postcode.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CustomerSignup {
    /// The `customer.*` block.
    pub customer: Customer,
    /// The `shipping.*` block (country and postcode).
    pub shipping: Option<Shipping>,
}

impl CustomerSignup {
    /// Signs up `customer`.
    #[must_use]
    pub const fn new(customer: Customer) -> Self {
        Self {
            customer,
            shipping: None,
        }
    }

    paytoken_types::setters! {
        /// Adds the shipping block.
        pub fn shipping(shipping: Shipping) => shipping = Some(shipping);
    }
}

/// The customer the gateway created (`00007`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SignedUp {
    /// `customerId`: send it as `customer.customerId` from now on.
    pub customer_id: CustomerId,
    /// `memberId` or `partnerId`.
    pub owner: Option<Owner>,
    /// `result`.
    pub result: GatewayResult,
    /// `timestamp`.
    pub timestamp: Option<Field<Timestamp>>,
}

wire_object! {
    struct WireSignedUp {
        customer_id: Option<String> = "customerId",
        member_id: Option<Field<MemberId>> = "memberId",
        partner_id: Option<Field<PartnerId>> = "partnerId",
        result: Option<GatewayResult> = "result",
        timestamp: Option<Field<Timestamp>> = "timestamp",
    }
}

fn required<'a, T>(field: &'static str, value: Option<&'a T>) -> Result<&'a T, Error> {
    value.ok_or(Error::Invalid {
        field,
        reason: "is required for sign-up",
    })
}

/// The checksum rule of a sign-up: `id|key|givenName|surname|email`, as the customer block
/// writes them.
const SIGNED: &[Signed] = &[
    Signed::field(Customer::GIVEN_NAME),
    Signed::field(Customer::SURNAME),
    Signed::field(Customer::EMAIL),
];

impl Operation for CustomerSignup {
    type Response = SignedUp;
    const KIND: OperationKind = OperationKind::CustomerSignup;

    fn request(&self, context: &Context) -> Result<Request, Error> {
        let customer = &self.customer;
        let given_name = required("customer.givenName", customer.given_name.as_ref())?;
        let surname = required("customer.surname", customer.surname.as_ref())?;
        let email: &Email = required("customer.email", customer.email.as_ref())?;
        // The free text is checked as the form writes it; the separator here, for a better
        // error (the signing refuses it too).
        for (field, text) in [
            ("customer.givenName", given_name.as_str()),
            ("customer.surname", surname.as_str()),
            ("customer.email", email.as_str()),
        ] {
            if text.contains('|') {
                return Err(paytoken_checksum::Error::Separator { field }.into());
            }
        }
        SignedRequest::new(
            Self::KIND,
            context,
            SIGNED,
            PATH,
            SMALL_BODY,
            AuthFields::ID_ONLY,
        )
        .form(|form| {
            form.block(customer);
            form.optional_block(self.shipping.as_ref());
        })
        .finish()
    }

    /// Decided by the result code and the new `customerId`.
    fn parse(&self, status: u16, body: &[u8]) -> Result<SignedUp, Error> {
        parse_signed_up(status, body)
    }
}

/// Reads the answer to a customer sign-up: for [`Operation::parse`], and for a recorded
/// answer (`crate::recorded`).
pub(crate) fn parse_signed_up(status: u16, body: &[u8]) -> Result<SignedUp, Error> {
    let wire: WireSignedUp = wire::decode(OperationKind::CustomerSignup, status, body)?;
    let result = require_success(OperationKind::CustomerSignup, wire.result, body)?;
    let customer_id = wire::deciding_id::<CustomerId>(
        OperationKind::CustomerSignup,
        "customerId",
        wire.customer_id.as_deref(),
        body,
    )?
    .ok_or_else(|| wire::missing(OperationKind::CustomerSignup, "customerId", body))?;
    Ok(SignedUp {
        customer_id,
        owner: Owner::from_fields(wire.member_id, wire.partner_id),
        result,
        timestamp: wire.timestamp,
    })
}
