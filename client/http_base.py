"""The connection every client holds: one httpx client with the bearer token in its headers,
the context-manager protocol, and requests whose transport failures become
:class:`~.errors.TransportError`. The sync and async bases differ only in ``await``."""

from __future__ import annotations

from typing import Any, Self

import httpx

from .errors import transport_error
from .wire import check_base_url, check_token, headers


class SyncConnection:
    """A blocking connection to the service (see the module docstring)."""

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        timeout: float = 10.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url = check_base_url(base_url)
        self.timeout = float(timeout)
        self._token = check_token(token)
        self._http = httpx.Client(
            base_url=self.base_url, headers=headers(self._token), timeout=self.timeout,
            transport=transport, follow_redirects=False,
        )  # fmt: skip

    def _repr_extra(self) -> str:
        return ""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_url!r}, token='***'{self._repr_extra()})"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connections (an open event iterator ends with them)."""
        self._http.close()

    def _send(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        try:
            return self._http.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            raise transport_error(exc) from None


class AsyncConnection:
    """The async twin of :class:`SyncConnection`."""

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        timeout: float = 10.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url = check_base_url(base_url)
        self.timeout = float(timeout)
        self._token = check_token(token)
        self._http = httpx.AsyncClient(
            base_url=self.base_url, headers=headers(self._token), timeout=self.timeout,
            transport=transport, follow_redirects=False,
        )  # fmt: skip

    def _repr_extra(self) -> str:
        return ""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_url!r}, token='***'{self._repr_extra()})"

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connections (an open event iterator ends with them)."""
        await self._http.aclose()

    async def _send(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        try:
            return await self._http.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            raise transport_error(exc) from None
