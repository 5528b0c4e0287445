"""`paytoken.AsyncClient` against the sandbox: its answers and exceptions, a cancelled
payment that goes on to the books, a cancelled read abandoned, uvloop and two
`asyncio.run` calls, and a loop closed while a call is pending."""

import asyncio
import logging
import os
import sys
import time
import unittest

import paytoken

from sandbox import card, console, order_id, payments_of, start


def setUpModule():
    start()


def warnings_until(logged, needle, seconds=10):
    """The records of `logged` once one holds `needle`, waiting up to `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if any(needle in record.getMessage() for record in logged.records):
            break
        time.sleep(0.05)
    return [record.getMessage() for record in logged.records]


class Collected(logging.Handler):
    """The `paytoken` logger's records, from whichever thread logs them."""

    def __init__(self):
        super().__init__()
        self.records = []

    def emit(self, record):
        self.records.append(record)

    def __enter__(self):
        logging.getLogger("paytoken").addHandler(self)
        return self

    def __exit__(self, *exc):
        logging.getLogger("paytoken").removeHandler(self)


class Calls(unittest.TestCase):
    def test_the_calls_answer_and_raise_as_the_client_s(self):
        async def shop():
            client = paytoken.AsyncClient()
            order = order_id()
            paid = await client.pay(order, "50.00", "EUR", card(), store_card=True)
            found, stored = await asyncio.gather(
                client.reconcile(order), client.cards_and_accounts()
            )
            with self.assertRaises(paytoken.Refused):
                await client.inquiry(merchant_transaction_id="never-made")
            with self.assertRaises(paytoken.InvalidInput) as refused:
                await client.pay(order_id(), 19.9, "EUR", card())
            self.assertEqual(refused.exception.field, "amount")
            with self.assertRaises(TypeError):
                await client.reconcile(order, "another")
            return paid, found, stored

        paid, found, stored = asyncio.run(shop())
        self.assertTrue(paid.is_approved)
        self.assertEqual(found.payment_id, paid.payment_id)
        self.assertIn(paid.registration_id, [stored_card.registration_id for stored_card in stored.cards])
        self.assertEqual(paytoken.AsyncClient.pay.__doc__, paytoken.Client.pay.__doc__)
        self.assertNotIn("sandbox-merchant-secure-key", repr(paytoken.AsyncClient()))

    def test_two_asyncio_runs_pay(self):
        for _ in range(2):
            paid = asyncio.run(paytoken.AsyncClient().pay(order_id(), "1.00", "EUR", card()))
            self.assertTrue(paid.is_approved)

    def test_uvloop_pays(self):
        try:
            import uvloop
        except ImportError:
            if os.environ.get("PAYTOKEN_RECIPES_REQUIRED"):
                raise
            self.skipTest("uvloop is not installed")
        paid = uvloop.run(paytoken.AsyncClient().pay(order_id(), "1.00", "EUR", card()))
        self.assertTrue(paid.is_approved)


class Cancelling(unittest.TestCase):
    def test_a_payment_whose_awaiting_is_cancelled_goes_on_to_the_books(self):
        order = order_id()
        console("POST", "faults", {"directives": "stall=2s", "target": "pay"})

        async def impatient():
            client = paytoken.AsyncClient()
            with self.assertRaises(asyncio.TimeoutError):
                await asyncio.wait_for(client.pay(order, "50.00", "EUR", card()), 0.5)
            return client

        with Collected() as logged:
            client = asyncio.run(impatient())
            said = warnings_until(logged, f"the cancelled pay of order {order} ended")
        self.assertIn(f"the cancelled pay of order {order} ended: approved", " ".join(said))
        made = payments_of(order)
        self.assertEqual(len(made), 1, made)
        found = asyncio.run(client.reconcile(order))
        self.assertEqual(found.payment_id, made[0]["paymentId"])

    def test_a_read_whose_awaiting_is_cancelled_is_abandoned(self):
        console("POST", "faults", {"directives": "stall=5s", "target": "inquiry"})

        async def impatient():
            client = paytoken.AsyncClient()
            started = time.monotonic()
            with self.assertRaises(asyncio.TimeoutError):
                await asyncio.wait_for(client.inquiry(merchant_transaction_id="never-made"), 0.3)
            return time.monotonic() - started

        with Collected() as logged:
            waited = asyncio.run(impatient())
        self.assertLess(waited, 5, "cancelled before the stall ended")
        self.assertEqual([record.getMessage() for record in logged.records], [])

    def test_a_loop_closed_while_a_call_is_pending_logs_one_warning_and_raises_nothing(self):
        unraisable = []
        hook, sys.unraisablehook = sys.unraisablehook, unraisable.append
        order = order_id()
        console("POST", "faults", {"directives": "latency=1s", "target": "pay"})
        try:
            with Collected() as logged:
                event_loop = asyncio.new_event_loop()
                client = paytoken.AsyncClient()

                async def begin():
                    return client._client._start("pay", (order, "5.00", "EUR", card()), {})

                event_loop.run_until_complete(begin())
                event_loop.close()
                said = warnings_until(logged, "the event loop closed")
        finally:
            sys.unraisablehook = hook
        self.assertEqual(said, [f"the event loop closed before the pay of order {order} ended; its answer is dropped"])
        self.assertEqual(unraisable, [])
        self.assertEqual(len(payments_of(order)), 1, "the payment went on")
