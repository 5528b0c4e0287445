//! The names of the request form's fields, as the interface spells them, written once.
//!
//! The fields of the blocks (`customer.*`, `shipping.*`, `billing.*`, `card.*`,
//! `bankAccount.*`) are written by their types in `paytoken-types`; the identifiers that
//! travel alone carry their own names (`MerchantTransactionId::FIELD`, `AccountId::FIELD`,
//! ...). The names of the answers' JSON keys are a vocabulary of their own and live with
//! the answer types.

use paytoken_types::form::FieldName;

use paytoken_types::{AccountId, CustomerId, MerchantTransactionId, PartnerId, TerminalId};

/// `authentication.checksum`: the MD5 of the operation's rule, in lower-case hex.
pub const CHECKSUM: FieldName = FieldName::new("authentication.checksum");
/// `authentication.sKey`: the secure key itself, sent only to the auth-token endpoint.
pub const SECURE_KEY: FieldName = FieldName::new("authentication.sKey");
/// `merchant.username`: the login name of a merchant asking for an auth token.
pub const MERCHANT_USERNAME: FieldName = FieldName::new("merchant.username");
/// `partner.userName`: the login name of a partner asking for an auth token.
pub const PARTNER_USERNAME: FieldName = FieldName::new("partner.userName");
/// `authToken`: the token to exchange for a fresh one.
pub const AUTH_TOKEN: FieldName = FieldName::new("authToken");
/// `amount`: money, `12.50`.
pub const AMOUNT: FieldName = FieldName::new("amount");
/// `currency`: ISO 4217, `EUR`.
pub const CURRENCY: FieldName = FieldName::new("currency");
/// `paymentType`: `DB`, `PA`, `DL` (delete), `IN` (inquiry), ...
pub const PAYMENT_TYPE: FieldName = FieldName::new("paymentType");
/// `paymentBrand`: `VISA`, `MC`, ...
pub const PAYMENT_BRAND: FieldName = FieldName::new("paymentBrand");
/// `paymentMode`: `CC`, `DD`, ...
pub const PAYMENT_MODE: FieldName = FieldName::new("paymentMode");
/// `recurringType`: `INITIAL` or `REPEATED`.
pub const RECURRING_TYPE: FieldName = FieldName::new("recurringType");
/// `createRegistration`: `true` to store the card or account.
pub const CREATE_REGISTRATION: FieldName = FieldName::new("createRegistration");
/// `merchantRedirectUrl`: where the cardholder's browser returns.
pub const MERCHANT_REDIRECT_URL: FieldName = FieldName::new("merchantRedirectUrl");
/// `notificationUrl`: where the gateway reports the outcome.
pub const NOTIFICATION_URL: FieldName = FieldName::new("notificationUrl");
/// `orderDescriptor`: free text about the order.
pub const ORDER_DESCRIPTOR: FieldName = FieldName::new("orderDescriptor");
/// `tmpl_amount`: the amount in the template currency.
pub const TEMPLATE_AMOUNT: FieldName = FieldName::new("tmpl_amount");
/// `tmpl_currency`: the template currency.
pub const TEMPLATE_CURRENCY: FieldName = FieldName::new("tmpl_currency");
/// `installment`: the number of installments of a token payment.
pub const INSTALLMENT: FieldName = FieldName::new("installment");
/// `card.cvv` of a token payment, which sends no other card field.
pub const CARD_CVV: FieldName = FieldName::new("card.cvv");
/// `idType` of an inquiry: `PID` (payment id) or `MID` (merchant transaction id).
pub const ID_TYPE: FieldName = FieldName::new("idType");
/// `pagination.pageno`: the page of the invoice list, from 1.
pub const PAGE_NUMBER: FieldName = FieldName::new("pagination.pageno");
/// `pagination.records`: invoices per page.
pub const PAGE_RECORDS: FieldName = FieldName::new("pagination.records");
/// `merchantTransactionId`.
pub const MERCHANT_TRANSACTION_ID: FieldName = FieldName::new(MerchantTransactionId::FIELD);
/// `authentication.accountId`.
pub const ACCOUNT_ID: FieldName = FieldName::new(AccountId::FIELD);
/// `authentication.terminalId`.
pub const TERMINAL_ID: FieldName = FieldName::new(TerminalId::FIELD);
/// `authentication.partnerId`.
pub const PARTNER_ID: FieldName = FieldName::new(PartnerId::FIELD);
/// `authentication.memberId`.
pub const MEMBER_ID: FieldName = FieldName::new(paytoken_types::MemberId::FIELD);
/// `customer.customerId`.
pub const CUSTOMER_ID: FieldName = FieldName::new(CustomerId::FIELD);
