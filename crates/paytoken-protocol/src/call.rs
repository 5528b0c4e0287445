//! What a call to the gateway ends with when it gives no response: the one error a
//! client returns (`paytoken_hyper`'s, and any client built on this crate), and the
//! transport's own. Sans-IO like the rest of the crate: the client fills it in.

use core::time::Duration;

use crate::{OperationKind, Refusal};
use paytoken_types::{MerchantTransactionId, PaymentId, TransactionState};

/// Why a call did not give its response.
///
/// Three questions sort every error, each answered by a method:
/// - [`is_outcome_unknown`](Error::is_outcome_unknown): a payment (or another call that
///   changes something) whose bytes may have reached the gateway, without an answer that
///   says what happened. It was **not** sent again; hand it to `Client::settle`
///   (or call `Client::reconcile` with
///   [`merchant_transaction_id`](Error::merchant_transaction_id)) before anything else. A
///   lost capture, refund or cancel carries its [`payment_id`](Error::payment_id) instead,
///   and `settle` reads that payment's status ([`Error::NotApplied`],
///   [`Error::Unsettled`]).
/// - [`refusal`](Error::refusal): the gateway refused before creating anything; the codes
///   say why, and sending the same request again will be refused again.
/// - [`may_have_reached_gateway`](Error::may_have_reached_gateway): false for invalid input,
///   client settings and connections that never opened.
///
/// No message holds a secret: the secure key, the auth token, card numbers and CVVs never
/// reach an error, and the paths (which hold registration ids) are left out too.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A setting of the `ClientBuilder` that cannot work. Nothing
    /// was sent.
    #[error("client setting {setting}: {reason}")]
    Config {
        /// The builder method at fault, such as `base_url`.
        setting: &'static str,
        /// What is wrong, in lowercase words.
        reason: &'static str,
    },
    /// An error of the protocol layer: invalid input (nothing sent), a refusal by the
    /// gateway (nothing processed), an unexpected HTTP status or an undecodable answer (for
    /// a read, after the retries).
    #[error(transparent)]
    Protocol(#[from] crate::Error),
    /// The exchange failed below HTTP, after the retries the policy allows: for a read
    /// (safe to try again later), or for any call whose connection never opened.
    #[error(
        "{operation}: the exchange failed after {attempts} {}",
        if *attempts == 1 { "attempt" } else { "attempts" }
    )]
    Transport {
        /// The operation.
        operation: OperationKind,
        /// How many times it was sent (or tried to be).
        attempts: u32,
        /// What failed.
        #[source]
        source: TransportError,
    },
    /// A call that changes something (a payment, a token payment, a capture, a refund, a
    /// cancel, a registration, a sign-up, a delete) may have been processed, and the
    /// answer that would say so was lost: a timeout, a broken connection, an unexpected
    /// status, an undecodable body, or an answer about another transaction than the
    /// request (`cause` holds both values). It was not sent again. Settle it with
    /// `Client::settle` (for a payment,
    /// `Client::reconcile` does the same).
    #[error(
        "{operation}: outcome unknown, the gateway may have processed it; it was not sent again: inquire before retrying"
    )]
    OutcomeUnknown {
        /// The operation.
        operation: OperationKind,
        /// The merchant's id of the payment, which finds it by inquiry (`None` for the calls
        /// that carry none).
        merchant_transaction_id: Option<MerchantTransactionId>,
        /// The payment a lost capture, refund or cancel was about, which
        /// `Client::settle` inquires (`None` for other calls).
        payment_id: Option<PaymentId>,
        /// What went wrong on the way back: a [`Transport`](Error::Transport) or a
        /// [`Protocol`](Error::Protocol) error. It is this error's `source()`.
        #[source]
        cause: Box<Error>,
    },
    /// Settling a lost capture, refund or cancel: the inquiry shows the payment as it was
    /// before that call (its long `status`), so the call did not take effect. Nothing moved;
    /// it may be sent again.
    #[error(
        "{operation}: payment {payment_id} shows it did not take effect (status {state}): nothing moved, it may be sent again"
    )]
    NotApplied {
        /// The lost call.
        operation: OperationKind,
        /// The payment it was about.
        payment_id: PaymentId,
        /// The payment's long status, as the inquiry gave it.
        state: TransactionState,
    },
    /// Settling a lost capture, refund or cancel: the inquiry cannot tell whether it took
    /// effect. A partial refund is the common case (the status after it is the status after
    /// any earlier refund), or a status the interface does not document. The outcome stays
    /// unknown: do not send the call again before the gateway's back office has said, or
    /// call `Client::reconcile_move` with the status the call
    /// would have led to, when you know it.
    #[error(
        "{operation}: the inquiry of payment {payment_id} cannot tell whether it took effect (status {}): do not send it again before the gateway's back office says",
        shown_state(state.as_ref())
    )]
    Unsettled {
        /// The lost call.
        operation: OperationKind,
        /// The payment it was about.
        payment_id: PaymentId,
        /// The payment's long status, when the inquiry gave one.
        state: Option<TransactionState>,
        /// The unknown outcome that was being settled, when there was one.
        #[source]
        cause: Option<Box<Error>>,
    },
    /// A lost payment's answer that a client settling lost answers (its builder's
    /// `settle_lost_answers`) asked the gateway about, without an outcome: the gateway
    /// holds no such payment, or holds it still under way, or its answer cannot tell. It
    /// was not sent again: inquire later by [`merchant_transaction_id`](Error::merchant_transaction_id).
    #[error(
        "{operation}: outcome still unknown after an inquiry ({finding}); it was not sent again: inquire later before anything else"
    )]
    StillUnknown {
        /// The lost call.
        operation: OperationKind,
        /// The order's id, which finds it by inquiry.
        merchant_transaction_id: Option<MerchantTransactionId>,
        /// What the inquiry found.
        finding: Finding,
        /// The unknown outcome that was being settled.
        #[source]
        cause: Box<Error>,
    },
}

