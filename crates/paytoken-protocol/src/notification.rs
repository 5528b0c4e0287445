//! Notifications: the gateway's call to a payment's `notificationUrl` when its outcome
//! becomes known later (3-D Secure completed, a pending payment settled), and the
//! cardholder's browser coming back to `merchantRedirectUrl` with the same fields.
//!
//! A notification is a claim until its checksum verifies. Its rule is unlike every other
//! (docs/WIRE.md, "Notifications"): `paymentId|merchantTransactionId|amount|transactionStatus|key`,
//! the key last, the **short** status signed, over each field's text exactly as it came (a
//! JSON number `50` is signed as `50`). So:
//!
//! - [`Notification::from_json`] and [`Notification::from_form`] read one tolerantly, keeping
//!   the signed fields' text as received; nothing in a [`Notification`] may be trusted. A
//!   body whose signed fields are not each there exactly once, under their own names (a
//!   repeated form field, a repeated or blank-padded JSON key), is refused
//!   ([`NotificationCheck::Ambiguous`]): a framework reading it would find another value
//!   than the one verified;
//! - [`Notification::verify`] checks it against the secure key in constant time and only
//!   then gives a [`VerifiedNotification`], whose verdict rests on the signed short
//!   `transactionStatus` alone; the fields the checksum does not cover (result code, long
//!   `status`, currency, card) are kept apart, in [`Unauthenticated`];
//! - the checksum has no nonce, so a replay looks like the gateway's own repeat:
//!   [`DuplicateFilter`] remembers what a handler has seen.
//!
//! Pure: no I/O, usable from any web framework. Whole endpoints, each with a test, are the
//! `paytoken` crate's examples: a plain hyper service (`examples/notifications_hyper.rs`)
//! and an axum handler (`examples/notifications_axum.rs`). `paytoken listen` (the command)
//! receives, verifies and prints them, and the sandbox sends them.
//!
//! ```
//! use paytoken_checksum::{SecureKey, rules};
//! use std::time::Duration;
//! use paytoken_protocol::notification::{Claim, DuplicateFilter, Notification};
//! use paytoken_protocol::PaymentStatus;
//!
//! let key = SecureKey::new("the-merchant's-secure-key")?;
//! # let checksum = rules::notification(&key, "21565", "testTransaction", "50.00", "Y")?.to_hex();
//! # let body = format!(r#"{{"paymentId":"21565","merchantTransactionId":"testTransaction","amount":"50.00","transactionStatus":"Y","status":"capturesuccess","checksum":"{}"}}"#, checksum.as_str());
//! // In a handler: the body as it came, then the verdict only once it verifies.
//! let verified = Notification::from_json(body.as_bytes())?.verify(&key)?;
//! assert_eq!(verified.status, PaymentStatus::Approved);
//! let mut seen = DuplicateFilter::new(10_000);
//! let (now, lease) = (Duration::from_secs(0), Duration::from_secs(30));
//! let id = verified.duplicate_key();
//! let Claim::Claimed(fence) = seen.claim(&id, now, lease) else { panic!("a new one") };
//! // ... act on it, then:
//! assert!(seen.done(&id, fence));
//! assert_eq!(seen.claim(&id, now, lease), Claim::Done, "the same again is a duplicate");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::collections::VecDeque;
use alloc::string::String;
use core::fmt;
use core::time::Duration;

use paytoken_checksum::{SecureKey, rules, verify};
use paytoken_types::{
    Amount, Currency, GatewayResult, MerchantTransactionId, PaymentId, ResultCode, Tolerant,
    TransactionState, TransactionStatus,
};

use crate::Error;
use serde::de::MapAccess;

use crate::answer::{Blank, Field, WireObject, is_object_text, read_object, wire_object};
use crate::outcome::{CardSummary, Deciding, PaymentStatus, status_of};

