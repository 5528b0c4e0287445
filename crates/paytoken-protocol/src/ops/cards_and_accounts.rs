//! The stored cards and bank accounts
//! (`POST /transactionServices/REST/v1/getCardsAndAccounts`), of every customer or of one.
//!
//! The success code is `0008` on the gateway (`00008` on some), and both lists follow the
//! one-or-many rule: an array, a single object for one entry, left out when empty. With no
//! registrations at all the gateway answers an error whose description is
//! "Invalid Recurring Type." (its code is not public): that reads as an empty list.

use paytoken_types::{
    CodeFamily, CustomerId, ExpiryMonth, ExpiryYear, GatewayResult, MemberId, PartnerId,
    RegistrationId, RegistrationStatus,
};

use super::{Operation, SMALL_BODY};
use crate::answer::{Field, wire_object};
use crate::echo::{Echoed, Sent};
use crate::signed::{AuthFields, Signed, SignedRequest};
use crate::wire::{self, Owner, require_success};
use crate::{Context, Error, OperationKind, Request, fields};

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
    /// `customerId`, when the list is one customer's (checked against the one asked for).
    pub customer_id: Option<Field<CustomerId>>,
    /// `result`: the gateway's success, or its "no registrations" answer (see the module
    /// docs), which reads as an empty list.
    pub result: GatewayResult,
    /// `cards.card`, in the gateway's order.
    pub cards: Vec<StoredCard>,
    /// `bankaccounts.bankaccount`, in the gateway's order.
    pub bank_accounts: Vec<StoredBankAccount>,
}

/// A stored card.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StoredCard {
    /// `registrationId`.
    pub registration_id: Option<Field<RegistrationId>>,
    /// `registrationStatus`: `Y` when active.
    pub registration_status: Option<Field<RegistrationStatus>>,
    /// `cardType`, such as `VISA`.
    pub card_type: Option<String>,
    /// `bin`.
    pub bin: Option<String>,
    /// `last4Digits`.
    pub last_four: Option<String>,
    /// `expiryMonth`.
    pub expiry_month: Option<Field<ExpiryMonth>>,
    /// `expiryYear`.
    pub expiry_year: Option<Field<ExpiryYear>>,
    /// `customerId`, when the entry carries it.
    pub customer_id: Option<Field<CustomerId>>,
}

/// A stored bank account.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StoredBankAccount {
    /// `registrationId`.
    pub registration_id: Option<Field<RegistrationId>>,
    /// `registrationStatus`.
    pub registration_status: Option<Field<RegistrationStatus>>,
    /// `iban`, masked by the gateway: only the trailing digits are visible.
    pub masked_iban: Option<String>,
    /// `bic`.
    pub bic: Option<String>,
    /// `customerId`, when the entry carries it.
    pub customer_id: Option<Field<CustomerId>>,
}

wire_object!(impl StoredCard {
    registration_id = "registrationId",
    registration_status = "registrationStatus",
    card_type = "cardType",
    bin = "bin",
    last_four = "last4Digits" | "lastFourDigits",
    expiry_month = "expiryMonth",
    expiry_year = "expiryYear",
    customer_id = "customerId",
});

wire_object!(impl StoredBankAccount {
    registration_id = "registrationId",
    registration_status = "registrationStatus",
    masked_iban = "iban",
    bic = "bic",
    customer_id = "customerId",
});

wire_object! {
    struct WireCards {
        card: Vec<StoredCard> = "card",
    }
}

wire_object! {
    struct WireAccounts {
        bankaccount: Vec<StoredBankAccount> = "bankaccount",
    }
}

wire_object! {
    struct WireList {
        member_id: Option<Field<MemberId>> = "memberId",
        partner_id: Option<Field<PartnerId>> = "partnerId",
        customer_id: Option<Field<CustomerId>> = "customerId",
        result: Option<GatewayResult> = "result",
        cards: Option<WireCards> = "cards",
        bankaccounts: Option<WireAccounts> = "bankaccounts",
    }
}

/// The description the gateway gives a list with no registrations at all (its code is not
/// public): compared ignoring case, surrounding blanks and the final dot.
const NO_REGISTRATIONS: &str = "invalid recurring type";

/// Whether a refusal is the gateway's "no registrations": never for a `2xxxx` code, so an
/// auth-token or checksum failure is never shown as an empty list.
fn is_no_registrations(result: &GatewayResult) -> bool {
    let description = result.description.trim();
    let description = description.strip_suffix('.').unwrap_or(description).trim();
    result.code.family() != CodeFamily::SystemCheck
        && description.eq_ignore_ascii_case(NO_REGISTRATIONS)
}

/// The checksum rule of the list: `id|key`, nothing more.
const SIGNED: &[Signed] = &[];

impl Operation for CardsAndAccounts {
    type Response = StoredRegistrations;
    const KIND: OperationKind = OperationKind::CardsAndAccounts;

    fn request(&self, context: &Context) -> Result<Request, Error> {
        SignedRequest::new(
            Self::KIND,
            context,
            SIGNED,
            PATH,
            SMALL_BODY,
            AuthFields::ID_ONLY,
        )
        .form(|form| {
            form.optional(fields::CUSTOMER_ID, self.customer_id.as_ref());
        })
        .finish()
    }

    /// Decided by the result code; the "no registrations" answer is an empty list. Checks
    /// the echoed `customerId` when the list is one customer's.
    fn parse(&self, status: u16, body: &[u8]) -> Result<StoredRegistrations, Error> {
        parse_list(self.customer_id.as_ref(), status, body)
    }
}

/// Reads the answer to a cards-and-accounts list: for [`Operation::parse`], and for a
/// recorded answer (`crate::recorded`).
pub(crate) fn parse_list(
    customer: Option<&CustomerId>,
    status: u16,
    body: &[u8],
) -> Result<StoredRegistrations, Error> {
    let wire: WireList = wire::decode(OperationKind::CardsAndAccounts, status, body)?;
    let result = match require_success(OperationKind::CardsAndAccounts, wire.result, body) {
        Ok(result) => result,
        Err(Error::Refused(refusal)) if is_no_registrations(&refusal.result) => refusal.result,
        Err(error) => return Err(error),
    };
    let customer_id = wire.customer_id;
    if let Some(asked) = customer {
        Sent {
            id: Some(("customerId", asked.as_str())),
            ..Sent::default()
        }
        .check(
            OperationKind::CardsAndAccounts,
            &Echoed::id(customer_id.as_ref().map(Field::raw)),
        )?;
    }
    Ok(StoredRegistrations {
        owner: Owner::from_fields(wire.member_id, wire.partner_id),
        customer_id,
        result,
        cards: wire.cards.map(|cards| cards.card).unwrap_or_default(),
        bank_accounts: wire
            .bankaccounts
            .map(|accounts| accounts.bankaccount)
            .unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use paytoken_types::ResultCode;

    #[test]
    fn no_registrations_is_told_by_its_description_never_by_a_system_code() {
        let result = |code: &str, description: &str| GatewayResult {
            code: ResultCode::new(code),
            description: description.into(),
        };
        assert!(is_no_registrations(&result("", "Invalid Recurring Type.")));
        assert!(is_no_registrations(&result(
            "30025",
            " invalid recurring type "
        )));
        assert!(is_no_registrations(&result(
            "10001",
            "INVALID RECURRING TYPE"
        )));
        assert!(!is_no_registrations(&result(
            "20003",
            "Invalid Recurring Type."
        )));
        assert!(!is_no_registrations(&result(
            "30025",
            "Invalid recurring type given"
        )));
    }
}
