"""The sandbox the suite runs against, one a process: the one the environment names
(`cargo test -p paytoken-python` starts it and sets PAYTOKEN_BASE_URL, PAYTOKEN_MEMBER_ID,
PAYTOKEN_SECURE_KEY, PAYTOKEN_PARTNER_ID, PAYTOKEN_USERNAME), or else `paytoken sandbox`
started here (the command PAYTOKEN_COMMAND names), its settings then put in the
environment for `paytoken.Client()` and the scripts the suite runs."""

import atexit
import http.server
import json
import os
import queue
import subprocess
import threading
import urllib.request
import uuid

import paytoken

#: The sandbox's test card that is approved.
APPROVED_CARD = "4000000000000051"

#: The sandbox's settings by the variables' names without `PAYTOKEN_`.
SANDBOX = {}
NAMES = ("BASE_URL", "MEMBER_ID", "SECURE_KEY", "PARTNER_ID", "USERNAME")


def start():
    """The sandbox's settings, starting it on the first call."""
    if SANDBOX:
        return SANDBOX
    if "PAYTOKEN_BASE_URL" in os.environ:
        SANDBOX.update({name: os.environ[f"PAYTOKEN_{name}"] for name in NAMES})
        return SANDBOX
    command = [os.environ.get("PAYTOKEN_COMMAND", "paytoken"), "sandbox", "--addr", "127.0.0.1:0"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    first = json.loads(process.stdout.readline())
    atexit.register(stop, process)
    SANDBOX.update(
        BASE_URL=first["baseUrl"],
        MEMBER_ID=first["memberId"],
        SECURE_KEY=first["secureKey"],
        PARTNER_ID=first["partnerId"],
        USERNAME=first["username"],
    )
    os.environ.update({f"PAYTOKEN_{name}": value for name, value in SANDBOX.items()})
    return SANDBOX


def order_id(prefix="py"):
    """An order id no other test uses: letters only, no run of digits the books would show
    masked."""
    return f"{prefix}-" + uuid.uuid4().hex[:20].translate(str.maketrans("0123456789", "ghijklmnop"))


def card(number=APPROVED_CARD):
    """A card of the sandbox's, `number` deciding its outcome."""
    return paytoken.Card(number, "12", "2030", "745")


def stop(process):
    process.terminate()
    process.wait(timeout=10)
    process.stdout.close()


def console(method, path, body=None):
    """A request to the sandbox's console, as a local tool sends it: its JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    sent = urllib.request.Request(f"{SANDBOX['BASE_URL']}/sandbox/console/{path}", data=data,
                                  headers={"Content-Type": "application/json"}, method=method)
    with urllib.request.urlopen(sent, timeout=10) as answer:
        return json.load(answer)


def every_payment():
    """Every payment in the sandbox's books, page by page."""
    after, payments = 0, []
    while True:
        page = console("GET", f"books?after={after}&limit=100")
        payments.extend(page["payments"])
        if not page["more"]:
            return payments
        after = page["last"]


def payments_of(order_id):
    """The payments the books hold under `order_id`."""
    return [payment for payment in every_payment() if payment["merchantTransactionId"] == order_id]


class Listener:
    """A shop's notification endpoint on loopback, as a context manager: `url` to hand the
    gateway, `received.get(timeout=...)` the next (content type, body) it posted."""

    def __enter__(self):
        received = self.received = queue.Queue()

        class Receiver(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                received.put((self.headers.get("Content-Type"), body))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}/"
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