/// Which check a notification failed: why it is not to be trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NotificationCheck {
    /// The body is neither a JSON object nor a form.
    #[error("the body is neither a json object nor a form")]
    NotReadable,
    /// A field the checksum signs, or the checksum, is missing.
    #[error("{field} is missing")]
    Missing {
        /// Its name.
        field: &'static str,
    },
    /// A signed field holds `|`, which would make the signed text ambiguous.
    #[error("{field} holds `|`")]
    Separator {
        /// Its name.
        field: &'static str,
    },
    /// The checksum is not 32 hexadecimal digits.
    #[error("the checksum is not 32 hexadecimal digits")]
    MalformedChecksum,
    /// The checksum does not match the fields and the key: forged, tampered with, or
    /// signed with another key.
    #[error("the checksum does not match the signed fields and the key")]
    ChecksumMismatch,
    /// The checksum matches, but a signed field cannot be read (a payment id that is not
    /// one).
    #[error("{field} cannot be read")]
    UnreadableField {
        /// Its name.
        field: &'static str,
    },
    /// A signed field, or the checksum, appears more than once (a repeated form field, a
    /// repeated JSON key) or under its name with blanks around it: readers disagree on
    /// which value it has, so the one verified may not be the one acted on.
    #[error("{field} appears more than once, or with blanks around its name")]
    Ambiguous {
        /// Its name.
        field: &'static str,
    },
}

impl NotificationCheck {
    /// Its name, in snake case: `not_readable`, `missing_field`, `separator_in_field`,
    /// `malformed_checksum`, `checksum_mismatch`, `unreadable_field`, `ambiguous_field`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::NotReadable => "not_readable",
            Self::Missing { .. } => "missing_field",
            Self::Separator { .. } => "separator_in_field",
            Self::MalformedChecksum => "malformed_checksum",
            Self::ChecksumMismatch => "checksum_mismatch",
            Self::UnreadableField { .. } => "unreadable_field",
            Self::Ambiguous { .. } => "ambiguous_field",
        }
    }
}

/// The names of the fields, as the gateway sends them.
pub(crate) mod names {
    pub(crate) const PAYMENT_ID: &str = "paymentId";
    pub(crate) const MERCHANT_TRANSACTION_ID: &str = "merchantTransactionId";
    pub(crate) const AMOUNT: &str = "amount";
    pub(crate) const TRANSACTION_STATUS: &str = "transactionStatus";
    pub(crate) const CHECKSUM: &str = "checksum";

    /// What the checksum covers, and the checksum: each must appear once, under its own
    /// name.
    pub(super) const SIGNED: [&str; 5] = [
        PAYMENT_ID,
        MERCHANT_TRANSACTION_ID,
        AMOUNT,
        TRANSACTION_STATUS,
        CHECKSUM,
    ];
}

/// Counts the signed fields' names in a body. A name is compared with the blanks around it
/// trimmed, as the answer reader compares keys, so that `"paymentId "` beside `"paymentId"`
/// is one field given twice; a padded signed name is refused even alone, since a
/// merchant's framework would not find it under its name. Whatever reads notifications
/// keeps this rule: the body a handler verifies has exactly one reading.
#[derive(Default)]
struct SignedOnce {
    seen: [bool; names::SIGNED.len()],
}

impl SignedOnce {
    /// Notes `name`; the check it fails when it is a signed field seen before, or padded.
    fn note(&mut self, name: &str) -> Result<(), NotificationCheck> {
        let bare = paytoken_types::trimmed(name);
        let padded = bare.len() != name.len();
        for (field, seen) in names::SIGNED.iter().zip(&mut self.seen) {
            if *field == bare {
                if *seen || padded {
                    return Err(NotificationCheck::Ambiguous { field });
                }
                *seen = true;
            }
        }
        Ok(())
    }
}

/// A notification's JSON object, read in one pass: its members into [`WireNotification`],
/// each key noted by [`SignedOnce`] as it passes.
#[derive(Default)]
struct Body {
    wire: WireNotification,
    once: SignedOnce,
    /// The first check the keys failed.
    ambiguous: Option<NotificationCheck>,
}

impl Blank for Body {
    fn is_blank(&self) -> bool {
        self.wire.is_blank()
    }
}

impl WireObject for Body {
    fn empty() -> Self {
        Self::default()
    }

    fn read_member<'de, A: MapAccess<'de>>(
        &mut self,
        key: &str,
        map: &mut A,
    ) -> Result<(), A::Error> {
        if self.ambiguous.is_none() {
            self.ambiguous = self.once.note(key).err();
        }
        self.wire.read_member(key, map)
    }
}

