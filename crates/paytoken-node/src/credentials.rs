//! Who signs: the secure key, the merchant's or partner's credentials, and the context a
//! request is built in (credentials, account and terminal, auth token). Each masks its
//! secrets in `toString` (which `util.inspect` shows).

use napi::bindgen_prelude::{ClassInstance, Env, Object, This};
use napi_derive::napi;
use paytoken_protocol::AuthToken;

use crate::args::{self, Given};
use crate::errors::invalid;

/// A secure key: what signs every request. Shown as `SecureKey(***)`.
///
/// The string handed in is JavaScript's, which paytoken cannot wipe; the copy paytoken
/// keeps is wiped when the key is collected.
#[napi]
#[derive(Debug, Clone)]
pub struct SecureKey(pub(crate) paytoken_checksum::SecureKey);

#[napi]
impl SecureKey {
    /// The key as the gateway's back office shows it.
    #[napi(constructor)]
    pub fn new(
        env: &Env,
        this: This<'_>,
        #[napi(ts_arg_type = "string")] key: Given<'_, String>,
    ) -> napi::Result<Self> {
        args::constructed::<Self>(env, &this, "SecureKey")?;
        paytoken_checksum::SecureKey::new(args::text(
            env,
            key,
            paytoken_checksum::SecureKey::FIELD,
        )?)
        .map(Self)
        .map_err(|error| invalid(env, error))
    }

    /// `SecureKey(***)`.
    #[napi(js_name = "toString")]
    pub fn shown(&self) -> &'static str {
        "SecureKey(***)"
    }

    /// The key's JSON: `"***"`, so that no log of an object holding it shows it.
    #[napi(js_name = "toJSON")]
    pub fn to_json(&self) -> &'static str {
        "***"
    }
}

/// A merchant's or a partner's id with its secure key.
#[napi]
#[derive(Debug, Clone)]
pub struct Credentials(pub(crate) paytoken_checksum::Credentials);

#[napi]
impl Credentials {
    /// A merchant's: its member id (`authentication.memberId`) and secure key.
    #[napi(factory)]
    pub fn merchant(
        env: &Env,
        #[napi(ts_arg_type = "string")] member_id: Given<'_, String>,
        #[napi(ts_arg_type = "SecureKey")] key: Given<'_, ClassInstance<'_, SecureKey>>,
    ) -> napi::Result<Self> {
        let id = args::text(env, member_id, "memberId")?;
        let id = id.parse().map_err(|error| invalid(env, error))?;
        let key = args::instance(env, key, "key", "expected a SecureKey")?;
        Ok(Self(paytoken_checksum::Credentials::merchant(
            id,
            key.0.clone(),
        )))
    }

    /// A partner's: its partner id (`authentication.partnerId`) and secure key.
    #[napi(factory)]
    pub fn partner(
        env: &Env,
        #[napi(ts_arg_type = "string")] partner_id: Given<'_, String>,
        #[napi(ts_arg_type = "SecureKey")] key: Given<'_, ClassInstance<'_, SecureKey>>,
    ) -> napi::Result<Self> {
        let id = args::text(env, partner_id, "partnerId")?;
        let id = id.parse().map_err(|error| invalid(env, error))?;
        let key = args::instance(env, key, "key", "expected a SecureKey")?;
        Ok(Self(paytoken_checksum::Credentials::partner(
            id,
            key.0.clone(),
        )))
    }

    /// The member or partner id.
    #[napi(getter)]
    pub fn id(&self) -> String {
        self.0.id().to_owned()
    }

    /// `Credentials(<id>, SecureKey(***))`.
    #[napi(js_name = "toString")]
    pub fn shown(&self) -> String {
        format!("Credentials({}, SecureKey(***))", self.0.id())
    }
}

/// Where the `Context` finds the auth token and the ids some deployments ask for.
#[napi(object, object_from_js = false, object_to_js = false)]
#[allow(
    dead_code,
    reason = "declares the TypeScript interface; `args::options` reads the object by its keys"
)]
#[derive(Debug, Default)]
pub struct ContextOptions {
    /// The `AuthToken` header's value, left out of the auth-token requests.
    pub auth_token: Option<String>,
    /// `authentication.accountId`, where the interface takes it.
    pub account_id: Option<String>,
    /// `authentication.terminalId`, where the interface takes it.
    pub terminal_id: Option<String>,
}

/// What a request is built in: the credentials, `authentication.accountId` and
/// `terminalId` where the interface takes them, and the auth token of the `AuthToken`
/// header (left out of the auth-token requests).
#[napi]
#[derive(Debug, Clone)]
pub struct Context(pub(crate) paytoken_protocol::Context);

#[napi]
impl Context {
    /// The context of `credentials`, with the `options` given.
    #[napi(constructor)]
    pub fn new(
        env: &Env,
        this: This<'_>,
        #[napi(ts_arg_type = "Credentials")] credentials: Given<'_, ClassInstance<'_, Credentials>>,
        #[napi(ts_arg_type = "ContextOptions | undefined | null")] options: Option<
            Given<'_, Object<'_>>,
        >,
    ) -> napi::Result<Self> {
        args::constructed::<Self>(env, &this, "Context")?;
        let credentials = args::instance(env, credentials, "credentials", "expected Credentials")?;
        let mut context = paytoken_protocol::Context::new(credentials.0.clone());
        const KEYS: &[&str] = &["authToken", "accountId", "terminalId"];
        if let Some(options) = args::options(env, options, "options", KEYS)? {
            context.auth_token = (options.text("authToken")?.map(AuthToken::new).transpose())
                .map_err(|error| invalid(env, error))?;
            context.account_id = (options
                .text("accountId")?
                .as_deref()
                .map(str::parse)
                .transpose())
            .map_err(|error| invalid(env, error))?;
            context.terminal_id = (options
                .text("terminalId")?
                .as_deref()
                .map(str::parse)
                .transpose())
            .map_err(|error| invalid(env, error))?;
        }
        Ok(Self(context))
    }

    /// `Context(<id>, authToken=***)`, or `authToken=null` without one.
    #[napi(js_name = "toString")]
    pub fn shown(&self) -> String {
        let token = if self.0.auth_token.is_some() {
            "***"
        } else {
            "null"
        };
        format!("Context({}, authToken={token})", self.0.credentials.id())
    }
}
