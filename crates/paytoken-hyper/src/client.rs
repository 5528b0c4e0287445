//! The client's face: one async method per operation. The call loop they all go through
//! is [`crate::call_loop`]; the settling of unknown outcomes is [`crate::settlement`].

use core::fmt;
use std::borrow::Cow;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use futures_util::TryStreamExt as _;
use futures_util::stream::{self, Stream};
use paytoken_protocol::ops::auth_token::{AuthTokenGrant, FetchAuthToken, RegenerateAuthToken};
use paytoken_protocol::ops::cancel::Cancel;
use paytoken_protocol::ops::capture::Capture;
use paytoken_protocol::ops::cards_and_accounts::{CardsAndAccounts, StoredRegistrations};
use paytoken_protocol::ops::customer_signup::{CustomerSignup, SignedUp};
use paytoken_protocol::ops::delete_token::{DeleteToken, Deleted};
use paytoken_protocol::ops::inquiry::Inquiry;
use paytoken_protocol::ops::installments::{InstallmentPlans, Installments};
use paytoken_protocol::ops::invoice_list::{InvoiceList, InvoicePage};
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::ops::refund::Refund;
use paytoken_protocol::ops::registration::{Registered, Registration};
use paytoken_protocol::ops::repeat_payment::RepeatPayment;
use paytoken_protocol::ops::token_payment::TokenPayment;
use paytoken_protocol::{BaseUrl, Invoice, InvoicePager, Transaction};
use paytoken_types::MerchantTransactionId;

use crate::auth::Auth;
use crate::call::{NextPage, Op};
use crate::randomness::Randomness;
use crate::unknown::Attach as _;
use crate::{ClientBuilder, Error, HyperTransport, RetryPolicy, Transport};

/// The gateway's client: cheap to clone (clones share the connection pool and the auth
/// token), safe to use from many tasks at once. Build it with [`Client::builder`].
///
/// Every method signs its operation with the client's credentials, sends it with the auth
/// token (fetching or renewing it first when due), and returns the typed answer, or an
/// [`Error`] that says what to do next. Methods need a tokio runtime with its timer on
/// (`#[tokio::main]` has both).
pub struct Client<T = HyperTransport> {
    pub(crate) inner: Arc<Inner<T>>,
}

/// What the clones of one client share.
pub(crate) struct Inner<T> {
    pub(crate) transport: T,
    pub(crate) base_url: BaseUrl,
    /// How long one attempt may take.
    pub(crate) request_timeout: Duration,
    pub(crate) retry: RetryPolicy,
    pub(crate) randomness: Randomness,
    pub(crate) body_limit: usize,
    pub(crate) auth: Auth,
    /// Whether a money-moving call's lost answer is settled by inquiry before it returns
    /// ([`ClientBuilder::settle_lost_answers`](crate::ClientBuilder::settle_lost_answers)).
    pub(crate) settles: bool,
}

