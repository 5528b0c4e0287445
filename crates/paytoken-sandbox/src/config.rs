//! Who may use the sandbox: partners and their merchants, from a JSON file or built in code.
//!
//! ```
//! use paytoken_sandbox::SandboxConfig;
//!
//! let config = SandboxConfig::from_json(r#"{
//!     "partners": [{
//!         "partnerId": "200", "username": "acme.partner", "secureKey": "partner-key",
//!         "merchants": [
//!             {"memberId": "501", "username": "acme.shop", "secureKey": "shop-key",
//!              "accountId": "77", "terminalId": "88"}
//!         ]
//!     }]
//! }"#)?;
//! assert_eq!(config.partners[0].merchants[0].member_id.as_str(), "501");
//! # Ok::<(), paytoken_sandbox::Error>(())
//! ```

use std::collections::HashSet;

use paytoken_checksum::{Credentials, SecureKey};
use paytoken_protocol::{Context, Username};
use paytoken_types::{AccountId, MemberId, PartnerId, TerminalId};
use serde::{Deserialize, Deserializer, de};

use crate::Error;

/// The default partner's id.
pub const DEFAULT_PARTNER_ID: &str = "100";
/// The default partner's login name.
pub const DEFAULT_PARTNER_USERNAME: &str = "partner.admin";
/// The default partner's secure key (a sandbox key: public on purpose).
pub const DEFAULT_PARTNER_SECURE_KEY: &str = "sandbox-partner-secure-key";
/// The first default merchant's member id.
pub const DEFAULT_MERCHANT_ID: &str = "11344";
/// The first default merchant's login name.
pub const DEFAULT_MERCHANT_USERNAME: &str = "shop.admin";
/// The first default merchant's secure key (a sandbox key: public on purpose).
pub const DEFAULT_MERCHANT_SECURE_KEY: &str = "sandbox-merchant-secure-key";
/// The second default merchant's member id: another shop of the same partner, to try
/// isolation with.
pub const OTHER_MERCHANT_ID: &str = "11345";
/// The second default merchant's login name.
pub const OTHER_MERCHANT_USERNAME: &str = "other.admin";
/// The second default merchant's secure key (a sandbox key: public on purpose).
pub const OTHER_MERCHANT_SECURE_KEY: &str = "sandbox-other-merchant-secure-key";

/// Every partner the sandbox knows, each with its merchants.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SandboxConfig {
    /// The partners.
    pub partners: Vec<PartnerConfig>,
}

/// A partner: it signs up customers and lists the data of all its merchants.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PartnerConfig {
    /// `authentication.partnerId`.
    pub partner_id: PartnerId,
    /// `partner.userName` of the partner auth-token request.
    #[serde(deserialize_with = "username")]
    pub username: Username,
    /// The partner's own secure key.
    #[serde(deserialize_with = "secure_key")]
    pub secure_key: SecureKey,
    /// The partner's merchants.
    #[serde(default)]
    pub merchants: Vec<MerchantConfig>,
}

/// A merchant: it pays, stores and uses tokens, and sees only its own data.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MerchantConfig {
    /// `authentication.memberId`.
    pub member_id: MemberId,
    /// `merchant.username` of the auth-token request.
    #[serde(deserialize_with = "username")]
    pub username: Username,
    /// The merchant's secure key.
    #[serde(deserialize_with = "secure_key")]
    pub secure_key: SecureKey,
    /// `authentication.accountId`, when the merchant has one (not checked by the sandbox).
    #[serde(default)]
    pub account_id: Option<AccountId>,
    /// `authentication.terminalId`, when the merchant has one (not checked by the sandbox).
    #[serde(default)]
    pub terminal_id: Option<TerminalId>,
}

impl MerchantConfig {
    /// The merchant's credentials, to sign requests with.
    #[must_use]
    pub fn credentials(&self) -> Credentials {
        Credentials::merchant(self.member_id, self.secure_key.clone())
    }

