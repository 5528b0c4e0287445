//! A payment (`POST /transactionServices/REST/v1/payments`), debit or pre-authorisation,
//! optionally storing the card and opening a recurring series.
//!
//! ```
//! use paytoken_protocol::ops::payment::Payment;
//! use paytoken_protocol::{Context, Operation};
//! use paytoken_checksum::{Credentials, SecureKey};
//! use paytoken_types::{Card, CardNumber, Cvv, RecurringType};
//!
//! let context = Context::new(Credentials::merchant("11344".parse()?, SecureKey::new("key")?));
//! let card = Card {
//!     number: CardNumber::new("4000000000000051")?,
//!     expiry_month: "06".parse()?,
//!     expiry_year: "2030".parse()?,
//!     cvv: "745".parse()?,
//!     holder: None,
//! };
//! let payment = Payment::new("order1001".parse()?, "50.00".parse()?, "EUR".parse()?, card)
//!     .store_card()
//!     .recurring(RecurringType::Initial);
//! let request = payment.request(&context)?;
//! assert_eq!(request.path(), "/transactionServices/REST/v1/payments");
//! assert!(!request.is_retry_safe());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use paytoken_types::{
    Amount, Billing, Card, Currency, Customer, MerchantTransactionId, PaymentBrand, PaymentMode,
    PaymentType, RecurringType, Shipping, TextRule,
};

use super::{LARGE_BODY, Operation, brand_for, check_charge};
use crate::echo::Sent;
use crate::outcome::{Transaction, parse_transaction};
use crate::signed::{AuthFields, Signed, SignedRequest};
use crate::{Context, Error, OperationKind, Request, fields};

/// The path of payments.
pub const PATH: &str = "/transactionServices/REST/v1/payments";

/// The longest `orderDescriptor` accepted, in characters.
pub const MAX_ORDER_DESCRIPTOR: usize = 255;

/// A payment with a card. Build it with [`Payment::new`] and the chained setters, or set
/// the public fields; [`request`](Operation::request) checks them all.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Payment {
    /// `merchantTransactionId`: the merchant's unique id, which also finds the payment by
    /// inquiry when its answer was lost.
    pub merchant_transaction_id: MerchantTransactionId,
    /// `amount`, also hashed into the checksum.
    pub amount: Amount,
    /// `currency`.
    pub currency: Currency,
    /// The `card.*` block.
    pub card: Card,
    /// `paymentType`: [`PaymentType::Debit`] (the default) or
    /// [`PaymentType::PreAuthorization`].
    pub payment_type: PaymentType,
    /// `paymentBrand`; when `None`, told from the card number ([`CardNumber::brand`](paytoken_types::CardNumber::brand)).
    pub payment_brand: Option<PaymentBrand>,
    /// `paymentMode`: [`PaymentMode::CreditCard`] by default.
    pub payment_mode: PaymentMode,
    /// The `customer.*` block.
    pub customer: Option<Customer>,
    /// The `shipping.*` block.
    pub shipping: Option<Shipping>,
    /// The `billing.*` block.
    pub billing: Option<Billing>,
    /// `createRegistration=true`: store the card; the answer then carries its
    /// `registrationId`.
    pub create_registration: bool,
    /// `recurringType`: only [`RecurringType::Initial`] here; later payments of the series
    /// are token payments with [`RecurringType::Repeated`].
    pub recurring_type: Option<RecurringType>,
    /// `orderDescriptor`: free text, at most [`MAX_ORDER_DESCRIPTOR`] characters.
    pub order_descriptor: Option<String>,
    /// `merchantRedirectUrl`: where the cardholder's browser returns (3-D Secure).
    pub merchant_redirect_url: Option<String>,
    /// `notificationUrl`: where the gateway reports the outcome.
    pub notification_url: Option<String>,
    /// `tmpl_amount`: the amount in the template currency, for display.
    pub tmpl_amount: Option<Amount>,
    /// `tmpl_currency`.
    pub tmpl_currency: Option<Currency>,
}

impl Payment {
    /// A debit of `amount` from `card`, with everything else left out.
    #[must_use]
    pub const fn new(
        merchant_transaction_id: MerchantTransactionId,
        amount: Amount,
        currency: Currency,
        card: Card,
    ) -> Self {
        Self {
            merchant_transaction_id,
            amount,
            currency,
            card,
            payment_type: PaymentType::Debit,
            payment_brand: None,
            payment_mode: PaymentMode::CreditCard,
            customer: None,
            shipping: None,
            billing: None,
            create_registration: false,
            recurring_type: None,
            order_descriptor: None,
            merchant_redirect_url: None,
            notification_url: None,
            tmpl_amount: None,
            tmpl_currency: None,
        }
    }

