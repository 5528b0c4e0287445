//! The workload: checkouts at once, each a flow a shop runs through paytoken's client
//! (a debit, then its inquiry; a payment storing the card, then the token's first charge
//! and a repeat of it; a customer signed up, a payment storing their card, the token's
//! first charge and a later one the client names itself; a pre-authorisation captured,
//! then refunded in two parts that race; one cancelled; a payment that settles later, by
//! 3-D Secure or pending, whose outcome the shop learns from its notification), each
//! choice drawn from the checkout's own seed. A lost answer is settled the client's way
//! (`Client::settle`), never by sending again; what the client then believes of each order
//! is kept for the invariants.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use paytoken_hyper::{Client, Error};
use paytoken_protocol::ops::cancel::Cancel;
use paytoken_protocol::ops::capture::Capture;
use paytoken_protocol::ops::customer_signup::CustomerSignup;
use paytoken_protocol::ops::inquiry::Inquiry;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::ops::refund::Refund;
use paytoken_protocol::ops::repeat_payment::RepeatPayment;
use paytoken_protocol::ops::token_payment::TokenPayment;
use paytoken_protocol::{PaymentStatus, Transaction};
use paytoken_sandbox::simulation::InProcess;
use paytoken_sandbox::{THREE_D_SECURE_EXPIRES_AFTER, cards};
use paytoken_types::{
    Amount, Card, CardNumber, Currency, Customer, Cvv, Email, ExpiryMonth, ExpiryYear,
    MerchantTransactionId, PaymentId, RecurringType, RegistrationId,
};

use crate::Defect;
use crate::history::History;
use crate::network::Network;
use crate::notifications::{Endpoints, RELAY_URL, SHOP_URL};

/// How often a lost answer is settled before the shop leaves it unknown, and how long it
/// waits between two tries (virtual time).
const SETTLE_ATTEMPTS: usize = 5;
const SETTLE_PAUSE: Duration = Duration::from_secs(1);

/// How long a shop waits for a payment's notification, past the longest a 3-D Secure
/// challenge stays open, before it asks the gateway instead.
const NOTIFICATION_PATIENCE: Duration =
    THREE_D_SECURE_EXPIRES_AFTER.saturating_add(Duration::from_secs(300));

/// What the client came to believe of one order.
#[derive(Debug, Clone, Default)]
pub(crate) struct Order {
    /// The order as the history names it (`3.1`: checkout 3, its first order).
    pub(crate) name: String,
    /// Every merchant transaction id the order was sent under (one, unless a planted
    /// defect sent it again under another).
    pub(crate) sent_as: Vec<String>,
    /// The payment's outcome.
    pub(crate) payment: Belief,
    /// What was captured, refunded and cancelled, as the client learnt it.
    pub(crate) moves: Moves,
}

/// A payment's outcome as the client believes it.
#[derive(Debug, Clone, Default)]
pub(crate) enum Belief {
    /// The client cannot tell: an outcome that stayed unknown.
    #[default]
    Unknown,
    /// Refused: nothing was made.
    Refused,
    /// Made, approved or not.
    Made { payment_id: String, approved: bool },
}

/// The back-office moves as the client learnt them; `certain` until one stayed unknown.
#[derive(Debug, Clone)]
pub(crate) struct Moves {
    pub(crate) captured: Option<Amount>,
    pub(crate) refunded: Amount,
    pub(crate) cancelled: bool,
    pub(crate) certain: bool,
}

impl Default for Moves {
    fn default() -> Self {
        Self {
            captured: None,
            refunded: Amount::ZERO,
            cancelled: false,
            certain: true,
        }
    }
}

/// How a call ended, once settled.
enum Settled {
    Done(Box<Transaction>),
    NotDone,
    Unknown,
}

/// The token a payment stored, when it was made.
fn stored_token(settled: &Settled) -> Option<RegistrationId> {
    match settled {
        Settled::Done(transaction) => transaction
            .registration_id
            .as_ref()
            .and_then(|id| id.value())
            .copied(),
        _ => None,
    }
}

/// One checkout: its number, its own random source, the client, and where its orders go.
pub(crate) struct Checkout {
    pub(crate) number: usize,
    pub(crate) random: fastrand::Rng,
    pub(crate) client: Client<Network>,
    pub(crate) history: History,
    pub(crate) orders: Arc<Mutex<Vec<Order>>>,
    pub(crate) defects: Vec<Defect>,
    /// Calls whose outcome stayed unknown (a refund the status cannot tell, say).
    pub(crate) unknown_left: Arc<AtomicUsize>,
    /// The gateway, where a cardholder decides a 3-D Secure challenge.
    pub(crate) gateway: Arc<InProcess>,
    /// Where notifications go: the shop, or `paytoken listen`'s relay.
    pub(crate) endpoints: Arc<Endpoints>,
}

