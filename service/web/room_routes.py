"""Rooms: create, read, join by code, the host's controls (chairs, fill, start, speed, hand to
a bot and back), Play again, and the room's stream."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import Path, Request
from fastapi.responses import JSONResponse
from sse_starlette.sse import EventSourceResponse, ServerSentEvent

from bangarena.engine.roles import MAX_SEATS

from ..rooms import MEMBER_COOKIE, Member, Room, RoomBook, RoomError, room_status
from .models import (
    ChairBody,
    JoinBody,
    RoomEntry,
    SpeedBody,
    TableSettings,
)
from .shared import (
    STREAM_TICK_S,
    Code,
    Rooms,
    dumps,
    member_of,
    new_router,
    room_entry,
    room_error,
    set_cookie,
)

router = new_router()


# -- rooms ------------------------------------------------------------------------------------
@router.post("/rooms", response_model=RoomEntry, status_code=201)
async def create_room(request: Request, body: TableSettings, rooms: Rooms) -> JSONResponse:
    """Create a room: the caller is its host, in chair 0; share the code or the link."""
    try:
        room, token = rooms.create(
            seats=body.seats, mode=body.mode, time_per_move=body.time_per_move,
            speed=body.speed, host_name=body.name,
        )  # fmt: skip
    except RoomError as exc:
        raise room_error(exc) from None
    assert token is not None
    resp = JSONResponse(room_entry(room, 0).model_dump(mode="json"), status_code=201)
    set_cookie(request, resp, MEMBER_COOKIE, token)
    return resp


def _room_andmember_of(request: Request, rooms: RoomBook, code: str) -> tuple[Room, Member | None]:
    try:
        room = rooms.get(code)
    except RoomError as exc:
        raise room_error(exc) from None
    found = member_of(request, rooms)
    member = found[1] if found is not None and found[0] is room else None
    return room, member


@router.get("/rooms/{code}", response_model=dict[str, Any])
async def get_room(request: Request, code: Code, rooms: Rooms) -> dict[str, Any]:
    """A room's chairs, host, speed and game (public), and the caller's chair."""
    room, member = _room_andmember_of(request, rooms, code)
    room.check_host()
    return room_status(room, member)


@router.post(
    "/rooms/{code}/join",
    response_model=RoomEntry,
    responses={409: {"description": "the room is full, or its game has started"}},
)
async def join_room(request: Request, code: Code, body: JoinBody, rooms: Rooms) -> JSONResponse:
    """Join a room by its code: the first free chair (404 unknown code, 409 full)."""
    room, member = _room_andmember_of(request, rooms, code)
    if member is not None:  # already in: joining twice is a no-op
        return JSONResponse(room_entry(room, member.chair).model_dump(mode="json"))
    try:
        room, member, token = rooms.join(code, body.name)
    except RoomError as exc:
        raise room_error(exc) from None
    resp = JSONResponse(room_entry(room, member.chair).model_dump(mode="json"))
    set_cookie(request, resp, MEMBER_COOKIE, token)
    return resp


def _host_call(request: Request, rooms: RoomBook, code: str) -> tuple[Room, Member]:
    room, member = _room_andmember_of(request, rooms, code)
    try:
        return room, rooms.require_host(room, member)
    except RoomError as exc:
        raise room_error(exc) from None


@router.post("/rooms/{code}/fill", response_model=dict[str, Any])
async def fill_room(request: Request, code: Code, rooms: Rooms) -> dict[str, Any]:
    """Host: every empty chair gets a rule bot."""
    room, host = _host_call(request, rooms, code)
    try:
        rooms.fill(room)
    except RoomError as exc:
        raise room_error(exc) from None
    return room_status(room, host)


@router.post("/rooms/{code}/chairs/{chair}", response_model=dict[str, Any])
async def set_chair(
    request: Request, code: Code, chair: Annotated[int, Path(ge=0, le=MAX_SEATS - 1)],
    body: ChairBody, rooms: Rooms,
) -> dict[str, Any]:  # fmt: skip
    """Host, between games: seat a bot or a model in a chair, replace a person with a bot, or
    remove whoever sits there (``kind: empty``)."""
    room, host = _host_call(request, rooms, code)
    try:
        rooms.set_chair(room, chair, body.kind, body.spec, body.participant)
    except RoomError as exc:
        raise room_error(exc) from None
    return room_status(room, host)


@router.post("/rooms/{code}/start", response_model=RoomEntry)
async def start_room(request: Request, code: Code, rooms: Rooms) -> RoomEntry:
    """Host: start the game (every chair filled). It begins once everyone has sat down."""
    room, host = _host_call(request, rooms, code)
    try:
        rooms.start(room)
    except RoomError as exc:
        raise room_error(exc) from None
    return room_entry(room, host.chair)


@router.post("/rooms/{code}/again", response_model=RoomEntry)
async def play_again(request: Request, code: Code, rooms: Rooms) -> RoomEntry:
    """Play again: the room's next game with the same chairs (host; a no-op while one is on,
    so that several people pressing it start one game)."""
    room, member = _room_andmember_of(request, rooms, code)
    if room.state == "playing":
        return room_entry(room, member.chair if member else None)
    room, host = _host_call(request, rooms, code)
    try:
        rooms.start(room)
    except RoomError as exc:
        raise room_error(exc) from None
    return room_entry(room, host.chair)


@router.post("/rooms/{code}/speed", response_model=dict[str, Any])
async def set_speed(request: Request, code: Code, body: SpeedBody, rooms: Rooms) -> dict[str, Any]:
    """Host: the table's speed (the pause before bots' moves), also during the game."""
    room, host = _host_call(request, rooms, code)
    try:
        rooms.set_speed(room, body.speed)
    except RoomError as exc:
        raise room_error(exc) from None
    return room_status(room, host)


@router.post("/rooms/{code}/chairs/{chair}/hand", response_model=dict[str, Any])
async def hand_to_bot(
    request: Request, code: Code, chair: Annotated[int, Path(ge=0, le=MAX_SEATS - 1)],
    rooms: Rooms,
) -> dict[str, Any]:  # fmt: skip
    """Host, during a game: a bot plays a person's seat until it is returned."""
    room, host = _host_call(request, rooms, code)
    try:
        rooms.hand_to_bot(room, chair)
    except RoomError as exc:
        raise room_error(exc) from None
    return room_status(room, host)