    paytoken_types::setters! {
        /// A pre-authorisation (`PA`) instead of a debit.
        pub fn preauthorization() => payment_type = PaymentType::PreAuthorization;

        /// Stores the card (`createRegistration=true`).
        pub fn store_card() => create_registration = true;

        /// Opens a recurring series (`recurringType=INITIAL`).
        pub fn recurring(recurring_type: RecurringType) => recurring_type = Some(recurring_type);

        /// Sets the brand instead of telling it from the card number.
        pub fn brand(brand: PaymentBrand) => payment_brand = Some(brand);

        /// Sets the payment mode.
        pub fn mode(mode: PaymentMode) => payment_mode = mode;

        /// Adds the customer block.
        pub fn customer(customer: Customer) => customer = Some(customer);

        /// Adds the shipping block.
        pub fn shipping(shipping: Shipping) => shipping = Some(shipping);

        /// Adds the billing block.
        pub fn billing(billing: Billing) => billing = Some(billing);

        /// Sets `orderDescriptor`.
        pub fn order_descriptor(descriptor: impl Into<String>) => order_descriptor = Some(descriptor.into());

        /// Sets `merchantRedirectUrl`.
        pub fn merchant_redirect_url(url: impl Into<String>) => merchant_redirect_url = Some(url.into());

        /// Sets `notificationUrl`.
        pub fn notification_url(url: impl Into<String>) => notification_url = Some(url.into());
    }

    /// Sets `tmpl_amount` and `tmpl_currency`.
    #[must_use]
    pub fn template(mut self, amount: Amount, currency: Currency) -> Self {
        self.tmpl_amount = Some(amount);
        self.tmpl_currency = Some(currency);
        self
    }

    fn validate(&self) -> Result<PaymentBrand, Error> {
        check_charge(self.amount, &self.payment_type, "a payment is DB or PA")?;
        if !matches!(self.recurring_type, None | Some(RecurringType::Initial)) {
            return Err(Error::Invalid {
                field: "recurringType",
                reason: "a payment can only open a series (INITIAL); repeat it with a token payment",
            });
        }
        if self.tmpl_amount.is_some() != self.tmpl_currency.is_some() {
            return Err(Error::Invalid {
                field: "tmpl_currency",
                reason: "tmpl_amount and tmpl_currency go together",
            });
        }
        // Free text and URLs are checked as the form writes them.
        brand_for(self.payment_brand.as_ref(), &self.card.number)
    }
}

/// The checksum rule of a payment: `id|key|merchantTransactionId|amount`.
const SIGNED: &[Signed] = &[
    Signed::field(fields::MERCHANT_TRANSACTION_ID),
    Signed::field(fields::AMOUNT),
];

impl Operation for Payment {
    type Response = Transaction;
    const KIND: OperationKind = OperationKind::Payment;

    fn request(&self, context: &Context) -> Result<Request, Error> {
        let brand = self.validate()?;
        let auth = AuthFields::ACCOUNT_AND_TERMINAL;
        SignedRequest::new(Self::KIND, context, SIGNED, PATH, LARGE_BODY, auth)
            .form(|form| {
                form.field(
                    fields::MERCHANT_TRANSACTION_ID,
                    self.merchant_transaction_id.as_str(),
                );
                form.field(fields::AMOUNT, &self.amount.to_wire());
                form.field(fields::CURRENCY, &self.currency);
                form.optional_block(self.shipping.as_ref());
                form.optional_block(self.customer.as_ref());
                form.block(&self.card);
                form.field(fields::PAYMENT_BRAND, &brand);
                form.field(fields::PAYMENT_MODE, &self.payment_mode);
                form.field(fields::PAYMENT_TYPE, &self.payment_type);
                form.optional_text(
                    fields::MERCHANT_REDIRECT_URL,
                    self.merchant_redirect_url.as_deref(),
                    TextRule::Url,
                );
                form.optional_text(
                    fields::NOTIFICATION_URL,
                    self.notification_url.as_deref(),
                    TextRule::Url,
                );
                if self.create_registration {
                    form.field(fields::CREATE_REGISTRATION, "true");
                }
                form.optional(fields::RECURRING_TYPE, self.recurring_type.as_ref());
                form.optional_text(
                    fields::ORDER_DESCRIPTOR,
                    self.order_descriptor.as_deref(),
                    TextRule::FreeTextUpTo(MAX_ORDER_DESCRIPTOR),
                );
                if let Some(amount) = self.tmpl_amount {
                    form.field(fields::TEMPLATE_AMOUNT, &amount.to_wire());
                }
                form.optional(fields::TEMPLATE_CURRENCY, self.tmpl_currency.as_ref());
                form.optional_block(self.billing.as_ref());
            })
            .finish()
    }

    /// Checks the echoed `merchantTransactionId`, `amount` and `currency`.
    fn parse(&self, status: u16, body: &[u8]) -> Result<Transaction, Error> {
        let sent = Sent {
            merchant_transaction_id: Some(&self.merchant_transaction_id),
            amount: Some(self.amount),
            currency: Some(self.currency),
            id: None,
        };
        parse_transaction(Self::KIND, status, body, &sent)
    }
}
