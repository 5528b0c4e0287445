//! The names of the request form's fields, as the interface spells them, written once.
//!
//! The fields of the blocks (`customer.*`, `shipping.*`, `billing.*`, `card.*`,
//! `bankAccount.*`) are written by their types in `paytoken-types`; the identifiers that
//! travel alone carry their own names (`MerchantTransactionId::FIELD`, `AccountId::FIELD`,
//! ...). The names of the answers' JSON keys are a vocabulary of their own and live with
//! the answer types.

use paytoken_types::{AccountId, CustomerId, Cvv, MerchantTransactionId, PartnerId, TerminalId};

/// `authentication.checksum`: the MD5 of the operation's rule, in lower-case hex.
pub(crate) const CHECKSUM: &str = paytoken_checksum::Checksum::FIELD;
/// `authentication.sKey`: the secure key itself, sent only to the auth-token endpoint.
pub(crate) const SECURE_KEY: &str = "authentication.sKey";
/// `merchant.username`: the login name of a merchant asking for an auth token.
pub(crate) const MERCHANT_USERNAME: &str = "merchant.username";
/// `partner.userName`: the login name of a partner asking for an auth token.
pub(crate) const PARTNER_USERNAME: &str = "partner.userName";
/// `authToken`: the token to exchange for a fresh one.
pub(crate) const AUTH_TOKEN: &str = "authToken";
/// `amount`: money, `12.50`.
pub(crate) const AMOUNT: &str = "amount";
/// `currency`: ISO 4217, `EUR`.
pub(crate) const CURRENCY: &str = "currency";
/// `paymentType`: `DB`, `PA`, `DL` (delete), `IN` (inquiry), ...
pub(crate) const PAYMENT_TYPE: &str = "paymentType";
/// `paymentBrand`: `VISA`, `MC`, ...
pub(crate) const PAYMENT_BRAND: &str = "paymentBrand";
/// `paymentMode`: `CC`, `DD`, ...
pub(crate) const PAYMENT_MODE: &str = "paymentMode";
/// `recurringType`: `INITIAL` or `REPEATED`.
pub(crate) const RECURRING_TYPE: &str = "recurringType";
/// `createRegistration`: `true` to store the card or account.
pub(crate) const CREATE_REGISTRATION: &str = "createRegistration";
/// `merchantRedirectUrl`: where the cardholder's browser returns.
pub(crate) const MERCHANT_REDIRECT_URL: &str = "merchantRedirectUrl";
/// `notificationUrl`: where the gateway reports the outcome.
pub(crate) const NOTIFICATION_URL: &str = "notificationUrl";
/// `orderDescriptor`: free text about the order.
pub(crate) const ORDER_DESCRIPTOR: &str = "orderDescriptor";
/// `tmpl_amount`: the amount in the template currency.
pub(crate) const TEMPLATE_AMOUNT: &str = "tmpl_amount";
/// `tmpl_currency`: the template currency.
pub(crate) const TEMPLATE_CURRENCY: &str = "tmpl_currency";
/// `installment`: the number of installments of a token payment.
pub(crate) const INSTALLMENT: &str = "installment";
/// `card.cvv` of a token payment, which sends no other card field.
pub(crate) const CARD_CVV: &str = Cvv::FIELD;
/// `idType` of an inquiry: `PID` (payment id) or `MID` (merchant transaction id).
pub(crate) const ID_TYPE: &str = "idType";
/// `pagination.pageno`: the page of the invoice list, from 1.
pub(crate) const PAGE_NUMBER: &str = "pagination.pageno";
/// `pagination.records`: invoices per page.
pub(crate) const PAGE_RECORDS: &str = "pagination.records";
/// `merchantTransactionId`.
pub(crate) const MERCHANT_TRANSACTION_ID: &str = MerchantTransactionId::FIELD;
/// `authentication.accountId`.
pub(crate) const ACCOUNT_ID: &str = AccountId::FIELD;
/// `authentication.terminalId`.
pub(crate) const TERMINAL_ID: &str = TerminalId::FIELD;
/// `authentication.partnerId`.
pub(crate) const PARTNER_ID: &str = PartnerId::FIELD;
/// `authentication.memberId`.
pub(crate) const MEMBER_ID: &str = paytoken_types::MemberId::FIELD;
/// `customer.customerId`.
pub(crate) const CUSTOMER_ID: &str = CustomerId::FIELD;
