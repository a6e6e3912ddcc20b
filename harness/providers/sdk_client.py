"""What the SDK-backed providers share: one SDK client per (SDK, base URL, key, event loop), and
a concurrency limit.

Building an official async client costs ~57 ms of CPU and ~830 KiB (its HTTP stack, its
pydantic models), and every client keeps its own connection pool; a suite of 300 matches has
2,100 model seats. So providers built with the same client arguments (the SDK's class, the base
URL, the key, the transport …) share one client per event loop, counted by reference: the last
provider of a loop to close closes it. A runner that plays match after match in one loop holds
the loop's clients open between matches with :func:`keep_clients`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import weakref
from collections.abc import AsyncIterator, Callable, Hashable, Mapping
from typing import Any, Final

from .base import sdk_label

TRANSPORT_ENV: Final = "BANGARENA_HTTP_TRANSPORT"
TRANSPORTS: Final = ("aiohttp", "httpx")
DEFAULT_TRANSPORT: Final = "aiohttp"
"""The SDKs' HTTP transport unless ``BANGARENA_HTTP_TRANSPORT`` says otherwise: their aiohttp
one (``DefaultAioHttpClient``) costs ~2.2 ms of CPU per request against httpx's ~5.5 ms
(``benchmarks/eval_throughput.py``), which decides how many model decisions one process makes
per second."""


@functools.cache
def cached_sdk_label(package: str) -> str:
    """:func:`~.base.sdk_label`, looked up once per process (a metadata lookup scans sys.path:
    ~2 ms, and a suite builds thousands of model seats)."""
    return sdk_label(package)


def http_transport(environ: Mapping[str, str] | None = None) -> str:
    """The transport new SDK clients use (``aiohttp`` or ``httpx``)."""
    value = (os.environ if environ is None else environ).get(TRANSPORT_ENV, "").strip().lower()
    return value if value in TRANSPORTS else DEFAULT_TRANSPORT


def build_sdk_client(
    sdk_class: Callable[..., Any],
    aiohttp_class: Callable[[], Any] | None,
    transport: str,
    **kwargs: Any,
) -> Any:
    """An SDK client on ``transport``; httpx when the aiohttp extra is missing."""
    if transport == "aiohttp" and aiohttp_class is not None and "http_client" not in kwargs:
        # RuntimeError/ImportError: the SDK was installed without its aiohttp extra.
        with contextlib.suppress(RuntimeError, ImportError):
            kwargs["http_client"] = aiohttp_class()
    return sdk_class(**kwargs)


def refused_connection(exc: BaseException) -> BaseException | None:
    """The aiohttp connection error behind an SDK "timeout", if that is what it was.

    The SDKs' aiohttp transport maps every ``aiohttp.ClientConnectionError`` (a refused
    connection, a server that hung up) to a connect *timeout*; a timeout is the model's fault,
    a dead connection is not, so the providers ask this before calling an error a timeout."""
    seen = 0
    cause: BaseException | None = exc
    while cause is not None and seen < 8:
        kind = type(cause)
        aiohttp_error = kind.__module__.startswith("aiohttp") and not isinstance(
            cause, TimeoutError
        )
        if aiohttp_error and any(c.__name__ == "ClientConnectionError" for c in kind.__mro__):
            return cause
        cause = cause.__cause__ or cause.__context__
        seen += 1
    return None


class _Shared:
    """The clients of one set of client arguments: one per event loop, with its users."""

    __slots__ = ("make", "kwargs", "spare", "loops", "base_url")

    def __init__(self, make: Callable[..., Any], kwargs: dict[str, Any]) -> None:
        self.make = make
        self.kwargs = kwargs
        # Built now (outside any loop: connection pools bind to a loop only when first used),
        # to learn the base URL the SDK settles on; the first loop to ask takes it.
        self.spare: Any | None = make(**kwargs)
        self.base_url = str(self.spare.base_url).rstrip("/")
        self.loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, list[Any]] = (
            weakref.WeakKeyDictionary()
        )

    def acquire(self, loop: asyncio.AbstractEventLoop) -> Any:
        entry = self.loops.get(loop)
        if entry is None:
            client, self.spare = self.spare or self.make(**self.kwargs), None
            entry = self.loops[loop] = [client, 0]
        entry[1] += 1
        return entry[0]

    async def release(self, loop: asyncio.AbstractEventLoop) -> None:
        entry = self.loops.get(loop)
        if entry is None:
            return
        entry[1] -= 1
        if entry[1] > 0:
            return
        if loop.is_closed():
            # Its pooled connections died with their loop: nothing left to close.
            self.loops.pop(loop, None)
            return
        if _KEEP.get(loop, 0) > 0:
            return  # kept for the next match of this loop (keep_clients)
        self.loops.pop(loop, None)
        if loop is asyncio.get_running_loop():
            await entry[0].close()


_SHARED: dict[Hashable, _Shared] = {}
_KEEP: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, int] = weakref.WeakKeyDictionary()


def _share_key(make: Callable[..., Any], kwargs: dict[str, Any]) -> Hashable | None:
    key = (make, tuple(sorted(kwargs.items())))
    try:
        hash(key)
    except TypeError:  # an argument that cannot be compared (a caller's own http client)
        return None
    return key


def shared_client_count(loop: asyncio.AbstractEventLoop | None = None) -> int:
    """How many shared SDK clients are open in ``loop`` (the running one by default)."""
    loop = loop or asyncio.get_running_loop()
    return sum(1 for s in _SHARED.values() if loop in s.loops)


@contextlib.asynccontextmanager
async def keep_clients() -> AsyncIterator[None]:
    """Keep the running loop's shared clients open while no provider uses them (between the
    matches of a run), and close the idle ones at the end."""
    loop = asyncio.get_running_loop()
    _KEEP[loop] = _KEEP.get(loop, 0) + 1
    try:
        yield
    finally:
        _KEEP[loop] -= 1
        if _KEEP[loop] <= 0:
            del _KEEP[loop]
            for shared in list(_SHARED.values()):
                entry = shared.loops.get(loop)
                if entry is not None and entry[1] <= 0:
                    shared.loops.pop(loop, None)
                    with contextlib.suppress(Exception):
                        await entry[0].close()


def keep_clients_open(loop: asyncio.AbstractEventLoop) -> None:
    """Keep ``loop``'s shared clients open for as long as the loop lives (a worker process's
    one loop: its clients serve batch after batch)."""
    _KEEP[loop] = _KEEP.get(loop, 0) + 1


class LoopBoundClient:
    """Holds an official async SDK client (openai, anthropic) for the running event loop.

    Pooled connections belong to one loop, so a provider reused under a new loop (a new
    ``asyncio.run``, a new test) gets that loop's client; the optional semaphore bounds the
    requests in flight and is remade with the client for the same reason. Clients built from
    the same arguments are shared (see the module docstring); a client handed in by the caller
    is used as it is, never shared or rebuilt.
    """

    def __init__(
        self,
        make_client: Callable[..., Any],
        kwargs: dict[str, Any] | None,
        client: Any | None,
        concurrency: int | None,
    ) -> None:
        self._make = make_client
        # kwargs is None for a client handed in by the caller: never rebuilt, only reused.
        self._kwargs = kwargs
        self._shared: _Shared | None = None
        self._client: Any | None = client
        if client is None:
            args = dict(kwargs or {})
            key = _share_key(make_client, args)
            if key is not None:
                shared = _SHARED.get(key)
                if shared is None:
                    shared = _SHARED[key] = _Shared(make_client, args)
                self._shared = shared
            else:
                self._client = make_client(**args)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._concurrency = concurrency
        self._limit = asyncio.Semaphore(concurrency) if concurrency else None
        self.base_url = (
            self._shared.base_url
            if self._shared is not None
            else str(self._client.base_url).rstrip("/")
        )

    @property
    def shared(self) -> bool:
        """Whether the client is shared with other providers of the same arguments."""
        return self._shared is not None

    def bound(self) -> Any:
        """The SDK client for the running loop."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            if self._shared is not None:
                old = self._loop
                if old is not None:
                    entry = self._shared.loops.get(old)
                    if entry is not None:
                        entry[1] -= 1  # that loop is over for this provider
                        if entry[1] <= 0 and old.is_closed():
                            self._shared.loops.pop(old, None)
                self._client = self._shared.acquire(loop)
            elif self._loop is not None and self._kwargs is not None:
                self._client = self._make(**self._kwargs)
            if self._loop is not None and self._concurrency:
                self._limit = asyncio.Semaphore(self._concurrency)
            self._loop = loop
        return self._client

    def slot(self) -> contextlib.AbstractAsyncContextManager[Any]:
        """One of the ``concurrency`` request slots (no limit when unset)."""
        return self._limit or contextlib.nullcontext()

    async def aclose(self) -> None:
        if self._shared is not None:
            loop, self._loop = self._loop, None
            if loop is not None:
                await self._shared.release(loop)
            return
        loop = asyncio.get_running_loop()
        if self._loop is not None and self._loop is not loop and self._loop.is_closed():
            return  # its pooled connections died with their loop: nothing left to close
        await self._client.close()