wire_object! {
    /// A notification's JSON body as it comes.
    struct WireNotification {
        payment_id: Option<String> = "paymentId",
        merchant_transaction_id: Option<String> = "merchantTransactionId",
        amount: Option<String> = "amount",
        transaction_status: Option<String> = "transactionStatus",
        checksum: Option<String> = "checksum",
        state: Option<Field<TransactionState>> = "status",
        currency: Option<Field<Currency>> = "currency",
        result: Option<GatewayResult> = "result",
        card: Option<CardSummary> = "card",
        remark: Option<String> = "remark",
        timestamp: Option<String> = "timestamp",
    }
}

/// A notification as received, not verified: nothing in it may be trusted until
/// [`verify`](Self::verify) says so.
#[derive(Clone, PartialEq, Eq)]
pub struct Notification {
    payment_id: Option<String>,
    merchant_transaction_id: Option<String>,
    amount: Option<String>,
    transaction_status: Option<String>,
    checksum: Option<String>,
    unauthenticated: Unauthenticated,
}

/// The fields of a notification that its checksum does not cover: kept as they came, but
/// anyone could have written them, so no decision may rest on them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Unauthenticated {
    /// `result`: the code and its words.
    pub result: Option<GatewayResult>,
    /// `status`, the long status (`capturesuccess`, ...): not the signed one.
    pub state: Option<Field<TransactionState>>,
    /// `currency`.
    pub currency: Option<Field<Currency>>,
    /// `card`: BIN, last four and expiry, where sent (an empty object on a bank transfer is
    /// none).
    pub card: Option<CardSummary>,
    /// `remark`.
    pub remark: Option<String>,
    /// `timestamp`, as sent.
    pub timestamp: Option<String>,
}

impl Notification {
    /// Reads a notification as an HTTP handler receives it: a form when `content_type` is
    /// `application/x-www-form-urlencoded` (in any case, with any parameters: the
    /// cardholder's browser coming back), JSON otherwise (the gateway's own call, whatever
    /// its content type says).
    ///
    /// ```
    /// use paytoken_protocol::notification::Notification;
    ///
    /// let form = Notification::from_request(
    ///     Some("application/x-www-form-urlencoded; charset=UTF-8"),
    ///     b"paymentId=60001&amount=50.00&transactionStatus=Y&checksum=00",
    /// )?;
    /// assert_eq!(form.claimed_payment_id(), Some("60001"));
    /// let json = Notification::from_request(None, br#"{"paymentId":"60001"}"#)?;
    /// assert_eq!(json.claimed_payment_id(), Some("60001"));
    /// # Ok::<(), paytoken_protocol::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`from_form`](Self::from_form) or [`from_json`](Self::from_json).
    pub fn from_request(content_type: Option<&str>, body: &[u8]) -> Result<Self, Error> {
        if content_type.is_some_and(is_form_type) {
            Self::from_form(body)
        } else {
            Self::from_json(body)
        }
    }

    /// Reads a JSON notification (the gateway's server-to-server call), tolerantly: any
    /// value shape, unknown fields skipped. A signed field keeps its text as it came.
    ///
    /// # Errors
    /// [`Error::Unverified`] with [`NotificationCheck::NotReadable`] when the body is not
    /// a JSON object, [`NotificationCheck::Ambiguous`] when a signed field's key is
    /// repeated or padded with blanks.
    pub fn from_json(body: &[u8]) -> Result<Self, Error> {
        let not_readable = || Error::Unverified {
            check: NotificationCheck::NotReadable,
        };
        let text = core::str::from_utf8(body).map_err(|_| not_readable())?;
        if !is_object_text(text) {
            return Err(not_readable());
        }
        let body: Body = read_object(text).map_err(|_| not_readable())?;
        if let Some(check) = body.ambiguous {
            return Err(Error::Unverified { check });
        }
        let wire = body.wire;
        Ok(Self {
            payment_id: wire.payment_id,
            merchant_transaction_id: wire.merchant_transaction_id,
            amount: wire.amount,
            transaction_status: wire.transaction_status,
            checksum: wire.checksum,
            unauthenticated: Unauthenticated {
                result: wire.result,
                state: wire.state,
                currency: wire.currency,
                card: wire.card,
                remark: wire.remark,
                timestamp: wire.timestamp,
            },
        })
    }

