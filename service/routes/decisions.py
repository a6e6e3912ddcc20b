"""A seat's decisions and moves: ``GET /v1/matches/{id}/decision`` (long-poll) and
``POST /v1/matches/{id}/moves`` (seat tokens only).

They are most of what a service serves (an agent polls and moves at every decision), so each
has two ways in: the FastAPI routes below declare the contract (OpenAPI: the query, the body,
the responses) and can serve every request, and the fast path (:func:`fast_handler`, called by
the app before its middleware and router: ``service/app.py``) serves the well-formed requests
of that contract without FastAPI's per-request middleware, parameter solving and response
re-validation, and without starlette's request and response objects (it reads the raw headers
and body; the app sends its answer as two ASGI messages) — a match id of the declared
pattern, no query or at most one plain ``wait`` and one ``prompt`` part, a JSON body of a
known length within the limit that is a valid ``MoveAnswer``. Anything else (a bad or odd
query, a body that is not a valid answer, another content type, a chunked or oversized body)
goes to the whole app untouched, so every 4xx is the one FastAPI and our handlers give. Both
ways call the same functions below for the work, and answer the same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, Final

from fastapi import APIRouter, Query, Request, Response
from pydantic import ValidationError
from starlette.requests import ClientDisconnect, HTTPConnection
from starlette.types import Message, Receive, Scope, Send

from bangarena.harness.decision_payload import (
    PROMPT_PARTS,
    DecisionPayload,
    MoveAnswer,
    PromptPart,
    plain_json,
)
from bangarena.harness.seats.remote_seat import Accepted, PendingDecision, Rejected, RemoteSeat

from ..access import Caller, authorize, authorize_token
from ..errors import ERROR_RESPONSES, ApiError
from ..models import ErrorBody, MoveAccepted
from ..state import ServiceState
from ..tokens import bearer_token, request_token
from .matches import MatchId

router = APIRouter(prefix="/v1/matches", tags=["decisions"], responses=ERROR_RESPONSES)


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
        why = "" if live.cancel_reason is None else f": {live.cancel_reason}"
        raise ApiError(
            410, "match_over", f"the match is {live.status}{why}", result=live.game.result()
        )
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
    prompt: Annotated[
        PromptPart,
        Query(
            description="which of our prompts to send: 'full' (system and turn), 'turn' (the "
            "system prompt is null: it is fixed for the match, keep it from a 'full' poll) or "
            "'none' (prompt is null, and the service renders no turn prompt for the decision)"
        ),
    ] = "full",
) -> DecisionPayload | Response:
    """The seat's pending decision — its view, the legal moves (id and text), the answer
    schema, our prompts, the seconds left — waiting up to ``wait`` seconds for one. 204 when
    none came; 410 with the result once the match is over (or the seat is eliminated)."""
    return await _poll(request, match_id, wait, prompt)


async def _poll(
    request: Request, match_id: str, wait: float, prompt: PromptPart = "full"
) -> Response:
    got = await wait_for_decision(request, match_id, wait)
    if got is None:
        return Response(status_code=204)
    seat, pending = got
    # The payload's JSON is made once per decision (a poll only adds the time left): it is
    # most of a poll's cost, and agents poll a decision more than once.
    body = seat.payload_json_now(pending, prompt)
    return Response(content=body, media_type="application/json")


async def wait_for_decision(
    request: Request, match_id: str, wait: float
) -> tuple[RemoteSeat, PendingDecision] | None:
    """The caller's seat and its pending decision, waiting up to ``wait`` seconds for one
    (None: none came). Raises :class:`ApiError` (401/403/404/410/429) like the route."""
    return await _wait(authorize(request, match_id, ("seat",)), wait)


async def _wait(caller: Caller, wait: float) -> tuple[RemoteSeat, PendingDecision] | None:
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
                seat=caller.seat,
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
    return await _move(request, match_id, body)


async def _move(request: Request, match_id: str, body: MoveAnswer) -> MoveAccepted:
    # built from the engine's own event dicts: not validated again (a copy per move)
    return MoveAccepted.model_construct(
        **await _move_as(authorize(request, match_id, ("seat",)), body)
    )


async def _move_as(caller: Caller, body: MoveAnswer) -> dict[str, Any]:
    """Play the caller's answer; returns the fields of its :class:`MoveAccepted`, in order
    (plain data: the fast path serialises them without the model)."""
    seat, live = _seat(caller), caller.live
    _gone(caller)
    result = seat.submit(body.decision_id, body.move_id)
    if isinstance(result, Rejected):
        raise ApiError(422, "illegal_move", result.reason, legal=list(result.legal))
    if not isinstance(result, Accepted):
        raise ApiError(409, "stale_decision", result.reason)
    index = result.decision_id
    # The driver applies an accepted move as soon as it runs, and a match that stops wakes
    # every waiter: no timer is needed.
    await live.wait_until(lambda: index in live.cursor_after or live.outcome is not None, None)
    end = live.cursor_after.get(index, live.log_length())
    events = live.game.events(caller.seat, since=result.cursor)[: max(0, end - result.cursor)]
    return {
        "decision_id": index, "move_id": result.move_id, "events": events, "cursor": end,
        "status": live.status,
    }  # fmt: skip


# --- the fast path ---------------------------------------------------------------------------

_MATCH_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""The pattern and lengths of ``MatchId`` (routes/matches.py)."""
_PLAIN_WAIT: Final = re.compile(rb"\d{1,2}(?:\.\d{1,6})?")
"""A ``wait`` the fast poll takes: written plainly (``5``, ``0.5``); FastAPI takes the rest
(empty, signed, exponent …)."""
_PROMPT_PARTS: Final = {p.encode(): p for p in PROMPT_PARTS}
_PREFIX: Final = "/v1/matches/"
_JSON: Final = b"application/json"


