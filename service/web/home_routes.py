"""The home screen's routes: what the server offers, Play (a table with bots at once) and
Watch a bot match."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import JSONResponse

from bangarena.engine.roles import MAX_SEATS, MIN_SEATS, MODES
from bangarena.harness.match import PEOPLE_TIMES_S
from bangarena.prompts.catalog import LANGS as CARD_LANGS

from ..rooms import MEMBER_COOKIE, SPEEDS, Room, RoomBook, RoomError
from ..signals import DECLARABLE, MARKABLE, REACTIONS
from ..state import service_state
from ..tokens import COOKIE_NAME
from .models import (
    Options,
    TableEntry,
    TableSettings,
    WatchSettings,
)
from .shared import (
    UI_LANGS,
    Rooms,
    chosen_chairs,
    new_router,
    room_error,
    set_cookie,
)

router = new_router()


# -- the home screen -------------------------------------------------------------------------
@router.get("/options", response_model=Options)
async def options(request: Request) -> Options:
    """What the home screen offers: seats, modes, times, speeds, languages, and the model
    participants of this server (a chair may seat one)."""
    settings = service_state(request).settings
    return Options(
        seats=list(range(MIN_SEATS, MAX_SEATS + 1)), modes=list(MODES),
        times=list(PEOPLE_TIMES_S), speeds=list(SPEEDS), languages=list(UI_LANGS),
        card_languages=list(CARD_LANGS), models=[p.id for p in settings.participants],
        reactions=list(REACTIONS), declarations=list(DECLARABLE), marks=list(MARKABLE),
    )  # fmt: skip


def _configure_chairs(rooms: RoomBook, room: Room, body: TableSettings) -> None:
    for i, choice in enumerate(chosen_chairs(body)[: room.seats - 1], start=1):
        rooms.set_chair(room, i, choice.kind, choice.spec, choice.participant)
    rooms.fill(room)


@router.post("/play", response_model=TableEntry, status_code=201)
async def play(request: Request, body: TableSettings, rooms: Rooms) -> JSONResponse:
    """Play: a table with bots (or the server's models in the chosen chairs) at once; the
    caller sits in chair 0. Sets the room and seat cookies; open ``table``."""
    try:
        room, token = rooms.create(
            seats=body.seats, mode=body.mode, time_per_move=body.time_per_move,
            speed=body.speed, host_name=body.name,
        )  # fmt: skip
        _configure_chairs(rooms, room, body)
        live = rooms.start(room)
    except RoomError as exc:
        raise room_error(exc) from None
    assert token is not None
    member = room.member_at(0)
    assert member is not None
    entry = TableEntry(
        match_id=live.match_id, seat=0, role="seat", code=room.code,
        table=f"/table/{live.match_id}",
    )  # fmt: skip
    resp = JSONResponse(entry.model_dump(mode="json"), status_code=201)
    set_cookie(request, resp, MEMBER_COOKIE, token)
    set_cookie(request, resp, COOKIE_NAME, member.seat_tokens[live.match_id])
    return resp


@router.post("/watch", response_model=TableEntry, status_code=201)
async def watch(request: Request, body: WatchSettings, rooms: Rooms) -> JSONResponse:
    """Watch a bot match: every chair a rule bot, the caller a spectator."""
    try:
        room, _ = rooms.create(
            seats=body.seats, mode=body.mode, time_per_move=30.0, speed=body.speed,
            host_name=None,
        )  # fmt: skip
        rooms.fill(room)
        live = rooms.start(room)
    except RoomError as exc:
        raise room_error(exc) from None
    assert room.spectator_token is not None
    entry = TableEntry(
        match_id=live.match_id, seat=None, role="spectator", code=room.code,
        table=f"/table/{live.match_id}",
    )  # fmt: skip
    resp = JSONResponse(entry.model_dump(mode="json"), status_code=201)
    set_cookie(request, resp, COOKIE_NAME, room.spectator_token)
    return resp