    /// Reads the form fields the cardholder's browser brings back to `merchantRedirectUrl`
    /// (the body of its `POST`, or the query of its `GET`). `result.code` and
    /// `result.description` (or `code` and `description`) are the result.
    ///
    /// # Errors
    /// [`Error::Unverified`] with [`NotificationCheck::NotReadable`] when the form cannot
    /// be decoded (a broken `%` escape, text that is not UTF-8),
    /// [`NotificationCheck::Ambiguous`] when a signed field is repeated or its name padded
    /// with blanks.
    pub fn from_form(body: &[u8]) -> Result<Self, Error> {
        let mut notification = Self {
            payment_id: None,
            merchant_transaction_id: None,
            amount: None,
            transaction_status: None,
            checksum: None,
            unauthenticated: Unauthenticated::default(),
        };
        let (mut code, mut description) = (None, None);
        let mut once = SignedOnce::default();
        for pair in paytoken_types::internal::decode(body) {
            let (name, value) = pair.map_err(|_| Error::Unverified {
                check: NotificationCheck::NotReadable,
            })?;
            once.note(&name)
                .map_err(|check| Error::Unverified { check })?;
            let value = Some(value.into_owned()).filter(|value| !value.is_empty());
            let unauthenticated = &mut notification.unauthenticated;
            match name.as_ref() {
                names::PAYMENT_ID => notification.payment_id = value,
                names::MERCHANT_TRANSACTION_ID => notification.merchant_transaction_id = value,
                names::AMOUNT => notification.amount = value,
                names::TRANSACTION_STATUS => notification.transaction_status = value,
                names::CHECKSUM => notification.checksum = value,
                "status" => unauthenticated.state = value.as_deref().map(Field::read),
                "currency" => unauthenticated.currency = value.as_deref().map(Field::read),
                "remark" => unauthenticated.remark = value,
                "timestamp" => unauthenticated.timestamp = value,
                "result.code" | "code" => code = value,
                "result.description" | "description" => description = value,
                _ => {}
            }
        }
        if code.is_some() || description.is_some() {
            notification.unauthenticated.result = Some(GatewayResult {
                code: ResultCode::new(code.unwrap_or_default()),
                description: description.unwrap_or_default(),
            });
        }
        Ok(notification)
    }

    /// `paymentId` as it came, not verified: for saying which notification failed to
    /// verify (a forgery, a wrong key), never for acting on.
    #[must_use]
    pub fn claimed_payment_id(&self) -> Option<&str> {
        self.payment_id.as_deref()
    }

    /// `merchantTransactionId` as it came, not verified: for saying which notification
    /// failed to verify, never for acting on.
    #[must_use]
    pub fn claimed_merchant_transaction_id(&self) -> Option<&str> {
        self.merchant_transaction_id.as_deref()
    }

    /// Checks the checksum against `key`, in constant time, over the signed fields as they
    /// came; only a notification that passes yields its verdict.
    ///
    /// # Errors
    /// [`Error::Unverified`] saying which check failed: a signed field or the checksum
    /// missing, a `|` in a signed field, a checksum that is not 32 hexadecimal digits or
    /// does not match, a signed payment id that is not one. The key is never in it.
    pub fn verify(self, key: &SecureKey) -> Result<VerifiedNotification, Error> {
        let rejected = |check| Error::Unverified { check };
        let required = |value: &Option<String>, field| {
            value
                .clone()
                .ok_or(rejected(NotificationCheck::Missing { field }))
        };
        let payment_id = required(&self.payment_id, names::PAYMENT_ID)?;
        let amount = required(&self.amount, names::AMOUNT)?;
        let short_status = required(&self.transaction_status, names::TRANSACTION_STATUS)?;
        let checksum = required(&self.checksum, names::CHECKSUM)?;
        // A payment made without a merchant transaction id is signed with an empty one.
        let order = self.merchant_transaction_id.as_deref().unwrap_or_default();
        let is_hex = checksum.len() == 32 && checksum.bytes().all(|b| b.is_ascii_hexdigit());
        if !is_hex {
            return Err(rejected(NotificationCheck::MalformedChecksum));
        }
        let computed = rules::notification(key, &payment_id, order, &amount, &short_status)
            .map_err(|error| match error {
                paytoken_checksum::Error::Separator { field } => {
                    rejected(NotificationCheck::Separator { field })
                }
                _ => rejected(NotificationCheck::ChecksumMismatch),
            })?;
        // The gateway writes lower-case hex; an upper-case copy is the same checksum.
        if !verify(&checksum.to_ascii_lowercase(), &computed) {
            return Err(rejected(NotificationCheck::ChecksumMismatch));
        }
        let payment_id = PaymentId::new(paytoken_types::trimmed(&payment_id)).map_err(|_| {
            rejected(NotificationCheck::UnreadableField {
                field: names::PAYMENT_ID,
            })
        })?;
        let transaction_status = TransactionStatus::read_tolerant(&short_status);
        let status = status_of(transaction_status.as_ref(), None, Deciding::ShortAlone);
        Ok(VerifiedNotification {
            payment_id,
            merchant_transaction_id: MerchantTransactionId::read_tolerant(order),
            amount: Field::read(amount),
            transaction_status: Field::read(short_status),
            status,
            unauthenticated: self.unauthenticated,
        })
    }
}

