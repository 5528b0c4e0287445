"""paytoken: the card-tokenization gateway interface for Python, sans I/O.

Build an operation's signed request, send it with any HTTP library, read the answer::

    import paytoken, urllib.request

    key = paytoken.SecureKey("your-secure-key")
    context = paytoken.Context(paytoken.Credentials.merchant("11344", key), auth_token=token)
    inquiry = paytoken.inquiry(merchant_transaction_id="order-1001")
    request = inquiry.request(context)
    sent = urllib.request.Request(request.url(base_url), request.body, dict(request.headers))
    with urllib.request.urlopen(sent) as answer:
        transaction = inquiry.parse(answer.status, answer.read())
    if transaction.is_approved:
        ship()

Every rule (the form, the checksum, the verdicts) is paytoken's Rust protocol crate's.
Secrets (secure keys, auth tokens, card numbers, CVVs) are masked in every ``repr``,
``str`` and exception text.
"""

from ._paytoken import (
    AuthTokenGrant,
    Card,
    Context,
    Contradiction,
    Credentials,
    Deleted,
    Invoice,
    InvoicePage,
    InvalidInput,
    NotificationRejected,
    Operation,
    OutcomeUnknown,
    PaytokenError,
    Redirect,
    Refused,
    Registered,
    Request,
    SecureKey,
    SignedUp,
    StoredBankAccount,
    StoredCard,
    StoredRegistrations,
    Transaction,
    Unreadable,
    VerifiedNotification,
    asked,
    cancel,
    capture,
    cards_and_accounts,
    customer_signup,
    delete_token,
    fetch_auth_token,
    inquiry,
    installments,
    invoice_list,
    payment,
    read_answer,
    refund,
    regenerate_auth_token,
    register_bank_account,
    register_card,
    repeat_payment,
    sign,
    token_payment,
    verify_notification,
)

__all__ = [
    "AuthTokenGrant",
    "Card",
    "Context",
    "Contradiction",
    "Credentials",
    "Deleted",
    "Invoice",
    "InvoicePage",
    "InvalidInput",
    "NotificationRejected",
    "Operation",
    "OutcomeUnknown",
    "PaytokenError",
    "Redirect",
    "Refused",
    "Registered",
    "Request",
    "SecureKey",
    "SignedUp",
    "StoredBankAccount",
    "StoredCard",
    "StoredRegistrations",
    "Transaction",
    "Unreadable",
    "VerifiedNotification",
    "asked",
    "cancel",
    "capture",
    "cards_and_accounts",
    "customer_signup",
    "delete_token",
    "fetch_auth_token",
    "inquiry",
    "installments",
    "invoice_list",
    "payment",
    "read_answer",
    "refund",
    "regenerate_auth_token",
    "register_bank_account",
    "register_card",
    "repeat_payment",
    "sign",
    "token_payment",
    "verify_notification",
]
