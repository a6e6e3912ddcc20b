"""The web table's HTML pages (server-rendered shells with Jinja2; the page logic is in the
static JS modules): home, a room, a table (players and spectators), the library."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Annotated, Final

from fastapi import APIRouter
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape

router = APIRouter(include_in_schema=False)
TEMPLATES: Final = Path(__file__).resolve().parent / "templates"
STATIC_URL: Final = "/web/static"


@functools.cache
def _env() -> Environment:
    return Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=select_autoescape(("html",)),
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render(page: str, **values: object) -> HTMLResponse:
    """One page: ``templates/<page>.html`` with the static URL and ``values``."""
    html = _env().get_template(f"{page}.html").render(static=STATIC_URL, page=page, **values)
    return HTMLResponse(html, headers={"Cache-Control": "no-store"})


@router.get("/", response_class=HTMLResponse)
async def home() -> HTMLResponse:
    """Home: name, table settings, Play / Create room / Join room / Watch a bot match."""
    return render("home")


@router.get("/room/{code}", response_class=HTMLResponse)
async def room(
    code: Annotated[str, PathParam(min_length=4, max_length=12, pattern=r"^[A-Za-z0-9]+$")],
) -> HTMLResponse:
    """A room: its chairs, the host's controls, the share link; join by opening it."""
    return render("room", code=code.upper())


@router.get("/table/{match_id}", response_class=HTMLResponse)
async def table(
    match_id: Annotated[str, PathParam(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")],
) -> HTMLResponse:
    """The table (a player's or a spectator's, by the cookie), then the summary."""
    return render("table", match_id=match_id)


@router.get("/library", response_class=HTMLResponse)
async def library() -> HTMLResponse:
    """The library: cards, characters, roles and the rules."""
    return render("library")


__all__ = ["STATIC_URL", "render", "router"]
