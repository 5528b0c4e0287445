//! The arguments of the commands that call a gateway's operations, and the groups they
//! share (the card, the person, the money). Values are parsed into the library's types as
//! the line is read, so a wrong one is a usage error before anything is sent; the card
//! number and CVV stay text, checked where no error repeats them.

use clap::Args;
use std::net::IpAddr;

use paytoken::types::{
    Bic, BirthDate, CountryCode, Email, ExpiryMonth, ExpiryYear, Iban, PaymentMode, PaymentType,
    Phone, RecurringType, Sex, TelephoneCountryCode,
};
use paytoken::{Amount, Currency, CustomerId, MerchantTransactionId, PaymentId, RegistrationId};

/// How much, in which currency: every command that moves money.
#[derive(Debug, Args)]
pub(crate) struct MoneyArgs {
    /// How much, with two decimals, such as 50.00 (amount).
    #[arg(long)]
    pub(crate) amount: Amount,
    /// Three letters, such as EUR (currency).
    #[arg(long)]
    pub(crate) currency: Currency,
}

/// `paytoken customer-signup`.
#[derive(Debug, Args)]
pub(crate) struct SignupArgs {
    /// The customer's first name (customer.givenName).
    #[arg(long)]
    pub(crate) given_name: String,
    /// The customer's last name (customer.surname).
    #[arg(long)]
    pub(crate) surname: String,
    /// The customer's email address (customer.email).
    #[arg(long)]
    pub(crate) email: Email,
    /// M or F (customer.sex).
    #[arg(long)]
    pub(crate) sex: Option<Sex>,
    /// The customer's telephone number (customer.phone).
    #[arg(long)]
    pub(crate) phone: Option<Phone>,
    /// The customer's date of birth, yyyyMMdd (customer.birthDate).
    #[arg(long)]
    pub(crate) birth_date: Option<BirthDate>,
    /// The customer's country, two letters such as DE (shipping.country).
    #[arg(long)]
    pub(crate) country: Option<CountryCode>,
    /// The customer's postcode (shipping.postcode).
    #[arg(long)]
    pub(crate) postcode: Option<String>,
}

/// The card of `pay` and `register`.
#[derive(Debug, Args)]
pub(crate) struct CardArgs {
    /// The card number (card.number). Prefer PAYTOKEN_CARD_NUMBER or --card-stdin: a flag
    /// shows in `ps` and the shell history.
    #[arg(long, env = "PAYTOKEN_CARD_NUMBER", hide_env_values = true)]
    pub(crate) card_number: Option<String>,
    /// The month the card expires, 01 to 12 (card.expiryMonth).
    #[arg(long)]
    pub(crate) expiry_month: Option<ExpiryMonth>,
    /// The year the card expires, four digits (card.expiryYear).
    #[arg(long)]
    pub(crate) expiry_year: Option<ExpiryYear>,
    /// The three or four digits on the card's back (card.cvv). Prefer PAYTOKEN_CVV or
    /// --card-stdin: a flag shows in `ps` and the shell history.
    #[arg(long, env = "PAYTOKEN_CVV", hide_env_values = true)]
    pub(crate) cvv: Option<String>,
    /// Read the card number, then the CVV, one a line, from standard input (what a flag or
    /// the environment gives wins).
    #[arg(long)]
    pub(crate) card_stdin: bool,
    /// The card's brand, such as VISA or MASTERCARD, told from the number when left out
    /// (a number no brand's range holds is refused: name its brand here); sent as the
    /// platform's code, such as MC (paymentBrand).
    #[arg(long)]
    pub(crate) brand: Option<String>,
    /// How the customer pays: CC, a card, by default (paymentMode).
    #[arg(long)]
    pub(crate) mode: Option<PaymentMode>,
}

