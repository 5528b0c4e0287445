//! Every result code the sandbox answers with, a constant each saying when (the interface's
//! own codes and families: docs/WIRE.md, "Answers"; the manual's table of them:
//! docs/SANDBOX.md, "Result codes", held to these constants by a test).
//!
//! Success codes are the interface's own; the rest follow the gateway's documented families
//! (`2xxxx` system checks, `3xxxx` validation, `9xxxx` rejections) and reuse the codes of the
//! public samples where one exists. The real gateway's full table is not public: clients
//! must classify by family, and the sandbox's codes are chosen so that doing so works.

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

/// When: payment or token payment approved.
pub const TRANSACTION_SUCCEEDED: Code = code("00001", "Transaction succeeded");
/// When: stand-alone registration.
pub const REGISTRATION_SUCCESSFUL: Code = code("00002", "Registration successful");
/// When: delete.
pub const REGISTRATION_DELETED: Code = code("00003", "Registration successfully deleted");
/// When: customer sign-up.
pub const CARDHOLDER_REGISTERED: Code = code("00007", "Cardholder successfully registered");
/// When: cards and accounts.
pub const LIST_PROCESSED: Code = code("0008", "Your request processed successfully");
/// When: capture.
pub const CAPTURE_SUCCESSFUL: Code = code("00004", "Capture successful");
/// When: refund.
pub const REFUND_SUCCESSFUL: Code = code("00005", "Refund successful");
/// When: cancel.
pub const CANCEL_SUCCESSFUL: Code = code("00006", "Cancel successful");
/// When: capture or refund in another currency.
pub const CURRENCY_MISMATCH: Code = code("30020", "Currency does not match the payment");
/// When: capture of more than the `PA`.
pub const ABOVE_AUTHORISED: Code = code("30021", "Amount above the authorised amount");
/// When: refunds summing above the capture or debit.
pub const REFUND_EXCEEDS: Code = code("90030", "Refund amount exceeds what was taken");
/// When: not an uncaptured, uncancelled `PA`.
pub const CANNOT_CANCEL: Code = code("90031", "Transaction cannot be cancelled");
/// When: not an uncaptured, uncancelled `PA`.
pub const CANNOT_CAPTURE: Code = code("90032", "Transaction cannot be captured");
/// When: nothing taken (a `PA` not captured, cancelled, declined), or all of it refunded.
pub const CANNOT_REFUND: Code = code("90033", "Transaction cannot be refunded");
/// When: inquiry.
pub const RECORD_FOUND: Code = code("00026", "Record found");
/// When: invoice list page.
pub const INVOICES_FOUND: Code = code("00001", "Success");
/// When: auth token.
pub const TOKEN_GENERATED: Code = code("200", "Token generated successfully");
/// When: regenerate (under `statusInvoiceResult`, as documented).
pub const TOKEN_REGENERATED: Code = code("00020", "Auth Token generated successfully");

/// When: declined card, insufficient funds (see `remark`).
pub const TRANSACTION_FAILED: Code = code("10001", "Transaction failed");
/// When: pending card.
pub const TRANSACTION_PENDING: Code = code("10004", "Transaction pending");
/// When: 3-D Secure card.
pub const THREE_D_SECURE_PENDING: Code = code("90026", "3-D Secure authentication pending");

/// When: unknown member, partner or user name, wrong key.
pub const INVALID_LOGIN: Code = code("20001", "Invalid login credentials");
/// When: unknown, revoked or expired token.
pub const TOKEN_INVALID: Code = code("20002", "Authorization token is invalid or has expired");
/// When: no `AuthToken` header.
pub const TOKEN_MISSING: Code = code("20003", "Authorization token is missing");
/// When: token of someone else.
pub const TOKEN_OF_ANOTHER: Code =
    code("20004", "Authorization token was issued to another member");
/// When: wrong or missing checksum.
pub const CHECKSUM_MISMATCH: Code = code("20010", "Checksum mismatch");

/// When: not `digits.dd`, or zero.
pub const INVALID_AMOUNT: Code = code("30001", "Invalid amount");
/// When: not 12 to 19 digits, or bad Luhn.
pub const INVALID_CARD_NUMBER: Code = code("30002", "Invalid card number");
/// When: expiry before the sandbox's month.
pub const CARD_EXPIRED: Code = code("30003", "Card has expired");
/// When: not one the path accepts.
pub const INVALID_PAYMENT_TYPE: Code = code("30004", "Invalid payment type");
/// When: not alphanumeric, or longer than 32.
pub const INVALID_REGISTRATION_ID: Code = code("30005", "Invalid registration id");
/// When: reused by the same member.
pub const DUPLICATE_TRANSACTION: Code = code("30006", "Duplicate merchant transaction id");
/// When: a required field is absent or empty.
pub const MISSING_FIELD: Code = code("30007", "Missing field: ");
/// When: a field of the wrong form (a `merchantRedirectUrl` or `notificationUrl` that is
/// not an `http` or `https` URL among them).
pub const INVALID_FIELD: Code = code("30008", "Invalid field: ");
/// When: the URL carries `?`.
pub const QUERY_STRING: Code = code("30009", "Query string not accepted");
/// When: not a form body, a field twice, or a field name past 128 bytes.
pub const MALFORMED_BODY: Code = code("30010", "Malformed request body");
/// When: `customer.customerId` unknown to the member.
pub const CUSTOMER_NOT_FOUND: Code = code("30011", "Customer not found");
/// When: `REPEATED` before `INITIAL`.
pub const NO_INITIAL_PAYMENT: Code = code("30012", "No INITIAL payment on this registration");
/// When: count outside the plan.
pub(crate) const INSTALLMENT_NOT_OFFERED: Code = code(
    "30013",
    "Installment count not offered for this registration",
);
/// When: cards and accounts with no registrations (the gateway's words, sic; its code is
/// not public, this one is the sandbox's).
pub const NO_REGISTRATIONS: Code = code("30025", "Invalid Recurring Type.");
/// When: a form of more than 200 fields.
pub const TOO_MANY_FIELDS: Code = code("30014", "Too many fields");
/// When: a value past its bound: 2,048 characters for a URL or a token, 255 for any other.
pub const FIELD_TOO_LONG: Code = code("30015", "Field too long");
/// When: not an ISO 4217 code in use.
pub const UNKNOWN_CURRENCY: Code = code("30016", "Unknown currency");
/// When: above 1,000,000,000.00.
pub const AMOUNT_ABOVE_LIMIT: Code = code("30017", "Amount above the limit");
/// When: `paymentBrand` other than the number's brand.
pub const BRAND_MISMATCH: Code = code("30018", "Brand does not match the card number");
/// When: more than 20 years ahead.
pub const IMPLAUSIBLE_EXPIRY: Code = code("30019", "Implausible expiry year");
/// When: the sandbox holds as many payments, registrations or customers as it keeps.
pub const STORAGE_FULL: Code = code("90020", "Sandbox storage full");
/// When: inquiry of an unknown payment.
pub const NO_RECORD: Code = code("30040", "No record found for the given id");
/// When: BIN without a plan.
pub const NO_INSTALLMENT_PLAN: Code = code("30050", "No installment plan for this card");
/// When: invoice page past the end.
pub const NO_INVOICES: Code = code("30060", "No records found");
/// When: unknown token, or another member's.
pub const REGISTRATION_NOT_FOUND: Code = code("90010", "Registration not found");
/// When: deleted token.
pub const REGISTRATION_INACTIVE: Code = code("90011", "Registration is inactive");
