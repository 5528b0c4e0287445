//! The client: one async method per operation, over one call loop that signs, sends,
//! retries what is safe to retry, renews the auth token and parses.

use core::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use paytoken_protocol::ops::auth_token::{AuthTokenGrant, FetchAuthToken, RegenerateAuthToken};
use paytoken_protocol::ops::cards_and_accounts::{CardsAndAccounts, StoredRegistrations};
use paytoken_protocol::ops::customer_signup::{CustomerSignup, SignedUp};
use paytoken_protocol::ops::delete_token::{DeleteToken, Deleted};
use paytoken_protocol::ops::inquiry::Inquiry;
use paytoken_protocol::ops::installments::{InstallmentPlans, Installments};
use paytoken_protocol::ops::invoice_list::{InvoiceList, InvoicePage};
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::ops::registration::{Registered, Registration};
use paytoken_protocol::ops::token_payment::TokenPayment;
use paytoken_protocol::{
    BaseUrl, Context, Invoice, InvoicePager, OperationKind, Request, TokenStep, Transaction,
};
use paytoken_types::{CodeFamily, MerchantTransactionId};
use tracing::Instrument as _;
use tracing::field::Empty;

use crate::auth::Auth;
use crate::call::{Call, NextPage, Observed, Op};
use crate::retry::jitter_seed;
use crate::{
    ClientBuilder, Error, HyperTransport, RetryPolicy, Transport, TransportError,
    TransportErrorKind, TransportRequest, TransportResponse,
};

/// The gateway's client: cheap to clone (clones share the connection pool and the auth
/// token), safe to use from many tasks at once. Build it with [`Client::builder`].
///
/// Every method signs its operation with the client's credentials, sends it with the auth
/// token (fetching or renewing it first when due), and returns the typed answer, or an
/// [`Error`] that says what to do next. Methods need a tokio runtime with its timer on
/// (`#[tokio::main]` has both).
pub struct Client<T = HyperTransport> {
    inner: Arc<Inner<T>>,
}

struct Inner<T> {
    transport: T,
    base_url: BaseUrl,
    request_timeout: Duration,
    retry: RetryPolicy,
    body_limit: usize,
    auth: Auth,
}

/// What the builder settles on, for the client's own half.
#[derive(Debug)]
pub(crate) struct ClientSettings {
    pub(crate) base_url: BaseUrl,
    pub(crate) request_timeout: Duration,
    pub(crate) retry: RetryPolicy,
    pub(crate) body_limit: usize,
    pub(crate) auth: Auth,
}

impl<T> Clone for Client<T> {
    fn clone(&self) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
        }
    }
}

impl<T> fmt::Debug for Client<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = &self.inner;
        f.debug_struct("Client")
            .field("base_url", &inner.base_url.as_str())
            .field("request_timeout", &inner.request_timeout)
            .field("retry", &inner.retry)
            .field("body_limit", &inner.body_limit)
            .field("renews_auth_token", &inner.auth.renewal.is_some())
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A builder: the base URL and the credentials are required, everything else has a
    /// default ([`ClientBuilder`] lists them).
    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }
}

impl<T: Transport> Client<T> {
    pub(crate) fn from_parts(transport: T, settings: ClientSettings) -> Self {
        Self {
            inner: Arc::new(Inner {
                transport,
                base_url: settings.base_url,
                request_timeout: settings.request_timeout,
                retry: settings.retry,
                body_limit: settings.body_limit,
                auth: settings.auth,
            }),
        }
    }

    /// The gateway's base URL.
    #[must_use]
    pub fn base_url(&self) -> &BaseUrl {
        &self.inner.base_url
    }

    /// The transport, such as a [`FakeTransport`](crate::testing::FakeTransport) whose
    /// requests a test reads back.
    #[must_use]
    pub fn transport(&self) -> &T {
        &self.inner.transport
    }

    /// Signs a customer up.
    ///
    /// # Errors
    /// [`Error`]; the outcome is unknown ([`Error::is_outcome_unknown`]) when the answer
    /// was lost.
    pub async fn customer_signup(&self, signup: &CustomerSignup) -> Result<SignedUp, Error> {
        self.call(Op(signup)).await
    }

