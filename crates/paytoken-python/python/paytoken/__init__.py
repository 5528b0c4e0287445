"""paytoken: the card-tokenization gateway interface for Python.

``paytoken.Client`` does the whole call: pooled HTTPS, auth tokens, retries that never send
a payment twice, and a lost answer settled by inquiry before the call returns::

    import paytoken

    client = paytoken.Client()   # the PAYTOKEN_* variables, or keyword arguments
    card = paytoken.Card("4000000000000051", "12", "2030", "745")
    paid = client.pay("order-1001", "50.00", "EUR", card, store_card=True)
    if paid.is_approved:
        ship()

Or, sans I/O: build an operation's signed request, send it with any HTTP library, read the
answer::

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

import atexit

from ._paytoken import (
    AuthTokenGrant,
    Card,
    Client,
    Context,
    Contradiction,
    Credentials,
    Deleted,
    Invoice,
    InvoicePage,
    InvalidInput,
    NotApplied,
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
    TransportFailed,
    Unreadable,
    VerifiedNotification,
    asked,
    cancel,
    capture,
    cards_and_accounts,
    configure_runtime,
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
from ._paytoken import finish_interrupted as _finish_interrupted
from ._async import AsyncClient

# A call that changes something goes on when Ctrl-C interrupts its caller: the interpreter
# waits for it before it exits, and logs how it ended.
atexit.register(_finish_interrupted)

__all__ = [
    "AsyncClient",
    "AuthTokenGrant",
    "Card",
    "Client",
    "Context",
    "Contradiction",
    "Credentials",
    "Deleted",
    "Invoice",
    "InvoicePage",
    "InvalidInput",
    "NotApplied",
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
    "TransportFailed",
    "Unreadable",
    "VerifiedNotification",
    "asked",
    "cancel",
    "capture",
    "cards_and_accounts",
    "configure_runtime",
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
