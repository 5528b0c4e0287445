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
use crate::entropy::Entropy;

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

/// The remark of a declined card.
const DO_NOT_HONOUR: &str = "Do not honour";
/// The remark of the insufficient-funds card.
const INSUFFICIENT_FUNDS: &str = "Insufficient funds";
/// The remark of a payment declined on the 3-D Secure page.
pub(crate) const AUTHENTICATION_FAILED: &str = "3-D Secure authentication failed";
/// The remark of a payment whose 3-D Secure challenge was never decided.
pub(crate) const AUTHENTICATION_EXPIRED: &str = "3-D Secure not completed in time";

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
                remark: DO_NOT_HONOUR,
            },
            Behaviour::InsufficientFunds => Self::Declined {
                remark: INSUFFICIENT_FUNDS,
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

    /// The status kept as `transactionStatus` and remark: the sandbox's own remarks only.
    #[cfg(feature = "sqlite")]
    pub(crate) fn from_stored(short: &str, remark: Option<&str>) -> Option<Self> {
        match (short, remark) {
            ("Y", None) => Some(Self::Approved),
            ("P", None) => Some(Self::Pending),
            ("3D", None) => Some(Self::ThreeDSecure),
            ("N", Some(remark)) => [
                DO_NOT_HONOUR,
                INSUFFICIENT_FUNDS,
                AUTHENTICATION_FAILED,
                AUTHENTICATION_EXPIRED,
            ]
            .into_iter()
            .find(|known| *known == remark)
            .map(|remark| Self::Declined { remark }),
            _ => None,
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
    /// When it was made, in seconds on the sandbox's clock (`timestamp` as a number).
    pub(crate) made_at: i64,
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

/// The back office's moves on one payment: the sandbox's state machine (its manual has
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

/// Where an invoice stands (`invoiceStatus`): the two the sandbox's invoices take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InvoiceStatus {
    Processed,
    MailSent,
}

impl InvoiceStatus {
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Self::Processed => "processed",
            Self::MailSent => "mailsent",
        }
    }

    #[cfg(feature = "sqlite")]
    pub(crate) fn from_wire(text: &str) -> Option<Self> {
        [Self::Processed, Self::MailSent]
            .into_iter()
            .find(|status| status.as_str() == text)
    }
}

/// An invoice in the list.
#[derive(Debug, Clone)]
pub(crate) struct Invoice {
    pub(crate) owner: Principal,
    pub(crate) system_invoice_id: String,
    pub(crate) amount: Amount,
    pub(crate) currency: Currency,
    pub(crate) created: String,
    pub(crate) unix_seconds: i64,
    pub(crate) status: InvoiceStatus,
    pub(crate) customer_name: String,
    pub(crate) customer_email: String,
    pub(crate) order_id: String,
    pub(crate) order_description: String,
}

/// The first payment id handed out; ids count up from here.
const FIRST_PAYMENT_ID: u64 = 60_001;
/// The first customer id handed out.
const FIRST_CUSTOMER_ID: u64 = 1_250;

/// An auth token as the sandbox remembers it, in memory and in a state file: a digest
/// (MD5, in hex, over a label and the token), never the token, so that nothing it keeps
/// signs a caller in. A token is unpredictable (its last part is random), so its digest
/// cannot be turned back into it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct TokenDigest(String);

impl TokenDigest {
    /// What every digest is taken over first: no other MD5 of the sandbox's is one.
    const LABEL: &'static [u8] = b"paytoken-sandbox auth token\0";

    /// The digest of `token`.
    pub(crate) fn of(token: &str) -> Self {
        use md5::{Digest as _, Md5};
        let mut md5 = Md5::new();
        md5.update(Self::LABEL);
        md5.update(token.as_bytes());
        Self(format!("{:x}", md5.finalize()))
    }

    /// A digest as a store kept it.
    #[cfg_attr(
        not(feature = "sqlite"),
        expect(dead_code, reason = "read by the file store")
    )]
    pub(crate) fn kept(hex: String) -> Self {
        Self(hex)
    }

    /// The digest in hex, as a store keeps it.
    #[cfg_attr(
        not(feature = "sqlite"),
        expect(dead_code, reason = "read by the file store")
    )]
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

/// A change to what the sandbox remembers, journalled as it is made: what one call
/// changed, so that a store can keep exactly that (and a file store in one transaction).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Change {
    /// An auth token issued, by its digest.
    TokenIssued(TokenDigest),
    /// An auth token revoked (regenerated), by its digest.
    TokenRevoked(TokenDigest),
    /// Every token expired at this time let go.
    TokensExpired(i64),
    /// A customer signed up.
    Customer(CustomerId),
    /// A registration made or changed (deleted, opened a recurring series).
    Registration(RegistrationId),
    /// The payment at this index made or changed (settled, captured, refunded, cancelled).
    Payment(usize),
    /// The invoice at this index raised.
    Invoice(usize),
    /// The console moved the sandbox's clock: its advance in all is now this many ms.
    ClockAdvanced(i64),
}

