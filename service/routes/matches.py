"""``/v1/matches``: making a match (admin), listing them (admin), its public status, starting
it (host), cancelling it (admin or host), and the current view for a token."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request

from bangarena.engine.views import view_to_dict

from ..access import authorize, authorize_admin_or, match_or_404, require_admin
from ..errors import ERROR_RESPONSES, ApiError
from ..models import (
    CreateMatch,
    ErrorBody,
    MatchCreated,
    MatchList,
    MatchState,
    MatchStatus,
    ViewBody,
)
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


@router.get("", response_model=MatchList)
async def list_matches(
    state: Annotated[ServiceState, Depends(require_admin)],
    status: Annotated[
        MatchState | None, Query(description="only the matches in this state")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=1000, description="at most this many")] = 100,
) -> MatchList:
    """The matches the service holds (admin token), the newest first, each as its public
    status: waiting and running ones, and the last finished ones it keeps in memory (the
    store holds every finished match: ``GET /v1/suites/live``)."""
    return MatchList(matches=[m.public_status() for m in state.registry.listing(status, limit)])


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


CANCEL_WAIT_S = 10.0
"""How long a cancel waits for the match to end before it answers (seats close first)."""


@router.delete(
    "/{match_id}",
    response_model=MatchStatus,
    responses={410: {"model": ErrorBody, "description": "the match had ended already"}},
)
async def cancel_match(request: Request, match_id: MatchId) -> MatchStatus:
    """Cancel a match (the admin token, or the match's host token): a waiting match never
    starts; a running one stops, its pending decisions withdrawn (their polls get 410). It ends
    ``aborted``, its record saying who cancelled it, and is stored as a void match of the
    suite ``live`` (a stopped match is no result). Answers its public status once it has
    ended (a cancel already under way is waited for); 410 with the result when it had ended
    already."""
    live, who = authorize_admin_or(request, match_id, ("host",))
    if live.ended:
        raise ApiError(
            410, "match_over", f"the match is {live.status} already", result=live.game.result()
        )
    live.cancel(f"cancelled by the {who}")  # False: a cancel is under way; wait for it too
    await live.wait_until(lambda: live.outcome is not None, CANCEL_WAIT_S)
    return live.public_status()


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
