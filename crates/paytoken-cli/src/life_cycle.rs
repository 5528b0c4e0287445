//! The tokenization life cycle as one script: every operation once, in the order a
//! merchant meets them. `paytoken demo` prints its steps; the workspace's tests run the
//! same script over TCP and TLS and then check every answer it kept.
//!
//! Each step is a small method of [`LifeCycle`] that makes one call (or, for the invoices,
//! one call a page), records what it shows as a [`Step`], and keeps the answer for the
//! steps after it and for the tests. A step whose call fails is recorded and the script
//! goes on with what it has; steps that need an earlier answer (a token) are left out
//! without it, so a broken run shows fewer steps than [`STEPS`].

use std::fmt;
use std::future::Future;
use std::time::{Duration, Instant};

use paytoken::ops::auth_token::{AuthTokenGrant, FetchAuthToken};
use paytoken::ops::cards_and_accounts::{CardsAndAccounts, StoredRegistrations};
use paytoken::ops::customer_signup::{CustomerSignup, SignedUp};
use paytoken::ops::delete_token::{DeleteToken, Deleted};
use paytoken::ops::installments::{InstallmentPlans, Installments};
use paytoken::ops::invoice_list::InvoiceList;
use paytoken::ops::payment::Payment;
use paytoken::ops::registration::{Registered, Registration};
use paytoken::ops::token_payment::TokenPayment;
use paytoken::types::internal::sensitive;
use paytoken::types::{
    Currency, Email, GatewayResult, RecurringType, RegistrationStatus, TransactionState,
};
use paytoken::{
    Amount, Client, CodeFamily, Customer, Error, FieldValue, Invoice, MerchantTransactionId,
    OperationKind, RegistrationId, SecureKey, Transaction,
};
use paytoken_sandbox::{cards, samples};

use crate::report;

mod back_office;
mod three_d_secure;

/// The fewest steps a whole run has (more when the invoices take more pages), without the
/// 3-D Secure steps.
pub const STEPS: usize = 21;

/// The 3-D Secure steps a run adds when it is given the secure key: the payment, the
/// challenge page, the notification.
pub const THREE_D_SECURE_STEPS: usize = 3;

/// The most invoice pages the script reads before it stops listing.
const MAX_INVOICE_PAGES: u32 = 20;

/// How many invoices a page asks for.
const INVOICES_PER_PAGE: u32 = 5;

/// What a step shows: whether it did what the life cycle expects, the gateway's code and
/// words, and the key fields (secrets masked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// Whether the step did what the life cycle expects of it.
    pub ok: bool,
    /// The gateway's result code, or `-` where there is none.
    pub code: String,
    /// The gateway's words, or the error's.
    pub description: String,
    /// The fields worth showing, by their wire names; card numbers as BIN and last four,
    /// the auth token as its length only.
    pub fields: Vec<(&'static str, String)>,
}

impl Shown {
    /// An answer whose result says it did what was asked.
    fn answer(result: &GatewayResult, fields: Vec<(&'static str, String)>) -> Self {
        Self {
            ok: result.code.family() == CodeFamily::Success,
            code: result.code.as_str().to_owned(),
            description: result.description.clone(),
            fields,
        }
    }

    /// An error: the refusal's code and words, or the error's own with its causes.
    fn error(error: &Error) -> Self {
        let (code, description) = match error.refusal() {
            Some(refusal) => (
                refusal.result.code.as_str().to_owned(),
                refusal.result.description.clone(),
            ),
            None => ("-".to_owned(), report::with_causes(error)),
        };
        Self {
            ok: false,
            code,
            description,
            fields: Vec::new(),
        }
    }

    /// A transaction: as expected when approved.
    fn transaction(transaction: &Transaction) -> Self {
        let mut fields = vec![("paymentId", transaction.payment_id.to_string())];
        if let Some(id) = &transaction.registration_id {
            fields.push(("registrationId", id.to_string()));
        }
        if let Some(card) = &transaction.card {
            let bin = card.bin.as_deref().unwrap_or_default();
            let last = card.last_four.as_deref().unwrap_or_default();
            fields.push(("card", sensitive::card_from_parts(bin, last)));
        }
        if let (Some(amount), Some(currency)) = (&transaction.amount, &transaction.currency) {
            fields.push(("amount", format!("{amount} {currency}")));
        }
        Self {
            ok: transaction.is_approved(),
            ..Self::answer(&transaction.result, fields)
        }
    }

    /// The script's own value could not be made: its own bug, shown as a failed step.
    fn own_value(error: &dyn fmt::Display) -> Self {
        Self {
            ok: false,
            code: "-".to_owned(),
            description: format!("the demo's own value: {error}"),
            fields: Vec::new(),
        }
    }
}

/// One step of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// What the step does, in words (`payment, storing the card`).
    pub name: &'static str,
    /// The operation it calls, as the `Client` method and the command name it (`pay`,
    /// `pay_with_token`).
    pub operation: &'static str,
    /// What it showed.
    pub shown: Shown,
    /// How long its call took.
    pub elapsed: Duration,
}

