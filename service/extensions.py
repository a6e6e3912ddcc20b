"""Extra routers and mounts of the seat service: the one place later modules plug in (agent
protocols such as A2A and MCP, the web table pages).

:func:`mount_extensions` is called by :func:`bangarena.service.app.create_app` after the API v1
routers, with the app and its :class:`~bangarena.service.registry.MatchRegistry`. To add one,
write a function ``install(app: FastAPI, registry: MatchRegistry) -> None`` in its own module
(under ``service/``) and add it to :data:`EXTENSIONS` below — an explicit list, so what the
service serves is read here, not discovered.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable

from fastapi import FastAPI

from .registry import MatchRegistry

Extension = Callable[[FastAPI, MatchRegistry], None]

log = logging.getLogger("bangarena.service")


def _extra_missing(exc: ModuleNotFoundError, packages: tuple[str, ...], what: str) -> bool:
    """True (and a warning naming the extra) when ``exc`` is a missing package of the optional
    ``[agents]`` extra: the service then runs without ``what``. Any other missing module is a
    bug and is raised again by the caller."""
    package = (exc.name or "").split(".")[0]
    if package not in packages:
        return False
    log.warning("%s is off: %s is not installed (pip install 'bangarena[agents]')", what, package)
    return True


def _optional(app: FastAPI, registry: MatchRegistry, module: str, package: str, what: str) -> None:
    """Install the extension of ``module`` (under this package), which needs the optional
    ``package``: without it the service runs without ``what`` (the package is imported only
    when an app is made, not when the CLI starts)."""
    try:
        install = importlib.import_module(module, __package__).install
    except ModuleNotFoundError as e:
        if _extra_missing(e, (package,), what):
            return
        raise
    install(app, registry)


def _a2a_evaluator(app: FastAPI, registry: MatchRegistry) -> None:
    _optional(app, registry, ".a2a_evaluator", "a2a", "the A2A evaluator (/a2a/evaluator)")


def _web_table(app: FastAPI, registry: MatchRegistry) -> None:
    from .web import install  # imported when an app is made, not when the CLI starts

    install(app, registry)


def _mcp_seat(app: FastAPI, registry: MatchRegistry) -> None:
    _optional(app, registry, ".mcp_seat", "mcp", "the MCP seat (/mcp)")


EXTENSIONS: list[Extension] = [
    _web_table,  # the table in the browser: pages, /web/v1 and /web/static (issue 14)
    _a2a_evaluator,  # the A2A evaluator: card and JSON-RPC under /a2a/evaluator (issue 13)
    _mcp_seat,  # the MCP seat: streamable HTTP at /mcp, seat tokens (issue 13)
]


def mount_extensions(
    app: FastAPI, registry: MatchRegistry, extensions: list[Extension] | None = None
) -> None:
    """Install every extension (``extensions``: instead of :data:`EXTENSIONS`, for tests)."""
    for install in EXTENSIONS if extensions is None else extensions:
        install(app, registry)


__all__ = ["EXTENSIONS", "Extension", "mount_extensions"]
