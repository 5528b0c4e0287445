//! The owned, plain request every operation builds, and the names of the operations.

use alloc::borrow::Cow;
use alloc::sync::Arc;
use core::fmt;

use paytoken_types::internal::FormWriter;
use zeroize::Zeroize;

use crate::{AuthToken, BaseUrl, Context};

/// Which operation a request or an answer belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OperationKind {
    /// Customer sign-up.
    CustomerSignup,
    /// A payment, optionally storing the card.
    Payment,
    /// A stand-alone registration of a card or a bank account.
    Registration,
    /// A payment with a stored token.
    TokenPayment,
    /// Deleting a stored token.
    DeleteToken,
    /// The installment plans of a token.
    Installments,
    /// The list of stored cards and bank accounts.
    CardsAndAccounts,
    /// One page of the invoice list.
    InvoiceList,
    /// An auth token for a merchant or a partner.
    AuthToken,
    /// A fresh auth token in exchange for the current one.
    RegenerateAuthToken,
    /// The stored state of one transaction.
    Inquiry,
    /// A capture of a pre-authorisation.
    Capture,
    /// A refund of a captured or debited payment, whole or in part.
    Refund,
    /// A cancel (void) of a pre-authorisation not yet captured.
    Cancel,
    /// A `REPEATED` recurring payment by the first payment's id.
    RepeatPayment,
}

impl OperationKind {
    /// Every operation, in the interface's order.
    pub const ALL: [Self; 15] = [
        Self::CustomerSignup,
        Self::Payment,
        Self::Registration,
        Self::TokenPayment,
        Self::DeleteToken,
        Self::Installments,
        Self::CardsAndAccounts,
        Self::InvoiceList,
        Self::AuthToken,
        Self::RegenerateAuthToken,
        Self::Inquiry,
        Self::Capture,
        Self::Refund,
        Self::Cancel,
        Self::RepeatPayment,
    ];

    /// The operation's one name: the client's method (`pay`, `pay_with_token`, ...), the
    /// command's subcommand (with `-` for `_`), the JSON `operation` of the command and
    /// the conformance kit, error text, tracing's `operation` field and the sandbox's
    /// request log. The invoice list's methods are `invoices` and its page-by-page forms.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::CustomerSignup => "customer_signup",
            Self::Payment => "pay",
            Self::Registration => "register",
            Self::TokenPayment => "pay_with_token",
            Self::DeleteToken => "delete_token",
            Self::Installments => "installments",
            Self::CardsAndAccounts => "cards_and_accounts",
            Self::InvoiceList => "invoices",
            Self::AuthToken => "fetch_auth_token",
            Self::RegenerateAuthToken => "regenerate_auth_token",
            Self::Inquiry => "inquiry",
            Self::Capture => "capture",
            Self::Refund => "refund",
            Self::Cancel => "cancel",
            Self::RepeatPayment => "repeat_payment",
        }
    }

    /// The operation [`name`](Self::name) names (`pay`, `inquiry`, ...), or `None`.
    ///
    /// ```
    /// use paytoken_protocol::OperationKind;
    ///
    /// assert_eq!(OperationKind::from_name("pay_with_token"), Some(OperationKind::TokenPayment));
    /// assert_eq!(OperationKind::from_name("pay-with-token"), None);
    /// ```
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// Whether a request of this kind may be sent again after its bytes may have reached the
    /// gateway: true for reads (installments, lists, inquiry, auth tokens), false for
    /// everything that moves money or changes what is stored (payments, captures, refunds,
    /// cancels, registrations, sign-ups, deletes).
    #[must_use]
    pub const fn is_retry_safe(self) -> bool {
        matches!(
            self,
            Self::Installments
                | Self::CardsAndAccounts
                | Self::InvoiceList
                | Self::AuthToken
                | Self::RegenerateAuthToken
                | Self::Inquiry
        )
    }
}