/// A run of the life cycle: its steps, and every answer the steps after it or a test may
/// need, kept as the client returned it.
#[derive(Debug, Default)]
pub struct LifeCycle {
    /// Every step so far, in order.
    pub steps: Vec<Step>,
    /// The customer of the run, with the id sign-up gave it.
    pub customer: Customer,
    /// The auth token fetched on request.
    pub grant: Option<AuthTokenGrant>,
    /// The customer's sign-up.
    pub signed_up: Option<SignedUp>,
    /// The first payment as sent, which stores the card.
    pub payment: Option<Payment>,
    /// Its transaction, when approved.
    pub paid: Option<Transaction>,
    /// The second card, stored without a payment.
    pub registered: Option<Registered>,
    /// The token payments on the first card: the recurring series' INITIAL and REPEATED.
    pub token_payments: Vec<Transaction>,
    /// The second card's installment plans.
    pub plans: Option<InstallmentPlans>,
    /// The cards and accounts listed before the delete.
    pub stored: Option<StoredRegistrations>,
    /// Every invoice of every page, in order.
    pub invoices: Vec<Invoice>,
    /// The delete of the first card's token.
    pub deleted: Option<Deleted>,
    /// The error of the payment with the deleted token, which the gateway must refuse.
    pub refused: Option<Error>,
    /// The back office's moves that went through: a capture, two refunds, a cancel.
    pub moves: Vec<Transaction>,
    /// The inquiry's long status after each move.
    pub statuses: Vec<TransactionState>,
    /// The 3-D Secure payment, waiting for the cardholder (with the secure key only).
    pub three_d_secure_payment: Option<Transaction>,
    /// Its notification, as `paytoken listen --json` prints it (with the secure key only).
    pub notification: Option<serde_json::Value>,
    /// The 3-D Secure steps the run has besides the [`STEPS`] (none without the key).
    three_d_secure_steps: usize,
}

/// Runs the whole life cycle with `client`, which may fetch its own auth token; `fetch` is
/// the request of the step that fetches one on request.
///
/// With the merchant's secure key, the run ends with a 3-D Secure payment approved on the
/// sandbox's challenge page and the notification it leads to, received on a loopback port
/// and verified with the key: the page is visited over plain `http`, so leave the key out
/// against a sandbox that serves HTTPS.
pub async fn run(
    client: &Client,
    fetch: FetchAuthToken,
    secure_key: Option<SecureKey>,
) -> LifeCycle {
    let mut life = LifeCycle::default();
    life.auth_token(client, fetch).await;
    life.customer_signup(client).await;
    life.payment(client).await;
    life.registration(client).await;
    life.token_payments(client).await;
    life.installments(client).await;
    life.cards_and_accounts(client).await;
    life.invoices(client).await;
    life.delete_token(client).await;
    life.refused_payment(client).await;
    life.back_office(client).await;
    if let Some(key) = secure_key {
        life.three_d_secure_steps = THREE_D_SECURE_STEPS;
        life.three_d_secure(client, key).await;
    }
    life
}

impl LifeCycle {
    /// Whether every step did what it should, and none was left out.
    #[must_use]
    pub fn all_ok(&self) -> bool {
        self.steps.len() >= STEPS + self.three_d_secure_steps
            && self.steps.iter().all(|step| step.shown.ok)
    }

    /// The token of the card the first payment stored.
    #[must_use]
    pub fn first_token(&self) -> Option<RegistrationId> {
        self.paid
            .as_ref()
            .and_then(|paid| paid.registration_id.value().copied())
    }

    /// The token of the card stored without a payment.
    #[must_use]
    pub fn second_token(&self) -> Option<RegistrationId> {
        self.registered
            .as_ref()
            .map(|registered| registered.registration_id)
    }

    /// Runs `call`, records its step, and gives its answer back when it did what it should.
    async fn step<T>(
        &mut self,
        (name, operation): (&'static str, &'static str),
        call: impl Future<Output = Result<T, Error>>,
        show: impl FnOnce(&T) -> Shown,
    ) -> Option<T> {
        let started = Instant::now();
        let result = call.await;
        let elapsed = started.elapsed();
        let (shown, answer) = match result {
            Ok(answer) => {
                let shown = show(&answer);
                let answer = shown.ok.then_some(answer);
                (shown, answer)
            }
            Err(error) => (Shown::error(&error), None),
        };
        self.record((name, operation), shown, elapsed);
        answer
    }

    fn record(
        &mut self,
        (name, operation): (&'static str, &'static str),
        shown: Shown,
        elapsed: Duration,
    ) {
        self.steps.push(Step {
            name,
            operation,
            shown,
            elapsed,
        });
    }

