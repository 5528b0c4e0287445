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
use serde::Deserialize;

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
#[derive(Debug, Clone)]
pub struct SandboxConfig {
    /// The partners.
    pub partners: Vec<PartnerConfig>,
}

/// A partner: it signs up customers and lists the data of all its merchants.
#[derive(Debug, Clone)]
pub struct PartnerConfig {
    /// `authentication.partnerId`.
    pub partner_id: PartnerId,
    /// `partner.userName` of the partner auth-token request.
    pub username: Username,
    /// The partner's own secure key.
    pub secure_key: SecureKey,
    /// The partner's merchants.
    pub merchants: Vec<MerchantConfig>,
}

/// A merchant: it pays, stores and uses tokens, and sees only its own data.
#[derive(Debug, Clone)]
pub struct MerchantConfig {
    /// `authentication.memberId`.
    pub member_id: MemberId,
    /// `merchant.username` of the auth-token request.
    pub username: Username,
    /// The merchant's secure key.
    pub secure_key: SecureKey,
    /// `authentication.accountId`, when the merchant has one (not checked by the sandbox).
    pub account_id: Option<AccountId>,
    /// `authentication.terminalId`, when the merchant has one (not checked by the sandbox).
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
        let raw = RawConfig {
            partners: vec![RawPartner {
                partner_id: DEFAULT_PARTNER_ID.into(),
                username: DEFAULT_PARTNER_USERNAME.into(),
                secure_key: DEFAULT_PARTNER_SECURE_KEY.into(),
                merchants: vec![
                    RawMerchant {
                        member_id: DEFAULT_MERCHANT_ID.into(),
                        username: DEFAULT_MERCHANT_USERNAME.into(),
                        secure_key: DEFAULT_MERCHANT_SECURE_KEY.into(),
                        account_id: Some("2541".into()),
                        terminal_id: Some("2541".into()),
                    },
                    RawMerchant {
                        member_id: OTHER_MERCHANT_ID.into(),
                        username: OTHER_MERCHANT_USERNAME.into(),
                        secure_key: OTHER_MERCHANT_SECURE_KEY.into(),
                        account_id: Some("2542".into()),
                        terminal_id: Some("2542".into()),
                    },
                ],
            }],
        };
        match raw.validate() {
            Ok(config) => config,
            // The constants above are valid ids and keys; the unit test
            // `default_configuration_is_valid` proves it.
            Err(_) => Self {
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
        let raw: RawConfig = serde_json::from_str(text).map_err(|error| Error::Config {
            what: "the file".into(),
            reason: error.to_string(),
        })?;
        raw.validate()
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RawConfig {
    partners: Vec<RawPartner>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RawPartner {
    partner_id: String,
    username: String,
    secure_key: String,
    #[serde(default)]
    merchants: Vec<RawMerchant>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RawMerchant {
    member_id: String,
    username: String,
    secure_key: String,
    account_id: Option<String>,
    terminal_id: Option<String>,
}

fn config_error(what: String, reason: impl ToString) -> Error {
    Error::Config {
        what,
        reason: reason.to_string(),
    }
}

impl RawConfig {
    fn validate(self) -> Result<SandboxConfig, Error> {
        if self.partners.is_empty() {
            return Err(config_error("partners".into(), "names no partner"));
        }
        let mut partner_ids = HashSet::new();
        let mut member_ids = HashSet::new();
        let mut partners = Vec::with_capacity(self.partners.len());
        for (p, raw) in self.partners.into_iter().enumerate() {
            let at = |field: &str| format!("partners[{p}].{field}");
            let partner_id =
                PartnerId::new(&raw.partner_id).map_err(|e| config_error(at("partnerId"), e))?;
            if !partner_ids.insert(partner_id) {
                return Err(config_error(at("partnerId"), "is used twice"));
            }
            let username =
                Username::new(raw.username).map_err(|e| config_error(at("username"), e))?;
            let secure_key =
                SecureKey::new(raw.secure_key).map_err(|e| config_error(at("secureKey"), e))?;
            let mut usernames = HashSet::from([username.as_str().to_owned()]);
            let mut merchants = Vec::with_capacity(raw.merchants.len());
            for (m, merchant) in raw.merchants.into_iter().enumerate() {
                let at = |field: &str| format!("partners[{p}].merchants[{m}].{field}");
                let member_id = MemberId::new(&merchant.member_id)
                    .map_err(|e| config_error(at("memberId"), e))?;
                if !member_ids.insert(member_id) {
                    return Err(config_error(at("memberId"), "is used twice"));
                }
                let username = Username::new(merchant.username)
                    .map_err(|e| config_error(at("username"), e))?;
                if !usernames.insert(username.as_str().to_owned()) {
                    return Err(config_error(
                        at("username"),
                        "is used twice under one partner",
                    ));
                }
                merchants.push(MerchantConfig {
                    member_id,
                    username,
                    secure_key: SecureKey::new(merchant.secure_key)
                        .map_err(|e| config_error(at("secureKey"), e))?,
                    account_id: merchant
                        .account_id
                        .map(|id| AccountId::new(&id))
                        .transpose()
                        .map_err(|e| config_error(at("accountId"), e))?,
                    terminal_id: merchant
                        .terminal_id
                        .map(|id| TerminalId::new(&id))
                        .transpose()
                        .map_err(|e| config_error(at("terminalId"), e))?,
                });
            }
            partners.push(PartnerConfig {
                partner_id,
                username,
                secure_key,
                merchants,
            });
        }
        Ok(SandboxConfig { partners })
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
    fn errors_never_repeat_a_key() {
        let error = SandboxConfig::from_json(
            r#"{"partners": [{"partnerId": "1", "username": "p", "secureKey": "top|secret"}]}"#,
        )
        .unwrap_err();
        assert!(!error.to_string().contains("top|secret"), "{error}");
    }
}
