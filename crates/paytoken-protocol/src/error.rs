//! The one error type of this crate, and the gateway's refusal it can carry.

use paytoken_types::{CodeFamily, GatewayResult};

use crate::OperationKind;

/// Why an operation did not give its response.
///
/// The variants fall in two halves: [`Invalid`](Error::Invalid), [`Value`](Error::Value) and
/// [`Checksum`](Error::Checksum) come from building a request, before anything is sent; the
/// others come from reading an answer. [`may_have_been_processed`](Error::may_have_been_processed)
/// tells which of the answers leave a doubt about whether the gateway acted.
///
/// No variant repeats a secret: input errors name the field, not the value, and body
/// excerpts are cut short and redacted (long digit runs and token-like words are masked).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A field that is missing, or present where the operation does not allow it. Nothing
    /// was sent.
    #[error("{field}: {reason}")]
    Invalid {
        /// The field's wire name.
        field: &'static str,
        /// What is wrong, in lowercase words.
        reason: &'static str,
    },
    /// A value that does not fit its field. Nothing was sent.
    #[error(transparent)]
    Value(#[from] paytoken_types::Error),
    /// A value that cannot be signed (it holds the checksum's separator `|`). Nothing was
    /// sent.
    #[error(transparent)]
    Checksum(#[from] paytoken_checksum::Error),
    /// The gateway answered and refused the request before creating anything: a checksum
    /// or auth-token failure, a validation error, a rejection. Nothing was processed; fix the
    /// cause (the codes say which) before sending again.
    #[error("{0}")]
    Refused(Refusal),
    /// An HTTP status other than 200. The gateway answers every outcome it handles with 200,
    /// so this came from something in between (a proxy, a load balancer) or from a failing
    /// gateway: the request may or may not have been processed.
    #[error("{operation}: unexpected http status {status}: {excerpt}")]
    UnexpectedStatus {
        /// The operation whose answer this was.
        operation: OperationKind,
        /// The HTTP status.
        status: u16,
        /// The start of the body, redacted.
        excerpt: String,
    },
    /// A status of 200 with a body that is not the answer this operation expects (not JSON,
    /// cut short, a field of the wrong form). The request may have been processed.
    #[error(
        "{operation}: undecodable answer at line {line}, column {column}: {detail}; body starts {excerpt:?}"
    )]
    Undecodable {
        /// The operation whose answer this was.
        operation: OperationKind,
        /// What did not fit, in words.
        detail: String,
        /// The line where decoding stopped, counting from 1 (0 when unknown).
        line: usize,
        /// The column where decoding stopped, counting from 1 (0 when unknown).
        column: usize,
        /// The start of the body, redacted.
        excerpt: String,
    },
    /// The answer names another transaction than its request did: an echoed
    /// `merchantTransactionId`, `amount`, `currency`, `paymentId`, `registrationId` or
    /// `customerId` differs from what was sent. Whatever it says, it is not this request's
    /// verdict, and this request may have been processed: settle it by inquiry (the client's
    /// `reconcile`), never by sending it again.
    #[error(
        "{operation}: the answer is about another transaction and the request may have been processed ({field}: sent {sent:?}, answered {answered:?})"
    )]
    Contradiction {
        /// The operation whose answer this was.
        operation: OperationKind,
        /// The echoed field that differs.
        field: &'static str,
        /// What the request sent.
        sent: String,
        /// What the answer says, as it came (cut to 100 characters).
        answered: String,
    },
    /// A notification (or the browser's return) that did not verify: forged, tampered
    /// with, signed with another key, or not readable. Nothing in it may be trusted.
    #[error("notification rejected: {check}")]
    Unverified {
        /// Which check failed.
        check: crate::notification::NotificationCheck,
    },
}

impl Error {
    /// Whether the request may have reached the gateway. False for the errors of building a
    /// request, true for everything that comes from an answer.
    #[must_use]
    pub const fn may_have_reached_gateway(&self) -> bool {
        !self.is_invalid_input()
    }