/// What an inquiry found of a lost payment without settling it ([`Error::StillUnknown`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Finding {
    /// The gateway holds no payment under the order's id. A card payment then never
    /// arrived, and a token payment may yet be one the gateway keeps under no order id;
    /// whether to send it again is the caller's decision, never the client's.
    #[error("the gateway holds no such payment")]
    NoSuchPayment,
    /// The payment is still under way (pending, or waiting for its 3-D Secure check).
    #[error("the payment is still under way")]
    UnderWay,
    /// The inquiry's answer does not say how the payment went.
    #[error("the inquiry cannot tell how it went")]
    CannotTell,
}

impl Finding {
    /// Its name, as the bindings give it: `no_such_payment`, `under_way`, `cannot_tell`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::NoSuchPayment => "no_such_payment",
            Self::UnderWay => "under_way",
            Self::CannotTell => "cannot_tell",
        }
    }
}

/// A long status for a message, or words saying there was none.
fn shown_state(state: Option<&TransactionState>) -> &str {
    state.map_or("not given", TransactionState::as_str)
}

/// A value refused by its constructor ([`InvoicePager::new`](crate::InvoicePager::new)
/// and the like) is an input error of the call that meets it.
impl From<crate::InvalidValue> for Error {
    fn from(error: crate::InvalidValue) -> Self {
        Self::Protocol(error.into())
    }
}

impl Error {
    /// Whether this is [`Error::OutcomeUnknown`] (inquire before sending again), or one an
    /// inquiry could not settle ([`Error::Unsettled`], [`Error::StillUnknown`]).
    #[must_use]
    pub const fn is_outcome_unknown(&self) -> bool {
        matches!(
            self,
            Self::OutcomeUnknown { .. } | Self::Unsettled { .. } | Self::StillUnknown { .. }
        )
    }

    /// The payment a lost capture, refund or cancel was about: the id
    /// `Client::settle` inquires.
    #[must_use]
    pub const fn payment_id(&self) -> Option<&PaymentId> {
        match self {
            Self::OutcomeUnknown { payment_id, .. } => payment_id.as_ref(),
            Self::NotApplied { payment_id, .. } | Self::Unsettled { payment_id, .. } => {
                Some(payment_id)
            }
            _ => None,
        }
    }

    /// The merchant transaction id of a payment whose outcome is unknown: the id to pass to
    /// `Client::reconcile`.
    #[must_use]
    pub const fn merchant_transaction_id(&self) -> Option<&MerchantTransactionId> {
        match self {
            Self::OutcomeUnknown {
                merchant_transaction_id,
                ..
            }
            | Self::StillUnknown {
                merchant_transaction_id,
                ..
            } => merchant_transaction_id.as_ref(),
            _ => None,
        }
    }