    /// A protocol context for this merchant, without an auth token yet.
    #[must_use]
    pub fn context(&self) -> Context {
        Context {
            credentials: self.credentials(),
            account_id: self.account_id,
            terminal_id: self.terminal_id,
            auth_token: None,
        }
    }
}

impl PartnerConfig {
    /// The partner's credentials, to sign requests with.
    #[must_use]
    pub fn credentials(&self) -> Credentials {
        Credentials::partner(self.partner_id, self.secure_key.clone())
    }

    /// A protocol context for this partner, without an auth token yet.
    #[must_use]
    pub fn context(&self) -> Context {
        Context::new(self.credentials())
    }
}

impl Default for SandboxConfig {
    /// One partner (`100`) with two merchants (`11344` and `11345`), keys in the
    /// `DEFAULT_*` and `OTHER_*` constants.
    fn default() -> Self {
        let merchants = [
            (
                DEFAULT_MERCHANT_ID,
                DEFAULT_MERCHANT_USERNAME,
                DEFAULT_MERCHANT_SECURE_KEY,
                "2541",
            ),
            (
                OTHER_MERCHANT_ID,
                OTHER_MERCHANT_USERNAME,
                OTHER_MERCHANT_SECURE_KEY,
                "2542",
            ),
        ]
        .map(|(member_id, username, secure_key, account)| {
            serde_json::json!({
                "memberId": member_id, "username": username, "secureKey": secure_key,
                "accountId": account, "terminalId": account,
            })
        });
        let config = serde_json::json!({ "partners": [{
            "partnerId": DEFAULT_PARTNER_ID,
            "username": DEFAULT_PARTNER_USERNAME,
            "secureKey": DEFAULT_PARTNER_SECURE_KEY,
            "merchants": merchants,
        }]});
        match serde_json::from_value::<Self>(config).map(Self::validated) {
            Ok(Ok(config)) => config,
            // The constants above are valid ids and keys; the unit test
            // `default_configuration_is_valid` proves it.
            _ => Self {
                partners: Vec::new(),
            },
        }
    }
}

/// The largest configuration file [`SandboxConfig::from_file`] reads: 1 MiB holds
/// thousands of merchants.
pub const MAX_CONFIG_FILE_BYTES: u64 = 1024 * 1024;

impl SandboxConfig {
    /// Reads a configuration from JSON text (the shape of the module example).
    ///
    /// # Errors
    /// [`Error::Config`] for JSON of another shape, an id of the wrong form, an empty or
    /// `|`-holding key, a member or partner id used twice, or a login name used twice under
    /// one partner.
    pub fn from_json(text: &str) -> Result<Self, Error> {
        serde_json::from_str::<Self>(text)
            .map_err(|error| config_error("the file".into(), error))?
            .validated()
    }

    /// Reads a configuration from a JSON file of at most [`MAX_CONFIG_FILE_BYTES`]; no more
    /// is read (`/dev/zero` is refused, not swallowed).
    ///
    /// # Errors
    /// [`Error::ConfigFile`] when the file cannot be read or is larger, then those of
    /// [`from_json`](Self::from_json).
    pub fn from_file(path: &std::path::Path) -> Result<Self, Error> {
        use std::io::Read as _;
        let failed = |source| Error::ConfigFile {
            path: path.display().to_string(),
            source,
        };
        let mut text = String::new();
        std::fs::File::open(path)
            .and_then(|file| {
                file.take(MAX_CONFIG_FILE_BYTES + 1)
                    .read_to_string(&mut text)
            })
            .map_err(failed)?;
        if u64::try_from(text.len()).map_or(true, |len| len > MAX_CONFIG_FILE_BYTES) {
            return Err(failed(std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                "larger than 1 MiB",
            )));
        }
        Self::from_json(&text)
    }

    /// The merchant with this member id.
    #[must_use]
    pub fn merchant(&self, member_id: &str) -> Option<&MerchantConfig> {
        self.partners
            .iter()
            .flat_map(|partner| &partner.merchants)
            .find(|merchant| merchant.member_id.as_str() == member_id)
    }

    /// The partner with this id.
    #[must_use]
    pub fn partner(&self, partner_id: &str) -> Option<&PartnerConfig> {
        self.partners
            .iter()
            .find(|partner| partner.partner_id.as_str() == partner_id)
    }
}