impl OperationKind {
    /// Whether the request carries the `AuthToken` header (when there is a token): every
    /// operation but the auth-token endpoints, which go without it as the deployments
    /// document.
    #[must_use]
    pub const fn sends_auth_token(self) -> bool {
        !matches!(self, Self::AuthToken | Self::RegenerateAuthToken)
    }
}

impl fmt::Display for OperationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The HTTP method. The interface uses POST for everything; the type says so where a
/// transport needs to be told.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Method {
    /// `POST`.
    Post,
}

impl Method {
    /// The method's name on the wire.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Post => "POST",
        }
    }
}

/// The header that carries the auth token: its exact name, value the bare token.
pub const AUTH_TOKEN_HEADER: &str = "AuthToken";
/// The body's content type.
pub const FORM_CONTENT_TYPE: &str = "application/x-www-form-urlencoded";

/// One request header. A sensitive header (the auth token) shows `***` in `Debug`; a
/// transport should keep it out of its logs too.
///
/// Headers are made by this crate only, from its own constant names, so a name is always
/// a valid HTTP token.
#[derive(Clone, PartialEq, Eq)]
pub struct Header {
    name: &'static str,
    value: HeaderText,
}

/// A header's value: nothing is copied to make one.
#[derive(Clone, PartialEq, Eq)]
enum HeaderText {
    /// A constant: the content type.
    Constant(&'static str),
    /// The auth token: a handle on the token itself, which is wiped from memory when its
    /// last handle is dropped.
    Token(AuthToken),
}

impl Header {
    /// A header with a constant value, which may be logged.
    pub(crate) const fn new(name: &'static str, value: &'static str) -> Self {
        Self {
            name,
            value: HeaderText::Constant(value),
        }
    }

    /// The `AuthToken` header: sensitive, and sharing the token rather than copying it.
    pub(crate) fn auth_token(token: &AuthToken) -> Self {
        Self {
            name: AUTH_TOKEN_HEADER,
            value: HeaderText::Token(token.clone()),
        }
    }

    /// The header's name, as the interface spells it (`AuthToken`); compare it without
    /// regard to case.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The value, to put on the wire.
    #[must_use]
    pub fn value(&self) -> &str {
        match &self.value {
            HeaderText::Constant(value) => value,
            HeaderText::Token(token) => token.expose_secret(),
        }
    }

    /// Whether the value is a secret.
    #[must_use]
    pub const fn is_sensitive(&self) -> bool {
        matches!(self.value, HeaderText::Token(_))
    }

    /// The auth token this header carries, if it is the `AuthToken` header.
    #[cfg(feature = "http")]
    pub(crate) const fn token(&self) -> Option<&AuthToken> {
        match &self.value {
            HeaderText::Token(token) => Some(token),
            HeaderText::Constant(_) => None,
        }
    }
}

impl fmt::Debug for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = if self.is_sensitive() {
            "***"
        } else {
            self.value()
        };
        write!(f, "{}: {value}", self.name)
    }
}

/// A request's body: the form, card numbers and CVVs included.
///
/// Shared, not copied: a clone (for each attempt, for an `http::Request`, for a transport's
/// own body type) is a new handle on the same bytes, and the bytes are wiped from memory
/// when the last handle is dropped, wherever it has gone. `Debug` shows the length only.
/// It reads as bytes (`Deref<Target = [u8]>`).
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Body(Arc<WipedBytes>);

/// A body's bytes, wiped when they are dropped: behind every handle of a [`Body`] (wiped
/// when the last one goes), and already while the body is being written, so a request
/// refused half-way (a bad value after the card number) wipes what it had written.
#[derive(PartialEq, Eq, Default)]
pub(crate) struct WipedBytes(pub(crate) Vec<u8>);

impl WipedBytes {
    /// An empty body with room for `capacity` bytes.
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Self(Vec::with_capacity(capacity))
    }
}

impl Drop for WipedBytes {
    fn drop(&mut self) {
        // The bytes and the spare room, each as one slice: zeroize's `Vec` impl wipes the
        // bytes one element at a time (a volatile write each, three instructions a byte),
        // where a slice is wiped by one fill behind an optimisation barrier.
        self.0.as_mut_slice().zeroize();
        self.0.spare_capacity_mut().zeroize();
    }
}

