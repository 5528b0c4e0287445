//! The gateway itself, without the network: a request's path, `AuthToken` header and body
//! in, an answer out. The server in `server.rs` puts HTTP around it.

use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use md5::{Digest, Md5};
use paytoken_checksum::{Checksum, SecureKey};
use paytoken_types::Timestamp;

use crate::clock::{Clock, SandboxClock};
use crate::codes;
use crate::config::SandboxConfig;
use crate::exchange::{Answer, Call, RefusalShape};
use crate::explain::{self, Signed};
use crate::faults::NotificationFault;
use crate::form::Form;
use crate::invoices::{self, InvoiceShape};
use crate::json;
use crate::like::Likeness;
use crate::notifications::{Message, Outbox};
use crate::problem::{Problem, Problems};
use crate::request_log::RequestLog;
use crate::state::{Payment, Principal, State, Status};
use crate::store::Store;
use crate::vary::Variation;

/// The state while it is held. When it is let go, what the holder changed (the state's
/// journal) is kept by the store, before the lock is released: in memory there is nothing
/// more to keep; the file store writes it in one transaction. The journal never grows past
/// one call's changes.
pub(crate) struct StateGuard<'g> {
    state: MutexGuard<'g, State>,
    gateway: &'g Gateway,
}

impl Deref for StateGuard<'_> {
    type Target = State;
    fn deref(&self) -> &State {
        &self.state
    }
}

impl DerefMut for StateGuard<'_> {
    fn deref_mut(&mut self) -> &mut State {
        &mut self.state
    }
}

impl Drop for StateGuard<'_> {
    fn drop(&mut self) {
        // The planted defect keeps them when the next call takes the lock instead.
        if !self.gateway.writes_behind() {
            self.gateway.keep(&mut self.state);
        }
    }
}

/// Who signed a request: its principal, the id it sent and its secure key.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Caller<'g> {
    pub(crate) principal: Principal,
    /// `memberId` or `partnerId`: the key answers name the caller with.
    pub(crate) id_key: &'static str,
    pub(crate) id: &'g str,
    key: &'g SecureKey,
}

/// The simulated gateway: its configuration, clock and state.
#[derive(Debug)]
pub(crate) struct Gateway {
    pub(crate) config: SandboxConfig,
    pub(crate) clock: Arc<SandboxClock>,
    pub(crate) invoice_shape: InvoiceShape,
    /// Where the sandbox is reached, for the 3-D Secure redirect it hands out.
    pub(crate) base_url: String,
    /// How the incidental fields of every JSON answer are reshaped, when asked for.
    pub(crate) reshape: Option<Reshape>,
    /// The most payments, registrations or customers kept, of each.
    pub(crate) max_records: usize,
    /// The most live auth tokens kept.
    max_tokens: usize,
    /// Where notifications go out.
    pub(crate) outbox: Outbox,
    /// How long a pending payment waits, on the clock, before it is approved.
    pending_settles_after: Option<Duration>,
    /// Where the state is kept beyond memory, if anywhere.
    store: Store,
    /// Why the store could not keep a call's changes: from then on the sandbox answers
    /// every request with 503, as its memory and its file no longer agree.
    broken: OnceLock<String>,
    /// Where each refusal's diagnostic goes, when the sandbox explains.
    pub(crate) explain: Option<Explainer>,
    /// Every request answered, the newest [`crate::REQUESTS_KEPT`].
    pub(crate) requests: RequestLog,
    state: Mutex<State>,
    /// What a simulation installed: the defects it planted and its record of settlements.
    /// Only with the `simulation` feature: a sandbox built without it has neither.
    #[cfg(feature = "simulation")]
    pub(crate) hooks: crate::planted::Hooks,
    /// Where a test holds the console's reads, their rows taken (`console::views`).
    #[cfg(test)]
    pub(crate) held_reads: Mutex<Option<Arc<std::sync::Barrier>>>,
}

