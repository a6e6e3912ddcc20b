"""The app factory of the seat service: ``create_app(settings)`` → a FastAPI app.

```python
from bangarena.service import ServiceSettings, create_app

app = create_app(ServiceSettings(db_url="live.db").resolved())   # uvicorn.run(app, ...)
```

On start-up (the app's lifespan) the store is opened (migrated) and the live leaderboard cache
made; on shut-down running matches are stopped and the store closed. The app holds one
:class:`~bangarena.service.state.ServiceState` at ``app.state.service`` (its
``registry`` is the match registry). Extra routers and mounts (A2A, MCP, web tables) are added
by :func:`bangarena.service.extensions.mount_extensions` — see that module to add one.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from starlette.types import Receive, Scope, Send

from .errors import install_error_handlers, internal_error
from .extensions import Extension, mount_extensions
from .limits import BodyLimit
from .registry import MatchRegistry
from .routes import decisions, events, matches, meta, results
from .settings import ServiceSettings
from .state import ServiceState
from .tokens import TokenBook

log = logging.getLogger("bangarena.service")
API_VERSION = "1"


def create_app(settings: ServiceSettings, *, extensions: list[Extension] | None = None) -> FastAPI:
    """The seat service for ``settings`` (an admin token is filled in when missing: read it
    back from ``app.state.service.settings.admin_token``). ``extensions``: instead of the
    registered ones (tests)."""
    settings = settings.resolved()
    assert settings.admin_token is not None
    tokens = TokenBook(settings.admin_token)
    registry = MatchRegistry(settings, tokens)
    state = ServiceState(settings=settings, tokens=tokens, registry=registry)
    registry.on_finish = state.store_match

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        from bangarena.evals.store import open_store

        from .live_board import LiveBoard

        state.store = await state.run_store(open_store, settings.db_url)
        state.board = LiveBoard(state.store, settings.leaderboard_resamples)
        try:
            yield
        finally:
            await registry.aclose()
            await state.run_store(state.board.close)
            await state.run_store(state.store.close)
            state.executor.shutdown(wait=True)

    app = ServiceApp(
        title="BangArena seat service",
        version=API_VERSION,
        description=(
            "Sit any agent at a BangArena table over HTTP: make a match (admin token), poll "
            "your seat's decision, answer with a move id, stream the events you may see. "
            "See /developers."
        ),
        lifespan=lifespan,
    )
    app.state.service = state
    install_error_handlers(app)
    for router in (matches.router, decisions.router, events.router, results.router, meta.router):
        app.include_router(router)
    mount_extensions(app, registry, extensions)
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(settings.cors_origins),
            allow_credentials=True,
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["Authorization", "Content-Type", "Last-Event-ID"],
        )
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    # CORS answers preflights and adds headers in its middleware: no fast path around it
    app.fast_path = not settings.cors_origins
    app.max_body_bytes = settings.max_body_bytes
    return app


class ServiceApp(FastAPI):
    """The service's FastAPI app, with the fast path of the decision routes in front of its
    middleware and router (``routes/decisions.py`` says what it serves; everything else, and
    anything it does not take, goes through the whole app)."""

    fast_path = False
    max_body_bytes = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.fast_path and scope["type"] == "http":
            found = decisions.fast_handler(scope)
            if found is not None:
                handler, match_id = found
                scope["app"] = self
                scope["path_params"] = {"match_id": match_id}
                try:
                    answer = await handler(scope, receive, self.state.service, self.max_body_bytes)
                except Exception as exc:
                    # answered as the app's own error handling answers one (a bare 500)
                    answer = await internal_error(Request(scope), exc)
                if isinstance(answer, tuple):
                    await decisions.send_json(send, *answer)
                elif isinstance(answer, decisions.Handoff):
                    await super().__call__(scope, answer.receive, send)
                else:
                    await answer(scope, receive, send)
                return
        await super().__call__(scope, receive, send)


__all__ = ["ServiceApp", "create_app"]
