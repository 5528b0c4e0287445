//! The one way a signed request is built.
//!
//! An operation states its checksum rule as the list of what it signs, in the rule's
//! order ([`Signed`]); [`SignedRequest`] writes the authentication fields, then the path
//! and the form as the operation writes them, and hands every value the rule names to the
//! checksum in the same step that writes it. What the checksum signs is therefore the text
//! the request sends, by construction. The checksum's place in the form is held by 32
//! bytes that are filled in at the end, so the body is written in one pass and the joined
//! text of the rule never exists.

use alloc::borrow::Cow;
use alloc::string::String;

use paytoken_checksum::{ChecksumWriter, Credentials};
use paytoken_types::internal::{FormWriter, Signer, path_segment};

use crate::request::{PathTemplate, Request, WipedBytes};
use crate::{Context, Error, OperationKind, fields};

/// One value a checksum signs, after the id and the key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Signed {
    /// The id the path ends with.
    PathSegment {
        /// The id's name, for an error.
        field: &'static str,
    },
    /// A form field, by its whole name (`amount`, `card.number`).
    Field {
        /// The field's name.
        field: &'static str,
    },
}

impl Signed {
    /// The form field `name`.
    pub(crate) const fn field(name: &'static str) -> Self {
        Self::Field { field: name }
    }

    const fn name(self) -> &'static str {
        match self {
            Self::PathSegment { field } | Self::Field { field } => field,
        }
    }
}

/// Which of the optional authentication fields an operation sends.
#[derive(Clone, Copy)]
pub(crate) struct AuthFields {
    pub(crate) account: bool,
    pub(crate) terminal: bool,
}

impl AuthFields {
    pub(crate) const ID_ONLY: Self = Self {
        account: false,
        terminal: false,
    };
    pub(crate) const TERMINAL: Self = Self {
        account: false,
        terminal: true,
    };
    pub(crate) const ACCOUNT_AND_TERMINAL: Self = Self {
        account: true,
        terminal: true,
    };
}

/// The checksum in progress: the rule, how far it has got, the first error.
struct Signing {
    writer: ChecksumWriter,
    rule: &'static [Signed],
    next: usize,
    error: Option<paytoken_checksum::Error>,
}

impl Signing {
    fn take(&mut self, value: &str) {
        let field = self.rule.get(self.next).map_or("", |signed| signed.name());
        if let Err(error) = self.writer.part(field, value) {
            self.error.get_or_insert(error);
        }
        self.next += 1;
    }
}

impl Signer for Signing {
    fn next_field(&self) -> Option<&'static str> {
        match self.rule.get(self.next) {
            Some(&Signed::Field { field }) => Some(field),
            Some(Signed::PathSegment { .. }) | None => None,
        }
    }

    fn sign(&mut self, value: &str) {
        self.take(value);
    }
}

/// The checksum is 32 hexadecimal digits; this many bytes hold its place in the form.
const CHECKSUM_LEN: usize = 32;

/// A signed request being written (see the [module docs](self)).
pub(crate) struct SignedRequest<'c> {
    operation: OperationKind,
    context: &'c Context,
    path: Cow<'static, str>,
    template: PathTemplate,
    /// Wiped if the request is refused before it is made, as the request's body is after.
    body: WipedBytes,
    signing: Signing,
    checksum_at: usize,
    /// The first value the form's text rules refused.
    refused: Option<paytoken_types::Error>,
}

impl<'c> SignedRequest<'c> {
    /// Starts a request of `operation` to `path`, signed by `rule`, its body `capacity`
    /// bytes to begin with: writes the authentication fields in the interface's order (the
    /// member or partner id, the account, the checksum's place, the terminal). Account and
    /// terminal go only where `auth` says the operation sends them and the context has
    /// them.
    pub(crate) fn new(
        operation: OperationKind,
        context: &'c Context,
        rule: &'static [Signed],
        path: &'static str,
        capacity: usize,
        auth: AuthFields,
    ) -> Self {
        let mut wiped = WipedBytes::with_capacity(capacity);
        let body = &mut wiped.0;
        let mut form = FormWriter::new(body);
        let credentials = &context.credentials;
        // The id itself, not `credentials.id()`: its bytes go in without a UTF-8 check.
        match credentials {
            Credentials::Partner { partner_id, .. } => form.field(fields::PARTNER_ID, partner_id),
            Credentials::Merchant { member_id, .. } => form.field(fields::MEMBER_ID, member_id),
        }
        if auth.account {
            form.optional(fields::ACCOUNT_ID, context.account_id.as_ref());
        }
        form.field(fields::CHECKSUM, "");
        let checksum_at = body.len();
        body.resize(checksum_at + CHECKSUM_LEN, b'0');
        if auth.terminal {
            FormWriter::new(body).optional(fields::TERMINAL_ID, context.terminal_id.as_ref());
        }
        Self {
            operation,
            context,
            // A constant path is not copied: only a path that ends with an id is owned.
            path: Cow::Borrowed(path),
            template: PathTemplate::fixed(path),
            body: wiped,
            signing: Signing {
                writer: ChecksumWriter::new(credentials),
                rule,
                next: 0,
                error: None,
            },
            checksum_at,
            refused: None,
        }
    }

