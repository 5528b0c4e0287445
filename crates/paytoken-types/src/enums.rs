//! Open enums: the values the interface names, plus `Other` for every value it does not.
//!
//! The gateway's value sets are not fully published, so an unknown value is kept as it came
//! (`Other`), never refused. [`from_wire`](PaymentType::from_wire) maps a known text to its
//! variant, so `Other` never holds a value that has a variant of its own.

use alloc::string::String;
use core::convert::Infallible;
use core::str::FromStr;

macro_rules! open_enum {
    ($(#[$doc:meta])* $name:ident {
        $($(#[$vdoc:meta])* $variant:ident => $wire:literal $(| $alias:literal)*,)+
    }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
            /// A value this version does not know, kept as it came.
            Other(String),
        }

        impl $name {
            /// Every wire text this version knows, in the order the interface lists them.
            pub const KNOWN: &'static [&'static str] = &[$($wire),+];

            /// The value for a wire text; an unknown text becomes `Other`.
            #[must_use]
            pub fn from_wire(text: &str) -> Self {
                match text {
                    $($wire => Self::$variant,)+
                    other => Self::Other(String::from(other)),
                }
            }

            /// The wire text.
            #[must_use]
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant => $wire,)+
                    Self::Other(text) => text,
                }
            }
        }

        /// Reads an answer's text ignoring case and surrounding blanks, and the names some
        /// deployments use instead of the code; anything else is kept as `Other`, as it came.
        impl crate::Tolerant for $name {
            fn read_tolerant(text: &str) -> Option<Self> {
                let trimmed = crate::trimmed(text);
                $(
                    if trimmed.eq_ignore_ascii_case($wire)
                        $(|| trimmed.eq_ignore_ascii_case($alias))*
                    {
                        return Some(Self::$variant);
                    }
                )+
                Some(Self::Other(String::from(text)))
            }
        }

        $crate::text_traits::text_traits!($name(Display, AsRef));

        impl FromStr for $name {
            type Err = Infallible;
            fn from_str(text: &str) -> Result<Self, Infallible> {
                Ok(Self::from_wire(text))
            }
        }

        impl From<&str> for $name {
            fn from(text: &str) -> Self {
                Self::from_wire(text)
            }
        }

        impl crate::form::sealed::Sealed for $name {}

        impl crate::form::FormValue for $name {
            fn form_bytes(&self) -> &[u8] {
                self.as_str().as_bytes()
            }

            fn form_text(&self) -> &str {
                self.as_str()
            }

            /// A variant's own text is plain when the interface's is (worked out when
            /// compiled); `Other` holds any text and is looked at.
            fn is_plain(&self) -> bool {
                match self {
                    $(Self::$variant => const { crate::form::is_plain($wire) },)+
                    Self::Other(_) => false,
                }
            }
        }

        #[cfg(feature = "serde")]
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct Visitor;
                impl serde::de::Visitor<'_> for Visitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                        f.write_str("a string")
                    }
                    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<$name, E> {
                        Ok($name::from_wire(text))
                    }
                }
                deserializer.deserialize_str(Visitor)
            }
        }
    };
}

open_enum! {
    /// The card or account brand (`paymentBrand`).
    PaymentBrand {
        /// `VISA`.
        Visa => "VISA",
        /// `MC`: Mastercard.
        Mastercard => "MC" | "MASTERCARD" | "MASTER",
        /// `AMEX`.
        Amex => "AMEX" | "AMERICANEXPRESS",
        /// `DINER`: Diners Club.
        Diners => "DINER" | "DINERS" | "DINERSCLUB",
        /// `DISC`: Discover.
        Discover => "DISC" | "DISCOVER",
        /// `JCB`.
        Jcb => "JCB",
        /// `MAESTRO`.
        Maestro => "MAESTRO",
        /// `RUPAY`.
        Rupay => "RUPAY",
        /// `DIRECTDEBIT`, for SEPA bank accounts.
        DirectDebit => "DIRECTDEBIT",
    }
}

open_enum! {
    /// How the payment is made (`paymentMode`).
    PaymentMode {
        /// `CC`: credit card.
        CreditCard => "CC",
        /// `DC`: debit card.
        DebitCard => "DC",
        /// `SEPA`: SEPA direct debit.
        Sepa => "SEPA",
    }
}

