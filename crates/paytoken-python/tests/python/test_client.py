"""`paytoken.Client` against the sandbox: its settings, its answers and exceptions, a lost
answer settled (or not), Ctrl-C during a call, `fork`, the GIL left free while it waits,
the shop example, and no secret in its repr, exceptions or log records."""

import decimal
import json
import multiprocessing
import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import threading
import time
import unittest
import urllib.parse
import urllib.request
import warnings

import paytoken

from sandbox import APPROVED_CARD, SANDBOX, Listener, card, console, order_id, payments_of, start

ROOT = pathlib.Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT / "crates/paytoken-python/examples"))
THREE_D_SECURE_CARD = "4000000000000002"
#: What no text of the client may show.
SECRETS = ("sandbox-merchant-secure-key", APPROVED_CARD)
#: The client of the processes `fork` makes, as a module's global.
CLIENT = None


def setUpModule():
    global CLIENT
    start()
    CLIENT = paytoken.Client()


def texts(error):
    """Every text a traceback or logger could make of `error` and its chain."""
    seen = []
    while error is not None:
        seen += [repr(error), str(error), repr(error.args), repr(vars(error))]
        error = error.__cause__ or error.__context__
    return " ".join(seen)


def run_script(script, *args):
    """`script` run by this Python in a process of its own: its exit code, stdout, stderr."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script), *args],
        capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    return done.returncode, done.stdout, done.stderr


class Calls(unittest.TestCase):
    def test_a_card_is_paid_stored_charged_refunded_and_inquired(self):
        order = order_id()
        paid = CLIENT.pay(order, "50.00", "EUR", card(), store_card=True)
        self.assertTrue(paid.is_approved, paid)
        self.assertEqual(paid.merchant_transaction_id, order)
        charged = CLIENT.pay_with_token(paid.registration_id, decimal.Decimal("20"), "EUR")
        self.assertTrue(charged.is_approved, charged)
        self.assertEqual(charged.amount, "20.00")
        self.assertTrue(CLIENT.inquiry(merchant_transaction_id=order).is_approved)
        CLIENT.refund(charged.payment_id, "20.00", "EUR")
        self.assertEqual(CLIENT.inquiry(payment_id=charged.payment_id).status, "refunded")
        self.assertEqual(CLIENT.reconcile(order).payment_id, paid.payment_id)
        stored = CLIENT.cards_and_accounts()
        self.assertIn(paid.registration_id, [stored_card.registration_id for stored_card in stored.cards])
        built = paytoken.inquiry(merchant_transaction_id=order)
        self.assertEqual(CLIENT.send(built).payment_id, paid.payment_id)

    def test_the_settings_come_from_arguments_as_from_the_environment(self):
        client = paytoken.Client(
            SANDBOX["BASE_URL"], member_id=SANDBOX["MEMBER_ID"], partner_id=SANDBOX["PARTNER_ID"],
            secure_key=paytoken.SecureKey(SANDBOX["SECURE_KEY"]), username=SANDBOX["USERNAME"],
            timeout=30, settle_lost_answers=False,
        )
        self.assertTrue(client.pay(order_id(), "1.00", "EUR", card()).is_approved)
        self.assertEqual(client.base_url, SANDBOX["BASE_URL"])

    def test_a_setting_missing_or_unsafe_is_refused_naming_it(self):
        saved = {name: os.environ.pop(name) for name in list(os.environ) if name.startswith("PAYTOKEN_")}
        try:
            with self.assertRaises(paytoken.InvalidInput) as missing:
                paytoken.Client()
            self.assertEqual(missing.exception.field, "base_url")
            self.assertIn("PAYTOKEN_BASE_URL", str(missing.exception))
            with self.assertRaises(paytoken.InvalidInput) as plain:
                paytoken.Client("http://gateway.example", member_id="1", secure_key="k")
            self.assertEqual(plain.exception.field, "base_url")
            paytoken.Client("http://gateway.example", member_id="1", secure_key="k", allow_http=True)
            with self.assertRaises(paytoken.InvalidInput) as timeout:
                paytoken.Client("http://127.0.0.1:1", member_id="1", secure_key="k", timeout=0)
            self.assertEqual(timeout.exception.field, "timeout")
        finally:
            os.environ.update(saved)

    def test_a_float_amount_is_refused_naming_the_field_and_the_form(self):
        for amount in (19.9, 19, True):
            with self.subTest(amount=amount), self.assertRaises(paytoken.InvalidInput) as refused:
                CLIENT.pay(order_id(), amount, "EUR", card())
            self.assertEqual(refused.exception.field, "amount")
            self.assertIn('"19.90"', str(refused.exception))
        with self.assertRaises(paytoken.InvalidInput):
            CLIENT.pay(order_id(), decimal.Decimal("19.999"), "EUR", card())
        self.assertEqual(CLIENT.pay(order_id(), decimal.Decimal("19.9"), "EUR", card()).amount, "19.90")

    def test_a_bad_auth_token_is_a_refusal_that_shows_no_secret(self):
        client = paytoken.Client(auth_token="not-a-token-of-this-gateway")
        with self.assertRaises(paytoken.Refused) as refused:
            client.pay(order_id(), "1.00", "EUR", card())
        self.assertTrue(refused.exception.token_refused)
        shown = texts(refused.exception) + repr(client)
        for secret in (*SECRETS, "not-a-token-of-this-gateway"):
            self.assertNotIn(secret, shown)


class Failures(unittest.TestCase):
    def test_a_gateway_out_of_reach_is_a_transport_failure_nothing_sent(self):
        client = paytoken.Client("http://127.0.0.1:1", connect_timeout=2)
        for call in (lambda: client.inquiry(merchant_transaction_id="x"),
                     lambda: client.pay(order_id(), "1.00", "EUR", card())):
            with self.assertRaises(paytoken.TransportFailed) as failed:
                call()
            self.assertFalse(failed.exception.may_have_been_processed)

    def test_a_lost_capture_that_did_not_take_effect_is_not_applied(self):
        authorised = CLIENT.pay(order_id(), "30.00", "EUR", card(), payment_type="PA")
        console("POST", "faults", {"directives": "drop=before", "target": "capture"})
        with self.assertRaises(paytoken.NotApplied) as not_applied:
            CLIENT.capture(authorised.payment_id, "30.00", "EUR")
        self.assertEqual(not_applied.exception.payment_id, authorised.payment_id)
        self.assertFalse(not_applied.exception.may_have_been_processed)
        self.assertTrue(CLIENT.capture(authorised.payment_id, "30.00", "EUR").is_approved)


class Runtime(unittest.TestCase):
    def test_the_runtime_is_configured_before_its_first_call_only(self):
        with self.assertRaises(RuntimeError):
            paytoken.configure_runtime(worker_threads=4)
        with self.assertRaises(paytoken.InvalidInput):
            paytoken.configure_runtime(worker_threads=0)
        code, out, err = run_script("""
            import os, paytoken
            paytoken.configure_runtime(worker_threads=3)
            client = paytoken.Client()
            names = [open(f"/proc/self/task/{task}/comm").read().strip() for task in os.listdir("/proc/self/task")]
            print(sum(name.startswith("paytoken-runtim") for name in names))
        """)
        self.assertEqual(code, 0, err)
        # Workers only: no call has asked for a blocking thread yet.
        self.assertEqual(int(out), 3)


class LostAnswers(unittest.TestCase):
    def test_a_lost_payment_is_settled_to_the_books(self):
        order = order_id()
        console("POST", "faults", {"directives": "drop=after", "target": "pay"})
        paid = CLIENT.pay(order, "50.00", "EUR", card())
        made = payments_of(order)
        self.assertEqual(len(made), 1, made)
        self.assertEqual(paid.payment_id, made[0]["paymentId"])
        self.assertTrue(paid.is_approved)

    def test_without_settling_a_lost_payment_is_an_outcome_unknown_naming_its_order(self):
        client = paytoken.Client(settle_lost_answers=False)
        order = order_id()
        console("POST", "faults", {"directives": "drop=after", "target": "pay"})
        with self.assertRaises(paytoken.OutcomeUnknown) as lost:
            client.pay(order, "50.00", "EUR", card())
        self.assertTrue(lost.exception.may_have_been_processed)
        self.assertEqual(lost.exception.merchant_transaction_id, order)
        self.assertIsNone(lost.exception.finding)
        self.assertTrue(client.reconcile(order).is_approved)
        for secret in SECRETS:
            self.assertNotIn(secret, texts(lost.exception))

    def test_a_payment_lost_before_it_arrived_is_still_unknown_and_never_sent_again(self):
        order = order_id()
        console("POST", "faults", {"directives": "drop=before", "target": "pay"})
        with self.assertRaises(paytoken.OutcomeUnknown) as lost:
            CLIENT.pay(order, "50.00", "EUR", card())
        self.assertEqual(lost.exception.finding, "no_such_payment")
        self.assertEqual(lost.exception.merchant_transaction_id, order)
        self.assertEqual(payments_of(order), [])


class Waiting(unittest.TestCase):
    def test_a_thread_runs_while_a_payment_waits(self):
        counted, stop = [0], threading.Event()

        def count():
            while not stop.is_set():
                counted[0] += 1

        console("POST", "faults", {"directives": "stall=2s", "target": "pay"})
        counter = threading.Thread(target=count)
        counter.start()
        try:
            before = counted[0]
            self.assertTrue(CLIENT.pay(order_id(), "1.00", "EUR", card()).is_approved)
            during = counted[0] - before
        finally:
            stop.set()
            counter.join()
        # Were the GIL held while the call waits, the counter could not run at all.
        self.assertGreater(during, 1000)

    def test_ctrl_c_stops_a_stalled_read_at_once(self):
        console("POST", "faults", {"directives": "stall=5s", "target": "inquiry"})
        code, out, err = run_script("""
            import json, os, signal, threading, time, paytoken
            client = paytoken.Client()
            threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
            started = time.monotonic()
            try:
                client.inquiry(merchant_transaction_id="never-made")
            except KeyboardInterrupt:
                print(json.dumps({"after": time.monotonic() - started}))
        """)
        self.assertEqual(code, 0, err)
        self.assertLess(json.loads(out)["after"], 5, "raised before the stall ended")

    def test_ctrl_c_during_a_payment_raises_at_once_and_the_payment_goes_on_to_its_end(self):
        order = order_id()
        console("POST", "faults", {"directives": "latency=2s", "target": "pay"})
        code, out, err = run_script("""
            import os, signal, sys, threading, paytoken
            client = paytoken.Client()
            card = paytoken.Card("4000000000000051", "12", "2030", "745")
            threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
            client.pay(sys.argv[1], "50.00", "EUR", card)
            print("not interrupted")
        """, order)
        self.assertNotIn("not interrupted", out)
        self.assertIn(f"KeyboardInterrupt: interrupted; the pay of order {order} goes on", err)
        self.assertIn(f"client.reconcile({order!r})", err.replace('"', "'"))
        self.assertIn(f"the interrupted pay of order {order} ended: approved", err)
        made = payments_of(order)
        self.assertEqual(len(made), 1, made)
        for secret in SECRETS:
            self.assertNotIn(secret, err)


def pay_in_child(order):
    """A payment by the forked process's client (`multiprocessing`)."""
    return CLIENT.pay(order, "5.00", "EUR", card()).is_approved