    /// Makes a payment with a card, storing it when asked to. Never sent twice once its
    /// bytes may have left: see [`reconcile`](Self::reconcile).
    ///
    /// # Errors
    /// [`Error::OutcomeUnknown`] with the payment's merchant transaction id when the answer
    /// was lost; [`Error::Protocol`] with the refusal when the gateway refused.
    pub async fn pay(&self, payment: &Payment) -> Result<Transaction, Error> {
        self.call(Op(payment)).await.map_err(|error| {
            error.with_merchant_transaction_id(Some(payment.merchant_transaction_id.clone()))
        })
    }

    /// Stores a card or a bank account without a payment.
    ///
    /// # Errors
    /// [`Error`]; the outcome is unknown when the answer was lost.
    pub async fn register(&self, registration: &Registration) -> Result<Registered, Error> {
        self.call(Op(registration)).await
    }

    /// Pays with a stored token: plain, the first of a series (`INITIAL`), a later one
    /// (`REPEATED`), or in installments. Never sent twice once its bytes may have left.
    ///
    /// A payment without a merchant transaction id is given a fresh unique one
    /// ([`new_merchant_transaction_id`]), so that a lost answer can be settled by inquiry;
    /// the result and an unknown outcome carry it.
    ///
    /// # Errors
    /// [`Error::OutcomeUnknown`] with the merchant transaction id when the answer was lost;
    /// [`Error::Protocol`] with the refusal when refused.
    pub async fn pay_with_token(&self, payment: &TokenPayment) -> Result<Transaction, Error> {
        let identified;
        let payment = if payment.merchant_transaction_id.is_some() {
            payment
        } else {
            identified = payment
                .clone()
                .merchant_transaction_id(new_merchant_transaction_id());
            &identified
        };
        self.call(Op(payment)).await.map_err(|error| {
            error.with_merchant_transaction_id(payment.merchant_transaction_id.clone())
        })
    }

    /// Deletes a stored token; payments with it are refused afterwards.
    ///
    /// # Errors
    /// [`Error`]; the outcome is unknown when the answer was lost.
    pub async fn delete_token(&self, delete: &DeleteToken) -> Result<Deleted, Error> {
        self.call(Op(delete)).await
    }

    /// The installment counts a token may be charged in. Retried as a read.
    ///
    /// # Errors
    /// [`Error`].
    pub async fn installments(
        &self,
        installments: &Installments,
    ) -> Result<InstallmentPlans, Error> {
        self.call(Op(installments)).await
    }

    /// The stored cards and bank accounts, all or one customer's. Retried as a read.
    ///
    /// # Errors
    /// [`Error`].
    pub async fn cards_and_accounts(
        &self,
        list: &CardsAndAccounts,
    ) -> Result<StoredRegistrations, Error> {
        self.call(Op(list)).await
    }

    /// One page of the invoice list. Retried as a read.
    ///
    /// # Errors
    /// [`Error`].
    pub async fn invoice_page(&self, page: &InvoiceList) -> Result<InvoicePage, Error> {
        self.call(Op(page)).await
    }

