//! A stand-alone registration (`POST /transactionServices/REST/v1/registrations`) of a
//! card, or of a bank account (IBAN and BIC; the checksum then hashes the BIC).

use paytoken_types::{
    BankAccount, Billing, Card, Currency, Customer, GatewayResult, MemberId, PartnerId,
    PaymentBrand, PaymentMode, RegistrationId, Shipping, Timestamp,
};

use super::{LARGE_BODY, Operation, brand_for};
use crate::answer::{Field, wire_object};
use crate::signed::{AuthFields, Signed, SignedRequest};
use crate::wire::{self, Owner, require_success};
use crate::{Context, Error, OperationKind, Request, fields};

/// The path of stand-alone registrations.
pub const PATH: &str = "/transactionServices/REST/v1/registrations";

/// What is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Instrument {
    /// A card (`card.*`); the checksum hashes its number.
    Card(Card),
    /// A SEPA bank account (`bankAccount.*`); the checksum hashes its BIC.
    BankAccount(BankAccount),
}

/// Stores a card or a bank account without a payment.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Registration {
    /// The card or the account.
    pub instrument: Instrument,
    /// `paymentBrand`: told from the card number when `None`; `DIRECTDEBIT` for an account.
    pub payment_brand: Option<PaymentBrand>,
    /// `paymentMode`: `CC` for a card and `SEPA` for an account when `None`.
    pub payment_mode: Option<PaymentMode>,
    /// The `customer.*` block (`customer.customerId` ties the token to a signed-up
    /// customer).
    pub customer: Option<Customer>,
    /// The `shipping.*` block.
    pub shipping: Option<Shipping>,
    /// The `billing.*` block.
    pub billing: Option<Billing>,
    /// `currency`, which some gateways ask for.
    pub currency: Option<Currency>,
}

impl Registration {
    /// Stores `card`.
    #[must_use]
    pub const fn card(card: Card) -> Self {
        Self::of(Instrument::Card(card))
    }

    /// Stores `account`.
    #[must_use]
    pub const fn bank_account(account: BankAccount) -> Self {
        Self::of(Instrument::BankAccount(account))
    }

    const fn of(instrument: Instrument) -> Self {
        Self {
            instrument,
            payment_brand: None,
            payment_mode: None,
            customer: None,
            shipping: None,
            billing: None,
            currency: None,
        }
    }

    paytoken_types::setters! {
        /// Adds the customer block.
        pub fn customer(customer: Customer) => customer = Some(customer);

        /// Adds the shipping block.
        pub fn shipping(shipping: Shipping) => shipping = Some(shipping);

        /// Adds the billing block.
        pub fn billing(billing: Billing) => billing = Some(billing);

        /// Sets the brand.
        pub fn brand(brand: PaymentBrand) => payment_brand = Some(brand);

        /// Sets the payment mode.
        pub fn mode(mode: PaymentMode) => payment_mode = Some(mode);
    }

    fn brand_and_mode(&self) -> Result<(PaymentBrand, PaymentMode), Error> {
        Ok(match &self.instrument {
            Instrument::Card(card) => (
                brand_for(self.payment_brand.as_ref(), &card.number)?,
                self.payment_mode.clone().unwrap_or(PaymentMode::CreditCard),
            ),
            Instrument::BankAccount(_) => (
                self.payment_brand
                    .clone()
                    .unwrap_or(PaymentBrand::DirectDebit),
                self.payment_mode.clone().unwrap_or(PaymentMode::Sepa),
            ),
        })
    }
}

/// The token the gateway stored (`00002`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Registered {
    /// `registrationId`: the token for later payments.
    pub registration_id: RegistrationId,
    /// `memberId` or `partnerId`.
    pub owner: Option<Owner>,
    /// `paymentBrand`.
    pub payment_brand: Option<Field<PaymentBrand>>,
    /// `paymentMode`.
    pub payment_mode: Option<Field<PaymentMode>>,
    /// `result`.
    pub result: GatewayResult,
    /// `timestamp`.
    pub timestamp: Option<Field<Timestamp>>,
}

wire_object! {
    struct WireRegistered {
        registration_id: Option<String> = "registrationId",
        member_id: Option<Field<MemberId>> = "memberId",
        partner_id: Option<Field<PartnerId>> = "partnerId",
        payment_brand: Option<Field<PaymentBrand>> = "paymentBrand",
        payment_mode: Option<Field<PaymentMode>> = "paymentMode",
        result: Option<GatewayResult> = "result",
        timestamp: Option<Field<Timestamp>> = "timestamp",
    }
}

/// The checksum rule of a card registration: `id|key|cardNumber`.
const CARD: &[Signed] = &[Signed::field(Card::NUMBER)];

/// The checksum rule of a bank-account registration: `id|key|bic` (the BIC where a card
/// has its number).
const BANK_ACCOUNT: &[Signed] = &[Signed::field(BankAccount::BIC)];

impl Operation for Registration {
    type Response = Registered;
    const KIND: OperationKind = OperationKind::Registration;

    fn request(&self, context: &Context) -> Result<Request, Error> {
        let (brand, mode) = self.brand_and_mode()?;
        // The blocks' free text is checked as the form writes it.
        let rule = match &self.instrument {
            Instrument::Card(_) => CARD,
            Instrument::BankAccount(_) => BANK_ACCOUNT,
        };
        let auth = AuthFields::TERMINAL;
        SignedRequest::new(Self::KIND, context, rule, PATH, LARGE_BODY, auth)
            .form(|form| {
                form.optional_block(self.shipping.as_ref());
                form.optional_block(self.billing.as_ref());
                form.optional_block(self.customer.as_ref());
                match &self.instrument {
                    Instrument::Card(card) => form.block(card),
                    Instrument::BankAccount(account) => form.block(account),
                }
                form.field(fields::PAYMENT_BRAND, &brand);
                form.field(fields::PAYMENT_MODE, &mode);
                form.optional(fields::CURRENCY, self.currency.as_ref());
                form.field(fields::CREATE_REGISTRATION, "true");
            })
            .finish()
    }

    /// Decided by the result code and the new `registrationId`.
    fn parse(&self, status: u16, body: &[u8]) -> Result<Registered, Error> {
        parse_registered(status, body)
    }
}

/// Reads the answer to a registration: for [`Operation::parse`], and for a recorded answer
/// (`crate::recorded`).
pub(crate) fn parse_registered(status: u16, body: &[u8]) -> Result<Registered, Error> {
    let wire: WireRegistered = wire::decode(OperationKind::Registration, status, body)?;
    let result = require_success(OperationKind::Registration, wire.result, body)?;
    let registration_id = wire::deciding_id::<RegistrationId>(
        OperationKind::Registration,
        RegistrationId::FIELD,
        wire.registration_id.as_deref(),
        body,
    )?
    .ok_or_else(|| wire::missing(OperationKind::Registration, "registrationId", body))?;
    Ok(Registered {
        registration_id,
        owner: Owner::from_fields(wire.member_id, wire.partner_id),
        payment_brand: wire.payment_brand,
        payment_mode: wire.payment_mode,
        result,
        timestamp: wire.timestamp,
    })
}