/// A login name of the file, checked as [`Username::new`] checks one.
fn username<'de, D: Deserializer<'de>>(input: D) -> Result<Username, D::Error> {
    Username::new(String::deserialize(input)?).map_err(de::Error::custom)
}

/// A secure key of the file, checked as [`SecureKey::new`] checks one (its errors never
/// repeat the key).
fn secure_key<'de, D: Deserializer<'de>>(input: D) -> Result<SecureKey, D::Error> {
    SecureKey::new(String::deserialize(input)?).map_err(de::Error::custom)
}

fn config_error(what: String, reason: impl ToString) -> Error {
    Error::Config {
        what,
        reason: reason.to_string(),
    }
}

impl SandboxConfig {
    /// The configuration, once it names at least one partner, no partner or member id
    /// twice, and no login name twice under one partner.
    fn validated(self) -> Result<Self, Error> {
        if self.partners.is_empty() {
            return Err(config_error("partners".into(), "names no partner"));
        }
        let mut partner_ids = HashSet::new();
        let mut member_ids = HashSet::new();
        for (p, partner) in self.partners.iter().enumerate() {
            if !partner_ids.insert(partner.partner_id) {
                return Err(config_error(
                    format!("partners[{p}].partnerId"),
                    "is used twice",
                ));
            }
            let mut usernames = HashSet::from([partner.username.as_str()]);
            for (m, merchant) in partner.merchants.iter().enumerate() {
                let at = |field: &str| format!("partners[{p}].merchants[{m}].{field}");
                if !member_ids.insert(merchant.member_id) {
                    return Err(config_error(at("memberId"), "is used twice"));
                }
                if !usernames.insert(merchant.username.as_str()) {
                    return Err(config_error(
                        at("username"),
                        "is used twice under one partner",
                    ));
                }
            }
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_configuration_is_valid() {
        let config = SandboxConfig::default();
        assert_eq!(config.partners.len(), 1);
        assert_eq!(config.partners[0].merchants.len(), 2);
        assert!(config.merchant(OTHER_MERCHANT_ID).is_some());
    }

    #[test]
    fn refuses_a_member_id_used_twice() {
        let error = SandboxConfig::from_json(
            r#"{"partners": [{"partnerId": "1", "username": "p", "secureKey": "k",
                "merchants": [
                  {"memberId": "5", "username": "a", "secureKey": "k1"},
                  {"memberId": "5", "username": "b", "secureKey": "k2"}]}]}"#,
        )
        .unwrap_err();
        assert!(
            error.to_string().contains("merchants[1].memberId"),
            "{error}"
        );
    }

    #[test]
    fn a_value_of_the_wrong_form_is_named_with_its_line() {
        let error = SandboxConfig::from_json(
            "{\"partners\": [{\"partnerId\": \"1\", \"username\": \"p\", \"secureKey\": \"k\",\n\
             \"merchants\": [{\"memberId\": \"5x!\", \"username\": \"a\", \"secureKey\": \"k1\"}]}]}",
        )
        .unwrap_err()
        .to_string();
        assert!(
            error.contains("memberId") && error.contains("line 2"),
            "{error}"
        );
    }

    #[test]
    fn errors_never_repeat_a_key() {
        let error = SandboxConfig::from_json(
            r#"{"partners": [{"partnerId": "1", "username": "p", "secureKey": "top|secret"}]}"#,
        )
        .unwrap_err();
        assert!(!error.to_string().contains("top|secret"), "{error}");
    }
}
