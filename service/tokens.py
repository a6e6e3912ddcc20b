"""Tokens: who a request speaks for.

Every token is ``ba_`` then ``secrets.token_urlsafe(32)`` (256 bits; ``settings.new_token``).
The service keeps only the SHA-256 of each token (a lookup by digest, confirmed with
``hmac.compare_digest``), so neither a dump of its memory nor a timing of its lookups gives a
token away. A request carries its token in an ``Authorization: Bearer`` header or, for a
browser (an ``EventSource`` cannot send headers), in the HttpOnly SameSite cookie
:data:`COOKIE_NAME`, set by ``POST /v1/session``. Tokens are never accepted in a URL and never
logged.

Grants: ``seat`` (one seat of one match: its view, its decisions, its moves), ``spectator``
(the public view of one match), ``host`` (the public view, starting and cancelling the
match). The admin token (the server's) creates, lists and cancels matches.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Final, Literal

from starlette.requests import HTTPConnection

from .settings import new_token

COOKIE_NAME: Final = "bangarena_token"
Role = Literal["seat", "spectator", "host"]


@dataclass(frozen=True, slots=True)
class Grant:
    """What one token may do: ``role`` in match ``match_id`` (``seat`` for a seat token)."""

    match_id: str
    role: Role
    seat: int | None = None
    digest: bytes = b""


def digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


class TokenBook:
    """The tokens of every live match, by digest."""

    def __init__(self, admin_token: str) -> None:
        self._admin = digest(admin_token)
        self._grants: dict[bytes, Grant] = {}
        self._by_match: dict[str, list[bytes]] = {}
        """Each match's token digests (revoking a match's tokens does not scan every grant)."""

    def issue(self, match_id: str, role: Role, seat: int | None = None) -> str:
        """A new token for ``role`` in ``match_id``; returns the token (kept only as a digest)."""
        token = new_token()
        d = digest(token)
        self._grants[d] = Grant(match_id, role, seat, d)
        self._by_match.setdefault(match_id, []).append(d)
        return token

    def lookup(self, token: str) -> Grant | None:
        """The grant of ``token`` (None: unknown)."""
        d = digest(token)
        grant = self._grants.get(d)
        if grant is None or not hmac.compare_digest(grant.digest, d):
            return None
        return grant

    def is_admin(self, token: str) -> bool:
        return hmac.compare_digest(digest(token), self._admin)

    def revoke_match(self, match_id: str) -> None:
        """Forget every token of ``match_id`` (a match dropped from memory)."""
        for d in self._by_match.pop(match_id, ()):
            self._grants.pop(d, None)


def bearer_token(header: str) -> str:
    """The token of an ``Authorization`` header's value: ``""`` when it is not a Bearer token
    (a malformed header is a bad token, not a missing one)."""
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return ""


def request_token(conn: HTTPConnection) -> str | None:
    """The token a request carries: the Bearer header first, else the cookie (None: none)."""
    header = conn.headers.get("authorization")
    if header is not None:
        return bearer_token(header)
    cookie = conn.cookies.get(COOKIE_NAME)
    return cookie or None


__all__ = [
    "COOKIE_NAME",
    "Grant",
    "Role",
    "TokenBook",
    "bearer_token",
    "digest",
    "request_token",
]
