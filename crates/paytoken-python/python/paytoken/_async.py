"""`AsyncClient`: `Client`'s calls awaited from asyncio, on the same Rust client."""

from ._paytoken import Client


class AsyncClient:
    """A client of the gateway for asyncio: `Client`'s settings, methods, answers and
    exceptions, each method a coroutine.

    Cancelling a call that changes something (``asyncio.wait_for`` running out, a request
    handler cancelled) raises ``CancelledError`` in the awaiting coroutine, but the payment
    and its settlement go on: ``client.reconcile(order_id)`` finds it, and how it ended is
    logged at warning under the ``paytoken`` logger. A cancelled read is abandoned.
    """

    def __init__(self, *args, **kwargs):
        self._client = Client(*args, **kwargs)

    @property
    def base_url(self):
        """The gateway's base URL."""
        return self._client.base_url

    def __repr__(self):
        return f"Async{self._client!r}"


def _awaited(method):
    async def call(self, *args, **kwargs):
        return await self._client._start(method, args, kwargs)

    call.__name__ = method
    call.__qualname__ = f"AsyncClient.{method}"
    call.__doc__ = getattr(Client, method).__doc__
    return call


for _method in Client.calls:
    setattr(AsyncClient, _method, _awaited(_method))
del _method
