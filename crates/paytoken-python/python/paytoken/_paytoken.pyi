"""Types of paytoken's compiled module; `paytoken` re-exports every name."""

from decimal import Decimal
from typing import Literal, Optional, Union

#: An amount: a ``str`` with two decimals (``"19.90"``) or a ``Decimal``; never a float.
Amount = Union[str, Decimal]

class PaytokenError(Exception):
    may_have_been_processed: bool
    field: Optional[str]

class InvalidInput(PaytokenError): ...

class Refused(PaytokenError):
    code: str
    description: str
    token_refused: bool
    def raw_description(self) -> str:
        """The description as the gateway sent it: it may hold what ``description`` masks."""

class OutcomeUnknown(PaytokenError):
    #: The order's id, to settle it by (``client.reconcile``); a ``Client``'s.
    merchant_transaction_id: Optional[str]
    #: The payment a lost capture, refund or cancel was about; a ``Client``'s.
    payment_id: Optional[str]
    #: What the client's inquiry found, when it could not settle it.
    finding: Optional[Literal["no_such_payment", "under_way", "cannot_tell"]]

class Unreadable(OutcomeUnknown): ...
class Contradiction(OutcomeUnknown): ...
class TransportFailed(PaytokenError): ...

class NotApplied(PaytokenError):
    payment_id: Optional[str]

class NotificationRejected(PaytokenError):
    reason: str

class SecureKey:
    """A secure key, shown as ``SecureKey(***)``."""
    def __init__(self, key: str) -> None: ...

class Credentials:
    """A merchant's or a partner's id with its secure key."""
    @staticmethod
    def merchant(member_id: str, key: SecureKey) -> Credentials: ...
    @staticmethod
    def partner(partner_id: str, key: SecureKey) -> Credentials: ...
    @property
    def id(self) -> str: ...

class Context:
    """What a request is built in: credentials, account, terminal, auth token."""
    def __init__(
        self,
        credentials: Credentials,
        *,
        auth_token: Optional[str] = None,
        account_id: Optional[str] = None,
        terminal_id: Optional[str] = None,
    ) -> None: ...

class Card:
    """A card, shown with its number masked and no CVV."""
    def __init__(
        self, number: str, expiry_month: str, expiry_year: str, cvv: str, *, holder: Optional[str] = None
    ) -> None: ...

class Request:
    """A signed request: send ``method`` to ``url(base_url)`` with ``headers`` and ``body``."""
    @property
    def method(self) -> str: ...
    @property
    def path(self) -> str: ...
    def url(self, base_url: str) -> str: ...
    @property
    def headers(self) -> list[tuple[str, str]]: ...
    @property
    def body(self) -> bytes: ...
    @property
    def operation(self) -> str: ...
    @property
    def is_retry_safe(self) -> bool: ...

class Transaction:
    """A transaction the gateway created, or the one an inquiry found."""
    payment_id: str
    status: str
    is_approved: bool
    result_code: str
    result_description: str
    def raw_result_description(self) -> str:
        """The description as the gateway sent it: it may hold what ``result_description`` masks."""
    transaction_status: Optional[str]
    merchant_transaction_id: Optional[str]
    registration_id: Optional[str]
    amount: Optional[str]
    currency: Optional[str]
    redirect: Optional[Redirect]

class Redirect:
    """Where a payment waiting for 3-D Secure sends the cardholder's browser."""
    url: str
    method: str
    target: Optional[str]
    parameters: list[tuple[str, str]]

class AuthTokenGrant:
    """An auth token fetched, shown by its length only."""
    @property
    def token(self) -> str: ...
    @property
    def result_code(self) -> str: ...

class Registered:
    """A card or account the gateway stored: its token."""
    registration_id: str
    result_code: str
    result_description: str
    def raw_result_description(self) -> str:
        """The description as the gateway sent it: it may hold what ``result_description`` masks."""

class SignedUp:
    """A customer the gateway created."""
    customer_id: str
    result_code: str
    result_description: str
    def raw_result_description(self) -> str:
        """The description as the gateway sent it: it may hold what ``result_description`` masks."""