impl Body {
    pub(crate) fn new(bytes: WipedBytes) -> Self {
        Self(Arc::new(bytes))
    }

    /// The bytes.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.0.0
    }
}

impl core::ops::Deref for Body {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl AsRef<[u8]> for Body {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{} bytes>", self.len())
    }
}

/// A request, ready for any HTTP stack: send [`method`](Self::method) to `base_url` +
/// [`path`](Self::path) with [`headers`](Self::headers) and [`body`](Self::body).
///
/// Made by the operations only, so what it says holds: whether it may be sent again is the
/// operation's ([`is_retry_safe`](Self::is_retry_safe)), not a field a caller could flip.
/// The body and the auth token wipe themselves when dropped, and `Debug` shows neither.
#[derive(Clone, PartialEq, Eq)]
pub struct Request {
    method: Method,
    /// Borrowed for the paths that are constants; owned for those that end with an id.
    path: Cow<'static, str>,
    template: PathTemplate,
    headers: Headers,
    body: Body,
    operation: OperationKind,
}

/// A request's path with its id left out, as OpenTelemetry's `url.template` names what was
/// called: `/transactionServices/REST/v1/payments/{paymentId}`. The same for every request
/// of one operation to one endpoint, and never an id (an order id has carried a card
/// number).
///
/// ```
/// use paytoken_protocol::ops::inquiry::Inquiry;
/// use paytoken_checksum::{Credentials, SecureKey};
/// use paytoken_protocol::{Context, Operation};
///
/// let context = Context::new(Credentials::merchant("11344".parse()?, SecureKey::new("key")?));
/// let request = Inquiry::ByPaymentId("60001".parse()?).request(&context)?;
/// assert_eq!(request.path(), "/transactionServices/REST/v1/payments/60001");
/// assert_eq!(
///     request.path_template().to_string(),
///     "/transactionServices/REST/v1/payments/{paymentId}"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathTemplate {
    /// The path before the id, or the whole path.
    fixed: &'static str,
    /// The id's name, where the path ends with one.
    parameter: Option<&'static str>,
}

impl PathTemplate {
    /// A path that ends with no id.
    pub(crate) const fn fixed(path: &'static str) -> Self {
        Self {
            fixed: path,
            parameter: None,
        }
    }

    /// This path, ended with the id named `parameter`.
    pub(crate) const fn with_parameter(self, parameter: &'static str) -> Self {
        Self {
            fixed: self.fixed,
            parameter: Some(parameter),
        }
    }
}

impl fmt::Display for PathTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.fixed)?;
        match self.parameter {
            Some(parameter) => write!(f, "{{{parameter}}}"),
            None => Ok(()),
        }
    }
}

/// A request's headers, held inline: a request has two at most (the content type, then the
/// auth token), so holding them costs no allocation. Equal when their headers are.
#[derive(Clone)]
struct Headers {
    /// The first `len` are the headers; the content type fills an unused slot.
    slots: [Header; 2],
    len: usize,
}

impl Headers {
    /// The content type alone.
    const fn new() -> Self {
        Self {
            slots: [CONTENT_TYPE, CONTENT_TYPE],
            len: 1,
        }
    }

    fn as_slice(&self) -> &[Header] {
        self.slots.get(..self.len).unwrap_or_default()
    }

    /// Sets the `AuthToken` header, in place of the one there, if any.
    fn set_auth_token(&mut self, header: Header) {
        if let Some(slot) = self.slots.get_mut(1) {
            *slot = header;
            self.len = 2;
        }
    }
}

impl PartialEq for Headers {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Headers {}

/// The `Content-Type` header every request sends.
const CONTENT_TYPE: Header = Header::new("Content-Type", FORM_CONTENT_TYPE);

impl Request {
    /// The method, always POST.
    #[must_use]
    pub const fn method(&self) -> Method {
        self.method
    }