/// Everything the sandbox remembers, behind one lock: every handler runs start to end
/// under it, so concurrent requests see each other whole or not at all. Every change goes
/// through a method that journals it (the fields are private, so none can be missed).
#[derive(Debug, Default)]
pub(crate) struct State {
    tokens: HashMap<TokenDigest, IssuedToken>,
    customers: HashMap<CustomerId, Principal>,
    /// Customer ids in the order they were made, for listing.
    customer_order: Vec<CustomerId>,
    customers_issued: u64,
    /// Each registration, and where it stands in the order they were made.
    registrations: HashMap<RegistrationId, (Registration, usize)>,
    /// Registration ids in the order they were made, for listing.
    registration_order: Vec<RegistrationId>,
    payments: Vec<Payment>,
    /// `(owner, merchantTransactionId)` to an index of `payments`.
    transaction_ids: HashMap<(Principal, MerchantTransactionId), usize>,
    invoices: Vec<Invoice>,
    /// Pending payments that settle by themselves: when each was made (seconds on the
    /// sandbox's clock) and its index in `payments`.
    pending: Vec<(i64, usize)>,
    /// Payments waiting for 3-D Secure, which expire if the cardholder never decides:
    /// when each was made and its index.
    challenges: Vec<(i64, usize)>,
    /// How far the console has moved the sandbox's clock, in milliseconds.
    clock_advanced_ms: i64,
    /// The changes since the journal was last taken.
    changes: Vec<Change>,
    /// Where new registration ids and tokens come from (never kept in a state file).
    pub(crate) entropy: Entropy,
}

impl State {
    /// The changes since the last call, in order; the journal starts again empty.
    #[cfg(test)]
    pub(crate) fn take_changes(&mut self) -> Vec<Change> {
        std::mem::take(&mut self.changes)
    }

    /// Every change journalled so far (for a store to keep), in order.
    #[cfg(feature = "sqlite")]
    pub(crate) fn changes(&self) -> &[Change] {
        &self.changes
    }

    /// How many customer ids were handed out (a deleted one is not handed out again).
    #[cfg(feature = "sqlite")]
    pub(crate) const fn customers_issued(&self) -> u64 {
        self.customers_issued
    }

    /// Restores the count of customer ids handed out.
    #[cfg(feature = "sqlite")]
    pub(crate) fn restore_customers_issued(&mut self, issued: u64) {
        self.customers_issued = issued;
    }

    /// At most `limit` customers and their owners from position `start`, in the order
    /// they were made.
    pub(crate) fn customers_page(
        &self,
        start: usize,
        limit: usize,
    ) -> Vec<(CustomerId, Principal)> {
        let order = self.customer_order.get(start..).unwrap_or_default();
        order
            .iter()
            .take(limit)
            .filter_map(|id| Some((*id, *self.customers.get(id)?)))
            .collect()
    }

    /// How many customers there are.
    pub(crate) fn customer_count(&self) -> usize {
        self.customer_order.len()
    }

    /// At most `limit` registrations from position `start`, in the order they were made.
    pub(crate) fn registrations_page(
        &self,
        start: usize,
        limit: usize,
    ) -> impl Iterator<Item = &Registration> {
        let order = self.registration_order.get(start..).unwrap_or_default();
        order
            .iter()
            .take(limit)
            .filter_map(|id| self.registration(id))
    }

    /// How many registrations there are.
    pub(crate) fn registration_count(&self) -> usize {
        self.registration_order.len()
    }

    /// How far the console has moved the sandbox's clock, in milliseconds.
    pub(crate) const fn clock_advanced_ms(&self) -> i64 {
        self.clock_advanced_ms
    }

    /// Notes that the clock's advance in all is now `advanced_ms`.
    pub(crate) fn clock_advanced(&mut self, advanced_ms: i64) {
        self.clock_advanced_ms = advanced_ms;
        self.changes.push(Change::ClockAdvanced(advanced_ms));
    }

    /// Restores the clock's advance a state file kept.
    #[cfg(feature = "sqlite")]
    pub(crate) fn restore_clock_advanced(&mut self, advanced_ms: i64) {
        self.clock_advanced_ms = advanced_ms;
    }

    /// The owner of a customer id.
    #[cfg(feature = "sqlite")]
    pub(crate) fn customer_owner(&self, id: &CustomerId) -> Option<Principal> {
        self.customers.get(id).copied()
    }