/// What the builder settles on, for the client's own half.
#[derive(Debug)]
pub(crate) struct ClientSettings {
    pub(crate) base_url: BaseUrl,
    pub(crate) request_timeout: Duration,
    pub(crate) retry: RetryPolicy,
    pub(crate) randomness: Randomness,
    pub(crate) body_limit: usize,
    pub(crate) auth: Auth,
    pub(crate) settles: bool,
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
                randomness: settings.randomness,
                body_limit: settings.body_limit,
                auth: settings.auth,
                settles: settings.settles,
            }),
        }
    }

    /// The gateway's base URL.
    #[must_use]
    pub fn base_url(&self) -> &BaseUrl {
        &self.inner.base_url
    }

    /// The transport, such as a `testing::FakeTransport` (feature `testing`) whose
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
        let paid = self.call(Op(payment)).await.map_err(|error| {
            error.with_merchant_transaction_id(Some(payment.merchant_transaction_id.clone()))
        });
        self.settled(paid).await
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
    /// ([`new_merchant_transaction_id`](crate::new_merchant_transaction_id), or one drawn
    /// from [`ClientBuilder::seed`]), so that a lost answer can be settled by inquiry; the
    /// result and an unknown outcome carry it.
    ///
    /// # Errors
    /// [`Error::OutcomeUnknown`] with the merchant transaction id when the answer was lost;
    /// [`Error::Protocol`] with the refusal when refused.
    pub async fn pay_with_token(&self, payment: &TokenPayment) -> Result<Transaction, Error> {
        let payment = identified(
            payment,
            payment.merchant_transaction_id.is_some(),
            TokenPayment::merchant_transaction_id,
            &self.inner.randomness,
        );
        let payment = payment.as_ref();
        let paid = self.call(Op(payment)).await.map_err(|error| {
            error.with_merchant_transaction_id(payment.merchant_transaction_id.clone())
        });
        self.settled(paid).await
    }

    /// Deletes a stored token; payments with it are refused afterwards.
    ///
    /// # Errors
    /// [`Error`]; the outcome is unknown when the answer was lost.
    pub async fn delete_token(&self, delete: &DeleteToken) -> Result<Deleted, Error> {
        self.call(Op(delete)).await
    }

    /// Captures all or part of a pre-authorisation. Never sent twice once its bytes may
    /// have left.
    ///
    /// # Errors
    /// [`Error::OutcomeUnknown`] with the payment's id when the answer was lost (settle it
    /// with [`settle`](Self::settle)); [`Error::Protocol`] with the refusal when refused.
    pub async fn capture(&self, capture: &Capture) -> Result<Transaction, Error> {
        let captured = self
            .call(Op(capture))
            .await
            .map_err(|error| error.about_payment(capture.payment_id));
        self.settled(captured).await
    }

    /// Refunds all or part of a captured or debited payment. Never sent twice once its
    /// bytes may have left, and never again blindly: a lost refund is settled only when
    /// the payment's status shows no refund at all ([`settle`](Self::settle)).
    ///
    /// # Errors
    /// [`Error::OutcomeUnknown`] with the payment's id when the answer was lost;
    /// [`Error::Protocol`] with the refusal when refused.
    pub async fn refund(&self, refund: &Refund) -> Result<Transaction, Error> {
        let refunded = self
            .call(Op(refund))
            .await
            .map_err(|error| error.about_payment(refund.payment_id));
        self.settled(refunded).await
    }

    /// Cancels (voids) a pre-authorisation not yet captured. Never sent twice once its
    /// bytes may have left.
    ///
    /// # Errors
    /// [`Error::OutcomeUnknown`] with the payment's id when the answer was lost;
    /// [`Error::Protocol`] with the refusal when refused.
    pub async fn cancel(&self, cancel: &Cancel) -> Result<Transaction, Error> {
        let cancelled = self
            .call(Op(cancel))
            .await
            .map_err(|error| error.about_payment(cancel.payment_id));
        self.settled(cancelled).await
    }

    /// Charges a recurring series again by its first payment's id (`REPEATED`). Never sent
    /// twice once its bytes may have left; without a merchant transaction id it is given a
    /// fresh one as a token payment is, so that a lost answer is settled by inquiry as a
    /// token payment's is.
    ///
    /// # Errors
    /// [`Error::OutcomeUnknown`] with the merchant transaction id when the answer was lost;
    /// [`Error::Protocol`] with the refusal when refused.
    pub async fn repeat_payment(&self, payment: &RepeatPayment) -> Result<Transaction, Error> {
        let payment = identified(
            payment,
            payment.merchant_transaction_id.is_some(),
            RepeatPayment::merchant_transaction_id,
            &self.inner.randomness,
        );
        let payment = payment.as_ref();
        let paid = self.call(Op(payment)).await.map_err(|error| {
            error.with_merchant_transaction_id(payment.merchant_transaction_id.clone())
        });
        self.settled(paid).await
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
        self.invoices(records).try_collect().await
    }

    /// Every invoice as a stream, asking for `records` per page from page 1: one page in
    /// memory at a time, the next asked for when this one is used up. The stream ends
    /// after the last page, or after the first error it yields.
    ///
    /// ```no_run
    /// use futures_util::StreamExt as _;
    /// # async fn run(client: paytoken_hyper::Client) -> Result<(), paytoken_hyper::Error> {
    /// let mut invoices = std::pin::pin!(client.invoices(100));
    /// while let Some(invoice) = invoices.next().await {
    ///     println!("{:?}", invoice?.order_id);
    /// }
    /// # Ok(()) }
    /// ```
    pub fn invoices(&self, records: u32) -> impl Stream<Item = Result<Invoice, Error>> + Send + '_ {
        let start = InvoicePager::new(records).map_err(Error::from);
        stream::unfold(Some((start, VecDeque::new())), move |state| async move {
            let (mut pager, mut page) = match state? {
                (Ok(pager), page) => (pager, page),
                (Err(error), _) => return Some((Err(error), None)),
            };
            loop {
                if let Some(invoice) = page.pop_front() {
                    return Some((Ok(invoice), Some((Ok(pager), page))));
                }
                if pager.is_done() {
                    return None;
                }
                match self.call(NextPage(&mut pager)).await {
                    Ok(next) => page.extend(next.invoices),
                    Err(error) => return Some((Err(error), None)),
                }
            }
        })
    }

    /// One transaction's stored state, by payment id or merchant transaction id. Retried
    /// as a read.
    ///
    /// # Errors
    /// [`Error`]; a refusal when the gateway has no such transaction.
    pub async fn inquiry(&self, inquiry: &Inquiry) -> Result<Transaction, Error> {
        self.call(Op(inquiry)).await
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
}

/// `payment` itself when it `has` a merchant transaction id, or else a copy given a fresh
/// one with `set`: so that a lost answer can always be settled by inquiry.
fn identified<'p, P: Clone>(
    payment: &'p P,
    has: bool,
    set: impl FnOnce(P, MerchantTransactionId) -> P,
    randomness: &Randomness,
) -> Cow<'p, P> {
    if has {
        Cow::Borrowed(payment)
    } else {
        Cow::Owned(set(payment.clone(), randomness.order_id()))
    }
}
