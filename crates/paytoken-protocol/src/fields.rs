//! The names of the request form's fields, as the interface spells them, written once.
//!
//! The fields of the blocks (`customer.*`, `shipping.*`, `billing.*`, `card.*`,
//! `bankAccount.*`) are written by their types in `paytoken-types`; the identifiers that
//! travel alone carry their own names (`MerchantTransactionId::FIELD`, `AccountId::FIELD`,
//! ...). The names of the answers' JSON keys are a vocabulary of their own and live with
//! the answer types.

use paytoken_types::field_name;
use paytoken_types::form::FieldName;

use paytoken_types::{AccountId, CustomerId, Cvv, MerchantTransactionId, PartnerId, TerminalId};

/// `authentication.checksum`: the MD5 of the operation's rule, in lower-case hex.
pub const CHECKSUM: FieldName = field_name!("authentication.checksum");
/// `authentication.sKey`: the secure key itself, sent only to the auth-token endpoint.
pub const SECURE_KEY: FieldName = field_name!("authentication.sKey");
/// `merchant.username`: the login name of a merchant asking for an auth token.
pub const MERCHANT_USERNAME: FieldName = field_name!("merchant.username");
/// `partner.userName`: the login name of a partner asking for an auth token.
pub const PARTNER_USERNAME: FieldName = field_name!("partner.userName");
/// `authToken`: the token to exchange for a fresh one.
pub const AUTH_TOKEN: FieldName = field_name!("authToken");
/// `amount`: money, `12.50`.
pub const AMOUNT: FieldName = field_name!("amount");
/// `currency`: ISO 4217, `EUR`.
pub const CURRENCY: FieldName = field_name!("currency");
/// `paymentType`: `DB`, `PA`, `DL` (delete), `IN` (inquiry), ...
pub const PAYMENT_TYPE: FieldName = field_name!("paymentType");
/// `paymentBrand`: `VISA`, `MC`, ...
pub const PAYMENT_BRAND: FieldName = field_name!("paymentBrand");
/// `paymentMode`: `CC`, `DD`, ...
pub const PAYMENT_MODE: FieldName = field_name!("paymentMode");
/// `recurringType`: `INITIAL` or `REPEATED`.
pub const RECURRING_TYPE: FieldName = field_name!("recurringType");
/// `createRegistration`: `true` to store the card or account.
pub const CREATE_REGISTRATION: FieldName = field_name!("createRegistration");
/// `merchantRedirectUrl`: where the cardholder's browser returns.
pub const MERCHANT_REDIRECT_URL: FieldName = field_name!("merchantRedirectUrl");
/// `notificationUrl`: where the gateway reports the outcome.
pub const NOTIFICATION_URL: FieldName = field_name!("notificationUrl");
/// `orderDescriptor`: free text about the order.
pub const ORDER_DESCRIPTOR: FieldName = field_name!("orderDescriptor");
/// `tmpl_amount`: the amount in the template currency.
pub const TEMPLATE_AMOUNT: FieldName = field_name!("tmpl_amount");
/// `tmpl_currency`: the template currency.
pub const TEMPLATE_CURRENCY: FieldName = field_name!("tmpl_currency");
/// `installment`: the number of installments of a token payment.
pub const INSTALLMENT: FieldName = field_name!("installment");
/// `card.cvv` of a token payment, which sends no other card field.
pub const CARD_CVV: FieldName = field_name!(Cvv::FIELD);
/// `idType` of an inquiry: `PID` (payment id) or `MID` (merchant transaction id).
pub const ID_TYPE: FieldName = field_name!("idType");
/// `pagination.pageno`: the page of the invoice list, from 1.
pub const PAGE_NUMBER: FieldName = field_name!("pagination.pageno");
/// `pagination.records`: invoices per page.
pub const PAGE_RECORDS: FieldName = field_name!("pagination.records");
/// `merchantTransactionId`.
pub const MERCHANT_TRANSACTION_ID: FieldName = field_name!(MerchantTransactionId::FIELD);
/// `authentication.accountId`.
pub const ACCOUNT_ID: FieldName = field_name!(AccountId::FIELD);
/// `authentication.terminalId`.
pub const TERMINAL_ID: FieldName = field_name!(TerminalId::FIELD);
/// `authentication.partnerId`.
pub const PARTNER_ID: FieldName = field_name!(PartnerId::FIELD);
/// `authentication.memberId`.
pub const MEMBER_ID: FieldName = field_name!(paytoken_types::MemberId::FIELD);
/// `customer.customerId`.
pub const CUSTOMER_ID: FieldName = field_name!(CustomerId::FIELD);