    /// Where a registration stands in the order they were made.
    #[cfg(feature = "sqlite")]
    pub(crate) fn registration_position(&self, id: &RegistrationId) -> Option<usize> {
        self.registrations.get(id).map(|(_, position)| *position)
    }

    /// Empties the journal, keeping its room for the next call's changes.
    pub(crate) fn forget_changes(&mut self) {
        self.changes.clear();
    }

    /// How many of the largest kind of record it holds: what the record bound limits.
    /// The most records of one kind: payments, registrations or customers (tokens apart).
    pub(crate) fn largest_record_count(&self) -> usize {
        self.payments
            .len()
            .max(self.registrations.len())
            .max(self.customers.len())
    }

    /// How many auth tokens are held, live or not yet let go.
    pub(crate) fn token_count(&self) -> usize {
        self.tokens.len()
    }

    /// Revokes the token that expires first (the one issued first); whether one was held.
    pub(crate) fn revoke_first_to_expire(&mut self) -> bool {
        let first = self
            .tokens
            .iter()
            .min_by_key(|(_, issued)| issued.expires_at)
            .map(|(digest, _)| digest.clone());
        first.is_some_and(|digest| {
            self.revoke_digest(&digest);
            true
        })
    }

    /// Every token held (live, or expired and not yet let go), without its value, in no
    /// order.
    pub(crate) fn issued_tokens(&self) -> Vec<IssuedToken> {
        self.tokens.values().copied().collect()
    }

    /// The live token `token`, if it was issued.
    pub(crate) fn token(&self, token: &str) -> Option<IssuedToken> {
        self.tokens.get(&TokenDigest::of(token)).copied()
    }

