#!/usr/bin/env python3
"""paytoken for Python's `Client` under `paytoken conform --http`: one client method a
step, and nothing else.

    paytoken conform --http --client "python3 crates/paytoken-python/examples/conform_client.py"

Where `conform_http.py` does the I/O, the auth token and the settling of a lost answer by
hand, here the client does them all: an answer lost is settled by its own inquiry before
`send` returns, and what it cannot settle is `OutcomeUnknown`, naming what to ask about.
The adapter never inquires itself.
"""

import sys

import paytoken

# The examples' folder is left as it was found: no __pycache__ beside them.
sys.dont_write_bytecode = True
import conform_http  # noqa: E402 (beside this file)
from conform_http import Listener, failure, verdict  # noqa: E402


class Shop:
    """The handshake's merchant as a `Client`, and the listener its notifications arrive at."""

    def __init__(self, hello):
        merchant = hello["merchant"]
        self.key = paytoken.SecureKey(merchant["secureKey"])
        self.client = paytoken.Client(
            hello["baseUrl"],
            member_id=merchant["id"],
            partner_id=merchant["partnerId"],
            username=merchant["username"],
            secure_key=self.key,
            account_id=merchant.get("accountId"),
            terminal_id=merchant.get("terminalId"),
            timeout=hello["requestTimeoutMs"] / 1000,
        )
        self.listener = Listener()

    def perform(self, step):
        name, fields, path = step["operation"], step["fields"], step["pathValues"]
        if name == "notification":
            return self.listener.verdict(dict(fields)["paymentId"], self.key)
        try:
            if name == "invoices":
                every = self.client.all_invoices(records=int(dict(fields)["pagination.records"]))
                return {"outcome": "ok", "invoices": len(every)}
            operation = paytoken.asked(name, [tuple(pair) for pair in fields], path_id=next(iter(path.values()), None))
            return verdict(self.client.send(operation))
        except paytoken.OutcomeUnknown as lost:
            order, payment = lost.merchant_transaction_id, lost.payment_id
            inquire = {"merchantTransactionId": order} if order else {"paymentId": payment} if payment else dict(path)
            return {"outcome": "error", "error": "lost", "mayHaveBeenProcessed": True, "inquire": inquire}
        except paytoken.PaytokenError as error:
            return failure(error)


if __name__ == "__main__":
    conform_http.main(Shop, "paytoken for Python, Client")
