"""``/v1/matches``: making a match (admin), its public status, starting it (host), and the
current view for a token."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request

from bangarena.engine.views import view_to_dict

from ..access import authorize, match_or_404, require_admin
from ..errors import ERROR_RESPONSES, ApiError
from ..models import CreateMatch, MatchCreated, MatchStatus, ViewBody
from ..registry import CreateError
from ..state import ServiceState

router = APIRouter(prefix="/v1/matches", tags=["matches"], responses=ERROR_RESPONSES)
MatchId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


@router.post("", status_code=201, response_model=MatchCreated)
async def create_match(
    body: CreateMatch, state: Annotated[ServiceState, Depends(require_admin)]
) -> MatchCreated:
    """Make a match (admin token). Remote and human seats get a token each (shown only here);
    the host token starts the match early, the spectator token reads the public view. The match
    starts at once with ``"start": "now"`` (or when no seat is remote or human), else when every
    remote and human seat has connected once."""
    try:
        _live, created = state.registry.create(body)
    except CreateError as exc:
        raise ApiError(422, "invalid_match", str(exc)) from None
    return created


@router.get("/{match_id}", response_model=MatchStatus)
async def match_status(request: Request, match_id: MatchId) -> MatchStatus:
    """The public status of a match: seats (kind, name, alive, connected), whose decision is
    pending, the result once over. No token needed; nothing hidden."""
    return match_or_404(request, match_id).public_status()


@router.post("/{match_id}/start", response_model=MatchStatus)
async def start_match(request: Request, match_id: MatchId) -> MatchStatus:
    """Start a waiting match now (host token); seats that have not connected are on the
    clock like disconnected ones."""
    caller = authorize(request, match_id, ("host",))
    caller.live.start()
    return caller.live.public_status()


@router.get("/{match_id}/view", response_model=ViewBody)
async def match_view(
    request: Request,
    match_id: MatchId,
    since: Annotated[
        int | None,
        Query(ge=0, description="a previous cursor: the events from it (default: none)"),
    ] = None,
) -> ViewBody:
    """The current view for the token: a seat token gets its seat's view (its hand, its role),
    a spectator or host token the public view."""
    caller = authorize(request, match_id, ("seat", "spectator", "host"))
    live = caller.live
    end = live.log_length()
    start = end if since is None else since
    if start > end:
        raise ApiError(422, "invalid_request", f"since {start} is past the match's events ({end})")
    view = live.game.view(caller.seat, since=start)
    return ViewBody(
        match_id=match_id, seat=caller.seat, status=live.status, view=view_to_dict(view)
    )