class Forking(unittest.TestCase):
    def setUp(self):
        warnings.simplefilter("ignore", DeprecationWarning)   # fork() with threads, 3.12+
        # A client used before the fork: its pool and auth token are the parent's.
        self.assertTrue(CLIENT.pay(order_id(), "1.00", "EUR", card()).is_approved)

    def test_a_forked_child_and_its_parent_both_pay(self):
        child_order, parent_order = order_id(), order_id()
        pid = os.fork()
        if pid == 0:
            try:
                os._exit(0 if pay_in_child(child_order) else 1)
            finally:
                os._exit(2)
        self.assertTrue(pay_in_child(parent_order))
        deadline = time.monotonic() + 5
        while (ended := os.waitpid(pid, os.WNOHANG)) == (0, 0) and time.monotonic() < deadline:
            time.sleep(0.05)
        if ended == (0, 0):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            self.fail("the child did not pay within 5 s")
        self.assertEqual(os.waitstatus_to_exitcode(ended[1]), 0)
        self.assertEqual(len(payments_of(child_order)), 1)

    def test_a_multiprocessing_fork_pool_pays(self):
        orders = [order_id(), order_id()]
        with multiprocessing.get_context("fork").Pool(2) as pool:
            paid = pool.map_async(pay_in_child, orders).get(timeout=5)
        self.assertEqual(paid, [True, True])
        self.assertTrue(pay_in_child(order_id()))