    /// The gateway's refusal, when it refused (nothing was processed).
    #[must_use]
    pub const fn refusal(&self) -> Option<&Refusal> {
        match self {
            Self::Protocol(error) => error.refusal(),
            _ => None,
        }
    }

    /// Whether the request may have reached the gateway. False for invalid input, client
    /// settings and connections that never opened.
    #[must_use]
    pub fn may_have_reached_gateway(&self) -> bool {
        match self {
            Self::Config { .. } => false,
            Self::Protocol(error) => error.may_have_reached_gateway(),
            Self::Transport { source, .. } => source.kind.may_have_reached_gateway(),
            Self::OutcomeUnknown { .. }
            | Self::NotApplied { .. }
            | Self::Unsettled { .. }
            | Self::StillUnknown { .. } => true,
        }
    }

    /// Whether the gateway may have acted on the request. For a payment, true means: do not
    /// send it again, `reconcile` first.
    #[must_use]
    pub fn may_have_been_processed(&self) -> bool {
        match self {
            Self::Config { .. } => false,
            Self::Protocol(error) => error.may_have_been_processed(),
            Self::Transport { source, .. } => source.kind.may_have_reached_gateway(),
            Self::OutcomeUnknown { .. } | Self::Unsettled { .. } | Self::StillUnknown { .. } => {
                true
            }
            Self::NotApplied { .. } => false,
        }
    }

    /// Whether this is an error of the caller's input or settings, found before anything was
    /// sent.
    #[must_use]
    pub const fn is_invalid_input(&self) -> bool {
        match self {
            Self::Config { .. } => true,
            Self::Protocol(error) => error.is_invalid_input(),
            _ => false,
        }
    }

    /// Whether the call timed out (its own error, or the cause of an unknown outcome).
    #[must_use]
    pub fn is_timeout(&self) -> bool {
        self.transport_kind()
            .is_some_and(|kind| matches!(kind, TransportErrorKind::Timeout { .. }))
    }

    /// What failed below HTTP, when something did (its own error, or the cause of an
    /// unknown outcome).
    #[must_use]
    pub fn transport_kind(&self) -> Option<TransportErrorKind> {
        match self {
            Self::Transport { source, .. } => Some(source.kind),
            Self::OutcomeUnknown { cause, .. } | Self::StillUnknown { cause, .. } => {
                cause.transport_kind()
            }
            Self::Unsettled {
                cause: Some(cause), ..
            } => cause.transport_kind(),
            _ => None,
        }
    }

    /// What kind of error this is, to match in one step:
    ///
    /// ```
    /// use paytoken_protocol::call::{Error, ErrorKind};
    ///
    /// fn advice(error: &Error) -> String {
    ///     match error.kind() {
    ///         ErrorKind::Refused(refusal) => format!("refused: {}", refusal.result.code),
    ///         ErrorKind::OutcomeUnknown => "settle it before anything else".to_owned(),
    ///         ErrorKind::InvalidInput => "fix the request".to_owned(),
    ///         ErrorKind::Transport => "try again later".to_owned(),
    ///         ErrorKind::Unreadable => "the gateway's answer could not be read".to_owned(),
    ///         _ => error.to_string(),
    ///     }
    /// }
    /// ```
    #[must_use]
    pub fn kind(&self) -> ErrorKind<'_> {
        use crate::Error as Protocol;
        match self {
            Self::Config { .. } => ErrorKind::InvalidInput,
            Self::Protocol(Protocol::Refused(refusal)) => ErrorKind::Refused(refusal),
            Self::Protocol(error) if error.is_invalid_input() => ErrorKind::InvalidInput,
            Self::Protocol(_) => ErrorKind::Unreadable,
            Self::Transport { .. } => ErrorKind::Transport,
            Self::OutcomeUnknown { .. } | Self::Unsettled { .. } | Self::StillUnknown { .. } => {
                ErrorKind::OutcomeUnknown
            }
            Self::NotApplied { .. } => ErrorKind::NotApplied,
        }
    }

    /// The error that lies under an unknown outcome, or this one.
    #[must_use]
    pub fn root(&self) -> &Self {
        match self {
            Self::OutcomeUnknown { cause, .. } | Self::StillUnknown { cause, .. } => cause.root(),
            other => other,
        }
    }
}

