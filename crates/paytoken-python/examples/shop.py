"""A shop's flow with `paytoken.Client`: python3 shop.py ORDER_ID, the gateway in the
PAYTOKEN_* variables (`paytoken sandbox` prints them)."""

import os
import sys

import paytoken

client = paytoken.Client()  # a lost answer is settled by inquiry before a call returns
key = paytoken.SecureKey(os.environ["PAYTOKEN_SECURE_KEY"])


def checkout(order_id, card, notification_url=None):
    """Pays 50.00 EUR storing the card, charges its token 20.00 EUR and refunds that:
    whether to ship, and whether the refund went through."""
    paid = client.pay(order_id, "50.00", "EUR", card, store_card=True, notification_url=notification_url)
    again = client.pay_with_token(paid.registration_id, "20.00", "EUR", merchant_transaction_id=f"{order_id}-2")
    ship = client.inquiry(merchant_transaction_id=order_id).is_approved
    try:
        client.refund(again.payment_id, "20.00", "EUR")
    except paytoken.OutcomeUnknown:  # a lost refund: no status tells it apart, ask below
        pass
    refunded = client.inquiry(payment_id=again.payment_id).status == "refunded"
    return ship, refunded


def on_notification(body, content_type):
    """A notification the gateway posted to `notification_url`: believed once verified."""
    notified = paytoken.verify_notification(body, key, content_type=content_type)
    return notified.merchant_transaction_id, notified.is_approved


if __name__ == "__main__":
    print(checkout(sys.argv[1], paytoken.Card("4000000000000051", "12", "2030", "745")))