class Shop(unittest.TestCase):
    EXAMPLE = ROOT / "crates/paytoken-python/examples/shop.py"

    def test_the_example_is_at_most_25_lines(self):
        lines = [line.strip() for line in self.EXAMPLE.read_text().splitlines()]
        code = [line for line in lines if line and not line.startswith("#")]
        self.assertLessEqual(len(code), 25, "\n".join(code))

    def test_the_example_settles_lost_answers_to_the_books(self):
        import shop

        order = order_id()
        for target in ("pay", "pay_with_token", "refund"):
            console("POST", "faults", {"directives": "drop=after", "target": target})
        ship, refunded = shop.checkout(order, card())
        self.assertTrue(ship)
        self.assertTrue(refunded)
        (first,) = payments_of(order)
        (second,) = payments_of(f"{order}-2")
        self.assertEqual(first["transactionStatus"], "Y")
        self.assertEqual(second["refunded"], "20.00")
        self.assertEqual(console("GET", "faults")["next"], [], "every fault was spent")

    def test_the_example_believes_a_notification_once_verified(self):
        import shop

        order = order_id()
        secure = card(THREE_D_SECURE_CARD)
        with Listener() as listener:
            waiting = CLIENT.pay(order, "50.00", "EUR", secure, notification_url=listener.url)
            # The cardholder's browser posts the parameters; the sandbox's page adds the choice.
            redirect = waiting.redirect
            form = urllib.parse.urlencode([*redirect.parameters, ("decision", "approve")]).encode()
            urllib.request.urlopen(urllib.request.Request(redirect.url, data=form), timeout=10).close()
            content_type, body = listener.received.get(timeout=10)
        self.assertEqual(shop.on_notification(body, content_type), (order, True))
        with self.assertRaises(paytoken.NotificationRejected):
            shop.on_notification(body.replace(b"approved", b"declined") + b"&x=1", content_type)


