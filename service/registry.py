"""The match registry: the live matches of one service, each a running
:class:`~bangarena.harness.match.Match` task in the app's event loop, with its seats, its
tokens and a change signal that long-polls and event streams wait on.

Everything here runs in the event loop (route handlers are ``async def``), so the game is only
ever touched by one thread. The registry is the one place that knows the matches: the API
routes use it, and so will the web table pages (rooms, human seats) — :meth:`MatchRegistry.create`
takes the same :class:`~bangarena.service.models.CreateMatch` whoever asks.

A match is ``waiting`` until it starts (at once with ``start: "now"``, else once every remote
and human seat has connected once), ``running``, then ``over`` (the game ended) or
``aborted`` (stopped: cancelled by the admin or its host, never started within the service's
``waiting_timeout_s``, the service shut down, or the match broke).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bangarena.engine import Game
from bangarena.evals.live import LiveParticipant
from bangarena.harness.bots import is_bot_spec
from bangarena.harness.match import Match, MatchSettings
from bangarena.harness.model_spec import ModelSpecError
from bangarena.harness.provenance import redact_credentials
from bangarena.harness.records import MatchRecord
from bangarena.harness.records import MatchStatus as RecordStatus
from bangarena.harness.seats.factory import build_seat, plan_seat
from bangarena.harness.seats.protocol import Seat
from bangarena.harness.seats.remote_seat import RemoteSeat

from .models import (
    MAX_SEED,
    CreateMatch,
    MatchCreated,
    MatchState,
    MatchStatus,
    PublicSeat,
    SeatGrant,
)
from .settings import ServiceSettings
from .tokens import TokenBook

log = logging.getLogger("bangarena.service")

STOP_FINISH_S = 10.0
"""How long a stopping service waits for its stopped matches to be stored."""


class CreateError(ValueError):
    """A match that cannot be made as asked (``str()``: the precise reason)."""


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in a chair, as the public status shows it, and its leaderboard identity."""

    kind: str
    name: str
    participant: LiveParticipant


