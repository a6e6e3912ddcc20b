"""Who may do what: the checks every match route makes, in one order — a token (401 when
missing or unknown), the match (404), the token's match (403), the token's role (403).
Error reasons name the rule, never another seat's information."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from fastapi import Request

from .errors import ApiError
from .registry import LiveMatch
from .state import ServiceState, service_state
from .tokens import Grant, Role, request_token


@dataclass(frozen=True, slots=True)
class Caller:
    """An authorised request on one match."""

    live: LiveMatch
    grant: Grant
    state: ServiceState

    @property
    def seat(self) -> int | None:
        return self.grant.seat if self.grant.role == "seat" else None


def _required(token: str | None) -> str:
    if token is None:
        raise ApiError(401, "missing_token", "send the token in an 'Authorization: Bearer' header")
    return token


def require_admin(request: Request) -> ServiceState:
    """The admin token, or 401 (missing, unknown) / 403 (a match's token)."""
    state = service_state(request)
    token = _required(request_token(request))
    if state.tokens.is_admin(token):
        return state
    if state.tokens.lookup(token) is not None:
        raise ApiError(403, "forbidden", "this needs the service's admin token")
    raise ApiError(401, "unknown_token", "the token is not known to this service")


def authorize(request: Request, match_id: str, roles: Collection[Role]) -> Caller:
    """The caller of a match route, if its token may take ``roles`` on ``match_id``."""
    return authorize_token(service_state(request), request_token(request), match_id, roles)


def authorize_token(
    state: ServiceState, token: str | None, match_id: str, roles: Collection[Role]
) -> Caller:
    """:func:`authorize` for a request's token already read (None: it carries none)."""
    token = _required(token)
    grant = state.tokens.lookup(token)
    if grant is None:
        if state.tokens.is_admin(token):
            raise ApiError(
                403, "forbidden", "the admin token makes matches; use a seat or spectator token"
            )
        raise ApiError(401, "unknown_token", "the token is not known to this service")
    live = state.registry.get(match_id)
    if live is None:
        raise ApiError(404, "unknown_match", "no such match on this service")
    if grant.match_id != match_id:
        raise ApiError(403, "forbidden", "the token belongs to another match")
    if grant.role not in roles:
        wanted = " or ".join(sorted(roles))
        raise ApiError(403, "forbidden", f"this needs a {wanted} token, not a {grant.role} token")
    if grant.seat is not None:
        live.seat_seen(grant.seat)
    return Caller(live, grant, state)


def authorize_admin_or(
    request: Request, match_id: str, roles: Collection[Role]
) -> tuple[LiveMatch, str]:
    """The match of a route that the admin token or a token of ``roles`` on that match may
    call; returns it and who called (``admin`` or the token's role)."""
    state = service_state(request)
    token = _required(request_token(request))
    if state.tokens.is_admin(token):
        return match_or_404(request, match_id), "admin"
    caller = authorize_token(state, token, match_id, roles)
    return caller.live, caller.grant.role


def match_or_404(request: Request, match_id: str) -> LiveMatch:
    live = service_state(request).registry.get(match_id)
    if live is None:
        raise ApiError(404, "unknown_match", "no such match on this service")
    return live


__all__ = [
    "Caller",
    "authorize",
    "authorize_admin_or",
    "authorize_token",
    "match_or_404",
    "require_admin",
]
