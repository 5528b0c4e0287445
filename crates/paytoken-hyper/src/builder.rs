//! Setting a client up.

use core::fmt;
use std::time::Duration;

use paytoken_checksum::Credentials;
use paytoken_protocol::ops::auth_token::FetchAuthToken;
use paytoken_protocol::{
    AuthToken, BaseUrl, Context, DEFAULT_REFRESH_BEFORE, TOKEN_LIFETIME, Username,
};
use paytoken_types::{AccountId, PartnerId, TerminalId};

use crate::auth::{Auth, TokenSource};
use crate::client::ClientSettings;
use crate::conn;
use crate::hyper_transport::HyperSettings;
use crate::proxy::Proxy;
use crate::randomness::Randomness;
use crate::{Client, Error, HyperTransport, RetryPolicy, Transport};

/// How long opening a connection (TCP and TLS) may take, by default.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one attempt of a request may take, from sending to the last byte of the
/// answer, by default. Payments with 3-D Secure checks can take tens of seconds.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// The largest answer read, by default: the gateway's answers are a few KiB, a long
/// invoice page some hundred.
pub const DEFAULT_BODY_LIMIT: usize = 1024 * 1024;
/// How many idle connections are kept open per host, by default.
pub const DEFAULT_POOL_MAX_IDLE_PER_HOST: usize = 64;
/// How long an idle connection is kept, by default.
pub const DEFAULT_POOL_IDLE_TIMEOUT: Duration = Duration::from_secs(90);
/// The `User-Agent` header, by default.
pub const DEFAULT_USER_AGENT: &str = concat!("paytoken/", env!("CARGO_PKG_VERSION"));

/// Sets a [`Client`] up. The base URL and the credentials are required; every other
/// setting has the default its method states.
///
/// ```
/// use std::time::Duration;
/// use paytoken_checksum::{Credentials, SecureKey};
/// use paytoken_hyper::{Client, RetryPolicy};
/// use paytoken_protocol::Username;
///
/// let client = Client::builder()
///     .base_url("https://sandbox.gateway.example")
///     .credentials(Credentials::merchant("11344".parse()?, SecureKey::new("key")?))
///     .terminal_id("1".parse()?)
///     .fetch_auth_token("100".parse()?, Username::new("shop.admin")?)
///     .request_timeout(Duration::from_secs(30))
///     .retry_policy(RetryPolicy { max_attempts: 4, ..RetryPolicy::DEFAULT })
///     .build()?;
/// assert_eq!(client.base_url().as_str(), "https://sandbox.gateway.example");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// A builder is `Clone`: a binding keeps one to build the same client again in a process
/// forked from the one that built the first.
#[must_use = "a builder does nothing until `build` is called"]
#[derive(Clone)]
pub struct ClientBuilder {
    base_url: Option<String>,
    credentials: Option<Credentials>,
    account_id: Option<AccountId>,
    terminal_id: Option<TerminalId>,
    token: TokenSource,
    token_lifetime: Duration,
    refresh_before: Duration,
    request_timeout: Duration,
    retry: RetryPolicy,
    seed: Option<u64>,
    body_limit: usize,
    settle_lost_answers: bool,
    /// PEM texts of roots to trust, read when the client is built.
    pem_roots: Vec<Vec<u8>>,
    connection: HyperSettings,
}

impl Default for ClientBuilder {
    fn default() -> Self {
        Self {
            base_url: None,
            credentials: None,
            account_id: None,
            terminal_id: None,
            token: TokenSource::None,
            token_lifetime: TOKEN_LIFETIME,
            refresh_before: DEFAULT_REFRESH_BEFORE,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            retry: RetryPolicy::DEFAULT,
            seed: None,
            body_limit: DEFAULT_BODY_LIMIT,
            settle_lost_answers: false,
            pem_roots: Vec::new(),
            connection: HyperSettings {
                connect_timeout: DEFAULT_CONNECT_TIMEOUT,
                pool_max_idle_per_host: DEFAULT_POOL_MAX_IDLE_PER_HOST,
                pool_idle_timeout: DEFAULT_POOL_IDLE_TIMEOUT,
                user_agent: DEFAULT_USER_AGENT.to_owned(),
                allow_http: false,
                http2: true,
                extra_roots: Vec::new(),
                built_in_roots: true,
                proxy: Proxy::FromEnvironment,
            },
        }
    }
}

impl fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("base_url", &self.base_url)
            .field("credentials", &self.credentials)
            .field("request_timeout", &self.request_timeout)
            .field("connect_timeout", &self.connection.connect_timeout)
            .field("retry", &self.retry)
            .field("body_limit", &self.body_limit)
            .field("settle_lost_answers", &self.settle_lost_answers)
            .field("allow_http", &self.connection.allow_http)
            .finish_non_exhaustive()
    }
}