@router.delete("/rooms/{code}/chairs/{chair}/hand", response_model=dict[str, Any])
async def give_back(
    request: Request, code: Code, chair: Annotated[int, Path(ge=0, le=MAX_SEATS - 1)],
    rooms: Rooms,
) -> dict[str, Any]:  # fmt: skip
    """Host: return a handed seat to its player."""
    room, host = _host_call(request, rooms, code)
    rooms.give_back(room, chair)
    return room_status(room, host)


async def _room_stream(
    rooms: RoomBook, room: Room, member: Member | None
) -> AsyncIterator[ServerSentEvent]:
    if member is not None:
        member.active += 1
    try:
        sent: dict[str, Any] | None = None
        while True:
            room.check_host()
            version = room.version
            status = room_status(room, member)
            if status != sent:
                sent = status
                yield ServerSentEvent(data=dumps(status), event="room")
            await room.wait_change(version, STREAM_TICK_S)
    finally:
        if member is not None:
            member.active -= 1
            member.last_seen = time.monotonic()


@router.get("/rooms/{code}/stream", response_class=EventSourceResponse)
async def room_stream(request: Request, code: Code, rooms: Rooms) -> EventSourceResponse:
    """The room as it changes (Server-Sent Events ``room``); an open stream keeps its member
    present (a host absent for 30 s hands the role on)."""
    room, member = _room_andmember_of(request, rooms, code)
    return EventSourceResponse(_room_stream(rooms, room, member), ping=15)
