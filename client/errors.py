"""The typed errors of the seat service, one class per status code, each with the server's reason.

Every error the client raises is a :class:`ServiceError`; :class:`TransportError` is the one that
means "try again" (the connection failed or broke, or the server answered 5xx or 429). The
service's error body is read leniently: its ``reason``, ``detail`` or ``message`` (whichever it
has) becomes :attr:`ServiceError.reason`, cut to a few hundred characters.
"""

from __future__ import annotations

from typing import Any

import httpx

REASON_MAX_CHARS = 500


class ServiceError(Exception):
    """An answer of the service that is not a success (or no answer at all)."""

    status: int | None = None

    def __init__(self, reason: str, *, status: int | None = None, body: Any = None) -> None:
        super().__init__(reason)
        self.reason = reason
        if status is not None:
            self.status = status
        self.body = body

    @property
    def code(self) -> str | None:
        """The service's error code (``unknown_token``, ``stale_decision``, …), if it sent one."""
        code = self.body.get("error") if isinstance(self.body, dict) else None
        return code if isinstance(code, str) else None

    def __str__(self) -> str:
        return f"{self.status} {self.reason}" if self.status else self.reason


class TransportError(ServiceError):
    """No usable answer: the connection failed or broke, the server was busy (429) or failed
    (5xx). Retrying later is right; :attr:`retry_after` is the server's hint in seconds."""

    def __init__(
        self,
        reason: str,
        *,
        status: int | None = None,
        body: Any = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(reason, status=status, body=body)
        self.retry_after = retry_after


class BadRequest(ServiceError):
    """400/413/422 (not an illegal move): the request itself was malformed or too large."""

    status = 400


class Unauthorized(ServiceError):
    """401: no token, or a token the service does not know."""

    status = 401


class Forbidden(ServiceError):
    """403: a valid token that may not do this (another seat or match, a spectator acting)."""

    status = 403


class NotFound(ServiceError):
    """404: no such match (or route)."""

    status = 404


class StaleDecision(ServiceError):
    """409: the answer names a decision that is not this seat's pending one (already played,
    autopiloted, or from another match). Poll again for the current decision."""

    status = 409


class IllegalMove(ServiceError):
    """422 ``illegal_move``: the move id is not legal for the decision; :attr:`legal` lists the
    ids that are. The decision stays pending, and the attempt is recorded."""

    status = 422

    def __init__(self, reason: str, *, legal: list[str], status: int = 422, body: Any = None):
        super().__init__(reason, status=status, body=body)
        self.legal = legal


class MatchOver(ServiceError):
    """410: the match is over, or this seat is eliminated (:attr:`eliminated`) while it goes
    on; :attr:`result` is the outcome (winning team, winners, reason, …), None until the match
    has one."""

    status = 410

    def __init__(self, reason: str, *, result: Any, status: int = 410, body: Any = None) -> None:
        super().__init__(reason, status=status, body=body)
        self.result = result

    @property
    def eliminated(self) -> bool:
        """Whether the 410 is for this seat's elimination rather than the match's end."""
        return self.code == "eliminated"


_BY_STATUS: dict[int, type[ServiceError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: StaleDecision,
    413: BadRequest,
    422: BadRequest,
}


def _body(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return response.text[:REASON_MAX_CHARS]


def _reason(body: Any, response: httpx.Response) -> str:
    """The server's own words: the first of ``reason``/``detail``/``message``/``error`` found."""
    found: Any = None
    if isinstance(body, dict):
        for key in ("reason", "detail", "message", "error"):
            if body.get(key):
                found = body[key]
                break
    elif isinstance(body, str) and body:
        found = body
    if found is None:
        found = response.reason_phrase or f"HTTP {response.status_code}"
    text = found if isinstance(found, str) else repr(found)
    return text[:REASON_MAX_CHARS]


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def error_for(response: httpx.Response) -> ServiceError:
    """The typed error for a response that is not a 2xx."""
    status = response.status_code
    body = _body(response)
    reason = _reason(body, response)
    if status == 422 and isinstance(body, dict) and body.get("error") == "illegal_move":
        legal = body.get("legal")
        ids = [str(x) for x in legal] if isinstance(legal, list) else []
        return IllegalMove(str(body.get("reason") or reason), legal=ids, body=body)
    if status == 410:
        result = body.get("result") if isinstance(body, dict) else None
        return MatchOver(reason, result=result, body=body)
    if status == 429 or status >= 500:
        return TransportError(reason, status=status, body=body, retry_after=_retry_after(response))
    cls = _BY_STATUS.get(status, BadRequest if 400 <= status < 500 else ServiceError)
    return cls(reason, status=status, body=body)


def transport_error(exc: httpx.HTTPError) -> TransportError:
    """A :class:`TransportError` for an httpx failure (never echoing a header or the URL's
    query: the message is the exception's class and text only)."""
    return TransportError(f"{type(exc).__name__}: {exc}"[:REASON_MAX_CHARS])
