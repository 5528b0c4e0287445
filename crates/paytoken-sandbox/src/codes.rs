//! Every result code the sandbox answers with, in one table (the interface's own codes and
//! families: docs/WIRE.md, "Answers").
//!
//! Success codes are the interface's own; the rest follow the gateway's documented families
//! (`2xxxx` system checks, `3xxxx` validation, `9xxxx` rejections) and reuse the codes of the
//! public samples where one exists. The real gateway's full table is not public: clients
//! must classify by family, and the sandbox's codes are chosen so that doing so works.
//!
//! | code | description | when |
//! |---|---|---|
//! | `00001` | Transaction succeeded | payment or token payment approved |
//! | `00002` | Registration successful | stand-alone registration |
//! | `00003` | Registration successfully deleted | delete |
//! | `00004` | Capture successful | capture |
//! | `00005` | Refund successful | refund |
//! | `00006` | Cancel successful | cancel |
//! | `00007` | Cardholder successfully registered | customer sign-up |
//! | `0008` | Your request processed successfully | cards and accounts |
//! | `00026` | Record found | inquiry |
//! | `00001` | Success | invoice list page |
//! | `200` | Token generated successfully | auth token |
//! | `00020` | Auth Token generated successfully | regenerate (under `statusInvoiceResult`, as documented) |
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
//! | `30008` | Invalid field: *name* | a field of the wrong form (a `merchantRedirectUrl` or `notificationUrl` that is not an `http` or `https` URL among them) |
//! | `30009` | Query string not accepted | the URL carries `?` |
//! | `30010` | Malformed request body | not a form body, a field twice, or a field name past 128 bytes |
//! | `30011` | Customer not found | `customer.customerId` unknown to the member |
//! | `30012` | No INITIAL payment on this registration | `REPEATED` before `INITIAL` |
//! | `30013` | Installment count not offered for this registration | count outside the plan |
//! | `30014` | Too many fields | a form of more than 200 fields |
//! | `30015` | Field too long | a value past its bound: 2,048 characters for a URL or a token, 255 for any other |
//! | `30016` | Unknown currency | not an ISO 4217 code in use |
//! | `30017` | Amount above the limit | above 1,000,000,000.00 |
//! | `30018` | Brand does not match the card number | `paymentBrand` other than the number's brand |
//! | `30019` | Implausible expiry year | more than 20 years ahead |
//! | `30020` | Currency does not match the payment | capture or refund in another currency |
//! | `30021` | Amount above the authorised amount | capture of more than the `PA` |
//! | `30025` | Invalid Recurring Type. | cards and accounts with no registrations (the gateway's words, sic; its code is not public, this one is the sandbox's) |
//! | `30040` | No record found for the given id | inquiry of an unknown payment |
//! | `30050` | No installment plan for this card | BIN without a plan |
//! | `30060` | No records found | invoice page past the end |
//! | `90010` | Registration not found | unknown token, or another member's |
//! | `90011` | Registration is inactive | deleted token |
//! | `90030` | Refund amount exceeds what was taken | refunds summing above the capture or debit |
//! | `90031` | Transaction cannot be cancelled | not an uncaptured, uncancelled `PA` |
//! | `90032` | Transaction cannot be captured | not an uncaptured, uncancelled `PA` |
//! | `90033` | Transaction cannot be refunded | nothing taken (a `PA` not captured, cancelled, declined), or all of it refunded |
//! | `90020` | Sandbox storage full | the sandbox holds as many payments, registrations or customers as it keeps |

/// One code and its description, as the sandbox sends them in `result`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Code {
    /// `result.code`.
    pub code: &'static str,
    /// `result.description` (for the "missing" and "invalid" codes, followed by the field).
    pub description: &'static str,
}

const fn code(code: &'static str, description: &'static str) -> Code {
    Code { code, description }
}

/// `00001`: Transaction succeeded.
pub const TRANSACTION_SUCCEEDED: Code = code("00001", "Transaction succeeded");
/// `00002`: Registration successful.
pub const REGISTRATION_SUCCESSFUL: Code = code("00002", "Registration successful");
/// `00003`: Registration successfully deleted.
pub const REGISTRATION_DELETED: Code = code("00003", "Registration successfully deleted");
/// `00007`: Cardholder successfully registered.
pub const CARDHOLDER_REGISTERED: Code = code("00007", "Cardholder successfully registered");
/// `0008`: Your request processed successfully.
pub const LIST_PROCESSED: Code = code("0008", "Your request processed successfully");
/// `00004`: Capture successful.
pub const CAPTURE_SUCCESSFUL: Code = code("00004", "Capture successful");
/// `00005`: Refund successful.
pub const REFUND_SUCCESSFUL: Code = code("00005", "Refund successful");
/// `00006`: Cancel successful.
pub const CANCEL_SUCCESSFUL: Code = code("00006", "Cancel successful");
/// `30020`: Currency does not match the payment.
pub const CURRENCY_MISMATCH: Code = code("30020", "Currency does not match the payment");
/// `30021`: Amount above the authorised amount.
pub const ABOVE_AUTHORISED: Code = code("30021", "Amount above the authorised amount");
/// `90030`: Refund amount exceeds what was taken.
pub const REFUND_EXCEEDS: Code = code("90030", "Refund amount exceeds what was taken");
/// `90031`: Transaction cannot be cancelled.
pub const CANNOT_CANCEL: Code = code("90031", "Transaction cannot be cancelled");
/// `90032`: Transaction cannot be captured.
pub const CANNOT_CAPTURE: Code = code("90032", "Transaction cannot be captured");
/// `90033`: Transaction cannot be refunded.
pub const CANNOT_REFUND: Code = code("90033", "Transaction cannot be refunded");
/// `00026`: Record found.
pub const RECORD_FOUND: Code = code("00026", "Record found");
/// `00001`: Success.
pub const INVOICES_FOUND: Code = code("00001", "Success");
/// `200`: Token generated successfully.
pub const TOKEN_GENERATED: Code = code("200", "Token generated successfully");
/// A token regenerated, in the documented answer's words (under `statusInvoiceResult`).
pub const TOKEN_REGENERATED: Code = code("00020", "Auth Token generated successfully");

