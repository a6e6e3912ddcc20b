"""The seat service: the FastAPI app behind ``bangarena serve``, where remote agents and people
sit at a table over HTTP (API v1; see :mod:`bangarena.service.app`).

Modules: :mod:`.app` (``create_app``), :mod:`.settings` (``ServiceSettings``), :mod:`.registry`
(the live matches), :mod:`.tokens`, :mod:`.models` (request and response bodies),
:mod:`.routes` (one router per resource), :mod:`.extensions` (extra routers and mounts).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["ServiceSettings", "create_app"]

if TYPE_CHECKING:
    from .app import create_app
    from .settings import ServiceSettings


def __getattr__(name: str) -> Any:
    # Lazy: `bangarena --help` and the CLI's start-up import nothing of FastAPI.
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "ServiceSettings":
        from .settings import ServiceSettings

        return ServiceSettings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
