#!/usr/bin/env python3
"""The same payment over loopback to `paytoken sandbox`, through paytoken's clients and
through httpx with paytoken's sans-I/O module: `Client` against a pooled `httpx.Client`,
from 1 and from 16 threads, and `AsyncClient` against `httpx.AsyncClient`, 16 payments in
flight.

    PAYTOKEN_COMMAND=target/release/paytoken python3 crates/paytoken-python/benches/client_round_trip.py

Each round times a batch of payments each way, alternating which goes first; the median of
the rounds' ratios (httpx's time ÷ paytoken's) is printed as the `RATIO` lines
`cargo xtask bench` records.
"""

import asyncio
import concurrent.futures
import itertools
import json
import os
import subprocess
import time

import httpx
import paytoken

ROUNDS = 11
#: Payments a batch, each way.
BATCH = 96
IN_FLIGHT = 16
CARD = paytoken.Card("4000000000000051", "12", "2030", "745")
ORDERS = itertools.count()


def order_id():
    return f"bench-{os.getpid()}-{next(ORDERS)}"


class Sides:
    """Both ways of paying, signed in to the same sandbox."""

    def __init__(self, gateway):
        self.base_url = gateway["baseUrl"]
        settings = dict(
            member_id=gateway["memberId"],
            partner_id=gateway["partnerId"],
            username=gateway["username"],
            secure_key=gateway["secureKey"],
        )
        self.client = paytoken.Client(self.base_url, **settings)
        self.async_client = paytoken.AsyncClient(self.base_url, **settings)
        limits = httpx.Limits(max_connections=IN_FLIGHT * 2, max_keepalive_connections=IN_FLIGHT * 2)
        self.http = httpx.Client(limits=limits, timeout=30)
        self.async_http = httpx.AsyncClient(limits=limits, timeout=30)
        key = paytoken.SecureKey(gateway["secureKey"])
        credentials = paytoken.Credentials.merchant(gateway["memberId"], key)
        fetch = paytoken.fetch_auth_token(gateway["partnerId"], gateway["username"])
        request = fetch.request(paytoken.Context(credentials))
        answer = self.http.post(request.url(self.base_url), content=request.body, headers=dict(request.headers))
        grant = fetch.parse(answer.status_code, answer.content)
        self.context = paytoken.Context(credentials, auth_token=grant.token)

    def paytoken_pay(self):
        assert self.client.pay(order_id(), "1.00", "EUR", CARD).is_approved

    def httpx_pay(self):
        payment = paytoken.payment(order_id(), "1.00", "EUR", CARD)
        request = payment.request(self.context)
        answer = self.http.post(request.url(self.base_url), content=request.body, headers=dict(request.headers))
        assert payment.parse(answer.status_code, answer.content).is_approved

    async def paytoken_pay_async(self):
        paid = await self.async_client.pay(order_id(), "1.00", "EUR", CARD)
        assert paid.is_approved

    async def httpx_pay_async(self):
        payment = paytoken.payment(order_id(), "1.00", "EUR", CARD)
        request = payment.request(self.context)
        answer = await self.async_http.post(
            request.url(self.base_url), content=request.body, headers=dict(request.headers)
        )
        assert payment.parse(answer.status_code, answer.content).is_approved


def on_threads(pool, pay):
    """A batch paid from the pool's threads."""

    def batch():
        list(pool.map(lambda _: pay(), range(BATCH)))

    return batch


def in_flight(event_loop, pay):
    """A batch paid by `IN_FLIGHT` coroutines at once."""

    async def worker():
        for _ in range(BATCH // IN_FLIGHT):
            await pay()

    def batch():
        event_loop.run_until_complete(asyncio.gather(*(worker() for _ in range(IN_FLIGHT))))

    return batch


def interleaved(ours, baseline):
    """The median of each round's baseline ÷ ours, each side's median time a payment in
    ns, and the lowest and highest ratio."""
    ratios, ours_times, baseline_times = [], [], []
    ours(), baseline()  # warm: connections opened, tokens fetched
    for round_number in range(ROUNDS):
        sides = [(ours, ours_times), (baseline, baseline_times)]
        for run, times in sides if round_number % 2 == 0 else reversed(sides):
            started = time.perf_counter()
            run()
            times.append((time.perf_counter() - started) / BATCH * 1e9)
        ratios.append(baseline_times[-1] / ours_times[-1])

    def median(values):
        return sorted(values)[len(values) // 2]

    return median(ratios), median(ours_times), median(baseline_times), min(ratios), max(ratios)


def main():
    command = os.environ.get("PAYTOKEN_COMMAND", "paytoken")
    sandbox = subprocess.Popen([command, "sandbox", "--addr", "127.0.0.1:0"], stdout=subprocess.PIPE, text=True)
    try:
        sides = Sides(json.loads(sandbox.stdout.readline()))
        one = concurrent.futures.ThreadPoolExecutor(1)
        sixteen = concurrent.futures.ThreadPoolExecutor(IN_FLIGHT)
        event_loop = asyncio.new_event_loop()
        asyncio.set_event_loop(event_loop)
        cases = [
            ("client_pay_1_thread", on_threads(one, sides.paytoken_pay), on_threads(one, sides.httpx_pay)),
            (
                "client_pay_16_threads",
                on_threads(sixteen, sides.paytoken_pay),
                on_threads(sixteen, sides.httpx_pay),
            ),
            (
                "async_client_pay_16_in_flight",
                in_flight(event_loop, sides.paytoken_pay_async),
                in_flight(event_loop, sides.httpx_pay_async),
            ),
        ]
        for name, ours, baseline in cases:
            ratio, ours_ns, baseline_ns, low, high = interleaved(ours, baseline)
            ours_id, baseline_id = f"python/{name}/paytoken", f"python/{name}/httpx"
            print(f"RATIO {ours_id} {baseline_id} {ratio:.3f} {ours_ns:.1f} {baseline_ns:.1f}")
            print(f"{ours_id}: {ratio:.2f}× the payments/s of {baseline_id} (rounds from {low:.2f}× to {high:.2f}×)")
        event_loop.run_until_complete(sides.async_http.aclose())
        event_loop.close()
    finally:
        sandbox.terminate()
        sandbox.wait(timeout=10)
        sandbox.stdout.close()


if __name__ == "__main__":
    main()
