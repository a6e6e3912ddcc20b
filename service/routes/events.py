"""``GET /v1/matches/{id}/events``: the match's events as the token's holder may see them, as
Server-Sent Events.

Each ``game`` event's id is the view cursor after it (the log position + 1), so a client that
reconnects with ``Last-Event-ID: N`` gets every event from position N on — none lost, none
twice. A seat's stream also carries its decisions (``decision`` events, the same payload as
``GET …/decision``, without an id; ``?prompt=`` as the poll's), and every stream ends with an
``end`` event holding the match's public status. An open stream keeps a remote seat connected
(rules.md §3)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from sse_starlette.sse import EventSourceResponse, ServerSentEvent
from starlette.background import BackgroundTask

from bangarena.harness.decision_payload import PromptPart

from ..access import Caller, authorize
from ..errors import ERROR_RESPONSES, ApiError
from .matches import MatchId

router = APIRouter(prefix="/v1/matches", tags=["events"], responses=ERROR_RESPONSES)
SSE_EVENT_SCHEMA = {
    "type": "object",
    "description": "one event of the stream: `data` is a JSON text (a game event as the token "
    "sees it, a decision payload, or the match's public status at the end)",
    "properties": {
        "event": {"type": "string", "enum": ["game", "decision", "end"]},
        "data": {"type": "string"},
        "id": {"type": "string", "pattern": "^[0-9]+$"},
        "retry": {"type": "integer"},
    },
    "required": ["data"],
}


def _resume_from(request: Request, end: int) -> int:
    raw = request.headers.get("last-event-id")
    if raw is None or not raw.strip():
        return 0
    text = raw.strip()
    if not text.isdigit() or len(text) > 12:
        raise ApiError(400, "bad_last_event_id", "Last-Event-ID is an event id: a cursor ≥ 0")
    since = int(text)
    if since > end:
        raise ApiError(
            400, "bad_last_event_id", f"Last-Event-ID {since} is past the match's events ({end})"
        )
    return since


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class _Slot:
    """A stream slot of a token, released exactly once: by the stream when it ends, or after
    the response when the stream never started (a client gone before the first event)."""

    def __init__(self, caller: Caller) -> None:
        self.caller = caller
        self.held = True

    def release(self) -> None:
        if self.held:
            self.held = False
            self.caller.state.registry.release("stream", self.caller.grant.digest)


async def _stream(
    caller: Caller, since: int, slot: _Slot, prompt: PromptPart = "full"
) -> AsyncIterator[ServerSentEvent]:
    live, state = caller.live, caller.state
    viewer = caller.seat
    seat = live.remote.get(viewer) if viewer is not None else None
    if seat is not None:
        seat.open_connection()
    cursor = since
    told: int | None = None
    try:
        while True:
            if cursor < live.log_length():
                events = live.game.events(viewer, since=cursor)
                for k, e in enumerate(events):
                    yield ServerSentEvent(data=_dumps(e), event="game", id=str(cursor + k + 1))
                cursor += len(events)
            if seat is not None:
                p = seat.pending
                if p is not None and not p.answered and p.decision_id != told:
                    told = p.decision_id
                    p.delivered = True
                    # the poll's very bytes (made once per decision)
                    payload = seat.payload_json_now(p, prompt).decode()
                    yield ServerSentEvent(data=payload, event="decision")
            if live.ended and cursor >= live.log_length():
                status = live.public_status().model_dump(mode="json")
                yield ServerSentEvent(data=_dumps(status), event="end")
                return

            def changed(cursor: int = cursor, told: int | None = told) -> bool:
                p = seat.pending if seat is not None else None
                return (
                    live.log_length() > cursor
                    or live.ended
                    or (p is not None and not p.answered and p.decision_id != told)
                )

            await live.wait_until(changed, state.settings.sse_ping_s)
    finally:
        if seat is not None:
            seat.close_connection()
        slot.release()


@router.get(
    "/{match_id}/events",
    response_class=EventSourceResponse,
    responses={
        200: {
            "description": "text/event-stream: game, decision and end events",
            "content": {"text/event-stream": {"schema": SSE_EVENT_SCHEMA}},
        }
    },
)
async def match_events(
    request: Request,
    match_id: MatchId,
    prompt: Annotated[
        PromptPart, Query(description="our prompts in a seat's decision events, as for a poll")
    ] = "full",
) -> EventSourceResponse:
    """The events as the token's holder sees them (a seat its own view's, a spectator or host
    the public ones), resumable with ``Last-Event-ID``."""
    caller = authorize(request, match_id, ("seat", "spectator", "host"))
    since = _resume_from(request, caller.live.log_length())
    s = caller.state.settings
    if not caller.state.registry.acquire("stream", caller.grant.digest, s.max_streams_per_token):
        raise ApiError(
            429, "too_many_streams", f"{s.max_streams_per_token} streams of this token are open"
        )
    slot = _Slot(caller)
    return EventSourceResponse(
        _stream(caller, since, slot, prompt),
        ping=s.sse_ping_s,
        background=BackgroundTask(slot.release),
    )
