//! The stored cards and bank accounts
//! (`POST /transactionServices/REST/v1/getCardsAndAccounts`), of every customer or of one.
//!
//! The success code is `0008` on the gateway (`00008` on some), and both lists follow the
//! one-or-many rule: an array, a single object for one entry, left out when empty.

use paytoken_checksum::rules;
use paytoken_types::{
    CustomerId, ExpiryMonth, ExpiryYear, GatewayResult, MemberId, PartnerId, RegistrationId,
    RegistrationStatus,
};
use serde::Deserialize;

use super::{AuthFields, Operation, SMALL_BODY, write_authentication};
use crate::wire::{self, OneOrMany, Owner, require_success};
use crate::{Context, Error, OperationKind, Request, request};

/// The path of the list.
pub const PATH: &str = "/transactionServices/REST/v1/getCardsAndAccounts";

/// Lists the stored cards and bank accounts, of one customer when `customer_id` is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CardsAndAccounts {
    /// `customer.customerId`.
    pub customer_id: Option<CustomerId>,
}

impl CardsAndAccounts {
    /// Every stored card and account of the merchant (or partner).
    #[must_use]
    pub const fn all() -> Self {
        Self { customer_id: None }
    }

    /// Those of one customer.
    #[must_use]
    pub const fn of_customer(customer_id: CustomerId) -> Self {
        Self {
            customer_id: Some(customer_id),
        }
    }
}

/// The stored registrations.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StoredRegistrations {
    /// `memberId` or `partnerId`.
    pub owner: Option<Owner>,
    /// `customerId`, when the list is one customer's.
    pub customer_id: Option<CustomerId>,
    /// `result`.
    pub result: GatewayResult,
    /// `cards.card`, in the gateway's order.
    pub cards: Vec<StoredCard>,
    /// `bankaccounts.bankaccount`, in the gateway's order.
    pub bank_accounts: Vec<StoredBankAccount>,
}

/// A stored card.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct StoredCard {
    /// `registrationId`.
    pub registration_id: RegistrationId,
    /// `registrationStatus`: `Y` when active.
    pub registration_status: Option<RegistrationStatus>,
    /// `cardType`, such as `VISA`.
    pub card_type: Option<String>,
    /// `bin`.
    pub bin: Option<String>,
    /// `last4Digits`.
    #[serde(rename = "last4Digits")]
    pub last_four: Option<String>,
    /// `expiryMonth`.
    pub expiry_month: Option<ExpiryMonth>,
    /// `expiryYear`.
    pub expiry_year: Option<ExpiryYear>,
    /// `customerId`, when the entry carries it.
    pub customer_id: Option<CustomerId>,
}

/// A stored bank account.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct StoredBankAccount {
    /// `registrationId`.
    pub registration_id: RegistrationId,
    /// `registrationStatus`.
    pub registration_status: Option<RegistrationStatus>,
    /// `iban`, masked by the gateway: only the trailing digits are visible.
    #[serde(rename = "iban")]
    pub masked_iban: Option<String>,
    /// `bic`.
    pub bic: Option<String>,
    /// `customerId`, when the entry carries it.
    pub customer_id: Option<CustomerId>,
}

#[derive(Deserialize)]
struct WireCards {
    #[serde(default)]
    card: OneOrMany<StoredCard>,
}

#[derive(Deserialize)]
struct WireAccounts {
    #[serde(default)]
    bankaccount: OneOrMany<StoredBankAccount>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireList {
    member_id: Option<MemberId>,
    partner_id: Option<PartnerId>,
    customer_id: Option<CustomerId>,
    result: Option<GatewayResult>,
    cards: Option<WireCards>,
    bankaccounts: Option<WireAccounts>,
}

impl Operation for CardsAndAccounts {
    type Response = StoredRegistrations;
    const KIND: OperationKind = OperationKind::CardsAndAccounts;

    fn request(&self, context: &Context) -> Result<Request, Error> {
        let checksum = rules::cards_and_accounts(&context.credentials)
            .compute()
            .to_hex();
        Ok(request::build(
            Self::KIND,
            PATH.to_owned(),
            context,
            SMALL_BODY,
            |form| {
                write_authentication(form, context, &checksum, AuthFields::ID_ONLY);
                form.optional(
                    CustomerId::FIELD,
                    self.customer_id.as_ref().map(CustomerId::as_str),
                );
            },
        ))
    }

    fn parse(status: u16, body: &[u8]) -> Result<StoredRegistrations, Error> {
        let wire: WireList = wire::decode(Self::KIND, status, body)?;
        let result = require_success(Self::KIND, wire.result, body)?;
        Ok(StoredRegistrations {
            owner: Owner::from_fields(wire.member_id, wire.partner_id),
            customer_id: wire.customer_id,
            result,
            cards: wire.cards.map(|cards| cards.card.0).unwrap_or_default(),
            bank_accounts: wire
                .bankaccounts
                .map(|accounts| accounts.bankaccount.0)
                .unwrap_or_default(),
        })
    }
}
