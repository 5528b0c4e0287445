#!/usr/bin/env python3
"""paytoken for Python under `paytoken conform --http`: each step of the kit's scenarios
built and read by the module, sent by the standard library's HTTP client.

    paytoken conform --http --client "python3 crates/paytoken-python/examples/conform_http.py"

What the module leaves to the caller is all here: the I/O, a new auth token when the
gateway refuses the one sent (`Refused.token_refused`), an answer lost (no answer in time,
a connection dropped, a body cut short, a proxy's error page) settled by an inquiry for the
order, never by sending it again, and a listener where notifications arrive.
"""

import http.client
import http.server
import json
import sys
import threading
import time
import urllib.error
import urllib.request

import paytoken

# The examples' folder is left as it was found: no __pycache__ beside them.
sys.dont_write_bytecode = True
import conform_adapter  # noqa: E402 (beside this file: the kit's words for an answer)

#: Operations whose lost answer an inquiry for the order settles; for a capture, refund or
#: cancel the status alone cannot tell, so the payment's id is reported to inquire about.
BY_ORDER = {"pay", "pay_with_token", "repeat_payment"}


class Lost(Exception):
    """No whole answer arrived: the request may have been processed."""


class Shop:
    """The handshake's merchant: its context with a current auth token, and the listener
    its notifications arrive at."""

    def __init__(self, hello):
        merchant = hello["merchant"]
        self.base_url = hello["baseUrl"]
        self.timeout = hello["requestTimeoutMs"] / 1000
        self.key = paytoken.SecureKey(merchant["secureKey"])
        self.credentials = paytoken.Credentials.merchant(merchant["id"], self.key)
        self.account_id, self.terminal_id = merchant.get("accountId"), merchant.get("terminalId")
        self.fetch = paytoken.fetch_auth_token(merchant["partnerId"], merchant["username"])
        self.sign_in()
        self.listener = Listener()

    def sign_in(self):
        grant = self.send(self.fetch, paytoken.Context(self.credentials))
        self.context = paytoken.Context(
            self.credentials, auth_token=grant.token, account_id=self.account_id, terminal_id=self.terminal_id
        )

    def send(self, operation, context):
        """The operation's answer, read; `Lost` when none arrived whole."""
        request = operation.request(context)
        sent = urllib.request.Request(
            request.url(self.base_url), data=request.body, headers=dict(request.headers), method=request.method
        )
        try:
            with urllib.request.urlopen(sent, timeout=self.timeout) as answer:
                status, body = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, body = error.code, error.read()
        except (OSError, http.client.HTTPException) as error:
            raise Lost from error
        return operation.parse(status, body)

    def call(self, operation):
        """The answer, with one new auth token when the gateway refused the one sent."""
        try:
            return self.send(operation, self.context)
        except paytoken.Refused as refused:
            if not refused.token_refused:
                raise
        self.sign_in()
        return self.send(operation, self.context)

    def perform(self, step):
        name, fields, path = step["operation"], step["fields"], step["pathValues"]
        if name == "notification":
            return self.listener.verdict(dict(fields)["paymentId"], self.key)
        if name == "invoices":
            return self.every_invoice(int(dict(fields)["pagination.records"]))
        try:
            operation = paytoken.asked(name, [tuple(pair) for pair in fields], path_id=next(iter(path.values()), None))
            return verdict(self.call(operation))
        except (Lost, paytoken.OutcomeUnknown):
            return self.settled(name, dict(fields), path)
        except paytoken.PaytokenError as error:
            return failure(error)

    def settled(self, name, fields, path):
        """A lost answer: the order's inquiry when it tells, else the id to inquire about."""
        order = fields.get("merchantTransactionId")
        if name in BY_ORDER and order:
            try:
                return verdict(self.call(paytoken.inquiry(merchant_transaction_id=order)))
            except (Lost, paytoken.PaytokenError):
                pass
        inquire = {"merchantTransactionId": order} if order else dict(path)
        return {"outcome": "error", "error": "lost", "mayHaveBeenProcessed": True, "inquire": inquire}

    def every_invoice(self, records):
        """Every page of invoices, from the first until a short one, counted."""
        total, page = 0, 1
        while True:
            try:
                listed = self.call(paytoken.invoice_list(page, records))
            except (Lost, paytoken.PaytokenError) as error:
                return failure(error)
            total += len(listed.invoices)
            if len(listed.invoices) < records:
                return {"outcome": "ok", "invoices": total}
            page += 1


def verdict(answer):
    """A read answer in the kit's words (the vectors' adapter's), with the token a payment
    stored."""
    decided = dict(conform_adapter.decided(answer), outcome="ok")
    if isinstance(answer, paytoken.Transaction) and answer.registration_id is not None:
        decided["registrationId"] = answer.registration_id
    return decided


def failure(error):
    """An error in the kit's words."""
    if isinstance(error, paytoken.Refused):
        return {"outcome": "refused", "resultCode": error.code, "mayHaveBeenProcessed": False}
    return {"outcome": "error", "error": str(error) or "lost", "mayHaveBeenProcessed": isinstance(error, Lost)}


class Listener:
    """Where the sandbox's notifications arrive: a loopback port, each kept with its
    media type."""

    def __init__(self):
        received = self.received = []

        class Keep(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                length = min(int(self.headers.get("Content-Length", 0)), 64 * 1024)
                received.append((self.headers.get("Content-Type"), self.rfile.read(length)))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *_):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Keep)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{server.server_address[1]}/notifications"

    def verdict(self, payment_id, key):
        """The notification of `payment_id`, waited for a few seconds, verified (one that
        does not verify cannot be told whose it is: its reason is the verdict if no other
        arrives)."""
        deadline, reason = time.monotonic() + 5, "not_received"
        while time.monotonic() < deadline:
            for content_type, body in list(self.received):
                try:
                    notified = paytoken.verify_notification(body, key, content_type=content_type)
                except paytoken.NotificationRejected as rejected:
                    reason = rejected.reason
                    continue
                if notified.payment_id == payment_id:
                    return {
                        "verifies": True,
                        "paymentId": notified.payment_id,
                        "paymentStatus": notified.status,
                        "transactionStatus": notified.transaction_status,
                    }
            time.sleep(0.02)
        return {"verifies": False, "reason": reason}


def main(shop_of=None, name="paytoken for Python"):
    """Answers the harness's messages on stdin: a `Shop` (or what `shop_of` makes of the
    handshake, with a `listener` and a `perform(step)`) performs each step."""
    shop_of = shop_of or Shop
    shop = None
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            shop = shop_of(message)
            reply = {"type": "hello", "protocol": 1, "name": name, "listener": shop.listener.url}
        elif message["type"] == "step":
            reply = {"id": message["id"], "outcome": shop.perform(message["step"])}
        else:
            reply = {"id": message["id"], "unsupported": True}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