    /// Whether the gateway may have acted on the request (created a transaction, stored a
    /// card). False for invalid input and for a refusal; true for an unexpected status, an
    /// undecodable answer and an answer about another transaction. For a payment, true
    /// means: do not send it again, inquire first.
    #[must_use]
    pub const fn may_have_been_processed(&self) -> bool {
        matches!(
            self,
            Self::UnexpectedStatus { .. } | Self::Undecodable { .. } | Self::Contradiction { .. }
        )
    }

    /// Whether this is an error of the caller's input, found before anything was sent.
    #[must_use]
    pub const fn is_invalid_input(&self) -> bool {
        matches!(
            self,
            Self::Invalid { .. } | Self::Value(_) | Self::Checksum(_)
        )
    }

    /// The refusal, when the gateway refused.
    #[must_use]
    pub const fn refusal(&self) -> Option<&Refusal> {
        match self {
            Self::Refused(refusal) => Some(refusal),
            _ => None,
        }
    }

    /// The wire name of the field at fault, for input errors that have one.
    #[must_use]
    pub fn field(&self) -> Option<&'static str> {
        match self {
            Self::Invalid { field, .. } => Some(field),
            Self::Value(error) => error.field(),
            Self::Checksum(error) => Some(error.field()),
            _ => None,
        }
    }

    /// This error with the secure key and auth token of `context`, the request's, masked
    /// in the gateway's text it carries (a refusal's description, a body's excerpt, an
    /// echo that differed), as [`Context::mask_secrets`](crate::Context::mask_secrets)
    /// masks them.
    #[must_use]
    pub fn masking(mut self, context: &crate::Context) -> Self {
        let text = match &mut self {
            Self::Refused(refusal) => &mut refusal.result.description,
            Self::UnexpectedStatus { excerpt, .. } | Self::Undecodable { excerpt, .. } => excerpt,
            Self::Contradiction { answered, .. } => answered,
            _ => return self,
        };
        if let alloc::borrow::Cow::Owned(masked) = context.mask_secrets(text) {
            *text = masked;
        }
        self
    }
}

/// A value refused before it is used: which field, and why. What the value constructors
/// ([`BaseUrl::new`](crate::BaseUrl::new), [`AuthToken::new`](crate::AuthToken::new),
/// [`Username::new`](crate::Username::new), [`InvoicePager::new`](crate::InvoicePager::new))
/// return, so that a caller matches on two facts rather than on every way an operation can
/// fail; it becomes [`Error::Invalid`] where an operation meets it.
///
/// Like every error of paytoken it never repeats the value (an auth token is a secret).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct InvalidValue {
    /// The field's wire name, such as `baseUrl` or `pagination.records`.
    pub field: &'static str,
    /// What is wrong, in lowercase words.
    pub reason: &'static str,
}

/// An error as a binding shows it to its caller ([`Error::shown`]): the gateway's text in it
/// with the request's secrets masked, a refusal's description as it may be shown, and that
/// description as the gateway sent it, for a method whose name says it is raw.
///
/// `Debug` leaves the raw description out.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShownError {
    /// The error, the secure key and auth token of the request's context masked in the
    /// gateway's text it carries ([`Error::masking`]).
    pub error: Error,
    /// A refusal's description as it may be shown ([`crate::redact::description`]).
    pub description: Option<String>,
    /// A refusal's description as the gateway sent it: it may echo a secret.
    pub raw_description: Option<String>,
}

impl core::fmt::Debug for ShownError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ShownError")
            .field("error", &self.error)
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