/// The customer and shipping flags of `pay` and `register`.
#[derive(Debug, Args)]
pub(crate) struct PersonArgs {
    /// The customer's first name (customer.givenName).
    #[arg(long)]
    pub(crate) given_name: Option<String>,
    /// The customer's last name (customer.surname).
    #[arg(long)]
    pub(crate) surname: Option<String>,
    /// The customer's email address (customer.email).
    #[arg(long)]
    pub(crate) email: Option<Email>,
    /// The customer's telephone number (customer.phone).
    #[arg(long)]
    pub(crate) phone: Option<Phone>,
    /// The telephone number's country code, such as +49 (customer.telnocc).
    #[arg(long)]
    pub(crate) telnocc: Option<TelephoneCountryCode>,
    /// The IP address the customer pays from (customer.ip).
    #[arg(long)]
    pub(crate) ip: Option<IpAddr>,
    /// The customer's date of birth, yyyyMMdd (customer.birthDate).
    #[arg(long)]
    pub(crate) birth_date: Option<BirthDate>,
    /// The country to ship to, two letters such as DE (shipping.country).
    #[arg(long)]
    pub(crate) country: Option<CountryCode>,
    /// The city to ship to (shipping.city).
    #[arg(long)]
    pub(crate) city: Option<String>,
    /// The state or region to ship to (shipping.state).
    #[arg(long)]
    pub(crate) state: Option<String>,
    /// The postcode to ship to (shipping.postcode).
    #[arg(long)]
    pub(crate) postcode: Option<String>,
    /// The street to ship to (shipping.street1).
    #[arg(long)]
    pub(crate) street: Option<String>,
}

/// `paytoken pay`.
#[derive(Debug, Args)]
pub(crate) struct PayArgs {
    #[command(flatten)]
    pub(crate) money: MoneyArgs,
    /// Your own order id for this payment, free text (spaces, hyphens, slashes, UUIDs),
    /// up to 255 characters; `inquiry` finds the payment by it (merchantTransactionId).
    #[arg(long)]
    pub(crate) merchant_transaction_id: MerchantTransactionId,
    #[command(flatten)]
    pub(crate) card: CardArgs,
    /// Take the money now (DB, debit, the default) or only reserve it for a later
    /// `capture` (PA, preauthorization) (paymentType).
    #[arg(long = "type", value_enum, default_value = "DB")]
    pub(crate) payment_type: PaymentKind,
    /// Keep the card as a token for later payments (createRegistration=true), as the
    /// library's `Payment::store_card` does.
    #[arg(long, visible_alias = "register")]
    pub(crate) store_card: bool,
    /// Open a recurring series, charged again with `repeat-payment` or
    /// `pay-with-token --recurring repeated` (recurringType=INITIAL).
    #[arg(long, value_enum)]
    pub(crate) recurring: Option<FirstOfSeries>,
    /// The customer, as `customer-signup` gave it (customer.customerId).
    #[arg(long)]
    pub(crate) customer_id: Option<CustomerId>,
    /// The name on the card (card.holder).
    #[arg(long)]
    pub(crate) holder: Option<String>,
    /// Where the gateway posts the outcome when it comes later (3-D Secure, pending),
    /// such as the address of `paytoken listen` (notificationUrl).
    #[arg(long, value_name = "URL")]
    pub(crate) notification_url: Option<String>,
    /// Where the cardholder's browser returns after 3-D Secure (merchantRedirectUrl).
    #[arg(long, value_name = "URL")]
    pub(crate) redirect_url: Option<String>,
    #[command(flatten)]
    pub(crate) person: PersonArgs,
}

/// `paytoken register`.
#[derive(Debug, Args)]
pub(crate) struct RegisterArgs {
    #[command(flatten)]
    pub(crate) card: CardArgs,
    /// A bank account to store instead of a card (bankAccount.iban).
    #[arg(long, conflicts_with_all = ["card_number", "expiry_month", "expiry_year", "cvv"], requires = "bic")]
    pub(crate) iban: Option<Iban>,
    /// The bank account's BIC, with --iban (bankAccount.bic).
    #[arg(long, requires = "iban")]
    pub(crate) bic: Option<Bic>,
    /// The customer, as `customer-signup` gave it (customer.customerId).
    #[arg(long)]
    pub(crate) customer_id: Option<CustomerId>,
    #[command(flatten)]
    pub(crate) person: PersonArgs,
}