    /// The token of `digest`, if it is held: what a store reads back.
    #[cfg_attr(
        not(feature = "sqlite"),
        expect(dead_code, reason = "read by the file store")
    )]
    pub(crate) fn token_by_digest(&self, digest: &TokenDigest) -> Option<IssuedToken> {
        self.tokens.get(digest).copied()
    }

    /// Remembers `token`, by its digest.
    pub(crate) fn issue_token(&mut self, token: &str, issued: IssuedToken) {
        self.issue_digest(TokenDigest::of(token), issued);
    }

    /// Remembers a token by its `digest`, as a store kept it.
    pub(crate) fn issue_digest(&mut self, digest: TokenDigest, issued: IssuedToken) {
        self.changes.push(Change::TokenIssued(digest.clone()));
        self.tokens.insert(digest, issued);
    }

    pub(crate) fn revoke_token(&mut self, token: &str) {
        self.revoke_digest(&TokenDigest::of(token));
    }

    fn revoke_digest(&mut self, digest: &TokenDigest) {
        if self.tokens.remove(digest).is_some() {
            self.changes.push(Change::TokenRevoked(digest.clone()));
        }
    }

    /// Lets go of every token expired at `now`.
    pub(crate) fn expire_tokens(&mut self, now: i64) {
        let before = self.tokens.len();
        self.tokens.retain(|_, issued| issued.expires_at > now);
        if self.tokens.len() != before {
            self.changes.push(Change::TokensExpired(now));
        }
    }

    pub(crate) fn insert_customer(&mut self, id: CustomerId, owner: Principal) {
        if self.customers.insert(id, owner).is_none() {
            self.customer_order.push(id);
        }
        self.changes.push(Change::Customer(id));
    }

    pub(crate) fn registration(&self, id: &RegistrationId) -> Option<&Registration> {
        self.registrations
            .get(id)
            .map(|(registration, _)| registration)
    }

    /// The registration to change; journalled as changed.
    pub(crate) fn registration_mut(&mut self, id: &RegistrationId) -> Option<&mut Registration> {
        let (registration, _) = self.registrations.get_mut(id)?;
        self.changes.push(Change::Registration(*id));
        Some(registration)
    }

    /// Every registration, in the order they were made.
    pub(crate) fn registrations_in_order(&self) -> impl Iterator<Item = &Registration> {
        self.registration_order
            .iter()
            .filter_map(|id| self.registration(id))
    }

    pub(crate) fn payments(&self) -> &[Payment] {
        &self.payments
    }

    /// The payment to change; journalled as changed.
    pub(crate) fn payment_mut(&mut self, index: usize) -> Option<&mut Payment> {
        let payment = self.payments.get_mut(index)?;
        self.changes.push(Change::Payment(index));
        Some(payment)
    }

    /// Whether `owner` has used this merchant transaction id.
    pub(crate) fn transaction_id_used(&self, owner: Principal, id: MerchantTransactionId) -> bool {
        self.transaction_ids.contains_key(&(owner, id))
    }

    pub(crate) fn invoices(&self) -> &[Invoice] {
        &self.invoices
    }

    pub(crate) fn push_invoice(&mut self, invoice: Invoice) {
        self.changes.push(Change::Invoice(self.invoices.len()));
        self.invoices.push(invoice);
    }

    /// Marks the payment at `index`, made at `made` on the clock, to settle by itself.
    pub(crate) fn add_pending(&mut self, made: i64, index: usize) {
        self.pending.push((made, index));
    }

    /// Takes out the pending payments made at or before `made_by`.
    pub(crate) fn take_due(&mut self, made_by: i64) -> Vec<usize> {
        take_made_by(&mut self.pending, made_by)
    }

    /// Takes out the payments waiting for 3-D Secure made at or before `made_by`.
    pub(crate) fn take_expired_challenges(&mut self, made_by: i64) -> Vec<usize> {
        take_made_by(&mut self.challenges, made_by)
    }

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
    /// One waiting for 3-D Secure is watched until it is decided or expires.
    pub(crate) fn insert_payment(&mut self, payment: Payment) {
        let index = self.payments.len();
        if payment.status == Status::ThreeDSecure {
            self.challenges.push((payment.made_at, index));
        }
        if let Some(id) = &payment.merchant_transaction_id {
            self.transaction_ids
                .insert((payment.owner, id.clone()), index);
        }
        self.payments.push(payment);
        self.changes.push(Change::Payment(index));
    }

    pub(crate) fn insert_registration(&mut self, registration: Registration) {
        let id = registration.id;
        self.registrations
            .insert(id, (registration, self.registration_order.len()));
        self.registration_order.push(id);
        self.changes.push(Change::Registration(id));
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

/// Takes out of `waiting` the entries made at or before `made_by`, giving their indices.
fn take_made_by(waiting: &mut Vec<(i64, usize)>, made_by: i64) -> Vec<usize> {
    if waiting.is_empty() {
        return Vec::new();
    }
    let mut due = Vec::new();
    waiting.retain(|&(made, index)| {
        let still = made > made_by;
        if !still {
            due.push(index);
        }
        still
    });
    due
}

#[cfg(test)]
mod tests {
    use super::*;

    const OWNER: Principal = Principal::Merchant {
        partner: 0,
        merchant: 0,
    };

    fn payment(state: &State) -> Payment {
        Payment {
            payment_id: state.next_payment_id(),
            owner: OWNER,
            merchant_transaction_id: Some(MerchantTransactionId::new("order 1").unwrap()),
            payment_type: PaymentType::Debit,
            brand: None,
            mode: None,
            amount: Amount::from_minor_units(5000),
            currency: Currency::EUR,
            status: Status::Approved,
            registration_id: None,
            card: None,
            descriptor: None,
            redirect_back: None,
            notify: None,
            timestamp: String::new(),
            made_at: 0,
            moves: Moves::default(),
        }
    }

    #[test]
    fn every_change_is_journalled_in_order_until_taken() {
        let mut state = State::default();
        let issued = IssuedToken {
            principal: OWNER,
            expires_at: 10,
        };
        state.issue_token("first", issued);
        let customer = state.next_customer_id();
        state.insert_customer(customer, OWNER);
        let first = payment(&state);
        state.insert_payment(first);
        state.payment_mut(0).unwrap().moves.cancelled = true;
        state.push_invoice(Invoice {
            owner: OWNER,
            system_invoice_id: "INV-1".into(),
            amount: Amount::ZERO,
            currency: Currency::EUR,
            created: String::new(),
            unix_seconds: 0,
            status: InvoiceStatus::Processed,
            customer_name: String::new(),
            customer_email: String::new(),
            order_id: String::new(),
            order_description: String::new(),
        });
        state.revoke_token("first");
        state.issue_token("second", issued);
        state.expire_tokens(10);
        assert_eq!(
            state.take_changes(),
            [
                Change::TokenIssued(TokenDigest::of("first")),
                Change::Customer(customer),
                Change::Payment(0),
                Change::Payment(0),
                Change::Invoice(0),
                Change::TokenRevoked(TokenDigest::of("first")),
                Change::TokenIssued(TokenDigest::of("second")),
                Change::TokensExpired(10),
            ]
        );
        assert!(state.take_changes().is_empty());
        // What changes nothing is not journalled.
        state.revoke_token("never issued");
        state.expire_tokens(20);
        assert!(state.payment_mut(7).is_none());
        assert!(state.take_changes().is_empty());
        assert!(state.transaction_id_used(OWNER, MerchantTransactionId::new("order 1").unwrap()));
    }

    #[test]
    fn pending_payments_come_due_once() {
        let mut state = State::default();
        state.add_pending(100, 0);
        state.add_pending(160, 1);
        assert!(state.take_due(99).is_empty());
        assert_eq!(state.take_due(100), [0]);
        assert_eq!(state.take_due(1_000), [1]);
        assert!(state.take_due(1_000).is_empty());
    }
}