@dataclass(frozen=True, slots=True)
class Handoff:
    """A request the fast path does not serve: the whole app serves it, reading the body from
    ``receive`` (the body already read is given back)."""

    receive: Receive


FastAnswer = tuple[int, bytes] | Response | Handoff
"""What a fast handler answers: ``(status, body)`` (200 with a JSON body, or 204 with none),
an error response, or a :class:`Handoff`."""
FastHandler = Callable[[Scope, Receive, ServiceState, int], Awaitable[FastAnswer]]


def fast_handler(scope: Scope) -> tuple[FastHandler, str] | None:
    """The fast handler of ``scope`` and its match id, for ``GET …/decision`` and ``POST
    …/moves`` with a match id of the declared pattern (None: the app serves it)."""
    path: str = scope["path"]
    if not path.startswith(_PREFIX):
        return None
    match_id, _, tail = path[len(_PREFIX) :].partition("/")
    method = scope["method"]
    if tail == "decision" and method == "GET":
        handler: FastHandler = fast_poll
    elif tail == "moves" and method == "POST":
        handler = fast_move
    else:
        return None
    if _MATCH_ID.fullmatch(match_id) is None:
        return None
    return handler, match_id


def _replay(body: bytes, receive: Receive) -> Receive:
    """``receive`` with the body already read given back once (for the app)."""
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


def _scope_token(scope: Scope) -> str | None:
    """The request's token as :func:`~bangarena.service.tokens.request_token` reads it, from
    the raw headers (a browser's cookie through starlette)."""
    for name, value in scope["headers"]:
        if name == b"authorization":
            return bearer_token(value.decode("latin-1"))
    return request_token(HTTPConnection(scope))


async def _read_body(receive: Receive) -> bytes:
    """The whole body, as ``Request.body()`` reads it."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.request":
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                return b"".join(chunks)
        elif message["type"] == "http.disconnect":
            raise ClientDisconnect()


async def send_json(send: Send, status: int, body: bytes) -> None:
    """Send a fast handler's answer with the headers a starlette ``Response(body,
    media_type="application/json")`` sends (none for a 204)."""
    headers = (
        [] if status == 204 else [(b"content-length", b"%d" % len(body)), (b"content-type", _JSON)]
    )
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def fast_poll(scope: Scope, receive: Receive, state: ServiceState, _limit: int) -> FastAnswer:
    """``GET /v1/matches/{id}/decision`` for a request of the plain contract (any other is
    handed off)."""
    query = scope.get("query_string", b"")
    wait = 0.0
    prompt: PromptPart = "full"
    if query:
        plain = _plain_poll_query(query)
        if plain is None:
            return Handoff(receive)
        wait, prompt = plain
    try:
        caller = authorize_token(
            state, _scope_token(scope), scope["path_params"]["match_id"], ("seat",)
        )
        got = await _wait(caller, wait)
    except ApiError as exc:
        return exc.response()
    if got is None:
        return 204, b""
    seat, pending = got
    # The payload's JSON is made once per decision (a poll only adds the time left).
    return 200, seat.payload_json_now(pending, prompt)


def _plain_poll_query(query: bytes) -> tuple[float, PromptPart] | None:
    """``wait`` and ``prompt`` from a query that has each at most once, written plainly and
    within bounds (None: FastAPI reads it, and answers its 422 for a bad one)."""
    wait: float | None = None
    prompt: PromptPart | None = None
    for item in query.split(b"&"):
        name, eq, value = item.partition(b"=")
        if not eq:
            return None
        if name == b"wait" and wait is None and _PLAIN_WAIT.fullmatch(value):
            wait = float(value)
            if wait > 60:
                return None
        elif name == b"prompt" and prompt is None and value in _PROMPT_PARTS:
            prompt = _PROMPT_PARTS[value]
        else:
            return None
    return (0.0 if wait is None else wait), ("full" if prompt is None else prompt)


async def fast_move(scope: Scope, receive: Receive, state: ServiceState, limit: int) -> FastAnswer:
    """``POST /v1/matches/{id}/moves`` for a valid JSON answer of a known length within the
    body limit (any other is handed off: the app gives its 413, its 422 …)."""
    length = content_type = None
    for name, value in scope["headers"]:
        if name == b"content-length" and length is None:
            length = value
        elif name == b"content-type" and content_type is None:
            content_type = value
    if (
        scope.get("query_string")
        or length is None
        or not length.isdigit()
        or int(length) > limit
        or content_type != _JSON
    ):
        return Handoff(receive)
    body = await _read_body(receive)
    try:
        answer = MoveAnswer.model_validate_json(body)
    except ValidationError:
        return Handoff(_replay(body, receive))
    try:
        caller = authorize_token(
            state, _scope_token(scope), scope["path_params"]["match_id"], ("seat",)
        )
        accepted = await _move_as(caller, answer)
    except ApiError as exc:
        return exc.response()
    return 200, plain_json(accepted)