/// `paytoken pay-with-token`.
#[derive(Debug, Args)]
pub(crate) struct ChargeArgs {
    /// The stored card or account, as `pay --store-card` or `register` gave it
    /// (registrationId).
    pub(crate) registration_id: RegistrationId,
    #[command(flatten)]
    pub(crate) money: MoneyArgs,
    /// Take the money now (DB, debit, the default) or only reserve it for a later
    /// `capture` (PA, preauthorization) (paymentType).
    #[arg(long = "type", value_enum, default_value = "DB")]
    pub(crate) payment_type: PaymentKind,
    /// The first payment of a recurring series (initial) or a later one (repeated)
    /// (recurringType).
    #[arg(long, value_enum)]
    pub(crate) recurring: Option<Recurring>,
    /// Pay in this many instalments, one of the counts `installments` lists
    /// (installment).
    #[arg(long)]
    pub(crate) installment: Option<u16>,
    /// The card's three or four digits, where the gateway asks for them again (card.cvv).
    /// Prefer PAYTOKEN_CVV: a flag shows in `ps` and the shell history.
    #[arg(long, env = "PAYTOKEN_CVV", hide_env_values = true)]
    pub(crate) cvv: Option<String>,
    /// Your own order id for this payment; one is made up when left out
    /// (merchantTransactionId).
    #[arg(long)]
    pub(crate) merchant_transaction_id: Option<MerchantTransactionId>,
}

/// `paytoken capture` and `paytoken refund`.
#[derive(Debug, Args)]
pub(crate) struct MoveArgs {
    /// The payment's id, as the gateway gave it (paymentId).
    pub(crate) payment_id: PaymentId,
    #[command(flatten)]
    pub(crate) money: MoneyArgs,
}

/// `paytoken repeat-payment`.
#[derive(Debug, Args)]
pub(crate) struct RepeatArgs {
    /// The series' first payment: an approved INITIAL payment that stored its card
    /// (paymentId).
    pub(crate) first_payment_id: PaymentId,
    #[command(flatten)]
    pub(crate) money: MoneyArgs,
    /// Take the money now (DB, debit, the default) or only reserve it for a later
    /// `capture` (PA, preauthorization) (paymentType).
    #[arg(long = "type", value_enum, default_value = "DB")]
    pub(crate) payment_type: PaymentKind,
    /// Your own order id for this payment; one is made up when left out
    /// (merchantTransactionId).
    #[arg(long)]
    pub(crate) merchant_transaction_id: Option<MerchantTransactionId>,
}

/// `paytoken invoices`.
#[derive(Debug, Args)]
pub(crate) struct InvoicesArgs {
    /// The page to fetch, from 1 (page).
    #[arg(long, conflicts_with = "all")]
    pub(crate) page: Option<u32>,
    /// Invoices per page (records).
    #[arg(long, default_value_t = 100)]
    pub(crate) records: u32,
    /// Every page from the first until a short or empty one, printed as each arrives
    /// (with --json: one invoice a line, then a summary line).
    #[arg(long)]
    pub(crate) all: bool,
    /// With --all: stop with an error after this many pages (a list that never ends).
    #[arg(long, default_value_t = 1000, requires = "all")]
    pub(crate) max_pages: u32,
}

/// `paytoken inquiry`.
#[derive(Debug, Args)]
pub(crate) struct InquiryArgs {
    /// The payment's id, as the gateway gave it (paymentId, idType=PID).
    #[arg(required_unless_present = "merchant_transaction_id")]
    pub(crate) payment_id: Option<PaymentId>,
    /// Your own order id of the payment instead, as you sent it (merchantTransactionId,
    /// idType=MID).
    #[arg(long, conflicts_with = "payment_id")]
    pub(crate) merchant_transaction_id: Option<MerchantTransactionId>,
}

/// `--type`: what a payment does with the money.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum PaymentKind {
    /// A debit.
    #[value(name = "DB", alias = "debit")]
    Debit,
    /// A pre-authorisation.
    #[value(name = "PA", alias = "preauthorization")]
    PreAuthorization,
}

impl From<PaymentKind> for PaymentType {
    fn from(kind: PaymentKind) -> Self {
        match kind {
            PaymentKind::Debit => Self::Debit,
            PaymentKind::PreAuthorization => Self::PreAuthorization,
        }
    }
}

/// `--recurring` of a card payment, which can only open a series.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum FirstOfSeries {
    /// The first payment of a series.
    Initial,
}

impl From<FirstOfSeries> for RecurringType {
    fn from(FirstOfSeries::Initial: FirstOfSeries) -> Self {
        Self::Initial
    }
}

/// `--recurring` of a token payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Recurring {
    /// The first payment of a series.
    Initial,
    /// A later payment of the series.
    Repeated,
}

impl From<Recurring> for RecurringType {
    fn from(recurring: Recurring) -> Self {
        match recurring {
            Recurring::Initial => Self::Initial,
            Recurring::Repeated => Self::Repeated,
        }
    }
}
