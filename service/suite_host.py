"""A suite served to people: ``bangarena serve --suite FILE`` plays a suite whose participants
include persons (``human:NAME``) beside bots, models and agents, at the web table.

The host plans the suite with the evals library (:func:`~bangarena.evals.schedule.plan_suite`),
takes the suite's run lock, registers it in the service's store and skips the matches the store
holds already (resume, as ``bangarena eval`` does). It then plays the missing matches one after
another — a person plays one table at a time — each as a match of the service's
:class:`~bangarena.service.registry.MatchRegistry` whose id is the match key: the bots, models
and agents are the planned seats, each person a ``human`` remote seat with the table's time per
move and the service's disconnected clock (rules.md §3). A match waits until every person of it
has connected once (as ``start: "connected"`` does), then plays; each finished match is written
under the suite's own name with the rows ``bangarena eval`` writes
(:func:`~bangarena.evals.store.rows.prepare_match`, the runner's void rule), so the leaderboard
rates the people like any other participant.

Every person gets a join link with a token of its own (256 bits): ``/suites/{suite}/join#TOKEN``.
The token is in the fragment, which browsers never send, so it stays out of every access log;
the page posts it to ``POST /v1/suites/{suite}/join``, which puts a fresh seat token of the
person's current match in the service's HttpOnly cookie and sends the page on to that table
(:mod:`bangarena.service.suite_host_routes`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from fastapi import FastAPI

from bangarena.evals.execute import verdict
from bangarena.evals.live import LiveParticipant
from bangarena.evals.schedule import PlannedMatch, PlannedSeat, plan_suite
from bangarena.evals.store import Store
from bangarena.evals.store.rows import prepare_match
from bangarena.evals.suite import Suite
from bangarena.harness.model_spec import ModelSpecError
from bangarena.harness.seats.bot_seat import BotSeat
from bangarena.harness.seats.protocol import Seat
from bangarena.harness.seats.remote_seat import RemoteSeat

from .registry import CreateError, LiveMatch, MatchRegistry, SeatInfo
from .room_seats import PacedBotSeat
from .settings import new_token
from .state import ServiceState
from .tokens import digest

log = logging.getLogger("bangarena.service")

JOIN_PAGE: Final = "/suites/{suite}/join"
HostState = Literal["starting", "running", "done", "failed", "stopped"]


@dataclass
class Person:
    """One person of the suite: the name of ``human:NAME``, the participant id, the join token
    (kept for the admin's listing, looked up by digest) and the seat of the current match."""

    name: str
    participant: str
    token: str = field(repr=False)
    token_digest: bytes = field(repr=False)
    match_id: str | None = None
    seat: int | None = None


class SuiteHost:
    """Plays one suite with people at the service (see the module docstring). ``max_matches``:
    play at most this many of the missing matches in this run (the rest wait for the next);
    ``bot_pause_s``: see the attribute."""

    def __init__(
        self, suite: Suite, *, max_matches: int | None = None, bot_pause_s: float = 0.8
    ) -> None:
        self.suite = suite
        self.bot_pause_s = bot_pause_s
        """The pause before a bot's move in a match with a person (the web table's normal
        speed), so that people can follow; the bots' moves are the same without it."""
        self.plan: list[PlannedMatch] = plan_suite(suite)
        self.max_matches = max_matches
        self.people: dict[str, Person] = {}
        for p in suite.file.people:
            name = p.plan.person or p.id
            token = new_token()
            self.people[name] = Person(name, p.id, token, digest(token))
        self.state: HostState = "starting"
        self.detail: str | None = None
        self.reused = 0
        self.to_play = 0
        self.played = 0
        self.done = 0
        self.void = 0
        self.current: LiveMatch | None = None
        self.registry: MatchRegistry | None = None
        self.task: asyncio.Task[None] | None = None

    @property
    def name(self) -> str:
        return self.suite.name

    # -- people --------------------------------------------------------------------------
    def join_path(self, person: Person) -> str:
        """The person's join link below the service's base URL (the token in the fragment)."""
        return JOIN_PAGE.format(suite=self.name) + f"#{person.token}"

    def links(self, base_url: str) -> dict[str, str]:
        """Each person's join link (name → URL) under ``base_url``."""
        base = base_url.rstrip("/")
        return {p.name: base + self.join_path(p) for p in self.people.values()}

    def person_for(self, token: str) -> Person | None:
        """The person whose join token ``token`` is (None: nobody's)."""
        d = digest(token)
        for p in self.people.values():
            if hmac.compare_digest(p.token_digest, d):
                return p
        return None

    def live_for(self, person: Person) -> LiveMatch | None:
        """The person's current match while it can still be played (None: between matches)."""
        live = self.current
        if live is None or person.match_id != live.match_id or live.ended:
            return None
        return live

    # -- the run -------------------------------------------------------------------------
    def install(self, app: FastAPI, registry: MatchRegistry) -> None:
        """An extension (:mod:`bangarena.service.extensions`): the join page and routes, and
        the run, started once the app's store is open and stopped before it closes."""
        from .suite_host_routes import host_router

        self.registry = registry
        app.include_router(host_router(self))
        inner = app.router.lifespan_context

        @contextlib.asynccontextmanager
        async def lifespan(a: Any) -> AsyncIterator[Any]:
            async with inner(a) as value:
                self.task = asyncio.get_running_loop().create_task(
                    self.run(a.state.service), name=f"suite-{self.name}"
                )
                try:
                    yield value
                finally:
                    await self.stop()

        app.router.lifespan_context = lifespan

    async def stop(self) -> None:
        """Stop the run (the match being played is aborted with the service, and not stored:
        the next run plays it again)."""
        task = self.task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def run(self, state: ServiceState) -> None:
        """Play the suite's missing matches and store each one; never raises but for
        cancellation (a failure is ``state`` ``failed`` with its ``detail``)."""
        store = state.store
        if store is None:
            self._fail("the service has no store")
            return
        try:
            lock = await state.run_store(store.lock, self.name)
        except Exception as exc:  # noqa: BLE001 — SuiteLocked, a store error: said, not raised
            self._fail(str(exc))
            return
        stopped: str | None = "interrupted"
        try:
            lock.start_heartbeat()
            await state.run_store(store.register_suite, self.suite, self.plan)
            done = await state.run_store(store.done_keys, self.name)
            missing = [m for m in self.plan if m.key not in done]
            self.reused = len(self.plan) - len(missing)
            if self.max_matches is not None:
                missing = missing[: self.max_matches]
            self.to_play = len(missing)
            self.state = "running"
            log.info(
                "suite %s: %d matches to play (%d stored already)",
                self.name, len(missing), self.reused,
            )  # fmt: skip
            for planned in missing:
                if not await self._play(planned, state, store):
                    stopped = "error"
                    return
            self.state = "done"
            stopped = None
            log.info("suite %s: done (%d done, %d void)", self.name, self.done, self.void)
        except asyncio.CancelledError:
            self.state = "stopped"
            raise
        except Exception as exc:  # noqa: BLE001 — the host stops; the service goes on
            log.exception("suite %s stopped", self.name)
            self._fail(f"{type(exc).__name__}: {exc}")
            stopped = "error"
        finally:
            self.current = None
            for p in self.people.values():
                p.match_id = p.seat = None
            # at once, not on the store's thread: the service may be closing that thread
            with contextlib.suppress(Exception):
                lock.release(stopped)

    def _fail(self, detail: str) -> None:
        self.state, self.detail = "failed", detail
        log.error("suite %s cannot be played: %s", self.name, detail)

    async def _play(self, planned: PlannedMatch, state: ServiceState, store: Store) -> bool:
        """Play one planned match and store it (False: it could not be made)."""
        assert self.registry is not None
        settings = state.settings
        info: list[SeatInfo] = []
        seated: dict[str, int] = {}

        def person_seat(ps: PlannedSeat) -> Seat:
            assert ps.plan is not None and ps.plan.person is not None
            seated[ps.plan.person] = ps.seat
            return RemoteSeat(
                ps.plan.person, kind="human", lang=planned.lang,
                disconnect_grace_s=settings.disconnect_grace_s,
            )  # fmt: skip

        try:
            seats = planned.build_seats(people=person_seat)
        except ModelSpecError as exc:
            self._fail(f"match {planned.key}: {exc}")
            return False
        if seated and self.bot_pause_s > 0:
            pause = self.bot_pause_s
            seats = [
                PacedBotSeat(s, lambda: pause)
                if isinstance(s, BotSeat) and not s.wants_sampler
                else s
                for s in seats
            ]
        for ps in planned.seats:
            public = _public_kind(ps.kind)
            name = ps.plan.person if ps.plan is not None and ps.plan.person else ps.participant
            info.append(SeatInfo(public, name, LiveParticipant(ps.participant, ps.spec, ps.kind)))
        finished: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        async def on_finish(_live: LiveMatch) -> None:
            if not finished.done():
                finished.set_result(None)

        try:
            live, _created = self.registry.add(
                planned.key, planned.settings(), seats, info, on_finish=on_finish
            )
        except CreateError as exc:
            self._fail(str(exc))
            return False
        self.current = live
        for name, seat_index in seated.items():
            person = self.people[name]
            person.match_id, person.seat = live.match_id, seat_index
        live.notify()
        await finished
        record = live.record
        assert record is not None
        why = verdict(record)
        status = "done" if why is None else "void"
        prepared = prepare_match(planned, record, status, why)
        await state.run_store(store.write_prepared, prepared)
        live.mark_stored()
        self.played += 1
        if status == "done":
            self.done += 1
        else:
            self.void += 1
        self.registry.evict()
        live.notify()
        return True

    def status(self) -> dict[str, Any]:
        """The run as the admin sees it (tokens left out; see the routes for the links)."""
        live = self.current
        return {
            "suite": self.name,
            "state": self.state,
            "detail": self.detail,
            "planned": len(self.plan),
            "stored_before": self.reused,
            "to_play": self.to_play,
            "played": self.played,
            "done": self.done,
            "void": self.void,
            "current_match": live.match_id if live is not None and not live.ended else None,
        }


def _public_kind(kind: str) -> str:
    """A seat's kind in the public status: bots, people, or ``model`` for what a model or an
    agent plays (scripted seats included: they answer through the model path)."""
    if kind in ("rule", "random", "search"):
        return "bot"
    return "human" if kind == "human" else "model"


__all__ = ["JOIN_PAGE", "Person", "SuiteHost"]