class LiveMatch:
    """One match of the service."""

    def __init__(
        self,
        match_id: str,
        settings: MatchSettings,
        seats: list[Seat],
        info: list[SeatInfo],
        start_now: bool,
    ) -> None:
        self.match_id = match_id
        self.settings = settings
        self.info = info
        self.start_now = start_now
        self.match = Match(settings, seats, match_id=match_id, on_applied=self._moved)
        self.game: Game = self.match.game
        """The match's game (read on every request: an attribute, not a property)."""
        self.remote: dict[int, RemoteSeat] = {
            i: s for i, s in enumerate(seats) if isinstance(s, RemoteSeat)
        }
        for i, s in self.remote.items():
            s.on_change = functools.partial(self.notify, i)
        self.seen: set[int] = set()
        self.task: asyncio.Task[None] | None = None
        self.record: MatchRecord | None = None
        """The record once the match ended, until it is stored (:meth:`mark_stored`)."""
        self.outcome: RecordStatus | None = None
        """The record's status once the match ended (kept when the record goes)."""
        self._tally: dict[int, SeatTally] | None = None
        self.cursor_after: dict[int, int] = {}
        """Per decision index: the log length once its move was applied."""
        self.stored = False
        self.store_error: str | None = None
        self.created = time.monotonic()
        self.finished: float | None = None
        self._waiters: list[asyncio.Future[None]] = []
        """Waiting for any change."""
        self._seat_waiters: dict[int, list[asyncio.Future[None]]] = {}
        """Waiting for a change of one seat's decision (its long-polls): not woken by every
        move of the match, only by its own decision, its elimination and the end."""
        self.on_finish: Callable[[LiveMatch], Awaitable[None]] | None = None
        self.on_finished: Callable[[LiveMatch], None] | None = None
        """Told when ``finished`` is set (the registry's bookkeeping), before ``on_finish``."""
        self.cancel_reason: str | None = None
        """Why :meth:`cancel` stopped the match (its record's abort reason)."""
        self.expiry: asyncio.TimerHandle | None = None
        """The cancellation of a match that never starts (the registry's waiting timeout)."""
        self._running = False
        """The driver's task has begun (a task cancelled before its first step runs nothing)."""

    @property
    def status(self) -> MatchState:
        if self.task is None:
            return "waiting"
        if self.outcome is None:
            return "over" if self.game.over else "running"
        return "over" if self.outcome == "complete" and self.game.over else "aborted"

    @property
    def ended(self) -> bool:
        """The game is over or the match stopped: nothing more will be played."""
        return self.game.over or self.outcome is not None

    def log_length(self) -> int:
        return len(self.game.state.log)

    def alive(self, seat: int) -> bool:
        return bool(self.game.state.players[seat].alive)

    # -- the change signal -----------------------------------------------------------------
    def notify(self, seat: int | None = None) -> None:
        """Wake the waiters of a change: every waiter (a move was played, the match ended), or
        with ``seat`` those of any change and that seat's (its decision was published or
        closed)."""
        _wake(self._waiters)
        if seat is None:
            for waiters in self._seat_waiters.values():
                _wake(waiters)
        elif (waiters := self._seat_waiters.get(seat)) is not None:
            _wake(waiters)

    async def wait_until(
        self, ready: Callable[[], bool], timeout: float | None, *, seat: int | None = None
    ) -> bool:
        """Wait up to ``timeout`` seconds for ``ready()`` (None: until it is), checked at every
        change, or with ``seat`` only at changes of that seat's decision, its elimination and
        the end (what a long-poll waits for). One timer for the whole wait; a wake-up is one
        future."""
        if ready():
            return True
        if timeout is not None and timeout <= 0:
            return False
        loop = asyncio.get_running_loop()
        waiters = self._waiters if seat is None else self._seat_waiters.setdefault(seat, [])
        timed_out = False
        fut: asyncio.Future[None] | None = None

        def expire() -> None:
            nonlocal timed_out
            timed_out = True
            if fut is not None and not fut.done():
                fut.set_result(None)

        timer = None if timeout is None else loop.call_at(loop.time() + timeout, expire)
        try:
            while not ready():
                if timed_out:
                    return False
                fut = loop.create_future()
                waiters.append(fut)
                try:
                    await fut
                finally:
                    # woken by a change, the list was emptied; by the timer or a cancellation
                    # (the client went away), it is still there
                    if timed_out or fut.cancelled():
                        with contextlib.suppress(ValueError):
                            waiters.remove(fut)
            return True
        finally:
            if timer is not None:
                timer.cancel()

    # -- life cycle ------------------------------------------------------------------------
    def _moved(self, index: int) -> None:
        self.cursor_after[index] = self.log_length()
        if self.game.over:
            self.notify()
            return
        _wake(self._waiters)
        players = self.game.state.players
        for seat, waiters in self._seat_waiters.items():
            if waiters and not players[seat].alive:  # an eliminated seat's poll answers 410
                _wake(waiters)

    def seat_seen(self, seat: int) -> None:
        """A seat's token was used: it has connected (the match may start)."""
        s = self.remote.get(seat)
        if s is not None:
            s.touch()
        self.seen.add(seat)
        if self.task is None and not self.start_now and self.remote.keys() <= self.seen:
            self.start()

    def start(self) -> bool:
        """Start the match (False: it had started already)."""
        if self.task is not None:
            return False
        self._drop_expiry()
        self.task = asyncio.get_running_loop().create_task(
            self._run(), name=f"match-{self.match_id}"
        )
        self.notify()
        return True

    async def _run(self) -> None:
        self._running = True
        try:
            self.record = await self.match.run()
        except asyncio.CancelledError:
            self.record = self.match.record()
            task = asyncio.current_task()
            # Our own cancel() is a match that ends (aborted, and stored as void like any
            # stopped match); any other cancellation (the service stopping) goes on.
            if self.cancel_reason is None or task is None or task.uncancel() > 0:
                raise
        except Exception as exc:  # noqa: BLE001 — the match broke; the service goes on
            log.exception("match %s broke", self.match_id)
            self.match.abort(f"the match broke: {type(exc).__name__}")
            self.record = self.match.record()
        finally:
            if self.record is not None:
                self.outcome = self.record.status
            # no decision comes any more: the prompters' memories and payloads can go
            for seat in self.match.seats:
                finish = getattr(seat, "finish", None)  # remote and agent seats
                if finish is not None:
                    finish()
            self.finished = time.monotonic()
            if self.on_finished is not None:
                self.on_finished(self)
            self.notify()
        if self.on_finish is not None:
            await self.on_finish(self)

    def cancel(self, reason: str) -> bool:
        """Stop the match: a running match's pending decisions are withdrawn (their polls get
        410), a waiting one never plays; either way it ends ``aborted`` with ``reason`` in its
        record and is stored like any stopped match. False: it had ended already, or a cancel
        is under way."""
        if self.ended or self.cancel_reason is not None:
            return False
        self.cancel_reason = reason
        self.match.abort(reason)  # the first reason is kept: the driver's own comes after
        if self.task is None:
            self.start()  # runs at once to its end: an aborted match plays nothing
        elif self._running:
            self.task.cancel()
        # else the task has not begun: it will find the match aborted and play nothing
        return True

    def mark_stored(self) -> None:
        """The match is in the store: it keeps what its late readers need (the game, for views,
        event streams and the status; the decisions' tallies, for the summary screen) and lets
        its record go, with the driver's annotation of every decision (~600 KiB of a finished
        five-seat match's ~800; docs/speed.md)."""
        self.stored = True
        if self.record is not None:
            self._tally = self.decision_tally()
            self.record = None
            self.match.forget_moves()

    def decision_tally(self) -> dict[int, SeatTally]:
        """Per seat that decided: its decisions, how many the autopilot played and the seconds
        they took in all (public once the match is over)."""
        if self._tally is not None:
            return self._tally
        tally: dict[int, SeatTally] = {}
        for m in self.match.moves:
            t = tally.get(m.seat)
            if t is None:
                t = tally[m.seat] = SeatTally()
            t.decisions += 1
            t.autopilot += m.how == "autopilot"
            t.seconds += m.elapsed_s
        return tally

    def release(self) -> None:
        """Undo the links that make a finished match a reference cycle, once the registry
        forgets it: the driver's callback into this object and the seats' change signals
        (their prompters' latest payloads went when the match ended). Reference counting then
        frees the whole match (~2,700 objects) at once; left to the cyclic collector, forgotten
        matches piled up until an older generation's pass (under load one freed 237,540
        objects in 0.75 s, the event loop stopped; docs/speed.md)."""
        self.match.on_applied = None
        for seat in self.remote.values():
            seat.detach()
        self.on_finish = self.on_finished = None
        self._drop_expiry()

    def _drop_expiry(self) -> None:
        """The waiting timeout no longer applies (the match started, or is forgotten)."""
        if self.expiry is not None:
            self.expiry.cancel()
            self.expiry = None

    def public_status(self) -> MatchStatus:
        """What anyone may know about the match (no token needed)."""
        game, state = self.game, self.game.state
        players = [
            PublicSeat(
                seat=i,
                kind=info.kind,  # type: ignore[arg-type]
                name=info.name,
                alive=bool(state.players[i].alive),
                connected=self.remote[i].connected() if i in self.remote else None,
            )
            for i, info in enumerate(self.info)
        ]
        return MatchStatus(
            match_id=self.match_id,
            status=self.status,
            seats=self.settings.seats,
            mode=self.settings.mode,
            time_per_move=self.settings.time_per_move_s,
            players=players,
            decisions=len(state.history),
            to_move=game.to_move,
            round=int(state.round),
            result=game.result(),
            stored=self.stored,
            cancelled=self.cancel_reason,
        )