    /// Ends the path with `id`, percent-encoded (the checksum signs it as it is).
    pub(crate) fn path_segment(mut self, id: &str) -> Self {
        // Room for the id percent-encoded at worst, so the path is allocated once.
        let mut path = String::with_capacity(self.path.len() + 3 * id.len());
        path.push_str(&self.path);
        path.extend(path_segment(id));
        self.path = Cow::Owned(path);
        // The rule names the id it signs; an id it does not sign is just an id.
        let mut parameter = "id";
        if let Some(&Signed::PathSegment { field }) = self.signing.rule.get(self.signing.next) {
            parameter = field;
            self.signing.take(id);
        }
        self.template = self.template.with_parameter(parameter);
        self
    }

    /// Writes the form after the authentication fields with `write`; the fields the rule
    /// names are signed as they are written, and free text and URLs checked by their rules.
    pub(crate) fn form(mut self, write: impl FnOnce(&mut FormWriter<'_>)) -> Self {
        let mut form = FormWriter::signing(&mut self.body.0, &mut self.signing);
        write(&mut form);
        self.refused = form.finish().err();
        self
    }

    /// Fills in the checksum and makes the request.
    ///
    /// # Errors
    /// [`Error::Value`] for free text or a URL its rule refused (the first one written);
    /// [`Error::Checksum`] for a signed value that holds `|`; [`Error::Invalid`] for a
    /// value the rule signs that was never written (the checksum would not be the one the
    /// gateway computes). Nothing was sent, and what was written is wiped.
    pub(crate) fn finish(self) -> Result<Request, Error> {
        let Self {
            operation,
            context,
            path,
            template,
            mut body,
            signing,
            checksum_at,
            refused,
        } = self;
        if let Some(refused) = refused {
            return Err(refused.into());
        }
        if let Some(error) = signing.error {
            return Err(error.into());
        }
        if let Some(missing) = signing.rule.get(signing.next) {
            return Err(Error::Invalid {
                field: missing.name(),
                reason: "is signed by the checksum but was not written",
            });
        }
        let hex = signing.writer.finish().to_hex();
        if let Some(place) = body.0.get_mut(checksum_at..checksum_at + CHECKSUM_LEN) {
            place.copy_from_slice(hex.as_bytes());
        }
        Ok(Request::new(operation, (path, template), context, body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use paytoken_checksum::{Credentials, SecureKey};

    fn context() -> Context {
        Context::new(Credentials::merchant(
            "11344".parse().unwrap(),
            SecureKey::new("key").unwrap(),
        ))
    }

    const RULE: &[Signed] = &[Signed::PathSegment { field: "id" }, Signed::field("amount")];

    #[test]
    fn signs_what_it_writes_and_fills_in_the_checksum() {
        let context = context();
        let request = SignedRequest::new(
            OperationKind::TokenPayment,
            &context,
            RULE,
            "/p/",
            64,
            AuthFields::ID_ONLY,
        )
        .path_segment("a b")
        .form(|form| {
            form.field("currency", "EUR");
            form.field("amount", "1.00");
        })
        .finish()
        .unwrap();
        let mut writer = ChecksumWriter::new(&context.credentials);
        writer.part("id", "a b").unwrap();
        writer.part("amount", "1.00").unwrap();
        let expected = format!(
            "authentication.memberId=11344&authentication.checksum={}&currency=EUR&amount=1.00",
            writer.finish().to_hex().as_str()
        );
        assert_eq!(request.path(), "/p/a%20b");
        assert_eq!(request.body().as_bytes(), expected.as_bytes());
        // The template names the id the rule signs, and holds none of it.
        assert_eq!(request.path_template().to_string(), "/p/{id}");
    }

    #[test]
    fn a_signed_value_never_written_or_holding_the_separator_is_an_error() {
        let context = context();
        let start = || {
            SignedRequest::new(
                OperationKind::TokenPayment,
                &context,
                RULE,
                "/p/",
                64,
                AuthFields::ID_ONLY,
            )
        };
        let missing = start().path_segment("x").finish().unwrap_err();
        assert_eq!(missing.field(), Some("amount"));
        let separated = start()
            .path_segment("x")
            .form(|form| form.field("amount", "1|2"))
            .finish()
            .unwrap_err();
        assert_eq!(separated.field(), Some("amount"));
    }
}
