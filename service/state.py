"""What one service holds while it runs (``app.state.service``): its settings, tokens, match
registry, store and the leaderboard cache. Routes reach it through :func:`service_state`."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, TypeVar

from fastapi import Request
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

from bangarena.evals.store import Store

from .registry import LiveMatch, MatchRegistry
from .settings import ServiceSettings
from .tokens import TokenBook

if TYPE_CHECKING:
    from bangarena.evals.live import LiveOutcome, LiveParticipant
    from bangarena.harness.records import MatchRecord

log = logging.getLogger("bangarena.service")
T = TypeVar("T")


@dataclass(slots=True)
class _Finished:
    """A finished match waiting for the store thread, and what became of it there."""

    record: MatchRecord
    participants: list[LiveParticipant]
    outcome: LiveOutcome | None = None


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
    store_queue: deque[_Finished] = field(default_factory=deque)
    """Finished matches not taken by the store thread yet, in the order they finished."""

    async def run_store(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` on the store's thread."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    async def store_match(self, live: LiveMatch) -> None:
        """Store a finished match under suite ``live`` (errors are logged, never raised).

        Each call queues its match and then a job on the store thread; the first of those
        jobs to run takes every match queued by then and stores them together (one
        transaction, one deal lookup), the later ones find theirs done. So the matches that
        finish while the store thread is busy share one write, and a match is stored before
        any store call made after it finished (the thread runs its jobs in order). When the
        database fails (:func:`database_failure`) the match is queued again after a wait that
        doubles from ``store_retry_s`` up to :data:`STORE_RETRY_MAX_S`, until it is stored."""
        if self.store is None or live.record is None or not self.settings.store_matches:
            return
        item = _Finished(live.record, [i.participant for i in live.info])
        delay = self.settings.store_retry_s
        while True:
            item.outcome = None
            self.store_queue.append(item)
            try:
                await self.run_store(self._store_finished, self.store)
            except Exception as exc:  # noqa: BLE001 — e.g. the executor shut down
                error: BaseException | None = exc
            else:
                outcome = item.outcome
                error = RuntimeError("not stored") if outcome is None else outcome.error
            if error is None:
                break
            # a store failure must not stop the service; a database that failed may come back
            live.store_error = f"{type(error).__name__}"
            if not database_failure(error):
                log.error("match %s was not stored: %s", live.match_id, live.store_error)
                live.notify()
                return
            log.warning("match %s was not stored (%s): trying again in %g s",
                        live.match_id, live.store_error, delay)  # fmt: skip
            live.notify()
            try:
                await asyncio.sleep(delay)
            except asyncio.CancelledError:
                log.error("match %s was not stored: the service stopped", live.match_id)
                raise
            delay = min(2 * delay, STORE_RETRY_MAX_S)
        live.store_error = None
        live.mark_stored()
        self.registry.evict()
        live.notify()

    def _store_finished(self, store: Store) -> None:
        """On the store thread: store every queued finished match (in finishing order)."""
        from bangarena.evals.live import LiveOutcome, store_live_matches

        batch: list[_Finished] = []
        while self.store_queue:  # only this thread takes from the queue
            batch.append(self.store_queue.popleft())
        if not batch:
            return
        try:
            outcomes = store_live_matches(store, [(f.record, f.participants) for f in batch])
        except Exception as exc:  # noqa: BLE001 — it reports per match; this is a bug's net
            outcomes = [LiveOutcome("void", error=exc)] * len(batch)
        for f, outcome in zip(batch, outcomes, strict=True):
            f.outcome = outcome


STORE_RETRY_MAX_S: Final = 60.0
"""The longest wait between two tries at storing a match the database failed to take."""


def database_failure(error: BaseException) -> bool:
    """Whether ``error`` is the database's (a lost or refused connection, a locked file, a
    timeout), which may pass, rather than the match's own (a record the store refuses)."""
    if isinstance(error, DBAPIError):
        return isinstance(error, OperationalError | InterfaceError) or error.connection_invalidated
    return isinstance(error, OSError)  # timeouts and refused connections included


def service_state(request: Request) -> ServiceState:
    """The service of the app serving ``request``."""
    return request.app.state.service  # type: ignore[no-any-return]


__all__ = ["ServiceState", "service_state"]
