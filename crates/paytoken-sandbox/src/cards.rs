//! Test cards: the card number decides how a payment goes, and the BIN decides the
//! installment plan.
//!
//! Each card's outcome and each BIN's installment counts are tabled in docs/SANDBOX.md,
//! "Test cards" (a test holds its cards, and README's, to these constants). A token
//! remembers the outcome of the card it was made from, so token payments with it go the
//! same way; any other valid number is approved; bank accounts always pay.

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