impl Checkout {
    /// Runs the checkout's flow.
    pub(crate) async fn run(mut self) {
        match self.random.u8(0..6) {
            0 => self.debit().await,
            1 => self.stored_card_series().await,
            2 => self.customer_series().await,
            3 => self.authorise_capture_refund().await,
            4 => self.authorise_cancel().await,
            _ => self.settled_later().await,
        }
    }

    /// A payment whose outcome comes later (3-D Secure, which the cardholder approves,
    /// declines or leaves to expire; or pending), believed as its notification says once
    /// the shop has acted on it, or as an inquiry says when none came in time.
    async fn settled_later(&mut self) {
        let amount = self.amount();
        let three_d_secure = self.random.bool();
        let card = if three_d_secure {
            cards::THREE_D_SECURE
        } else {
            cards::PENDING
        };
        let order = self.order_id(1);
        let Some(payment) = self.payment(&order, amount, card) else {
            return;
        };
        let url = if self.random.bool() {
            SHOP_URL
        } else {
            RELAY_URL
        };
        let payment = payment.notification_url(url);
        let settled = self.settle(self.client.pay(&payment).await).await;
        let Settled::Done(paid) = settled else {
            let _ = self.keep_payment(1, &order, settled);
            return;
        };
        let payment_id = paid.payment_id.as_str().to_owned();
        if matches!(paid.status, PaymentStatus::ThreeDSecure { .. }) {
            let decision = match self.random.u8(0..8) {
                0..=4 => Some(true),
                5 | 6 => Some(false),
                _ => None,
            };
            self.history.note(format_args!(
                "checkout {}: cardholder decides {payment_id}: {decision:?}",
                self.number
            ));
            if let Some(approved) = decision {
                self.gateway.decide_three_d_secure(&payment_id, approved);
            }
        }
        let waited_since = tokio::time::Instant::now();
        while waited_since.elapsed() < NOTIFICATION_PATIENCE {
            if let Some(status) = self.endpoints.acted_on(url, &payment_id) {
                let approved = status == PaymentStatus::Approved;
                self.history.note(format_args!(
                    "checkout {}: order {order} notified, approved {approved}",
                    self.number
                ));
                self.with_order(1, &order, |kept| {
                    kept.payment = Belief::Made {
                        payment_id,
                        approved,
                    };
                });
                return;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        self.history.note(format_args!(
            "checkout {}: no notification of {payment_id} in {NOTIFICATION_PATIENCE:?}, inquiring",
            self.number
        ));
        // An inquiry that does not get through tells nothing: asked again, then unknown.
        let inquiry = Inquiry::ByPaymentId(paid.payment_id);
        let mut settled = Settled::Unknown;
        for _ in 0..SETTLE_ATTEMPTS {
            if let Ok(inquired) = self.client.inquiry(&inquiry).await {
                settled = Settled::Done(Box::new(inquired));
                break;
            }
            tokio::time::sleep(SETTLE_PAUSE).await;
        }
        let _ = self.keep_payment(1, &order, settled);
    }

    /// A debit, then what an inquiry says of it, which the client believes from then on.
    async fn debit(&mut self) {
        let amount = self.amount();
        let card = if self.random.u8(0..5) == 0 {
            cards::DECLINED
        } else {
            cards::APPROVED
        };
        let order = self.order_id(1);
        let Some(payment) = self.payment(&order, amount, card) else {
            return;
        };
        let settled = self.settle(self.client.pay(&payment).await).await;
        let Settled::Done(paid) = settled else {
            let _ = self.keep_payment(1, &order, settled);
            return;
        };
        let inquiry = Inquiry::ByPaymentId(paid.payment_id);
        let settled = match self.client.inquiry(&inquiry).await {
            Ok(inquired) => Settled::Done(Box::new(inquired)),
            // What the payment's own answer said stands.
            Err(_) => Settled::Done(paid),
        };
        let _ = self.keep_payment(1, &order, settled);
    }

    /// A customer signed up, a payment storing their card, the token's first charge, then
    /// a later one sent without an order id, which the client makes up.
    async fn customer_series(&mut self) {
        let Ok(email) = Email::new(&format!("shopper{}@example.com", self.number)) else {
            return;
        };
        let customer = Customer {
            given_name: Some("Sim".to_owned()),
            surname: Some(format!("Shopper {}", self.number)),
            email: Some(email),
            ..Customer::default()
        };
        let customer_id = match self
            .client
            .customer_signup(&CustomerSignup::new(customer))
            .await
        {
            Ok(signed_up) => signed_up.customer_id,
            Err(error) => {
                self.history.note(format_args!(
                    "checkout {}: no sign-up: {error}",
                    self.number
                ));
                return;
            }
        };
        self.history.note(format_args!(
            "checkout {}: customer {} signed up",
            self.number,
            customer_id.as_str()
        ));
        let amount = self.amount();
        let order = self.order_id(1);
        let Some(payment) = self.payment(&order, amount, cards::APPROVED) else {
            return;
        };
        let payment = payment.store_card().customer(Customer {
            customer_id: Some(customer_id),
            ..Customer::default()
        });
        let settled = self.settle(self.client.pay(&payment).await).await;
        let token = stored_token(&settled);
        let _ = self.keep_payment(1, &order, settled);
        let Some(token) = token else { return };
        let order = self.order_id(2);
        let first = TokenPayment::new(token, amount, Currency::EUR)
            .merchant_transaction_id(order.clone())
            .recurring(RecurringType::Initial);
        let settled = self.settle(self.client.pay_with_token(&first).await).await;
        if self.keep_payment(2, &order, settled).is_none() {
            return;
        }
        let later =
            TokenPayment::new(token, amount, Currency::EUR).recurring(RecurringType::Repeated);
        let result = self.client.pay_with_token(&later).await;
        // The id the client made up: in its answer, or in its unknown outcome.
        let made_up = match &result {
            Ok(transaction) => transaction.merchant_transaction_id.clone(),
            Err(error) => error.merchant_transaction_id().cloned(),
        };
        let settled = self.settle(result).await;
        if let Some(order) = made_up {
            let _ = self.keep_payment(3, &order, settled);
        }
    }

    async fn stored_card_series(&mut self) {
        let amount = self.amount();
        let Some((_, Some(token))) = self.pay(1, amount, cards::APPROVED, false, true).await else {
            return;
        };
        let order = self.order_id(2);
        let first = TokenPayment::new(token, amount, Currency::EUR)
            .merchant_transaction_id(order.clone())
            .recurring(RecurringType::Initial);
        let settled = self.settle(self.client.pay_with_token(&first).await).await;
        let Some(first_id) = self.keep_payment(2, &order, settled) else {
            return;
        };
        let order = self.order_id(3);
        let repeat = RepeatPayment::new(first_id, amount, Currency::EUR)
            .merchant_transaction_id(order.clone());
        let settled = self.settle(self.client.repeat_payment(&repeat).await).await;
        let _ = self.keep_payment(3, &order, settled);
    }

    async fn authorise_capture_refund(&mut self) {
        let amount = self.amount();
        let Some((payment_id, _)) = self.pay(1, amount, cards::APPROVED, true, false).await else {
            return;
        };
        let captured = Amount::from_minor_units(amount.minor_units() / 2 + 100);
        let capture = Capture::new(payment_id, captured, Currency::EUR);
        let settled = self.settle(self.client.capture(&capture).await).await;
        let applied = self.moved(1, settled, |moves| moves.captured = Some(captured));
        if !applied {
            return;
        }
        // Two parts that race, each more than half: at most one may pass.
        let part = Amount::from_minor_units(captured.minor_units() / 2 + 100);
        let refund = Refund::new(payment_id, part, Currency::EUR);
        let (first, second) =
            tokio::join!(self.client.refund(&refund), self.client.refund(&refund));
        for result in [first, second] {
            let settled = self.settle(result).await;
            self.moved(1, settled, |moves| {
                moves.refunded = moves.refunded.checked_add(part).unwrap_or(moves.refunded);
            });
        }
    }

    async fn authorise_cancel(&mut self) {
        let amount = self.amount();
        let Some((payment_id, _)) = self.pay(1, amount, cards::APPROVED, true, false).await else {
            return;
        };
        let settled = self
            .settle(self.client.cancel(&Cancel::new(payment_id)).await)
            .await;
        self.moved(1, settled, |moves| moves.cancelled = true);
    }

    /// A payment of `amount` with the test card `card` for `order`.
    fn payment(
        &self,
        order: &MerchantTransactionId,
        amount: Amount,
        card: &str,
    ) -> Option<Payment> {
        let card = Card::new(
            CardNumber::new(card).ok()?,
            ExpiryMonth::new(12).ok()?,
            ExpiryYear::new(2030).ok()?,
            Cvv::new("123").ok()?,
        );
        Some(Payment::new(order.clone(), amount, Currency::EUR, card))
    }

    /// Pays `amount` with `card` as order `number` of the checkout: the payment's id and
    /// the token it stored, when the client believes it was made and approved.
    async fn pay(
        &mut self,
        number: usize,
        amount: Amount,
        card: &str,
        authorise: bool,
        store: bool,
    ) -> Option<(PaymentId, Option<RegistrationId>)> {
        let order = self.order_id(number);
        let mut payment = self.payment(&order, amount, card)?;
        if authorise {
            payment = payment.preauthorization();
        }
        if store {
            payment = payment.store_card();
        }
        let mut result = self.client.pay(&payment).await;
        if self.defects.contains(&Defect::FreshOrderOnLostAnswer)
            && result.as_ref().is_err_and(Error::is_outcome_unknown)
        {
            // The planted defect: sent again under a new order id, no inquiry.
            let again: MerchantTransactionId = format!("{order}-again").parse().ok()?;
            self.note_sent_as(number, &again);
            payment.merchant_transaction_id = again;
            result = self.client.pay(&payment).await;
        }
        let settled = self.settle(result).await;
        let token = stored_token(&settled);
        self.keep_payment(number, &order, settled)
            .map(|id| (id, token))
    }

    /// A call's result, a lost answer settled by the client's inquiry: asked again, a
    /// while apart, while the inquiry does not get through, as a shop would.
    async fn settle(&self, result: Result<Transaction, Error>) -> Settled {
        let mut settled = result;
        for _ in 0..SETTLE_ATTEMPTS {
            match settled {
                Err(error) if error.is_outcome_unknown() => {
                    self.history
                        .note(format_args!("checkout {}: unknown, settling", self.number));
                    settled = self.client.settle(error).await;
                    if settled.as_ref().is_err_and(Error::is_outcome_unknown) {
                        tokio::time::sleep(SETTLE_PAUSE).await;
                    }
                }
                _ => break,
            }
        }
        match settled {
            Ok(transaction) => Settled::Done(Box::new(transaction)),
            Err(error) if error.refusal().is_some() || !error.may_have_been_processed() => {
                Settled::NotDone
            }
            Err(_) => {
                self.unknown_left.fetch_add(1, Ordering::Relaxed);
                Settled::Unknown
            }
        }
    }

    /// Keeps what the client believes of order `number`'s payment; its id when made and
    /// approved.
    fn keep_payment(
        &self,
        number: usize,
        order: &MerchantTransactionId,
        settled: Settled,
    ) -> Option<PaymentId> {
        let (belief, approved_id) = match settled {
            Settled::Done(transaction) => {
                let approved = matches!(transaction.status, PaymentStatus::Approved);
                let id = transaction.payment_id;
                (
                    Belief::Made {
                        payment_id: id.as_str().to_owned(),
                        approved,
                    },
                    approved.then_some(id),
                )
            }
            Settled::NotDone => (Belief::Refused, None),
            Settled::Unknown => (Belief::Unknown, None),
        };
        self.history.note(format_args!(
            "checkout {}: order {order} believed {belief:?}",
            self.number
        ));
        self.with_order(number, order, |kept| kept.payment = belief);
        approved_id
    }

    /// Changes order `number`, kept first when it is new (sent as `order`).
    fn with_order(
        &self,
        number: usize,
        order: &MerchantTransactionId,
        change: impl FnOnce(&mut Order),
    ) {
        let name = self.order_name(number);
        let mut orders = self.orders.lock().unwrap_or_else(PoisonError::into_inner);
        let at = match orders.iter().position(|kept| kept.name == name) {
            Some(at) => at,
            None => {
                orders.push(Order {
                    name,
                    sent_as: vec![order.as_str().to_owned()],
                    ..Order::default()
                });
                orders.len() - 1
            }
        };
        if let Some(kept) = orders.get_mut(at) {
            change(kept);
        }
    }

    /// Keeps a move of order `number` the client believes applied (`apply`), or that it
    /// cannot tell; whether it was applied.
    fn moved(&self, number: usize, settled: Settled, apply: impl FnOnce(&mut Moves)) -> bool {
        let name = self.order_name(number);
        let mut orders = self.orders.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(order) = orders.iter_mut().find(|kept| kept.name == name) else {
            return false;
        };
        match settled {
            Settled::Done(_) => {
                apply(&mut order.moves);
                true
            }
            Settled::NotDone => false,
            Settled::Unknown => {
                order.moves.certain = false;
                false
            }
        }
    }

    fn note_sent_as(&self, number: usize, again: &MerchantTransactionId) {
        self.with_order(number, &self.order_id(number), |order| {
            order.sent_as.push(again.as_str().to_owned());
        });
    }

    fn order_name(&self, number: usize) -> String {
        self.order_id(number).as_str().to_owned()
    }

    /// Order `number`'s merchant transaction id: the same in every run of the seed.
    fn order_id(&self, number: usize) -> MerchantTransactionId {
        let text = format!("sim-{}-{number}", self.number);
        // Invariant: letters, digits and hyphens, far below the length limit.
        #[expect(
            clippy::expect_used,
            reason = "a short id of letters, digits and hyphens"
        )]
        text.parse().expect("a merchant transaction id")
    }

    /// An amount from 10.00 to 99.99.
    fn amount(&mut self) -> Amount {
        Amount::from_minor_units(self.random.u64(1_000..10_000))
    }
}