impl ClientBuilder {
    paytoken_types::setters! {
        /// The gateway's base URL, such as `https://sandbox.gateway.example` (required). Plain
        /// `http://` needs [`allow_http`](Self::allow_http).
        pub fn base_url(url: impl Into<String>) => base_url = Some(url.into());

        /// The merchant's or the partner's id and secure key (required).
        pub fn credentials(credentials: Credentials) => credentials = Some(credentials);

        /// `authentication.accountId`, sent where the interface takes it. None by default.
        pub fn account_id(account_id: AccountId) => account_id = Some(account_id);

        /// `authentication.terminalId`, sent where the interface takes it. None by default.
        pub fn terminal_id(terminal_id: TerminalId) => terminal_id = Some(terminal_id);

        /// Sends this auth token with every call, as it is. By default there is none.
        pub fn auth_token(token: AuthToken) => token = TokenSource::Fixed(token);

        /// Fetches the auth token with `username` under `partner_id` before the first call,
        /// renews it before it expires, and fetches a new one when the gateway refuses it (then
        /// sends the refused call once more: a refusal means nothing was processed). One
        /// renewal at a time, however many calls wait for it.
        pub fn fetch_auth_token(partner_id: PartnerId, username: Username) => token = TokenSource::Fetched(FetchAuthToken::new(partner_id, username));

        /// How long fetched tokens live: one hour by default, as the gateway's do.
        pub fn token_lifetime(lifetime: Duration) => token_lifetime = lifetime;

        /// How long before expiry a fetched token is renewed: five minutes by default.
        pub fn refresh_before(margin: Duration) => refresh_before = margin;

        /// How long opening a connection may take: [`DEFAULT_CONNECT_TIMEOUT`] (10 s).
        pub fn connect_timeout(timeout: Duration) => connection.connect_timeout = timeout;

        /// How long one attempt may take, from the first byte sent to the last byte read:
        /// [`DEFAULT_REQUEST_TIMEOUT`] (60 s). A read that is retried gets this per attempt.
        /// An attempt past it ends at its deadline (`tokio::time::timeout`).
        pub fn request_timeout(timeout: Duration) => request_timeout = timeout;

        /// When requests are sent again: [`RetryPolicy::DEFAULT`] (three attempts).
        pub fn retry_policy(policy: RetryPolicy) => retry = policy;

        /// Settles a money-moving call's lost answer by inquiry before the call returns (off
        /// by default, when the call returns [`Error::OutcomeUnknown`] for you to settle). A
        /// payment (card, token, repeat) then returns the transaction the gateway holds under
        /// its order's id when that tells how it went, or [`Error::StillUnknown`] saying what
        /// the inquiry found: no such payment (it is never sent again), one still under way,
        /// or an answer that cannot tell; a capture, refund or cancel what
        /// [`Client::settle`] makes of it. When the inquiry itself does not get through, the
        /// unknown outcome as it was.
        ///
        /// ```
        /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
        /// use paytoken_checksum::{Credentials, SecureKey};
        /// use paytoken_hyper::Client;
        ///
        /// let client = Client::builder()
        ///     .base_url("https://sandbox.gateway.example")
        ///     .credentials(Credentials::merchant("11344".parse()?, SecureKey::new("key")?))
        ///     .settle_lost_answers(true)
        ///     .build()?;
        /// # drop(client); Ok(()) }
        /// ```
        pub fn settle_lost_answers(settle: bool) => settle_lost_answers = settle;

        /// Draws what the client would draw at random (the retries' jitter, the merchant
        /// transaction ids it makes up for token payments and repeats sent without one) from
        /// `seed` instead: the same in every run, for a deterministic simulation or test.
        /// Unset by default; never set it in production, where ids must not repeat.
        pub fn seed(seed: u64) => seed = Some(seed);

        /// The largest answer read: [`DEFAULT_BODY_LIMIT`] (1 MiB). A larger one is an error,
        /// and no more of it is read.
        pub fn body_limit(bytes: usize) => body_limit = bytes;

        /// How many idle connections are kept per host: [`DEFAULT_POOL_MAX_IDLE_PER_HOST`]
        /// (64). Connections beyond are opened as needed and closed when idle.
        pub fn pool_max_idle_per_host(connections: usize) => connection.pool_max_idle_per_host = connections;

        /// How long an idle connection is kept: [`DEFAULT_POOL_IDLE_TIMEOUT`] (90 s).
        pub fn pool_idle_timeout(timeout: Duration) => connection.pool_idle_timeout = timeout;

        /// The `User-Agent` header: [`DEFAULT_USER_AGENT`] (`paytoken/<version>`).
        pub fn user_agent(user_agent: impl Into<String>) => connection.user_agent = user_agent.into();

        /// Allows a plain `http://` base URL: for the sandbox and other loopback servers. Off
        /// by default: card data goes over TLS.
        pub fn allow_http(allow: bool) => connection.allow_http = allow;

        /// Offers HTTP/2 in the TLS handshake (the server picks): on by default. Off keeps to
        /// HTTP/1.1.
        pub fn http2(enabled: bool) => connection.http2 = enabled;

        /// Whether the webpki roots (Mozilla's list) are trusted: yes by default. Off trusts
        /// only the certificates added with [`add_root_certificate`](Self::add_root_certificate).
        pub fn built_in_roots(trusted: bool) => connection.built_in_roots = trusted;

        /// Which proxy the connections go through: [`Proxy::FromEnvironment`] by default
        /// (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`, `NO_PROXY`, as curl reads them),
        /// [`Proxy::Direct`] for none, [`Proxy::Url`] for one of your own. A proxy is
        /// reached by `CONNECT`, TLS runs end to end through it, and a loopback address is
        /// never proxied.
        pub fn proxy(proxy: Proxy) => connection.proxy = proxy;
    }