class Deleted:
    """A token deleted."""
    registration_id: Optional[str]
    result_code: str
    result_description: str
    def raw_result_description(self) -> str:
        """The description as the gateway sent it: it may hold what ``result_description`` masks."""

class StoredCard:
    """A stored card, as the list shows it (never its whole number)."""
    registration_id: Optional[str]
    registration_status: Optional[str]
    bin: Optional[str]
    last_four: Optional[str]
    expiry_month: Optional[str]
    expiry_year: Optional[str]

class StoredBankAccount:
    """A stored bank account, as the list shows it."""
    registration_id: Optional[str]
    registration_status: Optional[str]
    masked_iban: Optional[str]
    bic: Optional[str]

class StoredRegistrations:
    """The stored cards and bank accounts."""
    cards: list[StoredCard]
    bank_accounts: list[StoredBankAccount]
    result_code: str

class Invoice:
    """One invoice of the list, its fields as they came."""
    order_id: Optional[str]
    amount: Optional[str]
    currency: Optional[str]
    invoice_status: Optional[str]
    transaction_status: Optional[str]
    created_date: Optional[str]
    system_invoice_id: Optional[str]

class InvoicePage:
    """One page of the invoice list."""
    invoices: list[Invoice]
    result_code: Optional[str]

class VerifiedNotification:
    """A notification whose checksum matched."""
    payment_id: str
    merchant_transaction_id: Optional[str]
    amount: str
    transaction_status: str
    status: str
    is_approved: bool
    duplicate_key: str

class Operation:
    """An operation: ``request(context)`` builds it, ``parse(status, body)`` reads its answer."""
    @property
    def name(self) -> str: ...
    def request(self, context: Context) -> Request: ...
    def parse(
        self, status: int, body: bytes, *, context: Optional[Context] = None
    ) -> (
        Transaction | AuthTokenGrant | Registered | SignedUp | Deleted | StoredRegistrations | InvoicePage | list[int]
    ): ...

Answer = Union[Transaction, AuthTokenGrant, Registered, SignedUp, Deleted, StoredRegistrations, InvoicePage, list[int]]

class Client:
    """A client of the gateway: pooled HTTPS, auth tokens, retries that never send a payment
    twice, a lost answer settled by inquiry. Each setting not given is read from its
    ``PAYTOKEN_*`` variable; each method takes what the module's function of its operation
    takes."""
    def __init__(
        self,
        base_url: Optional[str] = None,
        *,
        member_id: Optional[str] = None,
        partner_id: Optional[str] = None,
        secure_key: Union[str, SecureKey, None] = None,
        username: Optional[str] = None,
        auth_token: Optional[str] = None,
        account_id: Optional[str] = None,
        terminal_id: Optional[str] = None,
        timeout: Optional[float] = None,
        connect_timeout: Optional[float] = None,
        allow_http: bool = False,
        root_certificates: Optional[str] = None,
        proxy: Union[str, Literal[False], None] = None,
        settle_lost_answers: bool = True,
    ) -> None: ...
    @property
    def base_url(self) -> str: ...
    def pay(
        self,
        merchant_transaction_id: str,
        amount: Amount,
        currency: str,
        card: Card,
        *,
        payment_type: str = "DB",
        store_card: bool = False,
        recurring: Optional[str] = None,
        notification_url: Optional[str] = None,
        merchant_redirect_url: Optional[str] = None,
    ) -> Transaction: ...
    def pay_with_token(
        self,
        registration_id: str,
        amount: Amount,
        currency: str,
        *,
        merchant_transaction_id: Optional[str] = None,
        payment_type: str = "DB",
        recurring: Optional[str] = None,
    ) -> Transaction: ...
    def repeat_payment(
        self,
        first_payment_id: str,
        amount: Amount,
        currency: str,
        *,
        merchant_transaction_id: Optional[str] = None,
        payment_type: str = "DB",
    ) -> Transaction: ...
    def capture(self, payment_id: str, amount: Amount, currency: str) -> Transaction: ...
    def refund(self, payment_id: str, amount: Amount, currency: str) -> Transaction: ...
    def cancel(self, payment_id: str) -> Transaction: ...
    def inquiry(self, *, payment_id: Optional[str] = None, merchant_transaction_id: Optional[str] = None) -> Transaction: ...
    def reconcile(self, merchant_transaction_id: str) -> Transaction: ...
    def register_card(self, card: Card, *, customer_id: Optional[str] = None) -> Registered: ...
    def register_bank_account(
        self, iban: str, bic: str, *, holder: Optional[str] = None, customer_id: Optional[str] = None
    ) -> Registered: ...
    def customer_signup(self, given_name: str, surname: str, email: str) -> SignedUp: ...
    def delete_token(self, registration_id: str) -> Deleted: ...
    def installments(self, registration_id: str) -> list[int]: ...
    def cards_and_accounts(self, *, customer_id: Optional[str] = None) -> StoredRegistrations: ...
    def invoice_page(self, page: int, records: int) -> InvoicePage: ...
    def all_invoices(self, *, records: int = 100) -> list[Invoice]: ...
    def fetch_auth_token(self, partner_id: str, username: str) -> AuthTokenGrant: ...
    def regenerate_auth_token(self, partner_id: str, token: str) -> AuthTokenGrant: ...
    def send(self, operation: Operation) -> Answer: ...
    #: The methods that call the gateway, by name.
    calls: list[str]