class Conformance(unittest.TestCase):
    def test_the_client_s_adapter_calls_one_method_a_step_and_never_inquires(self):
        adapter = (ROOT / "crates/paytoken-python/examples/conform_client.py").read_text()
        code = "\n".join(line.split("#")[0] for line in adapter.splitlines())
        for by_hand in ("inquiry(", "reconcile(", ".request(", ".parse(", "urllib", "fetch_auth_token("):
            self.assertNotIn(by_hand, code)
        self.assertEqual(code.count("self.client."), 2, "send, and all_invoices for the list")


class Readme(unittest.TestCase):
    def test_every_python_block_of_the_readme_runs_against_the_sandbox(self):
        readme = (ROOT / "crates/paytoken-python/README.md").read_text()
        blocks = [block.split("```")[0] for block in readme.split("```python\n")[1:]]
        self.assertGreaterEqual(len(blocks), 7)
        # What the sans-I/O section says its blocks have imported.
        shared = {"__name__": "readme"}
        exec("import http.client, urllib.error, urllib.request", shared)
        for number, block in enumerate(blocks, 1):
            with self.subTest(block=number):
                exec(compile(block, f"README.md, python block {number}", "exec"), shared)
        self.assertTrue(shared["paid"].is_approved)
        self.assertEqual(shared["waiting"].status, "three_d_secure")
        self.assertTrue(CLIENT.inquiry(payment_id=shared["waiting"].payment_id).is_approved)


class Secrets(unittest.TestCase):
    def test_the_client_shows_no_secret(self):
        client = paytoken.Client(secure_key=paytoken.SecureKey("a-key-nobody-may-see"))
        self.assertNotIn("a-key-nobody-may-see", repr(client) + str(client))