/// What kind of [`Error`] a call ended with ([`Error::kind`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind<'a> {
    /// The gateway refused: nothing was processed. The refusal has its codes, their family
    /// and descriptions; the same request would be refused again.
    Refused(&'a Refusal),
    /// A call that changes something may have been processed, and the answer that would
    /// say so was lost (or an inquiry could not settle it): settle it before anything else
    /// (`Client::settle`).
    OutcomeUnknown,
    /// The request or a client setting was refused before anything was sent.
    InvalidInput,
    /// The exchange failed below HTTP, after the retries allowed, for a call that may be
    /// tried again (a read, or a connection that never opened).
    Transport,
    /// The gateway answered, but not with an answer of this interface (an unexpected HTTP
    /// status, a body that is not its JSON, an answer about another transaction), for a
    /// call that may be tried again.
    Unreadable,
    /// A lost capture, refund or cancel that the inquiry shows did not take effect: it may
    /// be sent again.
    NotApplied,
}

/// What went wrong below HTTP, as a `Transport` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TransportErrorKind {
    /// The connection could not be opened (refused, unreachable, name not resolved, TLS
    /// handshake failed, connect timeout). Nothing of the request was sent, so any call may
    /// be tried again.
    #[error("could not connect")]
    Connect,
    /// The whole request took longer than allowed. The request may have been processed.
    #[error("no complete answer within {after:?}")]
    Timeout {
        /// The bound that was reached.
        after: Duration,
    },
    /// The connection broke after the request started to go out. It may have been
    /// processed.
    #[error("the connection broke")]
    Broken,
    /// The answer is larger than the client's body limit; the rest was not read.
    #[error("the answer is larger than the limit of {limit} bytes")]
    ResponseTooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// Anything else the transport could not do.
    #[error("the transport failed")]
    Other,
}

impl ErrorKind<'_> {
    /// Its name in traces (`error.type`): `refused`, `outcome_unknown`, `invalid_input`,
    /// `transport`, `unreadable`, `not_applied`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::Refused(_) => "refused",
            Self::OutcomeUnknown => "outcome_unknown",
            Self::InvalidInput => "invalid_input",
            Self::Transport => "transport",
            Self::Unreadable => "unreadable",
            Self::NotApplied => "not_applied",
        }
    }
}

impl TransportErrorKind {
    /// Its name in traces (`error.type`): `connect`, `timeout`, `broken`,
    /// `response_too_large`, `other`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Connect => "connect",
            Self::Timeout { .. } => "timeout",
            Self::Broken => "broken",
            Self::ResponseTooLarge { .. } => "response_too_large",
            Self::Other => "other",
        }
    }

    /// Whether the request may have reached the gateway: true for everything but
    /// [`Connect`](Self::Connect).
    #[must_use]
    pub const fn may_have_reached_gateway(self) -> bool {
        !matches!(self, Self::Connect)
    }
}

