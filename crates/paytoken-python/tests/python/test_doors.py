"""The binding's doors, tried as a hostile caller would: the gateway's text echoing the
caller's secure key and auth token, a grouped card number and a spaced IBAN, read into every
exception and answer; and a value of the wrong kind handed to a function.

Every text a logger or a traceback could make of an exception is walked: its ``repr``,
``str``, ``args``, ``__notes__``, every attribute, and ``__cause__`` and ``__context__`` to
the end of the chain. None holds a planted secret; the raw text stays behind a method
whose name says it is raw.
"""

import unittest

import paytoken

#: A key and a token no pattern masks: only the context's holding them does.
HELD_KEY = "audit-key-0123456789"
HELD_TOKEN = "audit-token-abcdef-12"
ECHO = (
    f"key {HELD_KEY} token {HELD_TOKEN} card 4000 0000 0000 0051 "
    "iban DE89 3704 0044 0532 0130 00"
)
SECRETS = (HELD_KEY, HELD_TOKEN, "4000 0000 0000 0051", "DE89 3704 0044 0532 0130 00")
REFUSAL = (
    '{"paymentId":"-","result":{"code":"30001","description":"' + ECHO + '"}}'
).encode()
APPROVED_ECHOING = (
    '{"paymentId":"54279","result":{"code":"000.000.000","description":"'
    + ECHO
    + '"},"transactionStatus":"Y"}'
).encode()
ANSWERS = [
    (200, REFUSAL),
    (502, f"<html>{ECHO}</html>".encode()),
    (200, f"not json {ECHO}".encode()),
    (
        200,
        ('{"paymentId":"' + HELD_KEY + '","result":{"code":"000.000.000"},"transactionStatus":"Y"}').encode(),
    ),
    (200, APPROVED_ECHOING),
]


def held_context():
    key = paytoken.SecureKey(HELD_KEY)
    return paytoken.Context(paytoken.Credentials.merchant("11344", key), auth_token=HELD_TOKEN)


def after_request(status, body):
    inquiry = paytoken.inquiry(payment_id="54279")
    inquiry.request(held_context())
    return inquiry.parse(status, body)


def given_context(status, body):
    return paytoken.inquiry(payment_id="54279").parse(status, body, context=held_context())


def every_text(value, seen=None):
    """Each text a logger, a traceback or a handler could make of `value`."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return []
    seen.add(id(value))
    texts = [repr(value), str(value)]
    if isinstance(value, BaseException):
        texts += [repr(argument) for argument in value.args]
        texts += [str(note) for note in getattr(value, "__notes__", [])]
        for name in dir(value):
            if name.startswith("__") and name not in ("__cause__", "__context__"):
                continue
            attribute = getattr(value, name)
            if callable(attribute):
                continue
            texts += every_text(attribute, seen)
    else:
        for name in dir(value):
            if name.startswith("_"):
                continue
            attribute = getattr(value, name)
            if not callable(attribute):
                texts += [repr(attribute), str(attribute)]
    return texts


class GatewayText(unittest.TestCase):
    def test_no_planted_secret_in_any_exception_or_answer(self):
        for read in (after_request, given_context):
            for status, body in ANSWERS:
                try:
                    value = read(status, body)
                except paytoken.PaytokenError as error:
                    try:
                        raise RuntimeError("handling the answer") from error
                    except RuntimeError as chained:
                        chained.add_note(f"while reading a {status}")
                        value = chained
                for text in every_text(value):
                    for secret in SECRETS:
                        self.assertNotIn(secret, text, f"{read.__name__} {status}")

    def test_the_raw_text_is_behind_a_method_named_raw(self):
        with self.assertRaises(paytoken.Refused) as raised:
            after_request(200, REFUSAL)
        self.assertEqual(raised.exception.raw_description(), ECHO)
        self.assertIn("[redacted]", raised.exception.description)
        transaction = after_request(200, APPROVED_ECHOING)
        self.assertEqual(transaction.raw_result_description(), ECHO)
        self.assertNotIn(HELD_KEY, transaction.result_description)
        self.assertNotIn(HELD_KEY, repr(transaction))

    def test_an_empty_key_names_its_field(self):
        with self.assertRaises(paytoken.InvalidInput) as raised:
            paytoken.SecureKey("")
        self.assertEqual(raised.exception.field, "secureKey")


if __name__ == "__main__":
    unittest.main()
