"""What the SDK-backed providers share: one SDK client per event loop, and a concurrency limit."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any


class LoopBoundClient:
    """Holds an official async SDK client (openai, anthropic) for the running event loop.

    Pooled connections belong to one loop, so a provider reused under a new loop (a new
    ``asyncio.run``, a new test) gets a new client; the optional semaphore bounds the requests
    in flight and is remade with the client for the same reason.
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
        self._client = client if client is not None else make_client(**(kwargs or {}))
        self._loop: asyncio.AbstractEventLoop | None = None
        self._concurrency = concurrency
        self._limit = asyncio.Semaphore(concurrency) if concurrency else None
        self.base_url = str(self._client.base_url).rstrip("/")

    def bound(self) -> Any:
        """The SDK client for the running loop."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            if self._loop is not None and self._kwargs is not None:
                self._client = self._make(**self._kwargs)
            if self._loop is not None and self._concurrency:
                self._limit = asyncio.Semaphore(self._concurrency)
            self._loop = loop
        return self._client

    def slot(self) -> contextlib.AbstractAsyncContextManager[Any]:
        """One of the ``concurrency`` request slots (no limit when unset)."""
        return self._limit or contextlib.nullcontext()

    async def aclose(self) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is not None and self._loop is not loop and self._loop.is_closed():
            return  # its pooled connections died with their loop: nothing left to close
        await self._client.close()