impl Error {
    /// This error as a caller is shown it, the secure key and auth token of `context` (the
    /// request's, when known) masked: what the bindings raise.
    #[must_use]
    pub fn shown(self, context: Option<&crate::Context>) -> ShownError {
        let raw_description = self
            .refusal()
            .map(|refusal| refusal.result.description.clone());
        let error = match context {
            Some(context) => self.masking(context),
            None => self,
        };
        let description = (error.refusal())
            .map(|refusal| crate::redact::description(&refusal.result.description, None));
        ShownError {
            error,
            description,
            raw_description,
        }
    }
}

impl From<InvalidValue> for Error {
    fn from(InvalidValue { field, reason }: InvalidValue) -> Self {
        Self::Invalid { field, reason }
    }
}

/// A request the gateway refused before anything was created.
///
/// `Debug` and `Display` show the description redacted (see [`crate::redact`]): a gateway
/// may echo what it was sent. The fields hold it as it came.
#[derive(Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The operation that was refused.
    pub operation: OperationKind,
    /// The result as the gateway gave it: every joined code and description.
    pub result: GatewayResult,
}

impl Refusal {
    /// The family of the refusal: the first code that is not a success decides
    /// ([`paytoken_types::ResultCode::family`]).
    #[must_use]
    pub fn family(&self) -> CodeFamily {
        self.result.code.family()
    }

    /// Each code with its description, in the gateway's order.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &str)> {
        self.result.entries()
    }

    /// Whether one of the codes is `code`.
    #[must_use]
    pub fn contains(&self, code: &str) -> bool {
        self.result.code.contains(code)
    }
}

impl core::fmt::Debug for Refusal {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Refusal")
            .field("operation", &self.operation)
            .field("code", &self.result.code.as_str())
            .field(
                "description",
                &crate::redact::description(&self.result.description, None),
            )
            .finish()
    }
}