/// `10001`: Transaction failed.
pub const TRANSACTION_FAILED: Code = code("10001", "Transaction failed");
/// `10004`: Transaction pending.
pub const TRANSACTION_PENDING: Code = code("10004", "Transaction pending");
/// `90026`: 3-D Secure authentication pending.
pub const THREE_D_SECURE_PENDING: Code = code("90026", "3-D Secure authentication pending");

/// `20001`: Invalid login credentials.
pub const INVALID_LOGIN: Code = code("20001", "Invalid login credentials");
/// `20002`: Authorization token is invalid or has expired.
pub const TOKEN_INVALID: Code = code("20002", "Authorization token is invalid or has expired");
/// `20003`: Authorization token is missing.
pub const TOKEN_MISSING: Code = code("20003", "Authorization token is missing");
/// `20004`: Authorization token was issued to another member.
pub const TOKEN_OF_ANOTHER: Code =
    code("20004", "Authorization token was issued to another member");
/// `20010`: Checksum mismatch.
pub const CHECKSUM_MISMATCH: Code = code("20010", "Checksum mismatch");

/// `30001`: Invalid amount.
pub const INVALID_AMOUNT: Code = code("30001", "Invalid amount");
/// `30002`: Invalid card number.
pub const INVALID_CARD_NUMBER: Code = code("30002", "Invalid card number");
/// `30003`: Card has expired.
pub const CARD_EXPIRED: Code = code("30003", "Card has expired");
/// `30004`: Invalid payment type.
pub const INVALID_PAYMENT_TYPE: Code = code("30004", "Invalid payment type");
/// `30005`: Invalid registration id.
pub const INVALID_REGISTRATION_ID: Code = code("30005", "Invalid registration id");
/// `30006`: Duplicate merchant transaction id.
pub const DUPLICATE_TRANSACTION: Code = code("30006", "Duplicate merchant transaction id");
/// `30007`: Missing field: *field*.
pub const MISSING_FIELD: Code = code("30007", "Missing field: ");
/// `30008`: Invalid field: *field*.
pub const INVALID_FIELD: Code = code("30008", "Invalid field: ");
/// `30009`: Query string not accepted.
pub const QUERY_STRING: Code = code("30009", "Query string not accepted");
/// `30010`: Malformed request body.
pub const MALFORMED_BODY: Code = code("30010", "Malformed request body");
/// `30011`: Customer not found.
pub const CUSTOMER_NOT_FOUND: Code = code("30011", "Customer not found");
/// `30012`: No INITIAL payment on this registration.
pub const NO_INITIAL_PAYMENT: Code = code("30012", "No INITIAL payment on this registration");
pub(crate) const INSTALLMENT_NOT_OFFERED: Code = code(
    "30013",
    "Installment count not offered for this registration",
);
/// `30040`: No record found for the given id.
/// The gateway's answer to a list of cards and accounts with nothing in it; the code is the
/// sandbox's own (the gateway's is not public), the description the gateway's, sic.
pub const NO_REGISTRATIONS: Code = code("30025", "Invalid Recurring Type.");
/// A form of more fields than any operation sends.
pub const TOO_MANY_FIELDS: Code = code("30014", "Too many fields");
/// A value longer than a gateway keeps.
pub const FIELD_TOO_LONG: Code = code("30015", "Field too long");
/// A currency that is not an ISO 4217 code in use.
pub const UNKNOWN_CURRENCY: Code = code("30016", "Unknown currency");
/// An amount above the sandbox's ceiling.
pub const AMOUNT_ABOVE_LIMIT: Code = code("30017", "Amount above the limit");
/// A `paymentBrand` that the card number's range contradicts.
pub const BRAND_MISMATCH: Code = code("30018", "Brand does not match the card number");
/// An expiry year too far ahead to be a card's.
pub const IMPLAUSIBLE_EXPIRY: Code = code("30019", "Implausible expiry year");
/// The sandbox holds as much as it keeps; start a new one.
pub const STORAGE_FULL: Code = code("90020", "Sandbox storage full");
/// No such transaction.
pub const NO_RECORD: Code = code("30040", "No record found for the given id");
/// `30050`: No installment plan for this card.
pub const NO_INSTALLMENT_PLAN: Code = code("30050", "No installment plan for this card");
/// `30060`: No records found.
pub const NO_INVOICES: Code = code("30060", "No records found");
/// `90010`: Registration not found.
pub const REGISTRATION_NOT_FOUND: Code = code("90010", "Registration not found");
/// `90011`: Registration is inactive.
pub const REGISTRATION_INACTIVE: Code = code("90011", "Registration is inactive");
