"""The binding as a shop uses it: against a running sandbox, with the standard library's
HTTP client doing the I/O; every vector of the conformance kit through the example
adapter; the docstrings' examples; the benchmark's two sides doing the same work; and no
secret in any repr, str or exception text.

`cargo test -p paytoken-python` runs it with the module it built, `cargo xtask ci` under
pytest with the wheel maturin built; `sandbox.py` says which sandbox it runs against.
"""

import doctest
import json
import os
import pathlib
import sys
import unittest
import urllib.error
import urllib.parse
import urllib.request

import paytoken

ROOT = pathlib.Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT / "crates/paytoken-python/examples"))
sys.path.insert(0, str(ROOT / "crates/paytoken-python/benches"))
import checkout  # noqa: E402 (the README's recipe)
import conform_adapter  # noqa: E402 (found beside the crate's examples)
import payment_round_trip  # noqa: E402 (the benchmark's two sides)
from sandbox import APPROVED_CARD, SANDBOX, Listener, card, console, every_payment, order_id, start  # noqa: E402 (beside this file)

THREE_D_SECURE_CARD = "4000000000000002"
INSTALLMENTS_CARD = "4444333322221111"


def setUpModule():
    start()


def send(request):
    """Sends a paytoken request with urllib: the status and the body."""
    sent = urllib.request.Request(
        request.url(SANDBOX["BASE_URL"]), data=request.body, headers=dict(request.headers), method=request.method
    )
    try:
        with urllib.request.urlopen(sent, timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def call(operation, context):
    return operation.parse(*send(operation.request(context)))


class Shop(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        key = paytoken.SecureKey(SANDBOX["SECURE_KEY"])
        cls.key = key
        credentials = paytoken.Credentials.merchant(SANDBOX["MEMBER_ID"], key)
        cls.credentials = credentials
        cls.fetch = paytoken.fetch_auth_token(SANDBOX["PARTNER_ID"], SANDBOX["USERNAME"])
        grant = call(cls.fetch, paytoken.Context(credentials))
        cls.context = paytoken.Context(credentials, auth_token=grant.token)

    def card(self, number=APPROVED_CARD):
        return card(number)

    def test_pays_stores_the_card_charges_the_token_refunds_and_decides_the_inquiry(self):
        order = order_id()
        paid = call(paytoken.payment(order, "50.00", "EUR", self.card(), store_card=True), self.context)
        self.assertTrue(paid.is_approved)
        self.assertEqual(paid.merchant_transaction_id, order)
        self.assertIsNotNone(paid.registration_id)

        charge_order = order_id()
        charge = paytoken.token_payment(
            paid.registration_id, "9.99", "EUR", merchant_transaction_id=charge_order, recurring="INITIAL"
        )
        charged = call(charge, self.context)
        self.assertTrue(charged.is_approved)
        self.assertEqual(charged.merchant_transaction_id, charge_order)

        found = call(paytoken.inquiry(merchant_transaction_id=order), self.context)
        self.assertTrue(found.is_approved, "ship: the payment stands approved")
        page = call(paytoken.invoice_list(1, 100), self.context)
        self.assertIn(order, [invoice.order_id for invoice in page.invoices])

        refunded = call(paytoken.refund(paid.payment_id, "50.00", "EUR"), self.context)
        self.assertEqual(refunded.result_code[:1], "0")
        found = call(paytoken.inquiry(payment_id=paid.payment_id), self.context)
        self.assertFalse(found.is_approved, "do not ship: the payment was refunded")
        self.assertEqual(found.status, "refunded")

    def test_signs_up_stores_a_card_reads_its_plans_repeats_a_series_and_deletes_the_token(self):
        signed_up = call(paytoken.customer_signup("Ada", "Lovelace", "ada@example.com"), self.context)
        self.assertTrue(signed_up.customer_id)
        stored = call(
            paytoken.register_card(self.card(INSTALLMENTS_CARD), customer_id=signed_up.customer_id), self.context
        )
        counts = call(paytoken.installments(stored.registration_id), self.context)
        self.assertTrue(counts and all(isinstance(count, int) for count in counts), counts)
        listed = call(paytoken.cards_and_accounts(customer_id=signed_up.customer_id), self.context)
        self.assertEqual([card.registration_id for card in listed.cards], [stored.registration_id])
        self.assertEqual(listed.cards[0].last_four, INSTALLMENTS_CARD[-4:])

        first = call(
            paytoken.payment(order_id(), "20.00", "EUR", self.card(), store_card=True, recurring="INITIAL"),
            self.context,
        )
        repeated = call(
            paytoken.repeat_payment(first.payment_id, "20.00", "EUR", merchant_transaction_id=order_id()),
            self.context,
        )
        self.assertTrue(repeated.is_approved)

        deleted = call(paytoken.delete_token(stored.registration_id), self.context)
        self.assertEqual(deleted.result_code, "00003")
        with self.assertRaises(paytoken.Refused):
            charge = paytoken.token_payment(stored.registration_id, "1.00", "EUR", merchant_transaction_id=order_id())
            call(charge, self.context)

    def test_a_bank_account_is_stored_and_an_auth_token_regenerated(self):
        stored = call(
            paytoken.register_bank_account("DE89370400440532013000", "COBADEFFXXX", holder="Ada Lovelace"),
            self.context,
        )
        self.assertTrue(stored.registration_id)
        old = call(self.fetch, paytoken.Context(self.credentials)).token
        regenerate = paytoken.regenerate_auth_token(SANDBOX["PARTNER_ID"], old)
        fresh = call(regenerate, paytoken.Context(self.credentials))
        self.assertNotEqual(fresh.token, old)
        self.assertNotIn(fresh.token, repr(fresh))
        stale = paytoken.Context(self.credentials, auth_token=old)
        with self.assertRaises(paytoken.Refused) as refused:
            call(paytoken.inquiry(merchant_transaction_id="never-made"), stale)
        self.assertTrue(refused.exception.token_refused, "a token that was regenerated: fetch a new one")

    def test_a_declined_card_is_a_transaction_and_a_bad_token_a_refusal(self):
        declined = call(paytoken.payment(order_id(), "5.00", "EUR", self.card("4000000000000069")), self.context)
        self.assertFalse(declined.is_approved)
        self.assertEqual(declined.status, "declined")
        with self.assertRaises(paytoken.Refused) as refused:
            call(paytoken.token_payment("0" * 32, "1.00", "EUR"), self.context)
        self.assertFalse(refused.exception.token_refused, "an unknown card token, not the auth token")

    def test_a_3d_secure_payment_is_approved_by_its_verified_notification(self):
        with Listener() as listener:
            url = listener.url
            payment = paytoken.payment(
                order_id(), "50.00", "EUR", self.card(THREE_D_SECURE_CARD), notification_url=url
            )
            waiting = call(payment, self.context)
            self.assertEqual(waiting.status, "three_d_secure")
            redirect = waiting.redirect
            self.assertEqual(redirect.method, "POST")
            self.assertIn(("MD", waiting.payment_id), redirect.parameters)
            # The cardholder's browser posts the parameters; the sandbox's page adds the choice.
            form = urllib.parse.urlencode([*redirect.parameters, ("decision", "approve")]).encode()
            approve = urllib.request.Request(redirect.url, data=form, method=redirect.method)
            urllib.request.urlopen(approve, timeout=10).close()
            content_type, body = listener.received.get(timeout=10)
        notified = paytoken.verify_notification(body, self.key, content_type=content_type)
        self.assertEqual(notified.payment_id, waiting.payment_id)
        self.assertTrue(notified.is_approved)
        with self.assertRaises(paytoken.NotificationRejected):
            paytoken.verify_notification(body, paytoken.SecureKey("another-key"), content_type=content_type)


class Recipes(unittest.TestCase):
    """The README's checkout, with each HTTP library it names, against a sandbox that
    takes the payment and drops its answer: the settled outcome is the books'. Under
    `cargo xtask ci` every library is installed (PAYTOKEN_RECIPES_REQUIRED)."""

    def test_the_readme_shows_the_recipe_the_suite_runs(self):
        readme = (ROOT / "crates/paytoken-python/README.md").read_text()
        readme = readme.split("## Sans I/O")[1].split("\n## ")[0]
        recipe = (ROOT / "crates/paytoken-python/examples/checkout.py").read_text()
        blocks = [block.split("```")[0] for block in readme.split("```python\n")[1:]]
        shown = [block for block in blocks if "def " in block]
        self.assertGreaterEqual(len(shown), 3, blocks)
        for block in shown:
            self.assertIn(block, recipe)

    def test_a_lost_answer_is_settled_by_inquiry_as_the_books_say(self):
        for library in checkout.SENDERS:
            with self.subTest(library=library):
                try:
                    __import__(library.replace("urllib", "urllib.request"))
                except ImportError:
                    if os.environ.get("PAYTOKEN_RECIPES_REQUIRED"):
                        raise
                    self.skipTest(f"{library} is not installed")
                console("POST", "faults", {"directives": "drop=after", "target": "pay"})
                order = order_id("recipe")
                paid = checkout.checkout(SANDBOX, order, card(), library)
                made = [p for p in every_payment() if p["merchantTransactionId"] == order]
                said = f"{paid!r} {made!r}"
                self.assertEqual(len(made), 1, f"the payment was made once: {said}")
                self.assertIsNotNone(paid, f"the inquiry found it: {said}")
                self.assertEqual(paid.payment_id, made[0]["paymentId"], said)
                self.assertTrue(paid.is_approved, said)
                self.assertEqual(console("GET", "faults")["next"], [], "the fault was spent")


class Checksums(unittest.TestCase):
    def test_a_rule_signs_its_parts_as_the_request_does(self):
        key = paytoken.SecureKey("key")
        credentials = paytoken.Credentials.merchant("11344", key)
        request = paytoken.payment("order-7", "50.00", "EUR", card()).request(paytoken.Context(credentials))
        fields = dict(urllib.parse.parse_qsl(request.body.decode()))
        values = {"merchantTransactionId": "order-7", "amount": "50.00"}
        self.assertEqual(paytoken.sign("payment", credentials, values), fields["authentication.checksum"])
        # The documentation's notification: MD5 of `21565|testTransaction|50.00|Y|key`.
        notified = {"paymentId": "21565", "merchantTransactionId": "testTransaction", "amount": "50.00"}
        notified["transactionStatus"] = "Y"
        self.assertEqual(paytoken.sign("notification", credentials, notified), "a85a0d08535985bb1e0a37ff61394f46")
        with self.assertRaises(paytoken.InvalidInput):
            paytoken.sign("payment", credentials, {"amount": "50.00"})
        with self.assertRaises(paytoken.InvalidInput):
            paytoken.sign("no_such_rule", credentials, {})


class Kit(unittest.TestCase):
    """Every vector of the conformance kit, as `paytoken conform` sends it, answered by the
    example adapter through the module as the kit says."""

    @classmethod
    def setUpClass(cls):
        kit = ROOT / "fixtures/conformance"
        cls.vectors = {
            group: json.loads((kit / f"{group}-vectors.json").read_text())["vectors"]
            for group in ("checksum", "request", "answer", "notification", "negative")
        }

    def test_every_checksum_vector_is_signed_as_the_kit_says(self):
        for vector in self.vectors["checksum"]:
            caller = {"kind": vector["credentials"], "id": vector["callerId"], "secureKey": vector["secureKey"]}
            message = {"type": "sign", "rule": vector["rule"], "caller": caller, "values": vector["values"]}
            self.assertEqual(conform_adapter.answer(message), {"checksum": vector["checksum"]}, vector["id"])

    def test_every_request_vector_is_built_as_the_kit_says(self):
        for vector in self.vectors["request"]:
            form = [pair for pair in vector["form"] if pair[0] != "authentication.checksum"]
            rule = vector["checksum"] and vector["checksum"]["rule"]
            message = {"type": "build", "operation": vector["operation"], "rule": rule, "caller": vector["caller"]}
            message.update(fields=form, pathTemplate=vector["pathTemplate"], pathValues=vector["pathValues"])
            built = conform_adapter.answer(message)
            self.assertEqual((built["method"], built["path"]), (vector["method"], vector["path"]), vector["id"])
            sent = sorted(urllib.parse.parse_qsl(built["body"], keep_blank_values=True))
            self.assertEqual(sent, sorted(tuple(pair) for pair in vector["form"]), vector["id"])
            for header in vector["headers"]:
                self.assertIn(header, built["headers"], vector["id"])

    def test_every_answer_vector_is_decided_as_the_kit_says(self):
        for vector in self.vectors["answer"]:
            message = {"type": "decide", "asked": vector["asked"], "status": vector["status"], "body": vector["body"]}
            self.assertEqual(conform_adapter.answer(message), {"verdict": vector["verdict"]}, vector["id"])

    def test_every_notification_vector_is_verified_as_the_kit_says(self):
        for vector in self.vectors["notification"]:
            message = {"type": "verify", "format": vector["format"], "secureKey": vector["secureKey"]}
            message["body"] = vector["body"]
            self.assertEqual(conform_adapter.answer(message), {"verdict": vector["verdict"]}, vector["id"])

    def test_every_negative_vector_is_refused_and_no_positive_control(self):
        for vector in self.vectors["negative"]:
            message = {"type": "check", **{key: vector[key] for key in ("rule", "caller", "method", "path")}}
            message.update(query=vector["query"], contentType=vector["contentType"], body=vector["body"])
            must_refuse = vector["refusal"] is not None
            self.assertEqual(conform_adapter.answer(message)["refused"], must_refuse, vector["id"])


class Docstrings(unittest.TestCase):
    def test_every_example_in_a_docstring_runs_as_shown(self):
        finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        for name in paytoken.__all__:
            for test in finder.find(getattr(paytoken, name), name, globs={"paytoken": paytoken}):
                runner.run(test)
        results = runner.summarize(verbose=False)
        self.assertGreaterEqual(results.attempted, 10, "the examples of payment, inquiry, sign, verify_notification")
        self.assertEqual(results.failed, 0)


class Benchmark(unittest.TestCase):
    def test_the_binding_and_the_reference_adapter_do_the_same_work(self):
        payment_round_trip.Rounds().check()


class Secrets(unittest.TestCase):
    def test_no_secret_in_any_repr_str_or_exception(self):
        secret_key, token, number, cvv = "s3cr3t-key-value", "eyJ0.c2VjcmV0.c2ln", "4000000000000051", "987"
        key = paytoken.SecureKey(secret_key)
        context = paytoken.Context(paytoken.Credentials.merchant("11344", key), auth_token=token)
        card = paytoken.Card(number, "12", "2030", cvv)
        request = paytoken.payment("order-1", "50.00", "EUR", card).request(context)
        shown = [key, context, card, request, paytoken.Credentials.merchant("11344", key)]
        texts = [repr(value) for value in shown] + [str(value) for value in shown]
        for bad in [
            lambda: paytoken.Card("4000000000000052", "12", "2030", cvv),
            lambda: paytoken.Card(number, "12", "2030", "98x7"),
            lambda: paytoken.SecureKey("a|b"),
            lambda: paytoken.Context(paytoken.Credentials.merchant("11344", key), auth_token="a b"),
        ]:
            with self.assertRaises(paytoken.InvalidInput) as raised:
                bad()
            self.assertTrue(raised.exception.field, "an input error names its field")
            self.assertFalse(raised.exception.may_have_been_processed)
            texts += [str(raised.exception), repr(raised.exception)]
        for text in texts:
            for secret in (secret_key, token, number, cvv, "4000000000000052", "98x7"):
                self.assertNotIn(secret, text)


if __name__ == "__main__":
    unittest.main()