/// How the incidental fields of the sandbox's answers are reshaped.
#[derive(Debug)]
pub(crate) enum Reshape {
    /// Varied at random, from a seed ([`crate::SandboxBuilder::vary_answers`]).
    Varied(Variation),
    /// Like one deployment's ([`crate::SandboxBuilder::answers_like`]).
    Like(Likeness),
}

/// The sink of diagnostics ([`crate::SandboxBuilder::explain`]).
#[derive(Clone)]
pub(crate) struct Explainer(pub(crate) explain::Sink);

impl std::fmt::Debug for Explainer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Explainer")
    }
}

impl Gateway {
    pub(crate) fn new(
        config: SandboxConfig,
        clock: Arc<dyn Clock>,
        invoice_shape: InvoiceShape,
        base_url: String,
    ) -> Self {
        let clock = Arc::new(SandboxClock::new(clock));
        let mut state = State::default();
        invoices::seed(&config, clock.now(), &mut state);
        Self {
            config,
            clock,
            invoice_shape,
            base_url,
            reshape: None,
            max_records: crate::DEFAULT_MAX_RECORDS,
            max_tokens: crate::DEFAULT_MAX_TOKENS,
            // No dispatcher: notifications are recorded as not sent until `notifying`.
            outbox: Outbox::channel().0,
            pending_settles_after: None,
            store: Store::Memory,
            broken: OnceLock::new(),
            explain: None,
            requests: RequestLog::default(),
            state: Mutex::new(state),
            #[cfg(feature = "simulation")]
            hooks: crate::planted::Hooks::default(),
            #[cfg(test)]
            held_reads: Mutex::new(None),
        }
    }

    /// Explains each refusal to `sink` and in a header of its answer.
    pub(crate) fn explaining(mut self, sink: Option<Explainer>) -> Self {
        self.explain = sink;
        self
    }

    /// Keeps the state in `store`, starting from `restored` (what a state file held) instead
    /// of a new state with seeded invoices, the notifications after the `notified` ones
    /// and the request log after the `requested` entries; a new state is kept at once.
    pub(crate) fn storing(
        mut self,
        store: Store,
        restored: Option<State>,
        notified: Vec<(u64, crate::notifications::SentNotification)>,
        requested: Vec<crate::LoggedRequest>,
    ) -> Self {
        self.outbox.keep_with(store.keeper(), notified);
        self.requests.keep_with(store.request_keeper(), requested);
        self.store = store;
        if let Some(restored) = restored {
            self.clock.restore(restored.clock_advanced_ms());
            self.state = Mutex::new(restored);
        }
        drop(self.lock());
        self
    }

    /// Moves the sandbox's clock forward by `by`, keeps the advance in the state (and its
    /// file), and settles what fell due; past the clock's bound nothing moves, and the
    /// error says how much advance is left.
    pub(crate) fn advance_clock(&self, by: Duration) -> Result<(), Duration> {
        self.clock.advance(by)?;
        let mut state = self.lock();
        state.clock_advanced(self.clock.advanced_millis());
        Ok(())
    }

    /// Why the sandbox stopped answering, if it did: its store failed.
    pub(crate) fn broken(&self) -> Option<&str> {
        self.broken
            .get()
            .map(String::as_str)
            .or_else(|| self.outbox.failure())
            .or_else(|| self.requests.failure())
    }

    /// Sends notifications through `outbox`, and approves a pending payment once
    /// `pending_settles_after` has passed on the clock (never, with `None`).
    pub(crate) fn notifying(
        mut self,
        outbox: Outbox,
        pending_settles_after: Option<Duration>,
    ) -> Self {
        self.outbox = outbox;
        self.pending_settles_after = pending_settles_after;
        self
    }

    /// Keeps at most `records` payments, registrations and customers of each kind, and
    /// `tokens` live auth tokens.
    pub(crate) fn keeping(mut self, records: usize, tokens: usize) -> Self {
        self.max_records = records;
        self.max_tokens = tokens;
        self
    }