    /// The path, from the interface's root: `/transactionServices/REST/v1/payments`.
    #[must_use]
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The path with its id left out ([`PathTemplate`]).
    #[must_use]
    pub const fn path_template(&self) -> PathTemplate {
        self.template
    }

    /// The path as held: borrowed for an operation's constant path.
    #[cfg(feature = "http")]
    pub(crate) const fn path_text(&self) -> &Cow<'static, str> {
        &self.path
    }

    /// The headers: the content type, and the auth token when the context holds one.
    #[must_use]
    pub fn headers(&self) -> &[Header] {
        self.headers.as_slice()
    }

    /// The form-encoded body.
    #[must_use]
    pub const fn body(&self) -> &Body {
        &self.body
    }

    /// The body, taken out of the request (it still wipes itself when dropped).
    #[must_use]
    pub fn into_body(self) -> Body {
        self.body
    }

    /// Which operation this is.
    #[must_use]
    pub const fn operation(&self) -> OperationKind {
        self.operation
    }

    /// Whether the request may be sent again after its bytes may have reached the gateway:
    /// its operation's ([`OperationKind::is_retry_safe`]). A payment never is.
    #[must_use]
    pub const fn is_retry_safe(&self) -> bool {
        self.operation.is_retry_safe()
    }

    /// Puts `token` into the `AuthToken` header, in place of the one the request was built
    /// with (if any), and changes nothing else: the token is not signed, so a request built
    /// once goes out with whichever token is fresh when it is sent. The auth-token
    /// operations go without the header, and stay so.
    pub fn set_auth_token(&mut self, token: &AuthToken) {
        if !self.operation.sends_auth_token() {
            return;
        }
        self.headers.set_auth_token(Header::auth_token(token));
    }

    /// The full URL: the base URL followed by the path.
    #[must_use]
    pub fn url(&self, base_url: &BaseUrl) -> String {
        base_url.join(&self.path)
    }

    /// The value of the header `name`, compared without regard to case.
    #[must_use]
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers()
            .iter()
            .find(|header| header.name.eq_ignore_ascii_case(name))
            .map(Header::value)
    }
}

impl fmt::Debug for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Request")
            .field("operation", &self.operation)
            .field("method", &self.method)
            .field("path", &self.path)
            .field("headers", &self.headers())
            .field("body", &self.body)
            .field("retry_safe", &self.is_retry_safe())
            .finish()
    }
}

