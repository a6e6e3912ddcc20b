"""What one service holds while it runs (``app.state.service``): its settings, tokens, match
registry, store and the leaderboard cache. Routes reach it through :func:`service_state`."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from fastapi import Request

from bangarena.evals.store import Store

from .registry import LiveMatch, MatchRegistry
from .settings import ServiceSettings
from .tokens import TokenBook

log = logging.getLogger("bangarena.service")
T = TypeVar("T")


@dataclass
class ServiceState:
    """The running service. Store calls run on one worker thread (``run_store``): SQLAlchemy
    is synchronous, and one writer at a time is what the store expects."""

    settings: ServiceSettings
    tokens: TokenBook
    registry: MatchRegistry
    store: Store | None = None
    executor: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(1, thread_name_prefix="bangarena-store")
    )
    board: Any = None
    """The live leaderboard cache (:class:`bangarena.service.live_board.LiveBoard`)."""

    async def run_store(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` on the store's thread."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    async def store_match(self, live: LiveMatch) -> None:
        """Store a finished match under suite ``live`` (errors are logged, never raised)."""
        from bangarena.evals.live import store_live_match

        if self.store is None or live.record is None or not self.settings.store_matches:
            return
        participants = [i.participant for i in live.info]
        try:
            await self.run_store(store_live_match, self.store, live.record, participants)
        except Exception as exc:  # noqa: BLE001 — a store failure must not stop the service
            live.store_error = f"{type(exc).__name__}"
            log.error("match %s was not stored: %s", live.match_id, type(exc).__name__)
        else:
            live.stored = True
            self.registry.evict()
        live.notify()


def service_state(request: Request) -> ServiceState:
    """The service of the app serving ``request``."""
    return request.app.state.service  # type: ignore[no-any-return]


__all__ = ["ServiceState", "service_state"]
