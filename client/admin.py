"""Creating matches with the service's admin token: :class:`AdminClient` (blocking),
:class:`AsyncAdminClient` and the one-call :func:`create_match`.

Players are plain objects, one per seat; the helpers :func:`bot`, :func:`model`,
:func:`remote` and :func:`human` build them. A model seat names a participant configured on
the server (never a spec or a base URL: nobody can spend the server's keys elsewhere).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from .http_base import AsyncConnection, SyncConnection
from .models import MatchCreated
from .wire import API, json_of, match_path

Player = dict[str, Any]


def bot(spec: str = "rule") -> Player:
    """A bot seat (``rule``, ``random``, ``rule:eps=0.3``, …)."""
    return {"kind": "bot", "spec": spec}


def model(participant: str) -> Player:
    """A seat played by a model participant configured on the server."""
    return {"kind": "model", "participant": participant}


def remote(name: str) -> Player:
    """A seat played by an agent that connects with its seat token (this client)."""
    return {"kind": "remote", "name": name}


def human(name: str) -> Player:
    """A seat played by a person in the browser."""
    return {"kind": "human", "name": name}


def match_body(
    players: Sequence[Player],
    *,
    mode: str = "classic",
    seed: int | None = None,
    time_per_move: float | None = None,
    start: Literal["now", "connected"] | None = None,
) -> dict[str, Any]:
    """The body of ``POST /v1/matches`` (``seats`` is the number of players)."""
    body: dict[str, Any] = {"seats": len(players), "mode": mode, "players": list(players)}
    if seed is not None:
        body["seed"] = seed
    if time_per_move is not None:
        body["time_per_move"] = time_per_move
    if start is not None:
        body["start"] = start
    return body


def _listing(status: str | None, limit: int) -> dict[str, Any]:
    params: dict[str, Any] = {"limit": limit}
    if status is not None:
        params["status"] = status
    return params


class AdminClient(SyncConnection):
    """The service's admin: ``AdminClient(base_url, admin_token)``; creates, lists and cancels
    matches. The token travels only in the ``Authorization`` header and never shows in
    ``repr``."""

    def create_match(self, players: Sequence[Player], **options: Any) -> MatchCreated:
        """Create a match (options: ``mode``, ``seed``, ``time_per_move``, ``start="now"``);
        its id, host and spectator tokens, and a token per remote or human seat."""
        response = self._send("POST", f"{API}/matches", json=match_body(players, **options))
        return MatchCreated.model_validate(json_of(response))

    def status(self, match_id: str) -> dict[str, Any]:
        """A match's public status."""
        return json_of(self._send("GET", match_path(match_id)))

    def matches(self, status: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """The public statuses of the matches the service holds, the newest first
        (``status``: ``waiting``, ``running``, ``over`` or ``aborted`` only)."""
        response = self._send("GET", f"{API}/matches", params=_listing(status, limit))
        return json_of(response)["matches"]

    def cancel(self, match_id: str) -> dict[str, Any]:
        """Cancel a match (it ends ``aborted``); its public status once ended. Raises
        ``MatchOver`` when it had ended already."""
        return json_of(self._send("DELETE", match_path(match_id)))

    def health(self) -> dict[str, Any]:
        """``GET /healthz``."""
        return json_of(self._send("GET", "/healthz"))


class AsyncAdminClient(AsyncConnection):
    """The async twin of :class:`AdminClient`."""

    async def create_match(self, players: Sequence[Player], **options: Any) -> MatchCreated:
        """Create a match; see :meth:`AdminClient.create_match`."""
        response = await self._send("POST", f"{API}/matches", json=match_body(players, **options))
        return MatchCreated.model_validate(json_of(response))

    async def status(self, match_id: str) -> dict[str, Any]:
        """A match's public status."""
        return json_of(await self._send("GET", match_path(match_id)))

    async def matches(self, status: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """See :meth:`AdminClient.matches`."""
        response = await self._send("GET", f"{API}/matches", params=_listing(status, limit))
        return json_of(response)["matches"]

    async def cancel(self, match_id: str) -> dict[str, Any]:
        """See :meth:`AdminClient.cancel`."""
        return json_of(await self._send("DELETE", match_path(match_id)))


def create_match(
    base_url: str, admin_token: str, players: Sequence[Player], **options: Any
) -> MatchCreated:
    """One call: create a match with the admin token (see :meth:`AdminClient.create_match`)."""
    with AdminClient(base_url, admin_token) as admin:
        return admin.create_match(players, **options)
