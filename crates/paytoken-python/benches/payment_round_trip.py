#!/usr/bin/env python3
"""Building, signing and reading a payment through paytoken for Python, beside the
conformance kit's pure-Python reference adapter doing the same work: the full payment of the
kit's request vectors (38 fields) put on the wire, the same fields and checksum, and the
approved answer of the fixtures read into the same verdict.

    python3 crates/paytoken-python/benches/payment_round_trip.py

The two are timed in alternating rounds, each a batch of about 20 ms, and the median of the
rounds' ratios printed as the `RATIO` line `cargo xtask bench` records (with the installed
module: `cargo xtask bench` builds and installs a release wheel first).
"""

import json
import pathlib
import sys
import time
import urllib.parse

import paytoken

ROOT = pathlib.Path(__file__).resolve().parents[3]
KIT = ROOT / "fixtures/conformance"
sys.dont_write_bytecode = True
sys.path.insert(0, str(KIT))
import adapter  # noqa: E402 (found in the kit's folder)
import answers  # noqa: E402

OURS = "python/payment_round_trip/paytoken"
BASELINE = "python/payment_round_trip/reference_adapter"
ROUNDS = 41
BATCH_SECONDS = 0.02


class Rounds:
    """The work of one round, each way, from the same vector and answer."""

    def __init__(self):
        vectors = json.loads((KIT / "request-vectors.json").read_text())["vectors"]
        self.vector = next(vector for vector in vectors if vector["id"] == "request/payment")
        self.answer = (ROOT / "fixtures/responses/payment/approved.json").read_bytes()
        caller, form = self.vector["caller"], self.vector["form"]
        # The binding: the payment as a value (read back from the vector's form), its
        # caller's context; each round builds, signs and reads.
        key = paytoken.SecureKey(caller["secureKey"])
        self.context = paytoken.Context(
            paytoken.Credentials.merchant(caller["id"], key),
            auth_token=caller["authToken"],
            account_id=caller["accountId"],
            terminal_id=caller["terminalId"],
        )
        given = [tuple(pair) for pair in form if not pair[0].startswith("authentication.")]
        self.payment = paytoken.asked("pay", given)
        # The reference: the `build` and `decide` messages of the kit for the same request.
        adapter.BREAKS = set()
        self.table = adapter.rules(swap_payment_parts=False)
        self.build = {
            "caller": caller,
            "fields": [pair for pair in form if pair[0] != "authentication.checksum"],
            "pathTemplate": self.vector["pathTemplate"],
            "pathValues": {},
            "rule": "payment",
            "operation": "pay",
        }
        sent = {name: value for name, value in form if name in ("merchantTransactionId", "amount", "currency")}
        self.decide = {"asked": {"operation": "pay", "sent": sent}, "status": 200}

    def paytoken(self):
        """The body the binding sends and the transaction it reads."""
        request = self.payment.request(self.context)
        return request.body, self.payment.parse(200, self.answer)

    def reference(self):
        """The body the reference adapter sends and the verdict it reads."""
        built = adapter.build(self.table, self.build)
        return built["body"], answers.verdict(dict(self.decide, body=self.answer.decode()))

    def check(self):
        """Both do the same work: the vector's form (the reference puts the checksum first
        among the caller's fields), an approved payment."""
        body, transaction = self.paytoken()
        reference_body, verdict = self.reference()
        assert body.decode() == self.vector["body"], "the binding's body is not the vector's"
        assert form(reference_body) == form(self.vector["body"]), "the reference's form is not the vector's"
        assert transaction.status == verdict["paymentStatus"] == "approved", (transaction.status, verdict)
        assert transaction.payment_id == verdict["paymentId"]


def form(body):
    """A body's fields, in order of name."""
    return sorted(urllib.parse.parse_qsl(body, keep_blank_values=True))


def interleaved(ours, baseline):
    """The median of each round's baseline ÷ ours, and the median time of each, in ns."""

    def batch_size(run):
        start, count = time.perf_counter(), 0
        while time.perf_counter() - start < BATCH_SECONDS / 4:
            run()
            count += 1
        return max(count * 4, 1)

    def timed(run, size):
        start = time.perf_counter()
        for _ in range(size):
            run()
        return (time.perf_counter() - start) / size * 1e9

    sizes = batch_size(ours), batch_size(baseline)
    ratios, ours_times, baseline_times = [], [], []
    for round_number in range(ROUNDS):
        # Alternate which goes first, so neither always meets the other's leftovers.
        if round_number % 2 == 0:
            a = timed(ours, sizes[0])
            b = timed(baseline, sizes[1])
        else:
            b = timed(baseline, sizes[1])
            a = timed(ours, sizes[0])
        ratios.append(b / a)
        ours_times.append(a)
        baseline_times.append(b)

    def median(values):
        return sorted(values)[len(values) // 2]

    return median(ratios), median(ours_times), median(baseline_times), min(ratios), max(ratios)


def main():
    rounds = Rounds()
    rounds.check()
    ratio, ours_ns, baseline_ns, low, high = interleaved(rounds.paytoken, rounds.reference)
    print(f"RATIO {OURS} {BASELINE} {ratio:.3f} {ours_ns:.1f} {baseline_ns:.1f}")
    print(f"{OURS}: {ratio:.2f}× faster than {BASELINE} (rounds from {low:.2f}× to {high:.2f}×)")


if __name__ == "__main__":
    main()