def configure_runtime(*, worker_threads: int) -> None:
    """Worker threads of paytoken's runtime (2 by default): before any client's first call."""

def fetch_auth_token(partner_id: str, username: str) -> Operation: ...
def payment(
    merchant_transaction_id: str,
    amount: Amount,
    currency: str,
    card: Card,
    *,
    payment_type: str = "DB",
    store_card: bool = False,
    recurring: Optional[str] = None,
    notification_url: Optional[str] = None,
    merchant_redirect_url: Optional[str] = None,
) -> Operation: ...
def token_payment(
    registration_id: str,
    amount: Amount,
    currency: str,
    *,
    merchant_transaction_id: Optional[str] = None,
    payment_type: str = "DB",
    recurring: Optional[str] = None,
) -> Operation: ...
def capture(payment_id: str, amount: Amount, currency: str) -> Operation: ...
def refund(payment_id: str, amount: Amount, currency: str) -> Operation: ...
def cancel(payment_id: str) -> Operation: ...
def inquiry(*, payment_id: Optional[str] = None, merchant_transaction_id: Optional[str] = None) -> Operation: ...
def repeat_payment(
    first_payment_id: str,
    amount: Amount,
    currency: str,
    *,
    merchant_transaction_id: Optional[str] = None,
    payment_type: str = "DB",
) -> Operation: ...
def register_card(card: Card, *, customer_id: Optional[str] = None) -> Operation: ...
def register_bank_account(
    iban: str, bic: str, *, holder: Optional[str] = None, customer_id: Optional[str] = None
) -> Operation: ...
def regenerate_auth_token(partner_id: str, token: str) -> Operation: ...
def customer_signup(given_name: str, surname: str, email: str) -> Operation: ...
def delete_token(registration_id: str) -> Operation: ...
def installments(registration_id: str) -> Operation: ...
def cards_and_accounts(*, customer_id: Optional[str] = None) -> Operation: ...
def invoice_list(page: int, records: int) -> Operation: ...
def sign(rule: str, credentials: Credentials, values: dict[str, str]) -> str: ...
def read_answer(
    operation: str, sent: dict[str, str], status: int, body: bytes
) -> Transaction | AuthTokenGrant | Registered | SignedUp | Deleted | StoredRegistrations | InvoicePage | list[int]: ...
def asked(operation: str, fields: list[tuple[str, str]], *, path_id: Optional[str] = None) -> Operation: ...
def verify_notification(body: bytes, key: SecureKey, *, content_type: Optional[str] = None) -> VerifiedNotification: ...