impl fmt::Debug for Notification {
    /// The signed fields and the checksum's presence; the checksum itself is not shown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Notification")
            .field("payment_id", &self.payment_id)
            .field("merchant_transaction_id", &self.merchant_transaction_id)
            .field("amount", &self.amount)
            .field("transaction_status", &self.transaction_status)
            .field("checksum", &self.checksum.as_ref().map(|_| "<present>"))
            .field("unauthenticated", &self.unauthenticated)
            .finish()
    }
}

/// A notification whose checksum verified: what the gateway said, and the fields it did
/// not sign, kept apart.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct VerifiedNotification {
    /// `paymentId` (signed).
    pub payment_id: PaymentId,
    /// `merchantTransactionId` (signed; `None` when it was empty or cannot be one).
    pub merchant_transaction_id: Option<MerchantTransactionId>,
    /// `amount` (signed), as it came, with its typed view.
    pub amount: Field<Amount>,
    /// `transactionStatus` (signed), the short status as it came, with its typed view.
    pub transaction_status: Field<TransactionStatus>,
    /// The verdict, from the signed short status alone: approved (`Y`), declined (`N`),
    /// pending (`P`), waiting for 3-D Secure (`3D`), cancelled (`C`), or unknown.
    pub status: PaymentStatus,
    /// What the checksum does not cover.
    pub unauthenticated: Unauthenticated,
}

impl VerifiedNotification {
    /// What tells two notifications apart: the payment id and the short status, trimmed.
    /// A shop keeps it wherever it remembers the notifications it has acted on (a table
    /// with a unique key, for several instances: the client's `DuplicateStore`).
    #[must_use]
    pub fn duplicate_key(&self) -> DuplicateKey {
        DuplicateKey {
            payment_id: self.payment_id,
            transaction_status: String::from(paytoken_types::trimmed(
                self.transaction_status.raw(),
            )),
        }
    }
}

/// The identity of a notification for duplicate checks
/// ([`VerifiedNotification::duplicate_key`]); its `Display`, `{payment id}:{status}`,
/// is a text key for a database.
///
/// ```
/// use paytoken_protocol::notification::DuplicateKey;
///
/// let key = DuplicateKey { payment_id: "60001".parse()?, transaction_status: "Y".into() };
/// assert_eq!(key.to_string(), "60001:Y");
/// # Ok::<(), paytoken_types::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DuplicateKey {
    /// The payment the notification is about.
    pub payment_id: PaymentId,
    /// Its short status, as the gateway sent it (trimmed).
    pub transaction_status: String,
}

impl fmt::Display for DuplicateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.payment_id, self.transaction_status)
    }
}

/// How long a gateway waits for a handler's answer to one delivery before it counts the
/// attempt as failed and sends the notification again later. The interface leaves it open;
/// this is the sandbox's, and a handler (and any wait inside it, for a lock or a
/// connection) should finish well within it.
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(5);

/// What a handler may do with a notification ([`DuplicateFilter::claim`],
/// [`DuplicateStore::claim`](crate::DuplicateStore::claim)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Claim {
    /// Nobody has acted on it and no live claim holds it: it is this handler's, until its
    /// lease ends. Act on it, then mark it done with the fence, or release it when acting
    /// failed (and answer the gateway with an error, so that its retry comes back).
    Claimed(Fence),
    /// Acted on before: the gateway's repeat, or a replay. Answer `2xx`, do nothing.
    Done,
    /// Another handler holds a live claim on it and may still fail: answer so that the
    /// gateway sends it again (`503`), without acting.
    Busy,
}

