//! Every result code the sandbox answers with, in one table.
//!
//! Success codes are the interface's own; the rest follow the families of the field notes
//! (`2xxxx` system checks, `3xxxx` validation, `9xxxx` rejections) and reuse the codes of the
//! public samples where one exists. The real gateway's full table is not public: clients
//! must classify by family, and the sandbox's codes are chosen so that doing so works.
//!
//! | code | description | when |
//! |---|---|---|
//! | `00001` | Transaction succeeded | payment or token payment approved |
//! | `00002` | Registration successful | stand-alone registration |
//! | `00003` | Registration successfully deleted | delete |
//! | `00007` | Cardholder successfully registered | customer sign-up |
//! | `0008` | Your request processed successfully | cards and accounts |
//! | `00026` | Record found | inquiry |
//! | `00001` | Success | invoice list page |
//! | `200` | Token generated successfully | auth token, regenerate |
//! | `10001` | Transaction failed | declined card, insufficient funds (see `remark`) |
//! | `10004` | Transaction pending | pending card |
//! | `90026` | 3-D Secure authentication pending | 3-D Secure card |
//! | `20001` | Invalid login credentials | unknown member, partner or user name, wrong key |
//! | `20002` | Authorization token is invalid or has expired | unknown, revoked or expired token |
//! | `20003` | Authorization token is missing | no `AuthToken` header |
//! | `20004` | Authorization token was issued to another member | token of someone else |
//! | `20010` | Checksum mismatch | wrong or missing checksum |
//! | `30001` | Invalid amount | not `digits.dd`, or zero |
//! | `30002` | Invalid card number | not 12 to 19 digits, or bad Luhn |
//! | `30003` | Card has expired | expiry before the sandbox's month |
//! | `30004` | Invalid payment type | not one the path accepts |
//! | `30005` | Invalid registration id | not alphanumeric, or longer than 32 |
//! | `30006` | Duplicate merchant transaction id | reused by the same member |
//! | `30007` | Missing field: *name* | a required field is absent or empty |
//! | `30008` | Invalid field: *name* | a field of the wrong form |
//! | `30009` | Query string not accepted | the URL carries `?` |
//! | `30010` | Malformed request body | not a form body, or a field twice |
//! | `30011` | Customer not found | `customer.customerId` unknown to the member |
//! | `30012` | No INITIAL payment on this registration | `REPEATED` before `INITIAL` |
//! | `30013` | Installment count not offered for this registration | count outside the plan |
//! | `30040` | No record found for the given id | inquiry of an unknown payment |
//! | `30050` | No installment plan for this card | BIN without a plan |
//! | `30060` | No records found | invoice page past the end |
//! | `90010` | Registration not found | unknown token, or another member's |
//! | `90011` | Registration is inactive | deleted token |

/// One code and its description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Code {
    pub(crate) code: &'static str,
    pub(crate) description: &'static str,
}

const fn code(code: &'static str, description: &'static str) -> Code {
    Code { code, description }
}

pub(crate) const TRANSACTION_SUCCEEDED: Code = code("00001", "Transaction succeeded");
pub(crate) const REGISTRATION_SUCCESSFUL: Code = code("00002", "Registration successful");
pub(crate) const REGISTRATION_DELETED: Code = code("00003", "Registration successfully deleted");
pub(crate) const CARDHOLDER_REGISTERED: Code = code("00007", "Cardholder successfully registered");
pub(crate) const LIST_PROCESSED: Code = code("0008", "Your request processed successfully");
pub(crate) const RECORD_FOUND: Code = code("00026", "Record found");
pub(crate) const INVOICES_FOUND: Code = code("00001", "Success");
pub(crate) const TOKEN_GENERATED: Code = code("200", "Token generated successfully");

pub(crate) const TRANSACTION_FAILED: Code = code("10001", "Transaction failed");
pub(crate) const TRANSACTION_PENDING: Code = code("10004", "Transaction pending");
pub(crate) const THREE_D_SECURE_PENDING: Code = code("90026", "3-D Secure authentication pending");

pub(crate) const INVALID_LOGIN: Code = code("20001", "Invalid login credentials");
pub(crate) const TOKEN_INVALID: Code =
    code("20002", "Authorization token is invalid or has expired");
pub(crate) const TOKEN_MISSING: Code = code("20003", "Authorization token is missing");
pub(crate) const TOKEN_OF_ANOTHER: Code =
    code("20004", "Authorization token was issued to another member");
pub(crate) const CHECKSUM_MISMATCH: Code = code("20010", "Checksum mismatch");

pub(crate) const INVALID_AMOUNT: Code = code("30001", "Invalid amount");
pub(crate) const INVALID_CARD_NUMBER: Code = code("30002", "Invalid card number");
pub(crate) const CARD_EXPIRED: Code = code("30003", "Card has expired");
pub(crate) const INVALID_PAYMENT_TYPE: Code = code("30004", "Invalid payment type");
pub(crate) const INVALID_REGISTRATION_ID: Code = code("30005", "Invalid registration id");
pub(crate) const DUPLICATE_TRANSACTION: Code = code("30006", "Duplicate merchant transaction id");
/// Its description is followed by the field's name.
pub(crate) const MISSING_FIELD: Code = code("30007", "Missing field: ");
/// Its description is followed by the field's name.
pub(crate) const INVALID_FIELD: Code = code("30008", "Invalid field: ");
pub(crate) const QUERY_STRING: Code = code("30009", "Query string not accepted");
pub(crate) const MALFORMED_BODY: Code = code("30010", "Malformed request body");
pub(crate) const CUSTOMER_NOT_FOUND: Code = code("30011", "Customer not found");
pub(crate) const NO_INITIAL_PAYMENT: Code =
    code("30012", "No INITIAL payment on this registration");
pub(crate) const INSTALLMENT_NOT_OFFERED: Code = code(
    "30013",
    "Installment count not offered for this registration",
);
pub(crate) const NO_RECORD: Code = code("30040", "No record found for the given id");
pub(crate) const NO_INSTALLMENT_PLAN: Code = code("30050", "No installment plan for this card");
pub(crate) const NO_INVOICES: Code = code("30060", "No records found");
pub(crate) const REGISTRATION_NOT_FOUND: Code = code("90010", "Registration not found");
pub(crate) const REGISTRATION_INACTIVE: Code = code("90011", "Registration is inactive");
