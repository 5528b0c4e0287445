//! Test cards: the card number decides how a payment goes, and the BIN decides the
//! installment plan.
//!
//! | number | brand | outcome |
//! |---|---|---|
//! | [`APPROVED`] `4000000000000051` | VISA | approved (`Y`, `00001`) |
//! | [`THREE_D_SECURE`] `4000000000000002` | VISA | 3-D Secure pending (`3D`, `90026`) with a redirect to the sandbox's challenge page, where the cardholder approves or declines |
//! | [`DECLINED`] `4000000000000069` | VISA | declined (`N`, `10001`, remark "Do not honour") |
//! | [`INSUFFICIENT_FUNDS`] `4000000000009995` | VISA | declined (`N`, `10001`, remark "Insufficient funds") |
//! | [`PENDING`] `4000000000000077` | VISA | pending (`P`, `10004`); approved after [`DEFAULT_PENDING_SETTLES_AFTER`](crate::DEFAULT_PENDING_SETTLES_AFTER) on the sandbox's clock |
//! | [`TIMEOUT`] `4000000000000119` | VISA | approved, but the answer never comes: the connection stalls until the client gives up |
//! | [`MASTERCARD_APPROVED`] `5101080000000009` | MASTERCARD | approved |
//! | [`INSTALLMENTS`] `4444333322221111` | VISA | approved, with installment plan `3,4` |
//! | any other valid number | by its first digit | approved |
//!
//! A token remembers the outcome of the card it was made from, so token payments with it
//! go the same way. Bank accounts always pay.
//!
//! | BIN | installment counts |
//! |---|---|
//! | `400000` | `3,6,9,12` |
//! | `444433` | `3,4` |
//! | `510108` | `2,3,6` |
//! | any other | none: the lookup answers `30050` |

/// Approved without 3-D Secure (CVV `745` in public samples; any CVV works here).
pub const APPROVED: &str = "4000000000000051";
/// 3-D Secure: pending, with a redirect to the sandbox's own challenge page.
pub const THREE_D_SECURE: &str = "4000000000000002";
/// Declined by the issuer.
pub const DECLINED: &str = "4000000000000069";
/// Declined for insufficient funds.
pub const INSUFFICIENT_FUNDS: &str = "4000000000009995";
/// Left pending.
pub const PENDING: &str = "4000000000000077";
/// Processed and approved, but the answer never arrives: for outcome-unknown handling.
pub const TIMEOUT: &str = "4000000000000119";
/// A MasterCard, approved.
pub const MASTERCARD_APPROVED: &str = "5101080000000009";
/// Approved, and its BIN (`444433`) offers installments of 3 and 4.
pub const INSTALLMENTS: &str = "4444333322221111";

/// How a payment with a card goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Behaviour {
    Approve,
    ThreeDSecure,
    Decline,
    InsufficientFunds,
    Pend,
    TimeOut,
}

impl Behaviour {
    /// Its name in a state file.
    #[cfg(feature = "sqlite")]
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Self::Approve => "approve",
            Self::ThreeDSecure => "three_d_secure",
            Self::Decline => "decline",
            Self::InsufficientFunds => "insufficient_funds",
            Self::Pend => "pend",
            Self::TimeOut => "time_out",
        }
    }

    /// The behaviour of a name in a state file.
    #[cfg(feature = "sqlite")]
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        [
            Self::Approve,
            Self::ThreeDSecure,
            Self::Decline,
            Self::InsufficientFunds,
            Self::Pend,
            Self::TimeOut,
        ]
        .into_iter()
        .find(|behaviour| behaviour.name() == name)
    }

    /// The behaviour of a card number (digits only).
    pub(crate) fn of(number: &str) -> Self {
        match number {
            THREE_D_SECURE => Self::ThreeDSecure,
            DECLINED => Self::Decline,
            INSUFFICIENT_FUNDS => Self::InsufficientFunds,
            PENDING => Self::Pend,
            TIMEOUT => Self::TimeOut,
            _ => Self::Approve,
        }
    }
}

/// The installment counts offered for a BIN, as the wire's comma-joined text.
pub(crate) fn installment_plan(bin: &str) -> Option<&'static str> {
    match bin {
        "400000" => Some("3,6,9,12"),
        "444433" => Some("3,4"),
        "510108" => Some("2,3,6"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use paytoken_types::CardNumber;

    use super::*;

    #[test]
    fn every_test_card_is_a_valid_number() {
        for number in [
            APPROVED,
            THREE_D_SECURE,
            DECLINED,
            INSUFFICIENT_FUNDS,
            PENDING,
            TIMEOUT,
            MASTERCARD_APPROVED,
            INSTALLMENTS,
        ] {
            assert!(CardNumber::new(number).is_ok(), "{number}");
        }
    }

    #[test]
    fn plans_follow_the_bin() {
        assert_eq!(installment_plan(&INSTALLMENTS[..6]), Some("3,4"));
        assert_eq!(installment_plan("411111"), None);
        // Brands come from the one table of `paytoken-types`, the client's too.
        let brand = |number| paytoken_types::PaymentBrand::of_digits(number).unwrap();
        assert_eq!(brand(MASTERCARD_APPROVED).as_str(), "MC");
        assert_eq!(brand("6759649826438453").as_str(), "MAESTRO");
    }
}
