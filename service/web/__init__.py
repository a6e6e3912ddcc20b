"""The table in the browser (issue 14): people play against bots, models and each other.

:func:`install` (listed in :data:`bangarena.service.extensions.EXTENSIONS`) adds to the seat
service the pages (:mod:`.pages`), the web table's JSON routes (:mod:`.home_routes`, :mod:`.room_routes`,
:mod:`.table_routes`, under ``/web/v1``,
in the OpenAPI spec) and the static files (``/web/static``: JS modules, CSS, the interface's
translations — shipped in the package, no build step, no CDN). Rooms are
:mod:`bangarena.service.rooms`, signals :mod:`bangarena.service.signals`. See docs/web-table.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from ..registry import MatchRegistry
from ..rooms import RoomBook, RoomSettings

STATIC_DIR: Final = Path(__file__).resolve().parent / "static"
I18N_DIR: Final = Path(__file__).resolve().parent / "i18n"


def web_table(settings: RoomSettings | None = None):  # noqa: ANN201 — an Extension
    """The web table as a service extension, with ``settings`` (tests shorten the clocks)."""

    def install_web(app: FastAPI, registry: MatchRegistry) -> None:
        from . import home_routes, pages, room_routes, table_routes

        app.state.rooms = RoomBook(registry, settings or RoomSettings())
        for module in (home_routes, room_routes, table_routes, pages):
            app.include_router(module.router)
        app.mount("/web/static", StaticFiles(directory=STATIC_DIR), name="web-static")
        app.mount("/web/i18n", StaticFiles(directory=I18N_DIR), name="web-i18n")

    return install_web


def install(app: FastAPI, registry: MatchRegistry) -> None:
    """Mount the web table with its default settings."""
    web_table()(app, registry)


__all__ = ["I18N_DIR", "STATIC_DIR", "install", "web_table"]
