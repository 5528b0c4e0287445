"""Types of `AsyncClient`."""

from decimal import Decimal
from typing import Literal, Optional, Union

from ._paytoken import (
    Amount,
    Answer,
    AuthTokenGrant,
    Card,
    Deleted,
    Invoice,
    InvoicePage,
    Operation,
    Registered,
    SecureKey,
    SignedUp,
    StoredRegistrations,
    Transaction,
)

class AsyncClient:
    """``Client`` for asyncio: the same settings, methods, answers and exceptions, each
    method a coroutine. A cancelled call that changes something goes on to its end."""
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
    async def pay(
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
    async def pay_with_token(
        self,
        registration_id: str,
        amount: Amount,
        currency: str,
        *,
        merchant_transaction_id: Optional[str] = None,
        payment_type: str = "DB",
        recurring: Optional[str] = None,
    ) -> Transaction: ...
    async def repeat_payment(
        self,
        first_payment_id: str,
        amount: Amount,
        currency: str,
        *,
        merchant_transaction_id: Optional[str] = None,
        payment_type: str = "DB",
    ) -> Transaction: ...
    async def capture(self, payment_id: str, amount: Amount, currency: str) -> Transaction: ...
    async def refund(self, payment_id: str, amount: Amount, currency: str) -> Transaction: ...
    async def cancel(self, payment_id: str) -> Transaction: ...
    async def inquiry(self, *, payment_id: Optional[str] = None, merchant_transaction_id: Optional[str] = None) -> Transaction: ...
    async def reconcile(self, merchant_transaction_id: str) -> Transaction: ...
    async def register_card(self, card: Card, *, customer_id: Optional[str] = None) -> Registered: ...
    async def register_bank_account(
        self, iban: str, bic: str, *, holder: Optional[str] = None, customer_id: Optional[str] = None
    ) -> Registered: ...
    async def customer_signup(self, given_name: str, surname: str, email: str) -> SignedUp: ...
    async def delete_token(self, registration_id: str) -> Deleted: ...
    async def installments(self, registration_id: str) -> list[int]: ...
    async def cards_and_accounts(self, *, customer_id: Optional[str] = None) -> StoredRegistrations: ...
    async def invoice_page(self, page: int, records: int) -> InvoicePage: ...
    async def all_invoices(self, *, records: int = 100) -> list[Invoice]: ...
    async def fetch_auth_token(self, partner_id: str, username: str) -> AuthTokenGrant: ...
    async def regenerate_auth_token(self, partner_id: str, token: str) -> AuthTokenGrant: ...
    async def send(self, operation: Operation) -> Answer: ...
