//! The environment variables a client's settings may come from: one name for each, shared
//! by the command (`paytoken`) and the Python and Node clients, so that a shell set up for
//! one works for the others. Card data never comes from the environment.

/// The gateway's base URL, such as `https://sandbox.gateway.example`.
pub const BASE_URL: &str = "PAYTOKEN_BASE_URL";
/// The merchant's member id (`authentication.memberId`).
pub const MEMBER_ID: &str = "PAYTOKEN_MEMBER_ID";
/// The partner's id (`authentication.partnerId`): the caller's when no member id is set,
/// and the one an auth token is fetched under.
pub const PARTNER_ID: &str = "PAYTOKEN_PARTNER_ID";
/// The login name an auth token is fetched with.
pub const USERNAME: &str = "PAYTOKEN_USERNAME";
/// The merchant's or partner's secure key.
pub const SECURE_KEY: &str = "PAYTOKEN_SECURE_KEY";
/// An auth token to use as it is (none is fetched then).
pub const AUTH_TOKEN: &str = "PAYTOKEN_AUTH_TOKEN";
/// `authentication.accountId`, where a deployment takes it.
pub const ACCOUNT_ID: &str = "PAYTOKEN_ACCOUNT_ID";
/// `authentication.terminalId`, where a deployment takes it.
pub const TERMINAL_ID: &str = "PAYTOKEN_TERMINAL_ID";
/// A PEM file of certificate authorities to trust besides the built-in ones.
pub const ROOT_CERTIFICATE: &str = "PAYTOKEN_ROOT_CERTIFICATE";