open_enum! {
    /// What a request does (`paymentType`).
    PaymentType {
        /// `DB`: debit, authorise and capture at once.
        Debit => "DB",
        /// `PA`: pre-authorisation, captured later.
        PreAuthorization => "PA",
        /// `DL`: delete a stored registration.
        Delete => "DL",
        /// `CP`: capture a pre-authorisation.
        Capture => "CP",
        /// `RF`: refund.
        Refund => "RF",
        /// `RV`: reversal.
        Reversal => "RV",
        /// `IN`: inquiry.
        Inquiry => "IN",
    }
}

open_enum! {
    /// The place of a payment in a recurring series (`recurringType`).
    RecurringType {
        /// `INITIAL`: the first payment, which sets the series up.
        Initial => "INITIAL",
        /// `REPEATED`: each later payment.
        Repeated => "REPEATED",
    }
}

open_enum! {
    /// The customer's sex (`customer.sex`); the interface shows only `male`.
    Sex {
        /// `male`.
        Male => "male",
        /// `female`.
        Female => "female",
    }
}

open_enum! {
    /// A transaction's status (`transactionStatus`).
    TransactionStatus {
        /// `Y`: approved.
        Approved => "Y",
        /// `N`: failed or declined.
        Declined => "N",
        /// `P`: pending.
        Pending => "P",
        /// `3D`: waiting for 3-D Secure authentication.
        ThreeDSecure => "3D",
        /// `C`: cancelled.
        Cancelled => "C",
    }
}

open_enum! {
    /// The long status of a transaction (`status` of an inquiry's answer, `transactionStatus`
    /// of an invoice): where it stands in its life, refunds, cancels and chargebacks
    /// included. The short `transactionStatus` of a payment answer is [`TransactionStatus`].
    TransactionState {
        /// `begun`.
        Begun => "begun",
        /// `authstarted`.
        AuthStarted => "authstarted",
        /// `authsuccessful`: authorised (a pre-authorisation waiting for capture).
        AuthSuccessful => "authsuccessful",
        /// `authfailed`.
        AuthFailed => "authfailed",
        /// `authcancelled`.
        AuthCancelled => "authcancelled",
        /// `cancelstarted`.
        CancelStarted => "cancelstarted",
        /// `cancelled`.
        Cancelled => "cancelled",
        /// `capturestarted`.
        CaptureStarted => "capturestarted",
        /// `capturesuccess`: the money moved.
        CaptureSuccess => "capturesuccess",
        /// `capturefailed`.
        CaptureFailed => "capturefailed",
        /// `markedforreversal`: a refund is under way.
        MarkedForReversal => "markedforreversal",
        /// `reversed`: refunded.
        Reversed => "reversed",
        /// `chargeback`.
        Chargeback => "chargeback",
        /// `failed`.
        Failed => "failed",
        /// `settled`.
        Settled => "settled",
    }
}

open_enum! {
    /// A stored registration's status (`registrationStatus`).
    RegistrationStatus {
        /// `Y`: active, usable for payments.
        Active => "Y",
        /// `N`: inactive (deleted).
        Inactive => "N",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_prelude::*;

    #[test]
    fn known_values_map_to_variants_and_back() {
        assert_eq!(PaymentType::from_wire("DB"), PaymentType::Debit);
        assert_eq!(PaymentType::Inquiry.as_str(), "IN");
        assert_eq!(
            TransactionStatus::from_wire("3D"),
            TransactionStatus::ThreeDSecure
        );
        assert_eq!(RecurringType::Repeated.to_string(), "REPEATED");
        assert_eq!("VISA".parse(), Ok(PaymentBrand::Visa));
    }

    #[test]
    fn unknown_values_are_kept() {
        let brand = PaymentBrand::from_wire("UNIONPAY");
        assert_eq!(brand, PaymentBrand::Other("UNIONPAY".into()));
        assert_eq!(brand.as_str(), "UNIONPAY");
        // Case matters on the wire: `db` is not `DB`.
        assert_eq!(
            PaymentType::from_wire("db"),
            PaymentType::Other("db".into())
        );
    }

    #[cfg(feature = "serde")]
    #[test]
    fn deserializes_any_string() {
        let status: TransactionStatus = serde_json::from_str("\"Y\"").unwrap();
        assert_eq!(status, TransactionStatus::Approved);
        let status: RegistrationStatus = serde_json::from_str("\"X\"").unwrap();
        assert_eq!(status, RegistrationStatus::Other("X".into()));
    }
}
