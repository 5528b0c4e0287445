#!/usr/bin/env python3
"""paytoken for Python under `paytoken conform`: the module answering the harness's
messages (protocol 1 of the conformance kit), one JSON object a line.

    paytoken conform --client "python3 crates/paytoken-python/examples/conform_adapter.py"

Every kind of message is answered through the module: it signs, builds requests, decides
answers, verifies notifications, and refuses the requests paytoken would never send.
"""

import json
import sys
import urllib.parse

import paytoken


def credentials(caller):
    key = paytoken.SecureKey(caller["secureKey"])
    make = paytoken.Credentials.partner if caller["kind"] == "partner" else paytoken.Credentials.merchant
    return make(caller["id"], key)


def context(caller):
    return paytoken.Context(
        credentials(caller),
        auth_token=caller.get("authToken"),
        account_id=caller.get("accountId"),
        terminal_id=caller.get("terminalId"),
    )


def build(message):
    """The request paytoken sends for the vector's operation and form."""
    path_id = next(iter(message["pathValues"].values()), None)
    operation = paytoken.asked(message["operation"], [tuple(pair) for pair in message["fields"]], path_id=path_id)
    request = operation.request(context(message["caller"]))
    fields = urllib.parse.parse_qsl(request.body.decode(), keep_blank_values=True)
    if message["rule"] is None:
        # The invoice request as the specification shows it, unsigned; paytoken signs it.
        fields = [pair for pair in fields if pair[0] != "authentication.checksum"]
    return {
        "method": request.method,
        "path": request.path,
        "headers": [list(header) for header in request.headers],
        "body": urllib.parse.urlencode(fields),
    }


def refusal(message):
    """Why paytoken would never send the request of a `check` message, or None."""
    if message["query"]:
        return "a query string: the fields go in the body"
    media_type = message["contentType"].split(";")[0].strip().lower()
    if media_type != "application/x-www-form-urlencoded":
        return f"a body of {media_type}, not a form"
    try:
        pairs = urllib.parse.parse_qsl(message["body"], keep_blank_values=True, strict_parsing=True)
    except ValueError:
        return "a body that is not a form"
    names = [name for name, _ in pairs]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        return f"{repeated[0]} sent twice"
    fields = dict(pairs)
    try:
        checksum = paytoken.sign(message["rule"], credentials(message["caller"]), fields)
    except paytoken.InvalidInput as refused:
        return str(refused)
    if fields.get("authentication.checksum") != checksum:
        return "a checksum that is not the rule's"
    return None


def decided(answer):
    """A read answer in the kit's words (answer-vectors.json)."""
    if isinstance(answer, paytoken.Transaction):
        return {
            "paymentId": answer.payment_id,
            "paymentStatus": answer.status,
            "resultCode": answer.result_code,
            "transactionStatus": answer.transaction_status,
        }
    if isinstance(answer, paytoken.AuthTokenGrant):
        return {"authToken": answer.token, "resultCode": answer.result_code}
    if isinstance(answer, paytoken.Registered):
        return {"registrationId": answer.registration_id, "resultCode": answer.result_code}
    if isinstance(answer, paytoken.SignedUp):
        return {"customerId": answer.customer_id, "resultCode": answer.result_code}
    if isinstance(answer, paytoken.Deleted):
        return {"resultCode": answer.result_code}
    if isinstance(answer, paytoken.StoredRegistrations):
        return {"resultCode": answer.result_code, "cards": len(answer.cards), "bankAccounts": len(answer.bank_accounts)}
    if isinstance(answer, paytoken.InvoicePage):
        return {"resultCode": answer.result_code, "invoices": len(answer.invoices)}
    return {"installmentCounts": answer}


def decide(message):
    asked = message["asked"]
    try:
        answer = paytoken.read_answer(asked["operation"], asked["sent"], message["status"], message["body"].encode())
    except paytoken.Refused as refused:
        return {"outcome": "refused", "resultCode": refused.code, "mayHaveBeenProcessed": False}
    except paytoken.OutcomeUnknown as unknown:
        error = {paytoken.Contradiction: "contradiction"}.get(type(unknown))
        if error is None:
            error = "unexpected_status" if message["status"] != 200 else "undecodable"
        return {"outcome": "error", "error": error, "mayHaveBeenProcessed": True}
    return dict(outcome="ok", **decided(answer))


def verify(message):
    content_type = "application/json" if message["format"] == "json" else "application/x-www-form-urlencoded"
    key = paytoken.SecureKey(message["secureKey"])
    try:
        notified = paytoken.verify_notification(message["body"].encode(), key, content_type=content_type)
    except paytoken.NotificationRejected as rejected:
        return {"verifies": False, "reason": rejected.reason}
    return {
        "verifies": True,
        "paymentId": notified.payment_id,
        "paymentStatus": notified.status,
        "transactionStatus": notified.transaction_status,
    }


def answer(message):
    kind = message["type"]
    if kind == "sign":
        return {"checksum": paytoken.sign(message["rule"], credentials(message["caller"]), message["values"])}
    if kind == "build":
        return build(message)
    if kind == "decide":
        return {"verdict": decide(message)}
    if kind == "verify":
        return {"verdict": verify(message)}
    if kind == "check":
        reason = refusal(message)
        return {"refused": True, "reason": reason} if reason else {"refused": False}
    return {"unsupported": True}


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            reply = {"type": "hello", "protocol": 1, "name": "paytoken for Python"}
        else:
            reply = dict(answer(message), id=message["id"])
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