/// Builds an unsigned request (the auth-token endpoints): a body written by `write`.
pub(crate) fn build(
    operation: OperationKind,
    path: &'static str,
    context: &Context,
    capacity: usize,
    write: impl FnOnce(&mut FormWriter<'_>),
) -> Request {
    let mut body = WipedBytes::with_capacity(capacity);
    write(&mut FormWriter::new(&mut body.0));
    Request::new(
        operation,
        (Cow::Borrowed(path), PathTemplate::fixed(path)),
        context,
        body,
    )
}

impl Request {
    /// A request with the headers every operation sends: the content type, and the
    /// context's auth token where the operation takes one.
    pub(crate) fn new(
        operation: OperationKind,
        (path, template): (Cow<'static, str>, PathTemplate),
        context: &Context,
        body: WipedBytes,
    ) -> Self {
        let mut headers = Headers::new();
        if let Some(token) = context
            .auth_token
            .as_ref()
            .filter(|_| operation.sends_auth_token())
        {
            headers.set_auth_token(Header::auth_token(token));
        }
        Self {
            method: Method::Post,
            path,
            template,
            headers,
            body: Body::new(body),
            operation,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ALL` holds every operation once, and no two share a name: a new variant fails
    /// to compile here until it has a place, and then this test until `ALL` lists it.
    #[test]
    fn all_lists_every_operation_once_each_by_a_name_of_its_own() {
        let place = |kind: OperationKind| match kind {
            OperationKind::CustomerSignup => 0,
            OperationKind::Payment => 1,
            OperationKind::Registration => 2,
            OperationKind::TokenPayment => 3,
            OperationKind::DeleteToken => 4,
            OperationKind::Installments => 5,
            OperationKind::CardsAndAccounts => 6,
            OperationKind::InvoiceList => 7,
            OperationKind::AuthToken => 8,
            OperationKind::RegenerateAuthToken => 9,
            OperationKind::Inquiry => 10,
            OperationKind::Capture => 11,
            OperationKind::Refund => 12,
            OperationKind::Cancel => 13,
            OperationKind::RepeatPayment => 14,
        };
        let places: alloc::collections::BTreeSet<usize> =
            OperationKind::ALL.into_iter().map(place).collect();
        assert_eq!(places.len(), OperationKind::ALL.len());
        assert_eq!(places.last(), Some(&(OperationKind::ALL.len() - 1)));
        let names: alloc::collections::BTreeSet<&str> = OperationKind::ALL
            .into_iter()
            .map(OperationKind::name)
            .collect();
        assert_eq!(names.len(), OperationKind::ALL.len());
    }

    /// The content type and `token`'s header.
    fn with_token(token: &str) -> Headers {
        let mut headers = Headers::new();
        headers.set_auth_token(Header::auth_token(&AuthToken::new(token).unwrap()));
        headers
    }

    #[test]
    fn debug_hides_the_body_and_sensitive_headers() {
        let request = Request {
            method: Method::Post,
            path: "/x".into(),
            template: PathTemplate::fixed("/x"),
            headers: with_token("secret-token"),
            body: Body::new(WipedBytes(b"card.number=4000000000000051".to_vec())),
            operation: OperationKind::Payment,
        };
        let debug = format!("{request:?}");
        assert!(!debug.contains("secret-token"), "{debug}");
        assert!(!debug.contains("4000000000000051"), "{debug}");
        assert!(debug.contains("<28 bytes>") && debug.contains("AuthToken: ***"));
        assert_eq!(request.header("authtoken"), Some("secret-token"));
    }

    #[test]
    fn a_fresh_token_replaces_the_old_one_and_nothing_else() {
        let mut request = Request {
            method: Method::Post,
            path: "/x".into(),
            template: PathTemplate::fixed("/x"),
            headers: with_token("old-token"),
            body: Body::new(WipedBytes(b"a=1".to_vec())),
            operation: OperationKind::Payment,
        };
        let before = request.clone();
        request.set_auth_token(&AuthToken::new("new-token").unwrap());
        assert_eq!(request.header(AUTH_TOKEN_HEADER), Some("new-token"));
        assert_eq!(request.headers().len(), 2);
        assert_eq!(request.body(), before.body());
        assert_eq!(request.path(), before.path());

        let (mut fetch, mut bare) = (request.clone(), request);
        fetch.operation = OperationKind::AuthToken;
        fetch.headers = Headers::new();
        fetch.set_auth_token(&AuthToken::new("t").unwrap());
        assert_eq!(
            fetch.header(AUTH_TOKEN_HEADER),
            None,
            "auth-token calls go without it"
        );
        bare.headers = Headers::new();
        bare.set_auth_token(&AuthToken::new("t").unwrap());
        assert_eq!(bare.header(AUTH_TOKEN_HEADER), Some("t"));
    }

    #[test]
    fn clones_of_a_body_share_its_bytes() {
        let body = Body::new(WipedBytes(b"card.number=4000000000000051".to_vec()));
        let copy = body.clone();
        assert!(core::ptr::eq(body.as_bytes(), copy.as_bytes()));
    }

    #[test]
    fn only_reads_are_retry_safe() {
        assert!(!OperationKind::Payment.is_retry_safe());
        assert!(!OperationKind::TokenPayment.is_retry_safe());
        assert!(!OperationKind::DeleteToken.is_retry_safe());
        assert!(OperationKind::Inquiry.is_retry_safe());
        assert!(OperationKind::InvoiceList.is_retry_safe());
    }
}