/// The error a `Transport` returns: what kind of failure, and the
/// underlying error when there is one, as its `source()` (so it can be downcast to the io
/// or hyper error). `Display` shows the kind only: reporters print the `source()` after it,
/// so the chain is never printed twice. A transport must not put secrets (headers, bodies)
/// in the underlying error.
#[derive(Debug, thiserror::Error)]
#[error("{kind}")]
pub struct TransportError {
    kind: TransportErrorKind,
    #[source]
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl TransportError {
    /// An error of `kind`, without an underlying error.
    #[must_use]
    pub const fn new(kind: TransportErrorKind) -> Self {
        Self { kind, source: None }
    }

    /// An error of `kind` caused by `source`.
    #[must_use]
    pub fn with_source(
        kind: TransportErrorKind,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        Self {
            kind,
            source: Some(source.into()),
        }
    }

    /// The kind of failure.
    #[must_use]
    pub const fn kind(&self) -> TransportErrorKind {
        self.kind
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;

    fn refused_connection() -> TransportError {
        TransportError::with_source(
            TransportErrorKind::Connect,
            std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "connection refused"),
        )
    }

    /// An error of each variant; a new variant fails to compile here until it is added.
    fn one_of_each() -> Vec<Error> {
        let transport = |source| Error::Transport {
            operation: OperationKind::Payment,
            attempts: 1,
            source,
        };
        let errors = vec![
            Error::Config {
                setting: "base_url",
                reason: "is required",
            },
            Error::Protocol(crate::Error::Invalid {
                field: "amount",
                reason: "is zero",
            }),
            transport(refused_connection()),
            Error::OutcomeUnknown {
                operation: OperationKind::Payment,
                merchant_transaction_id: None,
                payment_id: None,
                cause: Box::new(transport(TransportError::new(TransportErrorKind::Broken))),
            },
            Error::NotApplied {
                operation: OperationKind::Capture,
                payment_id: "54280".parse().unwrap(),
                state: TransactionState::AuthSuccessful,
            },
            Error::Unsettled {
                operation: OperationKind::Refund,
                payment_id: "54279".parse().unwrap(),
                state: Some(TransactionState::MarkedForReversal),
                cause: Some(Box::new(Error::OutcomeUnknown {
                    operation: OperationKind::Refund,
                    merchant_transaction_id: None,
                    payment_id: Some("54279".parse().unwrap()),
                    cause: Box::new(transport(TransportError::new(TransportErrorKind::Broken))),
                })),
            },
            Error::StillUnknown {
                operation: OperationKind::Payment,
                merchant_transaction_id: Some("order-1".parse().unwrap()),
                finding: Finding::NoSuchPayment,
                cause: Box::new(Error::OutcomeUnknown {
                    operation: OperationKind::Payment,
                    merchant_transaction_id: Some("order-1".parse().unwrap()),
                    payment_id: None,
                    cause: Box::new(transport(TransportError::new(TransportErrorKind::Broken))),
                }),
            },
        ];
        for error in &errors {
            match error {
                Error::Config { .. }
                | Error::Protocol(_)
                | Error::Transport { .. }
                | Error::OutcomeUnknown { .. }
                | Error::NotApplied { .. }
                | Error::Unsettled { .. }
                | Error::StillUnknown { .. } => {}
            }
        }
        errors
    }

    /// Whether no error of the chain repeats its cause's message.
    fn says_itself_once(error: &dyn std::error::Error) -> bool {
        error.source().is_none_or(|cause| {
            !error.to_string().contains(&cause.to_string()) && says_itself_once(cause)
        })
    }

    /// One match sorts every error, and agrees with the questions the methods answer.
    #[test]
    fn kind_sorts_every_error_as_the_methods_do() {
        let kinds: Vec<_> = one_of_each()
            .iter()
            .map(|error| format!("{:?}", error.kind()))
            .collect();
        assert_eq!(
            kinds,
            [
                "InvalidInput",
                "InvalidInput",
                "Transport",
                "OutcomeUnknown",
                "NotApplied",
                "OutcomeUnknown",
                "OutcomeUnknown"
            ]
        );
        for error in one_of_each() {
            assert_eq!(
                error.kind() == ErrorKind::OutcomeUnknown,
                error.is_outcome_unknown()
            );
            assert_eq!(
                error.kind() == ErrorKind::InvalidInput,
                error.is_invalid_input()
            );
        }
        let result = paytoken_types::GatewayResult {
            code: paytoken_types::ResultCode::new("20010"),
            description: String::from("checksum mismatch"),
        };
        let refused = Error::Protocol(crate::Error::Refused(Refusal {
            operation: OperationKind::Payment,
            result,
        }));
        assert!(matches!(refused.kind(), ErrorKind::Refused(refusal) if refusal.contains("20010")));
        let unreadable = Error::Protocol(crate::Error::UnexpectedStatus {
            operation: OperationKind::Inquiry,
            status: 502,
            excerpt: String::new(),
        });
        assert_eq!(unreadable.kind(), ErrorKind::Unreadable);
        // One attempt is one attempt.
        let once = Error::Transport {
            operation: OperationKind::Inquiry,
            attempts: 1,
            source: refused_connection(),
        };
        assert!(once.to_string().ends_with("after 1 attempt"), "{once}");
    }

    #[test]
    fn every_error_says_itself_once_and_hands_its_cause_to_source() {
        for error in one_of_each() {
            assert!(says_itself_once(&error), "{error}");
        }
        let error = Error::Transport {
            operation: OperationKind::Payment,
            attempts: 2,
            source: refused_connection(),
        };
        let transport = error.source().unwrap();
        assert_eq!(transport.to_string(), "could not connect");
        let io = transport.source().unwrap();
        assert_eq!(
            io.downcast_ref::<std::io::Error>().unwrap().kind(),
            std::io::ErrorKind::ConnectionRefused
        );
    }
}