    /// Refuses to create a payment, registration or customer once the state holds
    /// [`Gateway::max_records`] of any of those kinds: what the sandbox remembers has a
    /// bound. Auth tokens have their own ([`Gateway::make_room_for_token`]), so a full
    /// sandbox still signs callers in for reads.
    pub(crate) fn check_room(&self, state: &State) -> Result<(), Problems> {
        if state.largest_record_count() >= self.max_records {
            return Err(codes::STORAGE_FULL.into());
        }
        Ok(())
    }

    /// Makes room for one more auth token: the expired ones go, and at the bound the one
    /// that expires first is let go too (its holder renews, as after its expiry).
    pub(crate) fn make_room_for_token(&self, state: &mut State) {
        state.expire_tokens(self.clock.now());
        while state.token_count() >= self.max_tokens && state.revoke_first_to_expire() {}
    }

    /// Reshapes the incidental fields of every JSON answer.
    pub(crate) fn reshaping(mut self, reshape: Option<Reshape>) -> Self {
        self.reshape = reshape;
        self
    }

    /// The state, even after a handler panicked while holding it: a sandbox that stops
    /// answering helps nobody, and every handler leaves the state whole between writes.
    /// Pending payments whose time has come are settled first, so that whoever looks
    /// sees them settled, whether or not the dispatcher's tick came first.
    /// Whether no one holds the state's lock now.
    #[cfg(test)]
    pub(crate) fn state_is_free(&self) -> bool {
        self.state.try_lock().is_ok()
    }