    /// The next page of `pager` ([`InvoicePager::next_page`] says which), read as a read
    /// is (retried); the pager moves on only after a good answer. Page through a list as it
    /// arrives, holding one page at a time:
    ///
    /// ```no_run
    /// # async fn run(client: paytoken_hyper::Client) -> Result<(), paytoken_hyper::Error> {
    /// let mut pager = paytoken_protocol::InvoicePager::new(100)?;
    /// while !pager.is_done() {
    ///     for invoice in client.next_invoice_page(&mut pager).await?.invoices {
    ///         println!("{:?}", invoice.order_id);
    ///     }
    /// }
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error`] of the page; an input error when the pager has ended.
    pub async fn next_invoice_page(&self, pager: &mut InvoicePager) -> Result<InvoicePage, Error> {
        self.call(NextPage(pager)).await
    }

    /// Every invoice, in the gateway's order, asking for `records` per page from page 1
    /// until the list ends ([`InvoicePager`] says when). The whole list is held in memory:
    /// for a long one, page with [`next_invoice_page`](Self::next_invoice_page).
    ///
    /// # Errors
    /// [`Error`] of the first page that failed (each page is retried as a read); an input
    /// error when `records` is out of range.
    pub async fn all_invoices(&self, records: u32) -> Result<Vec<Invoice>, Error> {
        let mut pager = InvoicePager::new(records)?;
        let mut invoices = Vec::new();
        while !pager.is_done() {
            invoices.extend(self.call(NextPage(&mut pager)).await?.invoices);
        }
        Ok(invoices)
    }

    /// One transaction's stored state, by payment id or merchant transaction id. Retried
    /// as a read.
    ///
    /// # Errors
    /// [`Error`]; a refusal when the gateway has no such transaction.
    pub async fn inquiry(&self, inquiry: &Inquiry) -> Result<Transaction, Error> {
        self.call(Op(inquiry)).await
    }

    /// Settles an [unknown outcome](Error::OutcomeUnknown): asks the gateway what became of
    /// the payment sent with `merchant_transaction_id`.
    ///
    /// ```no_run
    /// # async fn run(client: paytoken_hyper::Client, payment: paytoken_protocol::ops::payment::Payment)
    /// # -> Result<(), paytoken_hyper::Error> {
    /// let transaction = match client.pay(&payment).await {
    ///     Ok(transaction) => transaction,
    ///     Err(error) if error.is_outcome_unknown() => {
    ///         // Never send the payment again before the gateway has said what it did.
    ///         client.reconcile(&payment.merchant_transaction_id).await?
    ///     }
    ///     Err(error) => return Err(error),
    /// };
    /// println!("{:?}", transaction.status);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error`] of the inquiry. For a card payment, a refusal means the gateway holds no
    /// payment with that id: it never arrived, and the payment may be sent again. For a
    /// token payment it may not (see [`settle`](Self::settle)).
    pub async fn reconcile(
        &self,
        merchant_transaction_id: &MerchantTransactionId,
    ) -> Result<Transaction, Error> {
        self.inquiry(&Inquiry::ByMerchantTransactionId(
            merchant_transaction_id.clone(),
        ))
        .await
    }

    /// Settles an [unknown outcome](Error::OutcomeUnknown) by inquiry, and never guesses.
    ///
    /// The transaction when the gateway holds one under the error's merchant transaction
    /// id. When it holds none: for a card payment, the refusal (the payment never arrived,
    /// it may be sent again); for a token payment, the unknown outcome itself, since the
    /// published token-payment samples do not show `merchantTransactionId` and a gateway
    /// that ignores it would find nothing even for a payment it made.
    ///
    /// ```no_run
    /// # async fn run(client: paytoken_hyper::Client, payment: paytoken_protocol::ops::token_payment::TokenPayment)
    /// # -> Result<(), paytoken_hyper::Error> {
    /// let transaction = match client.pay_with_token(&payment).await {
    ///     Err(error) if error.is_outcome_unknown() => client.settle(error).await?,
    ///     other => other?,
    /// };
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// `unknown` itself when it is not an unknown outcome with a merchant transaction id, or
    /// when the inquiry cannot tell; otherwise the inquiry's error.
    pub async fn settle(&self, unknown: Error) -> Result<Transaction, Error> {
        let Error::OutcomeUnknown {
            operation,
            merchant_transaction_id: Some(id),
            ..
        } = &unknown
        else {
            return Err(unknown);
        };
        match self.reconcile(id).await {
            Err(error) if error.refusal().is_some() && *operation != OperationKind::Payment => {
                Err(unknown)
            }
            settled => settled,
        }
    }

    /// Fetches an auth token with a login name, whatever the client's own token source;
    /// the client keeps using its own.
    ///
    /// # Errors
    /// [`Error`]; a refusal for a wrong login name or secure key.
    pub async fn fetch_auth_token(&self, fetch: &FetchAuthToken) -> Result<AuthTokenGrant, Error> {
        self.call(Op(fetch)).await
    }

    /// Exchanges a still-valid auth token for a fresh one.
    ///
    /// # Errors
    /// [`Error`]; a refusal for an expired or unknown token.
    pub async fn regenerate_auth_token(
        &self,
        regenerate: &RegenerateAuthToken,
    ) -> Result<AuthTokenGrant, Error> {
        self.call(Op(regenerate)).await
    }

    /// The call loop, inside its span.
    async fn call<C: Call>(&self, call: C) -> Result<C::Response, Error> {
        let span = call_span(call.kind());
        let started = start_clock(&span);
        let result = self.signed_call(call, &span).instrument(span.clone()).await;
        record_elapsed(&span, started);
        record_outcome(&span, &result);
        result
    }