@dataclass(slots=True)
class SeatTally:
    """One seat's decisions in a match: how many, how many by the autopilot, seconds in all."""

    decisions: int = 0
    autopilot: int = 0
    seconds: float = 0.0


def _wake(waiters: list[asyncio.Future[None]]) -> None:
    """Resolve every future of ``waiters`` and empty the list (each wait adds a new one)."""
    if waiters:
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)
        waiters.clear()


class MatchRegistry:
    """The live matches of one service and their tokens."""

    def __init__(self, settings: ServiceSettings, tokens: TokenBook) -> None:
        self.settings = settings
        self.tokens = tokens
        self.matches: dict[str, LiveMatch] = {}
        self.on_finish: Callable[[LiveMatch], Awaitable[None]] | None = None
        self._slots: dict[tuple[str, bytes], int] = {}
        self._finished: dict[str, LiveMatch] = {}
        """The finished matches still in memory, in the order they finished: making a match
        neither counts the unfinished ones nor sorts the finished ones over every match."""

    def get(self, match_id: str) -> LiveMatch | None:
        return self.matches.get(match_id)

    # -- making a match --------------------------------------------------------------------
    def _seat(self, i: int, player: object, req: CreateMatch, seed: int) -> tuple[Seat, SeatInfo]:
        kind = player.kind
        if kind == "bot":
            spec = player.spec.strip()  # type: ignore[attr-defined]
            if not is_bot_spec(spec):
                raise CreateError(
                    f"players[{i}]: {spec[:60]!r} is not a bot spec (rule, random, "
                    "rule:eps=0.3 …); models are seated by participant id"
                )
            try:
                plan = plan_seat(spec)
            except ModelSpecError as exc:
                raise CreateError(f"players[{i}]: {exc}") from None
            seat = build_seat(plan, seat=i, seed=seed, lang=req.lang)
            return seat, SeatInfo(
                "bot", seat.display_name, LiveParticipant(plan.text, plan.text, plan.kind)
            )
        if kind == "model":
            pid = player.participant  # type: ignore[attr-defined]
            p = self.settings.participant(pid)
            if p is None:
                offered = ", ".join(q.id for q in self.settings.participants) or "none"
                raise CreateError(
                    f"players[{i}]: no model participant {pid[:60]!r} on this server "
                    f"(offered: {offered})"
                )
            try:
                seat = build_seat(
                    p.plan, seat=i, seed=seed, lang=req.lang, transcripts=req.transcripts
                )
            except ModelSpecError as exc:
                raise CreateError(redact_credentials(f"players[{i}] ({p.id}): {exc}")) from None
            return seat, SeatInfo("model", p.id, LiveParticipant(p.id, p.spec, p.plan.kind))
        name = player.name  # type: ignore[attr-defined]
        remote = RemoteSeat(
            name, kind=kind, lang=req.lang, disconnect_grace_s=self.settings.disconnect_grace_s
        )
        return remote, SeatInfo(kind, name, LiveParticipant(remote.spec, remote.spec, kind))

    def create(self, req: CreateMatch) -> tuple[LiveMatch, MatchCreated]:
        """Make a match as ``req`` asks (raises :class:`CreateError` with the reason); it starts
        at once when asked to or when it has no remote or human seat. Must run in the loop."""
        if len(self.matches) - len(self._finished) >= self.settings.max_live_matches:
            raise CreateError(
                f"the server holds {self.settings.max_live_matches} unfinished matches already"
            )
        if req.mode == "double_agent" and req.seats < 5:
            raise CreateError("mode 'double_agent' needs at least 5 seats (at 4 it plays classic)")
        seed = req.seed if req.seed is not None else secrets.randbelow(MAX_SEED + 1)
        settings = MatchSettings(
            seats=req.seats, mode=req.mode, seed=seed, max_rounds=req.max_rounds, lang=req.lang,
            time_per_move_s=float(req.time_per_move), transcripts=req.transcripts,
            expansions=tuple(req.expansions),
        )  # fmt: skip
        seats: list[Seat] = []
        info: list[SeatInfo] = []
        for i, player in enumerate(req.players):
            seat, about = self._seat(i, player, req, seed)
            seats.append(seat)
            info.append(about)
        live, created = self.add(
            uuid.uuid4().hex[:16], settings, seats, info, start_now=req.start == "now"
        )
        if live.task is None:  # waiting for its seats: not forever
            timeout = self.settings.waiting_timeout_s
            live.expiry = asyncio.get_running_loop().call_later(
                timeout, live.cancel,
                f"not started within {timeout:g} s: a remote or human seat never connected",
            )  # fmt: skip
        return live, created

    def listing(self, status: MatchState | None = None, limit: int = 100) -> list[LiveMatch]:
        """The matches in memory, the newest first (``status``: only those in that state)."""
        out: list[LiveMatch] = []
        for live in reversed(self.matches.values()):
            if status is None or live.status == status:
                out.append(live)
                if len(out) >= limit:
                    break
        return out

    def add(
        self,
        match_id: str,
        settings: MatchSettings,
        seats: list[Seat],
        info: list[SeatInfo],
        *,
        start_now: bool = False,
        on_finish: Callable[[LiveMatch], Awaitable[None]] | None = None,
    ) -> tuple[LiveMatch, MatchCreated]:
        """Add a match of built seats (what :meth:`create` makes from a request; a hosted suite
        adds its planned matches, whose id is the match key, the same way): tokens for its
        remote and human seats, started at once when ``start_now`` or when it has no such
        seat. ``on_finish``: instead of the registry's (which stores under suite ``live``)."""
        if match_id in self.matches:
            raise CreateError(f"match {match_id!r} is live already")
        live = LiveMatch(match_id, settings, seats, info, start_now=start_now)
        live.on_finish = on_finish or self.on_finish
        live.on_finished = self._finished_now
        grants = []
        for i, about in enumerate(info):
            token = self.tokens.issue(match_id, "seat", i) if i in live.remote else None
            grants.append(SeatGrant(seat=i, kind=about.kind, name=about.name, token=token))  # type: ignore[arg-type]
        created = MatchCreated(
            match_id=match_id,
            host_token=self.tokens.issue(match_id, "host"),
            spectator_token=self.tokens.issue(match_id, "spectator"),
            seats=grants,
            status="waiting",
        )
        self.matches[match_id] = live
        self.evict()
        if live.start_now or not live.remote:
            live.start()
        created.status = live.status
        return live, created

    def _finished_now(self, live: LiveMatch) -> None:
        if self.matches.get(live.match_id) is live:
            self._finished[live.match_id] = live

    def evict(self) -> None:
        """Forget the oldest finished matches beyond ``keep_finished`` that are stored, or
        that never will be (``store_matches`` off): their tokens go with them, so later calls
        get 401. A match whose storing failed stays (its status says so)."""
        keep = self.settings.keep_finished
        if len(self._finished) <= keep:
            return
        storing = self.settings.store_matches
        done = [m for m in self._finished.values() if m.stored or not storing]  # oldest first
        for m in done[: max(0, len(done) - keep)]:
            del self.matches[m.match_id]
            del self._finished[m.match_id]
            self.tokens.revoke_match(m.match_id)
            m.release()

    # -- waits and streams per token -------------------------------------------------------
    def acquire(self, what: str, token_digest: bytes, limit: int) -> bool:
        """Take one of ``limit`` slots of ``what`` (``wait``, ``stream``) for a token."""
        key = (what, token_digest)
        n = self._slots.get(key, 0)
        if n >= limit:
            return False
        self._slots[key] = n + 1
        return True

    def release(self, what: str, token_digest: bytes) -> None:
        key = (what, token_digest)
        n = self._slots.get(key, 0) - 1
        if n <= 0:
            self._slots.pop(key, None)
        else:
            self._slots[key] = n

    async def aclose(self, finish_within: float = STOP_FINISH_S) -> None:
        """Stop every running match. Each ends ``aborted`` ("the service stopped") and goes to
        the registry's ``on_finish`` like a cancelled match (stored as void: what was played,
        and what it cost, survive a restart), as do matches that ended and are being stored;
        whatever is not done within ``finish_within`` seconds (a database that is down) is
        cancelled. Matches with an ``on_finish`` of their own (a hosted suite's) are only
        cancelled: their owner re-plays them. Waiting matches, never started, just go."""
        running = [m for m in self.matches.values() if m.task is not None and not m.task.done()]
        for m in running:
            if m.on_finish is self.on_finish:
                m.cancel("the service stopped")  # False: it ended; its storing is waited for
            else:
                m.task.cancel()  # type: ignore[union-attr]
        tasks = [m.task for m in running if m.task is not None]
        if tasks:
            _done, late = await asyncio.wait(tasks, timeout=finish_within)
            for t in late:
                t.cancel()
            for t in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await t


__all__ = ["STOP_FINISH_S", "CreateError", "LiveMatch", "MatchRegistry", "SeatInfo", "SeatTally"]