    pub(crate) fn lock(&self) -> StateGuard<'_> {
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if self.writes_behind() {
            self.keep(&mut state);
        }
        self.settle_due(&mut state);
        StateGuard {
            state,
            gateway: self,
        }
    }

    /// Where the state is kept, for a simulation that plants a defect in it.
    #[cfg(feature = "simulation")]
    pub(crate) const fn store(&self) -> &Store {
        &self.store
    }

    /// Whether a call's changes are kept only when the next call comes, after its answer
    /// left: a defect a simulation plants; never without the `simulation` feature.
    const fn writes_behind(&self) -> bool {
        #[cfg(feature = "simulation")]
        return self.hooks.defects.write_behind;
        #[cfg(not(feature = "simulation"))]
        false
    }

    /// Whether a refund's check reads what was refunded before as nothing: a defect a
    /// simulation plants; never without the `simulation` feature.
    pub(crate) const fn refund_check_is_stale(&self) -> bool {
        #[cfg(feature = "simulation")]
        return self.hooks.defects.stale_refund_check;
        #[cfg(not(feature = "simulation"))]
        false
    }

    /// Keeps what `state`'s journal says changed in the store; a failure stops the sandbox.
    fn keep(&self, state: &mut State) {
        if let Err(reason) = self.store.keep(state) {
            // The first failure is the one to tell; the sandbox answers nothing more.
            let _ = self.broken.set(reason);
        }
    }

    /// Approves each pending payment made at least `pending_settles_after` ago on the
    /// clock, declines each 3-D Secure challenge left undecided for
    /// [`THREE_D_SECURE_EXPIRES_AFTER`](crate::THREE_D_SECURE_EXPIRES_AFTER), and notifies
    /// them.
    fn settle_due(&self, state: &mut State) {
        let now = self.clock.now();
        let expiry =
            i64::try_from(crate::THREE_D_SECURE_EXPIRES_AFTER.as_secs()).unwrap_or(i64::MAX);
        for index in state.take_expired_challenges(now.saturating_sub(expiry)) {
            // Decided already: only an undecided challenge expires.
            let undecided = state
                .payments()
                .get(index)
                .is_some_and(|payment| payment.status == Status::ThreeDSecure);
            let Some(payment) = state.payment_mut(index).filter(|_| undecided) else {
                continue;
            };
            payment.status = Status::Declined {
                remark: crate::state::AUTHENTICATION_EXPIRED,
            };
            let payment = payment.clone();
            self.notify(&payment);
        }
        let Some(after) = self.pending_settles_after else {
            return;
        };
        let after = i64::try_from(after.as_secs()).unwrap_or(i64::MAX);
        for index in state.take_due(now.saturating_sub(after)) {
            let Some(payment) = state.payment_mut(index) else {
                continue;
            };
            if payment.status != Status::Pending {
                continue;
            }
            payment.status = Status::Approved;
            let payment = payment.clone();
            invoices::record_payment(state, &payment, now);
            self.notify(&payment);
        }
    }

    /// Posts the notification of `payment`'s outcome, when it has a `notificationUrl`
    /// (twice under the `notify=twice` fault).
    pub(crate) fn notify(&self, payment: &Payment) {
        // Every settlement comes here: a simulation's record of them, for its history.
        #[cfg(feature = "simulation")]
        self.hooks.settle(payment);
        let (Some(to), Some(key)) = (&payment.notify, self.key_of(payment.owner)) else {
            return;
        };
        let message = Message::of(payment, &to.url, key, &self.now_text(), to.fault);
        if to.fault == Some(NotificationFault::Twice) {
            self.outbox.post(message.clone());
        }
        self.outbox.post(message);
    }

    /// The secure key of whoever made a payment: it signs the payment's notifications.
    pub(crate) fn key_of(&self, owner: Principal) -> Option<&SecureKey> {
        match owner {
            Principal::Merchant { partner, merchant } => self
                .config
                .partners
                .get(partner)?
                .merchants
                .get(merchant)
                .map(|config| &config.secure_key),
            Principal::Partner { partner } => self
                .config
                .partners
                .get(partner)
                .map(|config| &config.secure_key),
        }
    }

    /// The clock's time in the gateway's answer format.
    pub(crate) fn now_text(&self) -> String {
        Timestamp::from_unix_seconds(self.clock.now())
            .map(|time| time.to_string())
            .unwrap_or_default()
    }

    /// Hands a diagnostic to the sink (`handle` does, once the state's lock is let go).
    pub(crate) fn tell(&self, line: &str) {
        if let Some(Explainer(sink)) = &self.explain {
            sink(line);
        }
    }

    /// A refusal: nothing was created. When the sandbox explains, the answer carries its
    /// diagnostic, for the header and the sink.
    pub(crate) fn refusal(&self, shape: RefusalShape, problems: &Problems) -> Answer {
        let (code, description) = (problems.code(), problems.description());
        // Always: the request log keeps it; the header and stderr only when explaining.
        let explanation = Some(
            problems
                .explanation()
                .map_or_else(|| explain::refusal(&code, &description), str::to_owned),
        );
        Answer {
            explanation,
            ..Answer::json(json::object(|answer| {
                if shape == RefusalShape::Transaction {
                    answer.field("paymentId", "-");
                }
                answer
                    .result("result", &code, &description)
                    .field("timestamp", self.now_text());
            }))
        }
    }

    /// Who sent the request: the member or partner id must be known, and the `AuthToken`
    /// header must hold an unexpired token issued to that same member or partner.
    pub(crate) fn authenticate<'g>(
        &'g self,
        state: &State,
        call: &Call<'_, '_>,
    ) -> Result<Caller<'g>, Problems> {
        let caller = self.identify(call.form)?;
        let token = call.auth_token.ok_or(codes::TOKEN_MISSING)?;
        let issued = state
            .token(token)
            .filter(|issued| self.clock.now() < issued.expires_at)
            .ok_or(codes::TOKEN_INVALID)?;
        if issued.principal != caller.principal {
            return Err(codes::TOKEN_OF_ANOTHER.into());
        }
        Ok(caller)
    }

    /// The caller named by `authentication.memberId` or `authentication.partnerId`.
    fn identify<'g>(&'g self, form: &Form<'_>) -> Result<Caller<'g>, Problems> {
        if let Some(member_id) = form.get("authentication.memberId") {
            for (partner, config) in self.config.partners.iter().enumerate() {
                for (merchant, config) in config.merchants.iter().enumerate() {
                    if config.member_id.as_str() == member_id {
                        return Ok(Caller {
                            principal: Principal::Merchant { partner, merchant },
                            id_key: "memberId",
                            id: config.member_id.as_str(),
                            key: &config.secure_key,
                        });
                    }
                }
            }
            return Err(codes::INVALID_LOGIN.into());
        }
        if let Some(partner_id) = form.get("authentication.partnerId") {
            let (partner, config) = self.partner(partner_id)?;
            return Ok(Caller {
                principal: Principal::Partner { partner },
                id_key: "partnerId",
                id: config.partner_id.as_str(),
                key: &config.secure_key,
            });
        }
        Err(Problem::missing("authentication.memberId").into())
    }

    /// The partner with this id and its index, or "invalid login".
    pub(crate) fn partner(
        &self,
        partner_id: &str,
    ) -> Result<(usize, &crate::PartnerConfig), Problems> {
        self.config
            .partners
            .iter()
            .enumerate()
            .find(|(_, partner)| partner.partner_id.as_str() == partner_id)
            .ok_or_else(|| codes::INVALID_LOGIN.into())
    }

    /// Compares `authentication.checksum` with MD5 over `id|secureKey|parts...` of the
    /// rule `signed`, the parts being the texts as sent, in constant time. A mismatch is
    /// explained when the sandbox explains.
    pub(crate) fn verify_checksum(
        &self,
        caller: &Caller<'_>,
        form: &Form<'_>,
        rule: &str,
        parts: &[(&str, &str)],
    ) -> Result<(), Problems> {
        let signed = Signed { rule, parts };
        let sent = form
            .get("authentication.checksum")
            .ok_or(Problem::missing("authentication.checksum"))?;
        if checksum_matches(caller, &signed, sent) {
            return Ok(());
        }
        let suspects = self.suspects(caller, form, &signed);
        Err(
            Problems::from(codes::CHECKSUM_MISMATCH).explained(explain::checksum_mismatch(
                caller.id, caller.key, &signed, sent, &suspects,
            )),
        )
    }

    /// For a request whose checksum the platform does not check (the invoice list): a line
    /// saying the checksum was absent or wrong and is not checked here (for the request
    /// log, and the header when the sandbox explains); nothing when it matches.
    pub(crate) fn unchecked_checksum(
        &self,
        caller: &Caller<'_>,
        form: &Form<'_>,
        rule: &str,
        parts: &[(&str, &str)],
    ) -> Option<String> {
        let signed = Signed { rule, parts };
        let not_checked = "not checked here, as the platform's validator for this request checks none (it checks the auth token, the member and the page values)";
        match form.get("authentication.checksum") {
            None => Some(format!(
                "checksum absent: {not_checked}; where a gateway asks for one, rule {} signs id|key",
                signed.rule
            )),
            Some(sent) if checksum_matches(caller, &signed, sent) => None,
            Some(sent) => Some(format!(
                "checksum wrong, {not_checked}: {}",
                explain::checksum_mismatch(
                    caller.id,
                    caller.key,
                    &signed,
                    sent,
                    &self.suspects(caller, form, &signed)
                )
            )),
        }
    }

    /// What else a mistaken checksum may be made of: the other callers' keys, and the
    /// fields the rule does not sign.
    fn suspects<'s>(
        &'s self,
        caller: &Caller<'_>,
        form: &'s Form<'_>,
        signed: &Signed<'_>,
    ) -> explain::Suspects<'s> {
        let mut keys = Vec::new();
        for partner in &self.config.partners {
            keys.push((
                format!("partner {}", partner.partner_id),
                &partner.secure_key,
            ));
            for merchant in &partner.merchants {
                keys.push((
                    format!("merchant {}", merchant.member_id),
                    &merchant.secure_key,
                ));
            }
        }
        keys.retain(|(_, key)| key.expose_secret() != caller.key.expose_secret());
        let unsigned = form
            .fields()
            .filter(|(name, _)| {
                *name != "authentication.checksum"
                    && !signed.parts.iter().any(|(part, _)| part == name)
            })
            .collect();
        explain::Suspects { keys, unsigned }
    }
}

