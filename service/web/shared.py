"""What the web table's routers share: the router options, path parameters, the room book of
the app, cookies and error mapping."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import JSONResponse

from ..errors import ERROR_RESPONSES, ApiError
from ..models import ErrorBody
from ..rooms import MEMBER_COOKIE, Member, Room, RoomBook, RoomError
from ..state import service_state
from .models import RoomEntry, TableSettings

WEB_RESPONSES: dict[int | str, dict[str, Any]] = {
    **ERROR_RESPONSES,
    409: {
        "model": ErrorBody,
        "description": "not now: the room is full or playing, the game is over, chairs empty",
    },
}
UI_LANGS = ("en", "ru", "pt", "es", "fr")
Code = Annotated[str, Path(min_length=4, max_length=12, pattern=r"^[A-Za-z0-9]+$")]
MatchId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
STREAM_TICK_S = 1.0


def rooms_of(request: Request) -> RoomBook:
    """The app's rooms (a FastAPI dependency)."""
    return request.app.state.rooms  # type: ignore[no-any-return]


Rooms = Annotated[RoomBook, Depends(rooms_of)]


def member_of(request: Request, rooms: RoomBook) -> tuple[Room, Member] | None:
    return rooms.member(request.cookies.get(MEMBER_COOKIE))


def set_cookie(request: Request, resp: JSONResponse, name: str, token: str) -> None:
    resp.set_cookie(
        name, token, httponly=True, samesite="strict", path="/",
        secure=service_state(request).settings.cookie_secure,
    )  # fmt: skip


def room_error(exc: RoomError) -> ApiError:
    return ApiError(exc.status, exc.code, exc.reason)


def room_entry(room: Room, chair: int | None) -> RoomEntry:
    mid = room.match_id
    return RoomEntry(
        code=room.code, link=f"/room/{room.code}", chair=chair, match_id=mid,
        table=f"/table/{mid}" if mid else None,
    )  # fmt: skip


def chosen_chairs(body: TableSettings) -> list[Any]:
    return list(body.chairs or [])


def new_router() -> APIRouter:
    """A router of the web table's API: under ``/web/v1``, with its documented errors."""
    return APIRouter(prefix="/web/v1", tags=["web table"], responses=WEB_RESPONSES)


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


__all__ = [
    "STREAM_TICK_S", "UI_LANGS", "WEB_RESPONSES", "Code", "MatchId", "Rooms", "chosen_chairs",
    "dumps", "member_of", "new_router", "room_entry", "room_error", "rooms_of", "set_cookie",
]  # fmt: skip