    /// A value the script writes itself; one that cannot be made is recorded as a failed
    /// step of `name`.
    fn own<T, E: fmt::Display>(
        &mut self,
        (name, operation): (&'static str, &'static str),
        value: Result<T, E>,
    ) -> Option<T> {
        value
            .map_err(|error| {
                let shown = Shown::own_value(&error);
                self.record((name, operation), shown, Duration::ZERO);
            })
            .ok()
    }

    /// A payment of 9.99 EUR with `token`, in a recurring series, under a fresh merchant
    /// transaction id.
    fn charge(
        &mut self,
        step: (&'static str, &'static str),
        token: RegistrationId,
        recurring: RecurringType,
    ) -> Option<TokenPayment> {
        let amount = self.own(step, "9.99".parse::<Amount>())?;
        let order = self.own(step, order_id())?;
        Some(
            TokenPayment::new(token, amount, Currency::EUR)
                .merchant_transaction_id(order)
                .recurring(recurring),
        )
    }

    /// An auth token on request (the client fetched its own before the first call too),
    /// shown by its length only.
    async fn auth_token(&mut self, client: &Client, fetch: FetchAuthToken) {
        self.grant = self
            .step(
                ("auth token", OperationKind::AuthToken.name()),
                client.fetch_auth_token(&fetch),
                |grant| {
                    let length = grant.token.expose_secret().len();
                    Shown::answer(
                        &grant.result,
                        vec![("token", format!("*** ({length} characters, masked)"))],
                    )
                },
            )
            .await;
    }

    /// The customer signs up, and keeps the id the gateway gave.
    async fn customer_signup(&mut self, client: &Client) {
        const STEP: (&str, &str) = ("customer sign-up", OperationKind::CustomerSignup.name());
        let Some(email) = self.own(STEP, Email::new("ada@example.com")) else {
            return;
        };
        self.customer = Customer {
            given_name: Some("Ada".into()),
            surname: Some("Lovelace".into()),
            email: Some(email),
            ..Customer::default()
        };
        let signup = CustomerSignup::new(self.customer.clone());
        self.signed_up = self
            .step(STEP, client.customer_signup(&signup), |signed_up| {
                Shown::answer(
                    &signed_up.result,
                    vec![("customerId", signed_up.customer_id.to_string())],
                )
            })
            .await;
        self.customer.customer_id = self.signed_up.as_ref().map(|s| s.customer_id);
    }

    /// A payment with an approved test card that stores the card: the first token.
    async fn payment(&mut self, client: &Client) {
        const STEP: (&str, &str) = ("payment, storing the card", OperationKind::Payment.name());
        let amount = "49.90".parse::<Amount>();
        let (Some(amount), Some(order), Some(card)) = (
            self.own(STEP, amount),
            self.own(STEP, order_id()),
            self.own(STEP, samples::card(cards::APPROVED)),
        ) else {
            return;
        };
        let payment = Payment::new(order, amount, Currency::EUR, card)
            .store_card()
            .recurring(RecurringType::Initial)
            .customer(self.customer.clone());
        self.paid = self
            .step(STEP, client.pay(&payment), Shown::transaction)
            .await;
        self.payment = Some(payment);
    }

    /// A second card, stored without a payment: the second token.
    async fn registration(&mut self, client: &Client) {
        const STEP: (&str, &str) = (
            "registration of a second card",
            OperationKind::Registration.name(),
        );
        let Some(card) = self.own(STEP, samples::card(cards::INSTALLMENTS)) else {
            return;
        };
        let registration = Registration::card(card).customer(self.customer.clone());
        self.registered = self
            .step(STEP, client.register(&registration), |registered| {
                Shown::answer(
                    &registered.result,
                    vec![("registrationId", registered.registration_id.to_string())],
                )
            })
            .await;
    }

    /// A recurring series on the first token: INITIAL, then REPEATED.
    async fn token_payments(&mut self, client: &Client) {
        let Some(token) = self.first_token() else {
            return;
        };
        for (step, recurring) in [
            (
                ("token payment, INITIAL", OperationKind::TokenPayment.name()),
                RecurringType::Initial,
            ),
            (
                (
                    "token payment, REPEATED",
                    OperationKind::TokenPayment.name(),
                ),
                RecurringType::Repeated,
            ),
        ] {
            let Some(payment) = self.charge(step, token, recurring) else {
                continue;
            };
            if let Some(transaction) = self
                .step(step, client.pay_with_token(&payment), Shown::transaction)
                .await
            {
                self.token_payments.push(transaction);
            }
        }
    }

