//! What the sandbox remembers: issued auth tokens, customers, registrations, payments and
//! invoices, each with the member or partner that owns it.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use paytoken_types::{
    Amount, Currency, CustomerId, MerchantTransactionId, PaymentBrand, PaymentId, PaymentMode,
    PaymentType, RegistrationId, TransactionState, TransactionStatus,
};

use crate::cards::Behaviour;
use crate::codes::{self, Code};

/// Who is calling, or who owns a record: indices into the configuration. A partner may pay
/// and store tokens too; what it creates is its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Principal {
    Merchant { partner: usize, merchant: usize },
    Partner { partner: usize },
}

impl Principal {
    pub(crate) const fn partner(self) -> usize {
        match self {
            Self::Merchant { partner, .. } | Self::Partner { partner } => partner,
        }
    }

    /// A merchant sees its own records; a partner its own and its merchants'.
    pub(crate) fn can_see(self, owner: Self) -> bool {
        self == owner || matches!(self, Self::Partner { partner } if owner.partner() == partner)
    }
}

/// An issued auth token.
#[derive(Debug, Clone, Copy)]
pub(crate) struct IssuedToken {
    pub(crate) principal: Principal,
    pub(crate) expires_at: i64,
}

/// A stored card, without its number or CVV: the sandbox keeps what the gateway shows.
#[derive(Debug, Clone)]
pub(crate) struct StoredCard {
    pub(crate) brand: String,
    pub(crate) bin: String,
    pub(crate) last_four: String,
    pub(crate) expiry_month: String,
    pub(crate) expiry_year: String,
    pub(crate) holder: Option<String>,
    pub(crate) behaviour: Behaviour,
}

/// What a registration stores.
#[derive(Debug, Clone)]
pub(crate) enum Instrument {
    Card(StoredCard),
    BankAccount { masked_iban: String, bic: String },
}

/// A token.
#[derive(Debug, Clone)]
pub(crate) struct Registration {
    pub(crate) id: RegistrationId,
    pub(crate) owner: Principal,
    pub(crate) customer_id: Option<CustomerId>,
    pub(crate) instrument: Instrument,
    pub(crate) active: bool,
    /// An `INITIAL` payment was approved, so `REPEATED` ones may follow.
    pub(crate) recurring: bool,
}

/// How a payment went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Approved,
    Pending,
    ThreeDSecure,
    Declined { remark: &'static str },
}

impl Status {
    pub(crate) const fn of(behaviour: Behaviour) -> Self {
        match behaviour {
            Behaviour::Approve | Behaviour::TimeOut => Self::Approved,
            Behaviour::ThreeDSecure => Self::ThreeDSecure,
            Behaviour::Decline => Self::Declined {
                remark: "Do not honour",
            },
            Behaviour::InsufficientFunds => Self::Declined {
                remark: "Insufficient funds",
            },
            Behaviour::Pend => Self::Pending,
        }
    }

    /// `transactionStatus`, the types crate's value: its wire text is written there once.
    pub(crate) const fn short(self) -> TransactionStatus {
        match self {
            Self::Approved => TransactionStatus::Approved,
            Self::Pending => TransactionStatus::Pending,
            Self::ThreeDSecure => TransactionStatus::ThreeDSecure,
            Self::Declined { .. } => TransactionStatus::Declined,
        }
    }

    /// The result of the payment's own answer.
    pub(crate) const fn code(self) -> Code {
        match self {
            Self::Approved => codes::TRANSACTION_SUCCEEDED,
            Self::Pending => codes::TRANSACTION_PENDING,
            Self::ThreeDSecure => codes::THREE_D_SECURE_PENDING,
            Self::Declined { .. } => codes::TRANSACTION_FAILED,
        }
    }

    /// The long status an inquiry shows (`status`), for a payment of `payment_type`.
    pub(crate) fn long(self, payment_type: &PaymentType) -> TransactionState {
        match self {
            Self::Approved if *payment_type == PaymentType::PreAuthorization => {
                TransactionState::AuthSuccessful
            }
            Self::Approved => TransactionState::CaptureSuccess,
            Self::Pending => TransactionState::AuthStarted,
            Self::ThreeDSecure => TransactionState::Begun,
            Self::Declined { .. } => TransactionState::AuthFailed,
        }
    }

    pub(crate) const fn remark(self) -> Option<&'static str> {
        match self {
            Self::Declined { remark } => Some(remark),
            _ => None,
        }
    }
}

/// A payment the gateway created: approved, pending, waiting for 3-D Secure, or declined.
#[derive(Debug, Clone)]
pub(crate) struct Payment {
    pub(crate) payment_id: PaymentId,
    pub(crate) owner: Principal,
    pub(crate) merchant_transaction_id: Option<MerchantTransactionId>,
    pub(crate) payment_type: PaymentType,
    pub(crate) brand: Option<PaymentBrand>,
    pub(crate) mode: Option<PaymentMode>,
    pub(crate) amount: Amount,
    pub(crate) currency: Currency,
    pub(crate) status: Status,
    pub(crate) registration_id: Option<RegistrationId>,
    pub(crate) card: Option<StoredCard>,
    pub(crate) descriptor: Option<String>,
    pub(crate) redirect_back: Option<String>,
    /// Where its outcome is notified, when it comes later than its answer.
    pub(crate) notify: Option<NotifyTo>,
    pub(crate) timestamp: String,
    /// What the back office has done to it since.
    pub(crate) moves: Moves,
}

/// A payment's `notificationUrl`, and what goes wrong with its notification (a fault
/// directive on the request that made it).
#[derive(Debug, Clone)]
pub(crate) struct NotifyTo {
    pub(crate) url: String,
    pub(crate) fault: Option<crate::faults::NotificationFault>,
}