    async fn signed_call<C: Call>(
        &self,
        mut call: C,
        span: &tracing::Span,
    ) -> Result<C::Response, Error> {
        let kind = call.kind();
        let is_token_call = matches!(
            kind,
            OperationKind::AuthToken | OperationKind::RegenerateAuthToken
        );
        let current = self.inner.auth.current();
        let mut context = if is_token_call || current.is_fresh(self.inner.auth.now()) {
            current.context
        } else {
            // The input is checked before the token's round trip, so that invalid input
            // sends nothing at all, not even an auth-token request.
            call.request(&current.context)?;
            self.renew(&current.context, false).await?
        };
        let mut renewed = false;
        loop {
            let request = call.request(&context)?;
            let answer = match self.exchange(&request, span).await {
                Ok(answer) => answer,
                Err(error) => return Err(judge(&request, error)),
            };
            match call.parse(answer.status, &answer.body) {
                Ok(response) => {
                    if let Some(code) = response.result_code() {
                        span.record("result.code", code);
                    }
                    return Ok(response);
                }
                Err(error) => {
                    if let Some(refusal) = error.refusal() {
                        span.record("result.code", refusal.result.code.as_str());
                        // A refusal means nothing was processed, so even a payment may go
                        // again, once, with a fresh token.
                        let token_refused = refusal.family() == CodeFamily::SystemCheck;
                        if token_refused && !renewed && !is_token_call && self.renews_token() {
                            tracing::debug!(target: "paytoken", "auth token refused; renewing it and sending again");
                            renewed = true;
                            context = self.renew(&context, true).await?;
                            continue;
                        }
                    }
                    return Err(judge(&request, error.into()));
                }
            }
        }
    }

    fn renews_token(&self) -> bool {
        self.inner.auth.renewal.is_some()
    }

    /// Renews the token of `stale`, unless another call did while this one waited. With
    /// `refused`, the gateway refused the token: fetch a new one rather than regenerate it.
    async fn renew(&self, stale: &Arc<Context>, refused: bool) -> Result<Arc<Context>, Error> {
        let auth = &self.inner.auth;
        let Some(renewal) = auth.renewal.as_ref() else {
            return Ok(Arc::clone(stale));
        };
        let mut lifecycle = renewal.lock().await;
        let current = auth.current();
        if !Arc::ptr_eq(&current.context, stale) && current.is_fresh(auth.now()) {
            return Ok(current.context);
        }
        if refused {
            lifecycle.invalidate();
        }
        // A regenerate request can be refused (the token died early); the life cycle then
        // forgets the token, and the second round fetches a new one.
        let mut rounds = 0;
        loop {
            rounds += 1;
            let sent_at = auth.now();
            let request = match lifecycle.step(&current.context, sent_at)? {
                // The life cycle and `Current` compute the same due time from the same
                // `sent_at`, so this arm is not met in practice; should it be, the token is
                // kept and its due time counted from now.
                TokenStep::Valid(token) => {
                    return Ok(auth.install(&current.context, token.clone(), sent_at));
                }
                TokenStep::Renew(request) => request,
                _ => {
                    return Err(Error::Config {
                        setting: "fetch_auth_token",
                        reason: "the token life cycle asked for a step this client does not know",
                    });
                }
            };
            let span = call_span(request.operation());
            let started = start_clock(&span);
            let answer = self
                .exchange(&request, &span)
                .instrument(span.clone())
                .await;
            record_elapsed(&span, started);
            let parsed = answer.and_then(|answer| {
                lifecycle
                    .parse(answer.status, &answer.body, sent_at)
                    .cloned()
                    .map_err(Error::from)
            });
            record_outcome(&span, &parsed);
            match parsed {
                Ok(token) => return Ok(auth.install(&current.context, token, sent_at)),
                Err(error) if error.refusal().is_some() && rounds < 2 => {
                    if let Some(refusal) = error.refusal() {
                        span.record("result.code", refusal.result.code.as_str());
                    }
                }
                Err(error) => return Err(error),
            }
        }
    }