    /// The installment plans of the second card.
    async fn installments(&mut self, client: &Client) {
        let Some(token) = self.second_token() else {
            return;
        };
        self.plans = self
            .step(
                (
                    "installments of the second card",
                    OperationKind::Installments.name(),
                ),
                client.installments(&Installments::new(token)),
                |plans| {
                    let counts: Vec<String> = plans.counts.iter().map(u16::to_string).collect();
                    Shown {
                        ok: !plans.counts.is_empty(),
                        code: "-".to_owned(),
                        description: "installment plans (no result object)".to_owned(),
                        fields: vec![("installments", counts.join(", "))],
                    }
                },
            )
            .await;
    }

    /// The merchant's stored cards and accounts: both cards, active.
    async fn cards_and_accounts(&mut self, client: &Client) {
        self.stored = self
            .step(
                ("cards and accounts", OperationKind::CardsAndAccounts.name()),
                client.cards_and_accounts(&CardsAndAccounts::all()),
                |stored| {
                    let active = stored
                        .cards
                        .iter()
                        .filter(|c| {
                            c.registration_status.value() == Some(&RegistrationStatus::Active)
                        })
                        .count();
                    let listed = Shown::answer(
                        &stored.result,
                        vec![
                            ("cards", stored.cards.len().to_string()),
                            ("active", active.to_string()),
                        ],
                    );
                    Shown {
                        ok: listed.ok && stored.cards.len() >= 2,
                        ..listed
                    }
                },
            )
            .await;
    }

    /// Five invoices a page, until a short one: a step a page.
    async fn invoices(&mut self, client: &Client) {
        const NAMES: [&str; 4] = [
            "invoices, page 1",
            "invoices, page 2",
            "invoices, page 3",
            "invoices, page 4",
        ];
        for page in 1..=MAX_INVOICE_PAGES {
            let name = usize::try_from(page - 1)
                .ok()
                .and_then(|index| NAMES.get(index))
                .copied()
                .unwrap_or("invoices, a further page");
            let list = InvoiceList::new(page, INVOICES_PER_PAGE);
            let answer = self
                .step(
                    (name, OperationKind::InvoiceList.name()),
                    client.invoice_page(&list),
                    |p| {
                        let orders: Vec<String> = p
                            .invoices
                            .iter()
                            .filter_map(|i| i.order_id.clone())
                            .collect();
                        let fields = vec![
                            ("invoices", p.invoices.len().to_string()),
                            ("orderIds", orders.join(", ")),
                        ];
                        match &p.result {
                            // A page past the end is an answer too ("no records").
                            Some(result) => Shown {
                                ok: true,
                                ..Shown::answer(result, fields)
                            },
                            None => Shown {
                                ok: true,
                                code: "-".to_owned(),
                                description: "invoices".to_owned(),
                                fields,
                            },
                        }
                    },
                )
                .await;
            let Some(answer) = answer else { break };
            let full = answer.invoices.len() >= usize::try_from(INVOICES_PER_PAGE).unwrap_or(0);
            self.invoices.extend(answer.invoices);
            if !full {
                break;
            }
        }
    }

    /// The first card's token deleted; a payment with it is then refused, charging nothing.
    async fn delete_token(&mut self, client: &Client) {
        let Some(token) = self.first_token() else {
            return;
        };
        self.deleted = self
            .step(
                (
                    "delete the first card's token",
                    OperationKind::DeleteToken.name(),
                ),
                client.delete_token(&DeleteToken::new(token)),
                |deleted| {
                    Shown::answer(&deleted.result, vec![("registrationId", token.to_string())])
                },
            )
            .await;
    }

    /// A payment with the deleted token: the gateway refuses it, and nothing is charged.
    async fn refused_payment(&mut self, client: &Client) {
        const STEP: (&str, &str) = (
            "payment with the deleted token (refused)",
            OperationKind::TokenPayment.name(),
        );
        let Some(token) = self.first_token() else {
            return;
        };
        let Some(payment) = self.charge(STEP, token, RecurringType::Repeated) else {
            return;
        };
        let started = Instant::now();
        let result = client.pay_with_token(&payment).await;
        let elapsed = started.elapsed();
        let shown = match &result {
            Err(error) => match error.refusal() {
                Some(refusal) => Shown {
                    ok: refusal.family() == CodeFamily::Rejection
                        && !error.may_have_been_processed(),
                    fields: vec![("charged", "nothing".to_owned())],
                    ..Shown::error(error)
                },
                None => Shown::error(error),
            },
            Ok(_) => Shown {
                ok: false,
                code: "-".to_owned(),
                description: "the gateway did not refuse it".to_owned(),
                fields: Vec::new(),
            },
        };
        self.record(STEP, shown, elapsed);
        self.refused = result.err();
    }
}

/// The next merchant transaction id of this process (`demo{process id}x{n}`): the order ids
/// of two runs do not meet.
fn order_id() -> Result<MerchantTransactionId, paytoken::types::Error> {
    samples::order_id("demo")
}