/// The back office's moves on one payment: the sandbox's state machine (its README has
/// the table). A `PA` is captured once or cancelled; what was taken (a `DB`'s amount, a
/// `PA`'s capture) is refunded in parts that never sum above it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Moves {
    /// The amount a `PA` was captured for.
    pub(crate) captured: Option<Amount>,
    /// The sum of the refunds.
    pub(crate) refunded: Amount,
    /// A `PA` cancelled before capture.
    pub(crate) cancelled: bool,
}

impl Payment {
    /// Whether it is an approved pre-authorisation.
    pub(crate) fn is_authorisation(&self) -> bool {
        self.payment_type == PaymentType::PreAuthorization && self.status == Status::Approved
    }

    /// What was taken and may be refunded: a `DB`'s amount, a `PA`'s capture.
    pub(crate) fn taken(&self) -> Amount {
        match (self.status, &self.payment_type) {
            (Status::Approved, PaymentType::PreAuthorization) => {
                self.moves.captured.unwrap_or(Amount::ZERO)
            }
            (Status::Approved, _) => self.amount,
            _ => Amount::ZERO,
        }
    }

    /// The long status an inquiry shows (`status`), moves included.
    pub(crate) fn long_status(&self) -> TransactionState {
        let moves = &self.moves;
        if self.status != Status::Approved {
            return self.status.long(&self.payment_type);
        }
        if moves.cancelled {
            TransactionState::Cancelled
        } else if moves.refunded != Amount::ZERO && moves.refunded >= self.taken() {
            TransactionState::Reversed
        } else if moves.refunded != Amount::ZERO {
            TransactionState::MarkedForReversal
        } else if self.payment_type == PaymentType::PreAuthorization && moves.captured.is_none() {
            TransactionState::AuthSuccessful
        } else {
            TransactionState::CaptureSuccess
        }
    }
}

/// An invoice in the list.
#[derive(Debug, Clone)]
pub(crate) struct Invoice {
    pub(crate) owner: Principal,
    pub(crate) system_invoice_id: String,
    pub(crate) amount: Amount,
    pub(crate) currency: String,
    pub(crate) created: String,
    pub(crate) unix_seconds: i64,
    pub(crate) status: &'static str,
    pub(crate) customer_name: String,
    pub(crate) customer_email: String,
    pub(crate) order_id: String,
    pub(crate) order_description: String,
}

/// The first payment id handed out; ids count up from here.
const FIRST_PAYMENT_ID: u64 = 60_001;
/// The first customer id handed out.
const FIRST_CUSTOMER_ID: u64 = 1_250;

/// Everything the sandbox remembers, behind one lock: every handler runs start to end
/// under it, so concurrent requests see each other whole or not at all.
#[derive(Debug, Default)]
pub(crate) struct State {
    pub(crate) tokens: HashMap<String, IssuedToken>,
    pub(crate) customers: HashMap<CustomerId, Principal>,
    customers_issued: u64,
    pub(crate) registrations: HashMap<RegistrationId, Registration>,
    /// Registration ids in the order they were made, for listing.
    pub(crate) registration_order: Vec<RegistrationId>,
    pub(crate) payments: Vec<Payment>,
    /// `(owner, merchantTransactionId)` to an index of `payments`.
    pub(crate) transaction_ids: HashMap<(Principal, MerchantTransactionId), usize>,
    pub(crate) invoices: Vec<Invoice>,
    /// Pending payments that settle by themselves: when each was made (seconds on the
    /// sandbox's clock) and its index in `payments`.
    pub(crate) pending: Vec<(i64, usize)>,
}

impl State {
    pub(crate) fn next_customer_id(&mut self) -> CustomerId {
        let id = FIRST_CUSTOMER_ID + self.customers_issued;
        self.customers_issued += 1;
        numbered(id)
    }

    pub(crate) fn next_payment_id(&self) -> PaymentId {
        // A usize always fits in a u64 on the targets Rust supports.
        let issued = u64::try_from(self.payments.len()).unwrap_or(u64::MAX);
        numbered(FIRST_PAYMENT_ID.saturating_add(issued))
    }

    /// The index in `payments` of the payment with this id.
    pub(crate) fn payment_index(&self, payment_id: &str) -> Option<usize> {
        let index = payment_id
            .parse::<u64>()
            .ok()?
            .checked_sub(FIRST_PAYMENT_ID)
            .and_then(|index| usize::try_from(index).ok())?;
        (index < self.payments.len()).then_some(index)
    }

    /// Records a payment; its merchant transaction id, if any, must already be known free.
    pub(crate) fn insert_payment(&mut self, payment: Payment) {
        if let Some(id) = &payment.merchant_transaction_id {
            self.transaction_ids
                .insert((payment.owner, id.clone()), self.payments.len());
        }
        self.payments.push(payment);
    }

    pub(crate) fn insert_registration(&mut self, registration: Registration) {
        self.registration_order.push(registration.id);
        self.registrations.insert(registration.id, registration);
    }

    /// Whether `caller` knows this customer id.
    pub(crate) fn customer_visible(&self, caller: Principal, customer_id: &str) -> bool {
        CustomerId::new(customer_id)
            .ok()
            .and_then(|id| self.customers.get(&id))
            .is_some_and(|owner| caller.can_see(*owner))
    }
}

/// The id of a number: a customer's or a payment's.
fn numbered<Id: FromStr>(number: u64) -> Id
where
    Id::Err: fmt::Debug,
{
    // Invariant: the decimal digits of a u64 (at most 20) are always an id, which takes up
    // to 32 letters and digits.
    #[expect(clippy::expect_used, reason = "a u64's digits are always an id")]
    number
        .to_string()
        .parse()
        .expect("a u64's digits are an id")
}
