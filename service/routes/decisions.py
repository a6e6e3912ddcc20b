"""A seat's decisions and moves: ``GET /v1/matches/{id}/decision`` (long-poll) and
``POST /v1/matches/{id}/moves`` (seat tokens only)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from bangarena.harness.decision_payload import DecisionPayload, MoveAnswer
from bangarena.harness.seats.remote_seat import Accepted, PendingDecision, Rejected, RemoteSeat

from ..access import Caller, authorize
from ..errors import ERROR_RESPONSES, ApiError
from ..models import ErrorBody, MoveAccepted
from .matches import MatchId

router = APIRouter(prefix="/v1/matches", tags=["decisions"], responses=ERROR_RESPONSES)
APPLY_WAIT_S = 10.0
"""How long a move's answer waits for the driver to apply it (it does so at once)."""


def _seat(caller: Caller) -> RemoteSeat:
    assert caller.seat is not None
    seat = caller.live.remote.get(caller.seat)
    if seat is None:  # a seat token is only issued to remote and human seats
        raise ApiError(403, "forbidden", "this seat is not played from outside")
    return seat


def _gone(caller: Caller) -> None:
    """410 once the match is over, or for a seat that was eliminated."""
    live = caller.live
    if live.ended:
        raise ApiError(410, "match_over", f"the match is {live.status}", result=live.game.result())
    assert caller.seat is not None
    if not live.alive(caller.seat):
        raise ApiError(
            410, "eliminated", "this seat was eliminated; the match goes on",
            result=live.game.result(),
        )  # fmt: skip


GONE = {410: {"model": ErrorBody, "description": "the match is over, or the seat eliminated"}}


@router.get(
    "/{match_id}/decision",
    response_model=DecisionPayload,
    responses={204: {"description": "no decision pending within the wait"}, **GONE},
)
async def poll_decision(
    request: Request,
    match_id: MatchId,
    wait: Annotated[float, Query(ge=0, le=60, description="seconds to wait for one")] = 0.0,
) -> DecisionPayload | Response:
    """The seat's pending decision — its view, the legal moves (id and text), the answer
    schema, our prompts, the seconds left — waiting up to ``wait`` seconds for one. 204 when
    none came; 410 with the result once the match is over (or the seat is eliminated)."""
    got = await wait_for_decision(request, match_id, wait)
    if got is None:
        return Response(status_code=204)
    seat, pending = got
    # The payload's JSON is made once per decision (a poll only adds the time left): it is
    # most of a poll's cost, and agents poll a decision more than once.
    return Response(content=seat.payload_json_now(pending), media_type="application/json")


async def wait_for_decision(
    request: Request, match_id: str, wait: float
) -> tuple[RemoteSeat, PendingDecision] | None:
    """The caller's seat and its pending decision, waiting up to ``wait`` seconds for one
    (None: none came). Raises :class:`ApiError` (401/403/404/410/429) like the route."""
    caller = authorize(request, match_id, ("seat",))
    seat, live, state = _seat(caller), caller.live, caller.state
    _gone(caller)
    wait = min(wait, state.settings.max_wait_s)
    if wait > 0:
        if not state.registry.acquire(
            "wait", caller.grant.digest, state.settings.max_waits_per_token
        ):
            raise ApiError(
                429, "too_many_waits",
                f"{state.settings.max_waits_per_token} polls of this token are open already",
            )  # fmt: skip
        seat.open_connection()
        try:
            await live.wait_until(
                lambda: (
                    live.ended
                    or not live.alive(caller.seat or 0)
                    or (seat.pending is not None and not seat.pending.answered)
                ),
                wait,
            )
        finally:
            seat.close_connection()
            state.registry.release("wait", caller.grant.digest)
        _gone(caller)
    pending = seat.take_pending()
    return None if pending is None else (seat, pending)


@router.post(
    "/{match_id}/moves",
    response_model=MoveAccepted,
    responses={
        409: {"model": ErrorBody, "description": "a stale or foreign decision id"},
        422: {"model": ErrorBody, "description": "invalid request, or illegal_move"},
        **GONE,
    },
)
async def post_move(request: Request, match_id: MatchId, body: MoveAnswer) -> MoveAccepted:
    """Answer the pending decision: 200 with the events the move caused as this seat saw
    them; 409 when ``decision_id`` is not this seat's pending decision; 422 ``illegal_move``
    (with the legal ids) for an id that is not legal — recorded as an attempt, and the seat
    may answer again within its clock; 410 once the match is over."""
    caller = authorize(request, match_id, ("seat",))
    seat, live = _seat(caller), caller.live
    _gone(caller)
    result = seat.submit(body.decision_id, body.move_id)
    if isinstance(result, Rejected):
        raise ApiError(422, "illegal_move", result.reason, legal=list(result.legal))
    if not isinstance(result, Accepted):
        raise ApiError(409, "stale_decision", result.reason)
    index = result.decision_id
    await live.wait_until(
        lambda: index in live.cursor_after or live.record is not None, APPLY_WAIT_S
    )
    end = live.cursor_after.get(index, live.log_length())
    events = live.game.events(caller.seat, since=result.cursor)[: max(0, end - result.cursor)]
    return MoveAccepted(
        decision_id=index, move_id=result.move_id, events=events, cursor=end, status=live.status
    )
