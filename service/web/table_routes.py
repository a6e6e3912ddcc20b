"""A table besides the game: sitting down (the seat token into the service's cookie), the
table's stream (chairs, host, speed, the clock, autopilot notices, signals), signals, the
summary, and the library's rules text."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

from fastapi import Query, Request
from fastapi.responses import JSONResponse
from sse_starlette.sse import EventSourceResponse, ServerSentEvent

from bangarena.prompts.catalog import LANGS as CARD_LANGS

from ..access import Caller, authorize
from ..errors import ApiError
from ..registry import LiveMatch
from ..rooms import Member, Room, RoomBook, room_status
from ..signals import SignalRefused
from ..state import service_state
from ..tokens import COOKIE_NAME
from .models import (
    EnterBody,
    RulesText,
    SignalBody,
    SignalOut,
    Summary,
    TableEntry,
)
from .shared import (
    STREAM_TICK_S,
    MatchId,
    Rooms,
    dumps,
    member_of,
    new_router,
    set_cookie,
)
from .summary import achievements, match_badges, player_stats

router = new_router()


# -- a table ----------------------------------------------------------------------------------
@router.post(
    "/tables/{match_id}/enter",
    response_model=TableEntry,
    responses={403: {"description": "not at this table (and not asked to watch)"}},
)
async def enter_table(
    request: Request, match_id: MatchId, rooms: Rooms, body: EnterBody | None = None
) -> JSONResponse:
    """Sit down at a table page: a member of the match's room gets their seat token as the
    service's cookie; with ``watch`` anyone else gets the spectator's."""
    state = service_state(request)
    live = state.registry.get(match_id)
    if live is None:
        raise ApiError(404, "unknown_match", "no such game on this server (it may have ended)")
    room = rooms.by_match.get(match_id)
    found = member_of(request, rooms)
    if room is not None and found is not None and found[0] is room:
        member = found[1]
        token = member.seat_tokens.get(match_id)
        if token is not None and member.chair is not None:
            entry = TableEntry(
                match_id=match_id, seat=member.chair, role="seat", code=room.code,
                table=f"/table/{match_id}",
            )  # fmt: skip
            resp = JSONResponse(entry.model_dump(mode="json"))
            set_cookie(request, resp, COOKIE_NAME, token)
            return resp
    current = request.cookies.get(COOKIE_NAME)
    grant = state.tokens.lookup(current) if current else None
    if grant is not None and grant.match_id == match_id:
        entry = TableEntry(
            match_id=match_id, seat=grant.seat, role=grant.role,
            code=room.code if room else None, table=f"/table/{match_id}",
        )  # fmt: skip
        return JSONResponse(entry.model_dump(mode="json"))
    if body is not None and body.watch and room is not None and room.spectator_token:
        entry = TableEntry(
            match_id=match_id, seat=None, role="spectator", code=room.code,
            table=f"/table/{match_id}",
        )  # fmt: skip
        resp = JSONResponse(entry.model_dump(mode="json"))
        set_cookie(request, resp, COOKIE_NAME, room.spectator_token)
        return resp
    raise ApiError(403, "not_at_table", "you have no seat at this table; you may watch it")


def _table_caller(request: Request, match_id: str, rooms: RoomBook) -> tuple[Caller, Room | None]:
    caller = authorize(request, match_id, ("seat", "spectator", "host"))
    if caller.seat is not None and caller.live.info[caller.seat].kind != "human":
        # remote agents never get the web table's stream: signals are for people only
        raise ApiError(403, "forbidden", "the web table is for people; agents use API v1")
    return caller, rooms.by_match.get(match_id)


def _clock(live: LiveMatch) -> dict[str, Any] | None:
    """Whose decision it is and, for a person or an agent, the seconds left (public: the
    timer by the portrait)."""
    if live.ended or live.task is None:
        return None
    seat = live.game.decision.seat
    out: dict[str, Any] = {"seat": seat, "decision": len(live.game.state.history)}
    remote = live.remote.get(seat)
    p = remote.pending if remote is not None else None
    if remote is not None and p is not None and not p.answered:
        out["left_s"] = round(remote.seconds_left(p), 3)
        out["limit_s"] = p.deadline.limit_s
    return out


def table_status(
    live: LiveMatch, room: Room | None, seat: int | None, member: Member | None
) -> dict[str, Any]:
    """The table's public side the page shows besides the game: chairs with their controller
    badges and presence, host, speed, whose clock runs, autopilot notices, the next game."""
    if room is not None:
        chairs = room_status(room, member)["chairs"] if room.live is live else None
    else:
        chairs = None
    if chairs is None:
        chairs = [
            {"chair": i, "kind": info.kind, "name": info.name, "badge": info.name,
             "host": False, "handed": False, "present": None, "model": None}
            for i, info in enumerate(live.info)
        ]  # fmt: skip
    for c in chairs:
        remote = live.remote.get(c["chair"])
        if remote is not None:
            c["present"] = remote.connected()
    nxt = room.match_id if room is not None and room.match_id != live.match_id else None
    notices = room.notices[-5:] if room is not None and room.live is live else []
    return {
        "match_id": live.match_id,
        "status": live.status,
        "code": room.code if room else None,
        "speed": room.speed if room else None,
        "time_per_move": live.settings.time_per_move_s,
        "chairs": chairs,
        "you": {"seat": seat, "host": room.is_host(member) if room else False},
        "notices": notices,
        "next_match": nxt,
        "signals_left": room.signals.left(seat)
        if room is not None and room.signals is not None and seat is not None
        else None,
    }


def _changed(live: LiveMatch, room: Room | None, history: int) -> Callable[[], bool]:
    """Whether the table changed since now: the room, a move played, the game ended."""
    version = room.version if room is not None else 0
    ended = live.ended
    return lambda: (
        (room is not None and room.version != version)
        or len(live.game.state.history) != history
        or live.ended != ended
    )


async def _table_stream(
    caller: Caller, room: Room | None, tab: str | None
) -> AsyncIterator[ServerSentEvent]:
    live, seat = caller.live, caller.seat
    member = room.member_at(seat) if room is not None and seat is not None else None
    signals = room.signals if room is not None and room.live is live else None
    if member is not None:
        member.active += 1
        if tab:
            member.tab = tab
            room.notify()  # type: ignore[union-attr]  # an older tab of this seat steps aside
    sent: dict[str, Any] | None = None
    told = 0
    try:
        while True:
            if member is not None and tab and member.tab != tab:
                yield ServerSentEvent(data=dumps({"reason": "another_tab"}), event="replaced")
                return
            if room is not None:
                room.check_host()
            status = table_status(live, room, seat, member)
            if status != sent:
                sent = status
                yield ServerSentEvent(data=dumps({**status, "clock": _clock(live)}), event="table")
            if signals is not None:
                for sig in signals.since(told):
                    yield ServerSentEvent(data=dumps(sig.public()), event="signal")
                told = len(signals.signals)
            history = len(live.game.state.history)
            await live.wait_until(_changed(live, room, history), STREAM_TICK_S)
            if history != len(live.game.state.history):
                sent = None  # the clock moved on: resend it
    finally:
        if member is not None:
            member.active -= 1
            member.last_seen = time.monotonic()


@router.get("/tables/{match_id}/stream", response_class=EventSourceResponse)
async def table_stream(
    request: Request,
    match_id: MatchId,
    rooms: Rooms,
    tab: Annotated[str | None, Query(max_length=40, pattern=r"^[A-Za-z0-9_-]+$")] = None,
) -> EventSourceResponse:
    """The table besides the game (Server-Sent Events): ``table`` (chairs, host, speed, the
    clock, autopilot notices, the next game), ``signal`` (every signal of the game) and
    ``replaced`` (the same seat was opened in another tab: this one steps aside). People and
    spectators only."""
    caller, room = _table_caller(request, match_id, rooms)
    return EventSourceResponse(_table_stream(caller, room, tab), ping=15)


@router.post(
    "/tables/{match_id}/signals",
    response_model=SignalOut,
    responses={
        409: {"description": "not in the game (eliminated: reactions only)"},
        429: {"description": "too fast (one per 1.2 s) or over 60 this game"},
    },
)
async def send_signal(
    request: Request, match_id: MatchId, body: SignalBody, rooms: Rooms
) -> SignalOut:
    """Send a signal (a person's seat token): a declaration, a mark or a reaction."""
    caller, room = _table_caller(request, match_id, rooms)
    if caller.seat is None:
        raise ApiError(403, "forbidden", "spectators watch; only players send signals")
    if room is None or room.signals is None or room.live is not caller.live:
        raise ApiError(409, "no_signals", "this table takes no signals")
    if caller.live.ended and body.kind != "react":
        raise ApiError(409, "not_in_game", "the game is over: only reactions now")
    try:
        sig = room.signals.send(
            caller.seat, body.kind, body.value, body.target, alive=caller.live.alive(caller.seat)
        )
    except SignalRefused as exc:
        raise ApiError(exc.status, exc.code, str(exc)) from None
    room.notify()
    return SignalOut(**sig.public(), left=room.signals.left(caller.seat))  # type: ignore[arg-type]


@router.get(
    "/tables/{match_id}/summary",
    response_model=Summary,
    responses={409: {"description": "the game is not over yet"}},
)
async def summary(request: Request, match_id: MatchId, rooms: Rooms) -> Summary:
    """After the game: winners, every role, match badges, the viewer's achievements, stats."""
    caller, room = _table_caller(request, match_id, rooms)
    live = caller.live
    if not live.ended:
        raise ApiError(409, "not_over", "the game is still on")
    result = live.game.result() or {}
    rows = player_stats(live)
    winners = list(result.get("winners") or [])
    nxt = room.match_id if room is not None and room.match_id != match_id else None
    return Summary(
        match_id=match_id, winning_team=result.get("winning_team"), winners=winners,
        reason=result.get("reason") or live.status, rounds=int(live.game.state.round),
        players=rows, badges=match_badges(rows), achievements=achievements(rows, winners, caller.seat),
        you=caller.seat, code=room.code if room else None, next_match=nxt,
    )  # fmt: skip


@router.get("/rules", response_model=RulesText)
async def rules_text(
    lang: Annotated[str, Query(max_length=8, pattern=r"^[a-z]{2}$")] = "en",
) -> RulesText:
    """The library's rules: the rules text in ``lang`` (en, pt, es, fr; others: en), as HTML."""
    from .library import rules_html

    chosen = lang if lang in CARD_LANGS else "en"
    return RulesText(lang=chosen, html=rules_html(chosen))


__all__ = ["router", "table_status"]
