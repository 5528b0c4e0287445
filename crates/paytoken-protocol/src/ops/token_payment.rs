//! A payment with a stored token (`POST /transactionServices/REST/v1/paywithtoken/{id}`):
//! plain, opening a recurring series (`INITIAL`) or continuing one (`REPEATED`), with an
//! optional installment count and CVV.

use core::net::IpAddr;

use paytoken_types::{
    Amount, Currency, Customer, Cvv, MerchantTransactionId, PaymentType, RecurringType,
    RegistrationId, TextRule,
};

use super::{Operation, SMALL_BODY, check_charge};
use crate::echo::Sent;
use crate::outcome::{Transaction, parse_transaction};
use crate::signed::{AuthFields, Signed, SignedRequest};
use crate::{Context, Error, OperationKind, Request, fields};

/// The path of payments with a stored token, and of deleting one, without the id.
pub const PATH_PREFIX: &str = "/transactionServices/REST/v1/paywithtoken/";

/// The largest installment count accepted.
pub const MAX_INSTALLMENTS: u16 = 99;

/// A payment with a stored card or account.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TokenPayment {
    /// The token, in the path.
    pub registration_id: RegistrationId,
    /// `amount`, also hashed into the checksum.
    pub amount: Amount,
    /// `currency`.
    pub currency: Currency,
    /// `paymentType`: [`PaymentType::Debit`] (the default) or
    /// [`PaymentType::PreAuthorization`].
    pub payment_type: PaymentType,
    /// `merchantTransactionId`: strongly advised, since it is what finds the payment by
    /// inquiry when its answer is lost.
    pub merchant_transaction_id: Option<MerchantTransactionId>,
    /// `recurringType`: `INITIAL` for the first payment of a series, `REPEATED` after.
    pub recurring_type: Option<RecurringType>,
    /// `installment`: a count from the token's installment plans, 1 to
    /// [`MAX_INSTALLMENTS`].
    pub installment: Option<u16>,
    /// `card.cvv`, where the gateway asks for it again.
    pub cvv: Option<Cvv>,
    /// `customer.ip`.
    pub customer_ip: Option<IpAddr>,
    /// `merchantRedirectUrl`.
    pub merchant_redirect_url: Option<String>,
}

impl TokenPayment {
    /// A debit of `amount` from the stored `registration_id`.
    #[must_use]
    pub const fn new(registration_id: RegistrationId, amount: Amount, currency: Currency) -> Self {
        Self {
            registration_id,
            amount,
            currency,
            payment_type: PaymentType::Debit,
            merchant_transaction_id: None,
            recurring_type: None,
            installment: None,
            cvv: None,
            customer_ip: None,
            merchant_redirect_url: None,
        }
    }

    paytoken_types::setters! {
        /// A pre-authorisation (`PA`) instead of a debit.
        pub fn preauthorization() => payment_type = PaymentType::PreAuthorization;

        /// Sets `merchantTransactionId`.
        pub fn merchant_transaction_id(id: MerchantTransactionId) => merchant_transaction_id = Some(id);

        /// Sets `recurringType`.
        pub fn recurring(recurring_type: RecurringType) => recurring_type = Some(recurring_type);

        /// Sets `installment`.
        pub fn installment(count: u16) => installment = Some(count);

        /// Sets `card.cvv`.
        pub fn cvv(cvv: Cvv) => cvv = Some(cvv);

        /// Sets `customer.ip`.
        pub fn customer_ip(ip: IpAddr) => customer_ip = Some(ip);
    }

    fn validate(&self) -> Result<(), Error> {
        check_charge(
            self.amount,
            &self.payment_type,
            "a token payment is DB or PA (delete a token with DeleteToken)",
        )?;
        if let Some(RecurringType::Other(_)) = self.recurring_type {
            return Err(Error::Invalid {
                field: "recurringType",
                reason: "is INITIAL or REPEATED",
            });
        }
        if self
            .installment
            .is_some_and(|count| count == 0 || count > MAX_INSTALLMENTS)
        {
            return Err(Error::Invalid {
                field: "installment",
                reason: "is a count from 1 to 99",
            });
        }
        Ok(())
    }
}

/// The checksum rule of a token payment: `id|key|registrationId|amount`, the id being the
/// one the path ends with.
const SIGNED: &[Signed] = &[
    Signed::PathSegment {
        field: RegistrationId::FIELD,
    },
    Signed::field(fields::AMOUNT),
];

impl Operation for TokenPayment {
    type Response = Transaction;
    const KIND: OperationKind = OperationKind::TokenPayment;

    fn request(&self, context: &Context) -> Result<Request, Error> {
        self.validate()?;
        SignedRequest::new(
            Self::KIND,
            context,
            SIGNED,
            PATH_PREFIX,
            SMALL_BODY,
            AuthFields::TERMINAL,
        )
        .path_segment(self.registration_id.as_str())
        .form(|form| {
            form.optional(
                fields::MERCHANT_TRANSACTION_ID,
                self.merchant_transaction_id
                    .as_ref()
                    .map(MerchantTransactionId::as_str),
            );
            form.field(fields::AMOUNT, &self.amount.to_wire());
            form.field(fields::CURRENCY, &self.currency);
            form.field(fields::PAYMENT_TYPE, &self.payment_type);
            form.optional(fields::RECURRING_TYPE, self.recurring_type.as_ref());
            if let Some(count) = self.installment {
                form.display(fields::INSTALLMENT, &count);
            }
            form.optional(fields::CARD_CVV, self.cvv.as_ref().map(Cvv::expose_digits));
            if let Some(ip) = self.customer_ip {
                form.ip(Customer::IP, ip);
            }
            form.optional_text(
                fields::MERCHANT_REDIRECT_URL,
                self.merchant_redirect_url.as_deref(),
                TextRule::Url,
            );
        })
        .finish()
    }

    /// Checks the echoed `merchantTransactionId` (when one was sent), `amount`, `currency`
    /// and `registrationId`.
    fn parse(&self, status: u16, body: &[u8]) -> Result<Transaction, Error> {
        let sent = Sent {
            merchant_transaction_id: self.merchant_transaction_id.as_ref(),
            amount: Some(self.amount),
            currency: Some(self.currency),
            id: Some((RegistrationId::FIELD, self.registration_id.as_str())),
        };
        parse_transaction(Self::KIND, status, body, &sent)
    }
}
