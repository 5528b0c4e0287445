//! The names of the operations the sandbox tells apart: one list for the request log, the
//! console and the faults' targets. Below every module that names an operation, so that
//! none of them imports another for it.

/// Every operation the sandbox tells apart, by the name its request log, its console and
/// its fault targets give it (`ops::Route::operation` gives them; the 3-D Secure page's last).
pub(crate) const OPERATIONS: &[&str] = &[
    "fetch_auth_token",
    "regenerate_auth_token",
    "customer_signup",
    "pay",
    "repeat_payment",
    "capture",
    "refund",
    "cancel",
    "inquiry",
    "register",
    "delete_token",
    "pay_with_token",
    "installments",
    "cards_and_accounts",
    "invoices",
    THREE_D_SECURE_PAGE,
];

/// The operations that move money: a fault queued without a target waits for one.
pub(crate) const MONEY_MOVING: &[&str] = &[
    "pay",
    "pay_with_token",
    "repeat_payment",
    "capture",
    "refund",
    "cancel",
];

/// The operation name of a request to the 3-D Secure page.
pub(crate) const THREE_D_SECURE_PAGE: &str = "three_d_secure_page";