    /// Trusts one more certificate authority (DER-encoded): a gateway behind a private CA,
    /// or a test's.
    pub fn add_root_certificate(mut self, der: impl Into<Vec<u8>>) -> Self {
        self.connection.extra_roots.push(der.into());
        self
    }

    /// Trusts the certificate authorities of a PEM text (its `CERTIFICATE` blocks) besides
    /// the others: a company's TLS-inspecting proxy, a gateway behind a private CA. The
    /// command reads `--root-certificate` (`PAYTOKEN_ROOT_CERTIFICATE`) into it, the
    /// bindings `SSL_CERT_FILE`.
    pub fn add_root_certificates_pem(mut self, pem: impl AsRef<[u8]>) -> Self {
        self.pem_roots.push(pem.as_ref().to_vec());
        self
    }

    /// The client over hyper and rustls.
    ///
    /// # Errors
    /// [`Error::Config`] naming the setting: no or a bad base URL, `http://` without
    /// [`allow_http`](Self::allow_http), no credentials, a bad user agent or root
    /// certificate, a PEM text without a certificate, a zero timeout or body limit.
    pub fn build(mut self) -> Result<Client, Error> {
        for pem in std::mem::take(&mut self.pem_roots) {
            let certificates =
                conn::certificates_from_pem(&pem).map_err(|reason| Error::Config {
                    setting: "add_root_certificates_pem",
                    reason,
                })?;
            self.connection.extra_roots.extend(certificates);
        }
        let transport = HyperTransport::new(&self.connection)?;
        self.build_with_transport(transport)
    }

    /// The client over another transport, such as a
    /// `testing::FakeTransport` (feature `testing`). The settings of the connection
    /// (pool, TLS, user agent, connect timeout) are the transport's business then.
    ///
    /// # Errors
    /// [`Error::Config`] as for [`build`](Self::build).
    pub fn build_with_transport<T: Transport>(self, transport: T) -> Result<Client<T>, Error> {
        let config = |setting, reason| Error::Config { setting, reason };
        let url = self
            .base_url
            .as_deref()
            .ok_or(config("base_url", "is required"))?;
        let base_url = BaseUrl::new(url).map_err(|error| config("base_url", error.reason))?;
        if !base_url.is_https() && !self.connection.allow_http {
            return Err(config(
                "base_url",
                "is plain http; card data needs https (allow_http(true) for the sandbox or loopback)",
            ));
        }
        let credentials = self
            .credentials
            .ok_or(config("credentials", "are required"))?;
        if self.request_timeout.is_zero() {
            return Err(config("request_timeout", "must be longer than zero"));
        }
        if self.connection.connect_timeout.is_zero() {
            return Err(config("connect_timeout", "must be longer than zero"));
        }
        if self.body_limit == 0 {
            return Err(config("body_limit", "must be at least one byte"));
        }
        let mut context = Context::new(credentials);
        context.account_id = self.account_id;
        context.terminal_id = self.terminal_id;
        let auth = Auth::new(
            context,
            self.token,
            self.token_lifetime,
            self.refresh_before,
        );
        Ok(Client::from_parts(
            transport,
            ClientSettings {
                base_url,
                request_timeout: self.request_timeout,
                retry: self.retry,
                randomness: Randomness::seeded(self.seed),
                body_limit: self.body_limit,
                auth,
                settles: self.settle_lost_answers,
            },
        ))
    }
}