    /// Sends `request` until it gets an answer, or the policy allows no other attempt:
    /// every request after a connection that never opened, reads also after a broken
    /// connection or a `5xx` status.
    async fn exchange(
        &self,
        request: &Request,
        span: &tracing::Span,
    ) -> Result<TransportResponse, Error> {
        let inner = &*self.inner;
        let max_attempts = inner.retry.max_attempts.max(1);
        let mut attempt = 1;
        loop {
            let sending = inner.transport.send(TransportRequest {
                base_url: &inner.base_url,
                request,
                body_limit: inner.body_limit,
            });
            let result = tokio::time::timeout(inner.request_timeout, sending)
                .await
                .unwrap_or_else(|_| {
                    Err(TransportError::new(TransportErrorKind::Timeout {
                        after: inner.request_timeout,
                    }))
                });
            span.record("attempts", attempt);
            let again = match &result {
                Ok(answer) => {
                    span.record("http.status", answer.status);
                    request.is_retry_safe() && (500..=599).contains(&answer.status)
                }
                Err(error) => match error.kind() {
                    TransportErrorKind::Connect => true,
                    TransportErrorKind::Broken => request.is_retry_safe(),
                    _ => false,
                },
            };
            if !again || attempt >= max_attempts {
                return result.map_err(|source| Error::Transport {
                    operation: request.operation(),
                    attempts: attempt,
                    source,
                });
            }
            let pause = inner.retry.backoff(attempt, jitter_seed());
            match &result {
                Ok(answer) => {
                    tracing::debug!(target: "paytoken", attempt, status = answer.status, pause_ms = pause.as_millis(), "server error; sending again")
                }
                Err(error) => {
                    tracing::debug!(target: "paytoken", attempt, error = %error.kind(), pause_ms = pause.as_millis(), "transport error; sending again")
                }
            }
            tokio::time::sleep(pause).await;
            attempt += 1;
        }
    }
}

/// A fresh merchant transaction id, for a money-moving call sent without one: `pt-`, the
/// milliseconds since the UNIX epoch and 64 random bits, all in hexadecimal
/// (`pt-19ab2c3d4e5-8f1e2d3c4b5a6978`). Unique across processes in practice: the random
/// part comes from the standard library's per-process random keys and a counter.
#[must_use]
pub fn new_merchant_transaction_id() -> MerchantTransactionId {
    use std::hash::{BuildHasher as _, Hasher as _};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_millis());
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.write_u128(millis);
    let text = format!("pt-{millis:x}-{:016x}", hasher.finish());
    #[expect(
        clippy::expect_used,
        reason = "ASCII letters, digits and hyphens, at most 56 characters: always a valid id"
    )]
    MerchantTransactionId::new(&text).expect("a generated id is valid")
}

/// An error of a request that changes something and may have been processed becomes an
/// unknown outcome; everything else stays as it is.
fn judge(request: &Request, error: Error) -> Error {
    if !request.is_retry_safe() && error.may_have_been_processed() {
        Error::OutcomeUnknown {
            operation: request.operation(),
            merchant_transaction_id: None,
            cause: Box::new(error),
        }
    } else {
        error
    }
}

/// The span of one call: its fields are filled in as the call goes.
fn call_span(operation: OperationKind) -> tracing::Span {
    tracing::info_span!(
        target: "paytoken",
        "paytoken.call",
        operation = operation.name(),
        attempts = Empty,
        http.status = Empty,
        result.code = Empty,
        outcome = Empty,
        elapsed_us = Empty,
    )
}

/// When the call started, for its span; `None` when no subscriber listens.
fn start_clock(span: &tracing::Span) -> Option<Instant> {
    (!span.is_disabled()).then(Instant::now)
}

fn record_elapsed(span: &tracing::Span, started: Option<Instant>) {
    if let Some(started) = started {
        let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        span.record("elapsed_us", micros);
    }
}

fn record_outcome<R>(span: &tracing::Span, result: &Result<R, Error>) {
    let outcome = match result {
        Ok(_) => "ok",
        Err(error) if error.is_outcome_unknown() => "outcome_unknown",
        Err(error) if error.refusal().is_some() => "refused",
        Err(error) if error.is_invalid_input() => "invalid_input",
        Err(_) => "failed",
    };
    span.record("outcome", outcome);
    if let Err(error) = result {
        // The message holds no secret (see `Error`) and no path; of an answer that was not
        // the gateway's, only the protocol crate's short redacted excerpt.
        tracing::debug!(target: "paytoken", error = %error, "call failed");
    }
}

impl Error {
    /// Attaches the payment's id to an unknown outcome.
    fn with_merchant_transaction_id(self, id: Option<MerchantTransactionId>) -> Self {
        match self {
            Self::OutcomeUnknown {
                operation, cause, ..
            } => Self::OutcomeUnknown {
                operation,
                merchant_transaction_id: id,
                cause,
            },
            other => other,
        }
    }
}
