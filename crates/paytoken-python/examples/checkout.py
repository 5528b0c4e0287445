"""A shop's checkout with paytoken, the recipe the README shows: pay, and when the answer
is lost after the request may have left (a timeout, a dropped connection, a body cut
short, a proxy's error page), settle by an inquiry for the shop's own order id, never by
paying again. Input errors and refusals are raised: nothing was made.

The HTTP library is yours: `SENDERS` has the standard library's, `requests`' and
`httpx`'s, each with the exceptions that mean "the request may have been processed".
The suite runs each against a sandbox that drops the payment's answer after taking it,
and checks the outcome against the sandbox's books.

    python3 checkout.py ORDER_ID [urllib|requests|httpx]

reads the gateway from PAYTOKEN_BASE_URL, PAYTOKEN_MEMBER_ID, PAYTOKEN_PARTNER_ID,
PAYTOKEN_USERNAME and PAYTOKEN_SECURE_KEY, pays 50.00 EUR with a test card and prints
the outcome as JSON.
"""

import http.client
import json
import os
import sys
import urllib.error
import urllib.request

import paytoken


# -- the senders: one per HTTP library, each with a timeout ------------------------------

def send_urllib(request, base_url):
    """The standard library's sender. A status other than 200 is handed to `parse` too,
    which says what it means."""
    sent = urllib.request.Request(request.url(base_url), data=request.body,
                                  headers=dict(request.headers), method=request.method)
    try:
        with urllib.request.urlopen(sent, timeout=30) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as answer:
        return answer.code, answer.read()


#: What urllib raises once the request may have left: a timeout, a dropped connection, a
#: body cut short. (`URLError` is an `OSError`.)
URLLIB_LOST = (OSError, http.client.HTTPException)


def send_requests(request, base_url):
    import requests
    answer = requests.post(request.url(base_url), data=request.body,
                           headers=dict(request.headers), timeout=30)
    return answer.status_code, answer.content


def requests_lost():
    import requests
    return (requests.RequestException,)


def send_httpx(request, base_url):
    import httpx
    answer = httpx.post(request.url(base_url), content=request.body,
                        headers=dict(request.headers), timeout=30)
    return answer.status_code, answer.content


def httpx_lost():
    import httpx
    return (httpx.TransportError,)   # timeouts, network and protocol errors


SENDERS = {
    "urllib": (send_urllib, lambda: URLLIB_LOST),
    "requests": (send_requests, requests_lost),
    "httpx": (send_httpx, httpx_lost),
}


# -- the checkout ------------------------------------------------------------------------

def checkout(gateway, order_id, card, library="urllib"):
    """Pays 50.00 EUR for `order_id`: the payment's `Transaction`, or the one an inquiry
    found after a lost answer, or None when the gateway has no record of it (it was not
    made). Raises `paytoken.InvalidInput` and `paytoken.Refused` (nothing was made)."""
    send, lost = SENDERS[library]

    def call(operation, context):
        return operation.parse(*send(operation.request(context), gateway["BASE_URL"]))

    key = paytoken.SecureKey(gateway["SECURE_KEY"])
    credentials = paytoken.Credentials.merchant(gateway["MEMBER_ID"], key)
    fetch = paytoken.fetch_auth_token(gateway["PARTNER_ID"], gateway["USERNAME"])
    context = paytoken.Context(credentials, auth_token=call(fetch, paytoken.Context(credentials)).token)

    payment = paytoken.payment(order_id, "50.00", "EUR", card, store_card=True)
    try:
        return call(payment, context)
    except (paytoken.OutcomeUnknown, *lost()):
        # It may have been processed: inquire by the order id, never send it again.
        try:
            return call(paytoken.inquiry(merchant_transaction_id=order_id), context)
        except paytoken.Refused as refused:
            if refused.token_refused:     # fetch a new auth token and inquire again
                raise
            return None                   # no such payment: it was not made


def main():
    order_id = sys.argv[1]
    library = sys.argv[2] if len(sys.argv) > 2 else "urllib"
    gateway = {name: os.environ[f"PAYTOKEN_{name}"]
               for name in ("BASE_URL", "MEMBER_ID", "PARTNER_ID", "USERNAME", "SECURE_KEY")}
    card = paytoken.Card("4000000000000051", "12", "2030", "745")
    paid = checkout(gateway, order_id, card, library)
    print(json.dumps({
        "orderId": order_id,
        "approved": bool(paid and paid.is_approved),
        "paymentId": paid.payment_id if paid else None,
    }))


if __name__ == "__main__":
    main()