impl core::fmt::Display for Refusal {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{}: refused by the gateway ({:?}): {} {}",
            self.operation,
            self.family(),
            self.result.code,
            crate::redact::description(&self.result.description, None)
        )
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::ToString;
    use alloc::vec::Vec;

    use paytoken_types::{Card, CardNumber, Cvv};

    use super::*;
    use crate::Operation;
    use crate::ops::payment::Payment;

    const CARD_NUMBER: &str = "4000000000000051";
    const TOKEN: &str = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzaG9wIn0.c2lnbmF0dXJlc2VjcmV0";

    fn payment() -> Payment {
        let card = Card {
            number: CardNumber::new(CARD_NUMBER).unwrap(),
            expiry_month: "12".parse().unwrap(),
            expiry_year: "2099".parse().unwrap(),
            cvv: Cvv::new("123").unwrap(),
            holder: None,
        };
        Payment::new(
            "order1".parse().unwrap(),
            "50.00".parse().unwrap(),
            "EUR".parse().unwrap(),
            card,
        )
    }

    /// A payment's refusal, unexpected status and undecodable answer, each carrying `echo`.
    fn echoing(echo: &str) -> [Error; 3] {
        let answer = |status, body: &str| payment().parse(status, body.as_bytes()).unwrap_err();
        [
            answer(
                200,
                &alloc::format!(
                    r#"{{"paymentId":"-","result":{{"code":"30001","description":"{echo}"}}}}"#
                ),
            ),
            answer(502, &alloc::format!("<html>{echo}</html>")),
            answer(200, &alloc::format!("not json {echo}")),
        ]
    }

    /// An error of each variant, made the way the crate makes it, from input and answers
    /// that carry a card number and an auth token.
    fn one_of_each() -> Vec<Error> {
        let answer = |status, body: &str| payment().parse(status, body.as_bytes()).unwrap_err();
        let [refused, unexpected, undecodable] =
            echoing(&alloc::format!("card {CARD_NUMBER} token {TOKEN}"));
        let errors = alloc::vec![
            Error::from(crate::AuthToken::new(alloc::format!("{TOKEN} ")).unwrap_err()),
            Error::from(CardNumber::new(&alloc::format!("{CARD_NUMBER}x")).unwrap_err()),
            Error::from(paytoken_checksum::SecureKey::new("key|with|bars").unwrap_err()),
            refused,
            unexpected,
            undecodable,
            answer(
                200,
                r#"{"paymentId":"54279","merchantTransactionId":"another","result":{"code":"00001"},"transactionStatus":"Y"}"#,
            ),
            crate::notification::Notification::from_json(
                br#"{"paymentId":"54279","amount":"50.00","transactionStatus":"Y","checksum":"0123456789abcdef0123456789abcdef"}"#,
            )
            .unwrap()
            .verify(&paytoken_checksum::SecureKey::new(TOKEN).unwrap())
            .unwrap_err(),
        ];
        // Every variant is above: a new one fails to compile here until it is added.
        let mut seen = [false; 8];
        for error in &errors {
            let index = match error {
                Error::Invalid { .. } => 0,
                Error::Value(_) => 1,
                Error::Checksum(_) => 2,
                Error::Refused(_) => 3,
                Error::UnexpectedStatus { .. } => 4,
                Error::Undecodable { .. } => 5,
                Error::Contradiction { .. } => 6,
                Error::Unverified { .. } => 7,
            };
            seen[index] = true;
        }
        assert_eq!(seen, [true; 8], "{errors:?}");
        errors
    }

    /// Whether no error of the chain repeats its cause's message (the cause is `source()`'s
    /// to tell, once).
    fn says_itself_once(error: &dyn core::error::Error) -> bool {
        error.source().is_none_or(|cause| {
            !error.to_string().contains(&cause.to_string()) && says_itself_once(cause)
        })
    }

    #[test]
    fn every_error_says_itself_once_and_keeps_secrets_out() {
        for error in one_of_each() {
            assert!(says_itself_once(&error), "{error}");
            let mut next: Option<&dyn core::error::Error> = Some(&error);
            while let Some(link) = next {
                for shown in [link.to_string(), alloc::format!("{link:?}")] {
                    assert!(!shown.contains(CARD_NUMBER), "{shown}");
                    assert!(!shown.contains(TOKEN), "{shown}");
                }
                next = link.source();
            }
        }
    }

    #[test]
    fn masking_hides_the_held_secrets_in_every_text_of_the_gateway() {
        // A key and a token no pattern catches: only holding them masks them.
        let key = "held-key-of-20-chars";
        let token = "held-token-of-22-chars";
        let context = crate::Context {
            auth_token: Some(crate::AuthToken::new(token).unwrap()),
            ..crate::Context::new(paytoken_checksum::Credentials::merchant(
                "11344".parse().unwrap(),
                paytoken_checksum::SecureKey::new(key).unwrap(),
            ))
        };
        let contradiction = payment()
            .parse(
                200,
                alloc::format!(
                    r#"{{"paymentId":"54279","merchantTransactionId":"{key}","result":{{"code":"00001"}},"transactionStatus":"Y"}}"#
                )
                .as_bytes(),
            )
            .unwrap_err();
        let errors = echoing(&alloc::format!("key {key} token {token}"));
        for error in errors.into_iter().chain([contradiction]) {
            let unmasked = alloc::format!("{error}");
            assert!(unmasked.contains(key), "{unmasked}");
            let refused = error.refusal().is_some();
            let shown = error.clone().shown(Some(&context));
            assert_eq!(shown.error, error.clone().masking(&context));
            // The raw description keeps the gateway's text; nothing shown does.
            assert_eq!(
                shown
                    .raw_description
                    .as_deref()
                    .is_some_and(|raw| raw.contains(key)),
                refused
            );
            assert_eq!(shown.description.is_some(), refused);
            let masked = error.masking(&context);
            for shown in [
                alloc::format!("{masked}"),
                alloc::format!("{masked:?}"),
                alloc::format!("{shown:?}"),
                shown.description.unwrap_or_default(),
            ] {
                assert!(!shown.contains(key) && !shown.contains(token), "{shown}");
            }
        }
    }
}