/// Whether `sent` is the checksum of `signed` with the caller's id and key.
fn checksum_matches(caller: &Caller<'_>, signed: &Signed<'_>, sent: &str) -> bool {
    let mut md5 = Md5::new();
    md5.update(caller.id.as_bytes());
    md5.update(b"|");
    md5.update(caller.key.expose_secret().as_bytes());
    for (_, part) in signed.parts {
        md5.update(b"|");
        md5.update(part.as_bytes());
    }
    let computed = Checksum::from_bytes(md5.finalize().into());
    paytoken_checksum::verify(sent, &computed)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::clock::ManualClock;
    use crate::exchange::JSON;

    const PATHS: [&str; 12] = [
        "/transactionServices/REST/v1/authToken",
        "/transactionServices/REST/v1/partnerAuthToken",
        "/transactionServices/REST/v1/regenerateToken",
        "/merchantServices/api/v1/customerSignup",
        "/transactionServices/REST/v1/payments",
        "/transactionServices/REST/v1/payments/60001",
        "/transactionServices/REST/v1/registrations",
        "/transactionServices/REST/v1/paywithtoken/abc",
        "/transactionServices/REST/v1/getInstallmentWithToken/abc",
        "/transactionServices/REST/v1/getCardsAndAccounts",
        "/invoiceServices/REST/v1/getInvoice",
        "/sandbox/3ds/60001",
    ];

    const FIELDS: [&str; 16] = [
        "authentication.memberId",
        "authentication.partnerId",
        "authentication.checksum",
        "authentication.sKey",
        "merchant.username",
        "merchantTransactionId",
        "amount",
        "currency",
        "paymentType",
        "card.number",
        "card.expiryMonth",
        "card.expiryYear",
        "pagination.pageno",
        "pagination.records",
        "idType",
        "customer.customerId",
    ];

    fn gateway() -> Gateway {
        Gateway::new(
            SandboxConfig::default(),
            Arc::new(ManualClock::at_unix_seconds(1_795_000_000)),
            InvoiceShape::PositionMap,
            "http://127.0.0.1:1".into(),
        )
    }

    fn check(answer: &Answer) {
        assert!(matches!(answer.status, 200 | 404 | 405), "{answer:?}");
        if answer.content_type == JSON {
            let value: serde_json::Value = serde_json::from_str(&answer.body).unwrap();
            assert!(value.is_object());
        }
    }

    #[test]
    fn the_journal_is_emptied_when_the_state_is_let_go() {
        let gateway = gateway();
        {
            let mut state = gateway.lock();
            let customer = state.next_customer_id();
            state.insert_customer(customer, Principal::Partner { partner: 0 });
        }
        assert!(gateway.lock().take_changes().is_empty());
    }

    proptest! {
        #[test]
        fn any_bytes_to_any_path_get_an_answer(
            path in prop::sample::select(PATHS.as_slice()),
            body in prop::collection::vec(any::<u8>(), 0..300),
            token in prop::option::of("[ -~]{0,40}"),
        ) {
            let gateway = gateway();
            check(&gateway.handle("POST", path, None, token.as_deref(), &body, None));
        }

        #[test]
        fn any_values_of_the_known_fields_get_an_answer(
            path in prop::sample::select(PATHS.as_slice()),
            fields in prop::collection::vec(
                (prop::sample::select(FIELDS.as_slice()), "\\PC{0,12}"),
                0..10,
            ),
        ) {
            let gateway = gateway();
            let body = serde_urlencoded::to_string(&fields).unwrap();
            check(&gateway.handle("POST", path, None, None, body.as_bytes(), None));
        }
    }
}
