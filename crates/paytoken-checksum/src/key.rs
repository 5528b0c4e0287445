//! The secure key and the credentials it belongs to.

use alloc::string::String;
use core::fmt;

use paytoken_types::{MemberId, PartnerId};
use zeroize::Zeroizing;

use crate::Error;

/// The secret a merchant or partner generates in the gateway's dashboard. Signed requests
/// never carry it, only checksums hashed with it; the one request that sends it is the
/// auth-token fetch (`authentication.sKey`, over the deployment's TLS), as the interface
/// asks.
///
/// `Debug` prints `SecureKey(***)`; there is no `Display` or `Serialize`; the text is wiped
/// when the key is dropped. [`SecureKey::expose_secret`] is the one way to read it, so every
/// use is easy to find.
#[derive(Clone, PartialEq, Eq)]
pub struct SecureKey(Zeroizing<String>);

impl SecureKey {
    /// The field its errors name: the key as the back office and the configuration call it.
    pub const FIELD: &'static str = "secureKey";

    /// Wraps a key.
    ///
    /// # Errors
    /// [`Error::EmptyKey`] for an empty key, [`Error::Separator`] for a key holding `|`.
    pub fn new(key: impl Into<String>) -> Result<Self, Error> {
        let key = Zeroizing::new(key.into());
        if key.is_empty() {
            return Err(Error::EmptyKey);
        }
        if key.contains('|') {
            return Err(Error::Separator { field: Self::FIELD });
        }
        Ok(Self(key))
    }

    /// The key itself.
    #[must_use]
    pub fn expose_secret(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for SecureKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecureKey(***)")
    }
}

/// Who signs a request: a merchant (`authentication.memberId`) or a partner
/// (`authentication.partnerId`), each with its own secure key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Credentials {
    /// A merchant and its key.
    Merchant {
        /// `authentication.memberId`.
        member_id: MemberId,
        /// The merchant's secure key.
        secure_key: SecureKey,
    },
    /// A partner and its key.
    Partner {
        /// `authentication.partnerId`.
        partner_id: PartnerId,
        /// The partner's secure key.
        secure_key: SecureKey,
    },
}

impl Credentials {
    /// A merchant's credentials.
    #[must_use]
    pub const fn merchant(member_id: MemberId, secure_key: SecureKey) -> Self {
        Self::Merchant {
            member_id,
            secure_key,
        }
    }

    /// A partner's credentials.
    #[must_use]
    pub const fn partner(partner_id: PartnerId, secure_key: SecureKey) -> Self {
        Self::Partner {
            partner_id,
            secure_key,
        }
    }

    /// The member or partner id, as it opens every checksum.
    #[must_use]
    pub fn id(&self) -> &str {
        match self {
            Self::Merchant { member_id, .. } => member_id.as_str(),
            Self::Partner { partner_id, .. } => partner_id.as_str(),
        }
    }

    /// The form field that carries the id: `authentication.memberId` or
    /// `authentication.partnerId`.
    #[must_use]
    pub const fn id_field(&self) -> &'static str {
        match self {
            Self::Merchant { .. } => MemberId::FIELD,
            Self::Partner { .. } => PartnerId::FIELD,
        }
    }

    /// The secure key.
    #[must_use]
    pub const fn secure_key(&self) -> &SecureKey {
        match self {
            Self::Merchant { secure_key, .. } | Self::Partner { secure_key, .. } => secure_key,
        }
    }

    /// Whether these are a partner's credentials.
    #[must_use]
    pub const fn is_partner(&self) -> bool {
        matches!(self, Self::Partner { .. })
    }
}