/// The number a store gave one claim, which only its holder knows: marking the key done
/// with it succeeds only while no other claim has taken the key since (the lease ran out,
/// and another handler claimed it). A shop whose action writes to the store's database
/// checks it in the action's own transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fence(u64);

impl Fence {
    /// The fence a store numbered `value` (a store keeps the number beside its claim).
    #[must_use]
    pub const fn new(value: u64) -> Self {
        Self(value)
    }

    /// Its number.
    #[must_use]
    pub const fn get(self) -> u64 {
        self.0
    }
}

/// Remembers the notifications a handler has acted on (payment id and short status, the
/// newest `capacity` of them) and the live claims on those being acted on, so that the
/// gateway's repeat, or a replay, is acted on once, and a repeat that arrives while the
/// first is still being acted on waits for its outcome instead of passing for done. A
/// claim lives for its lease on the caller's timeline (`now`, a `Duration` since any start
/// the caller keeps): a handler that never ended its claim does not hold the key forever.
/// A replay of an old notification past the bound is not recognised: keep the bound
/// larger than the notifications of the replay window that matters to you.
#[derive(Debug, Clone)]
pub struct DuplicateFilter {
    done: VecDeque<DuplicateKey>,
    /// Each live or lapsed claim: its key, its fence, when its lease ends.
    claimed: VecDeque<(DuplicateKey, Fence, Duration)>,
    fences: u64,
    capacity: usize,
}

impl DuplicateFilter {
    /// A filter that remembers the newest `capacity` notifications acted on, and as many
    /// claims (at least one of each).
    #[must_use]
    pub fn new(capacity: usize) -> Self {
        Self {
            done: VecDeque::new(),
            claimed: VecDeque::new(),
            fences: 0,
            capacity: capacity.max(1),
        }
    }

    /// Claims `key` for the caller, at `now`, for `lease`, when nobody acted on it and no
    /// live claim holds it. A claim ends with [`done`](Self::done) or
    /// [`release`](Self::release); past `capacity` claims at once, the oldest is let go.
    pub fn claim(&mut self, key: &DuplicateKey, now: Duration, lease: Duration) -> Claim {
        if self.done.contains(key) {
            return Claim::Done;
        }
        let live =
            |(claimed, _, until): &(DuplicateKey, Fence, Duration)| claimed == key && *until > now;
        if self.claimed.iter().any(live) {
            return Claim::Busy;
        }
        self.claimed.retain(|(claimed, _, _)| claimed != key);
        if self.claimed.len() == self.capacity {
            self.claimed.pop_front();
        }
        self.fences = self.fences.wrapping_add(1);
        let fence = Fence(self.fences);
        self.claimed
            .push_back((key.clone(), fence, now.saturating_add(lease)));
        Claim::Claimed(fence)
    }

    /// Marks `key` acted on, when `fence` still holds its claim (however late: nobody
    /// claimed it since); from then on it is a duplicate. Whether it did: `false` when
    /// another handler claimed the key after this lease ran out, which may act on it too.
    pub fn done(&mut self, key: &DuplicateKey, fence: Fence) -> bool {
        let before = self.claimed.len();
        self.claimed
            .retain(|(claimed, held, _)| !(claimed == key && *held == fence));
        if self.claimed.len() == before {
            return false;
        }
        if self.done.len() == self.capacity {
            self.done.pop_front();
        }
        self.done.push_back(key.clone());
        true
    }

    /// Lets go of the claim `fence` holds on `key`, whose action failed: the next one like
    /// it is claimed at once.
    pub fn release(&mut self, key: &DuplicateKey, fence: Fence) {
        self.claimed
            .retain(|(claimed, held, _)| !(claimed == key && *held == fence));
    }
}

/// Whether a `Content-Type` names a form: its media type, before any parameter, is
/// `application/x-www-form-urlencoded` in any case.
fn is_form_type(content_type: &str) -> bool {
    content_type.split(';').next().is_some_and(|media| {
        media
            .trim()
            .eq_ignore_ascii_case("application/x-www-form-urlencoded")
    })
}
