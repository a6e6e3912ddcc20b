"""The remote seat: a chair whose player is outside the process — an agent over HTTP (the seat
service's ``remote`` seats) or a person at a web table (``human`` seats).

``decide()`` publishes the decision as a :class:`~bangarena.harness.decision_payload.DecisionPayload`
and waits for :meth:`RemoteSeat.submit`, which the service calls from its moves route. Every
answer is an attempt of the decision in the record: a rejected one (an illegal id) is an
``illegal`` attempt and the seat may answer again within the clock; the accepted one is ``ok``.

The clock (rules.md §3). The decision has the table's time per move. A seat that has not polled
or streamed for ``disconnect_grace_s`` (8 s) counts as disconnected: while it is disconnected
and has not picked up the decision, it has ``disconnect_grace_s`` from the later of the
decision's start and the moment it became disconnected. Once it picked the decision up (a poll
or a stream delivered it) it is at the table and keeps the table's time. On expiry ``decide()``
gives up (``timeout``, with the reason in the record) and the driver plays the autopilot's move;
the seat can come back at any time and plays its next decision.

Everything here runs in the event loop of the match; nothing blocks.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, Literal

from bangarena.engine import Decision, SeatView

from ..decision_payload import DecisionPayload, DecisionPrompter, PreparedPayload, PromptPart
from ..records import AttemptRecord, DecisionTelemetry, SeatRecord
from .protocol import Deadline, SeatAnswer

DISCONNECT_GRACE_S: Final = 8.0
"""Seconds without a poll or a stream after which a remote seat counts as disconnected, and the
time a disconnected seat gets for a decision (rules.md §3)."""
MAX_RECORDED_ATTEMPTS: Final = 64
"""Rejected answers recorded per decision; more are still refused but not kept (a record must
not grow without bound because an agent loops)."""
RemoteKind = Literal["remote", "human"]


@dataclass(slots=True)
class PendingDecision:
    """The decision a remote seat has to answer now."""

    decision_id: int
    decision: Decision
    payload: PreparedPayload
    cursor: int
    """The log position the decision was made at (the seat's view cursor): what the move
    causes starts there."""
    deadline: Deadline
    started: float
    telemetry: DecisionTelemetry
    answer: asyncio.Future[str]
    waiter: asyncio.Future[None] | None = None
    """What ``decide()`` awaits now: woken by an answer, a cancellation or its timer."""
    delivered: bool = False
    answered: bool = False
    rejected: int = 0
    legal: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True, slots=True)
class Accepted:
    """The answer was legal: the driver plays it."""

    decision_id: int
    move_id: str
    cursor: int


@dataclass(frozen=True, slots=True)
class Rejected:
    """The answer names no legal move of the pending decision (recorded as an attempt)."""

    decision_id: int
    reason: str
    legal: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Stale:
    """The answer names a decision that is not this seat's pending one."""

    reason: str


SubmitResult = Accepted | Rejected | Stale


class RemoteSeat:
    """A seat played from outside the process. ``kind`` ``remote`` (an agent; controller
    ``ai``) or ``human`` (a person; controller ``human``). ``clock`` is monotonic seconds (a
    parameter so that tests can drive it)."""

    def __init__(
        self,
        name: str,
        *,
        kind: RemoteKind = "remote",
        lang: str = "en",
        disconnect_grace_s: float = DISCONNECT_GRACE_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if disconnect_grace_s <= 0:
            raise ValueError("the disconnect grace is a positive number of seconds")
        self.kind: RemoteKind = kind
        self.controller = "human" if kind == "human" else "ai"
        self.name = name
        self.spec = f"{kind}:{name}"
        self.display_name = name
        self.lang = lang
        self.grace_s = float(disconnect_grace_s)
        self.clock = clock
        # set by the match driver (see harness/seats/protocol.py)
        self.match_id = ""
        self.decision_index = 0
        self.in_flight: DecisionTelemetry | None = None
        self.prompter = DecisionPrompter(lang)
        self.pending: PendingDecision | None = None
        self.last_seen: float | None = None
        """When the seat last polled, streamed or answered (None: never)."""
        self.active = 0
        """Open long-polls and event streams of the seat right now."""
        self.timeouts = 0
        self.self_timed = True
        """``decide()`` gives up at the decision's limit itself (seats/protocol.py)."""
        self.on_change: Callable[[], None] | None = None
        """Called when a decision is published or closed (the service wakes its waiters)."""

    # -- presence ----------------------------------------------------------------------------
    def touch(self) -> None:
        """The seat showed up (a poll, a stream, an answer)."""
        self.last_seen = self.clock()

    def open_connection(self) -> None:
        """A long-poll or a stream of the seat opened (it counts as present while open)."""
        self.active += 1
        self.touch()

    def close_connection(self) -> None:
        self.active = max(0, self.active - 1)
        self.touch()

    def connected(self, now: float | None = None) -> bool:
        """Whether the seat is at the table: a poll or stream open, or one within the grace."""
        if self.active > 0:
            return True
        if self.last_seen is None:
            return False
        return (self.clock() if now is None else now) - self.last_seen < self.grace_s

    def _limit(self, p: PendingDecision, now: float) -> float:
        """The moment the pending decision expires (monotonic seconds)."""
        if p.delivered or self.active > 0:
            return p.deadline.at
        if self.last_seen is None:
            away_since = p.started
        else:
            away_since = max(p.started, self.last_seen + self.grace_s)
        return min(p.deadline.at, away_since + self.grace_s)

    # -- the decision ------------------------------------------------------------------------
    async def decide(self, view: SeatView, decision: Decision, deadline: Deadline) -> SeatAnswer:
        loop = asyncio.get_running_loop()
        tel = DecisionTelemetry()
        self.in_flight = tel
        payload = self.prompter.prepare(self.match_id, self.decision_index, view, decision)
        p = PendingDecision(
            decision_id=self.decision_index, decision=decision, payload=payload,
            cursor=view.cursor, deadline=deadline, started=self.clock(), telemetry=tel,
            answer=loop.create_future(), legal=decision.ids,
        )  # fmt: skip
        self.pending = p
        self._changed()
        try:
            while not p.answer.done():
                now = self.clock()
                remaining = self._limit(p, now) - now
                if remaining <= 0:
                    return self._timeout(p, now)
                # Woken at least once per grace period: presence changes are seen in time.
                await _answer_or_timeout(p, loop, min(remaining, self.grace_s))
            return SeatAnswer(p.answer.result(), tel)
        finally:
            self.pending = None
            if not p.answer.done():
                p.answer.cancel()
            self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def _timeout(self, p: PendingDecision, now: float) -> SeatAnswer:
        self.timeouts += 1
        if p.delivered or self.active > 0 or p.deadline.at <= now:
            p.telemetry.reason = f"no answer within the table's {p.deadline.limit_s:g} s"
        else:
            p.telemetry.reason = (
                f"disconnected (no poll or stream for {self.grace_s:g} s): "
                f"{self.grace_s:g} s to answer"
            )
        return SeatAnswer.give_up("timeout", p.telemetry)

    def take_pending(self) -> PendingDecision | None:
        """The pending decision not yet answered, marked delivered (None: none)."""
        p = self.pending
        if p is not None and not p.answered:
            p.delivered = True
            return p
        return None

    def seconds_left(self, p: PendingDecision) -> float:
        """The seconds ``p`` has left now."""
        now = self.clock()
        return max(0.0, self._limit(p, now) - now)

    def payload_now(self, p: PendingDecision, prompt: PromptPart = "full") -> DecisionPayload:
        """``p``'s payload with the time left now (``prompt``: which of our prompts it has)."""
        return p.payload.model(self.seconds_left(p), prompt)

    def payload_json_now(self, p: PendingDecision, prompt: PromptPart = "full") -> bytes:
        """``p``'s payload as JSON with the time left now; the rest is serialised once per
        prompt part."""
        return p.payload.json(self.seconds_left(p), prompt)

    def submit(self, decision_id: int, move_id: str) -> SubmitResult:
        """An answer from outside: accepted (the driver plays it), rejected (not a legal id;
        recorded as an ``illegal`` attempt) or stale (not the pending decision)."""
        self.touch()
        p = self.pending
        if p is None or p.answer.done() or p.answered:
            return Stale(
                f"decision {decision_id} is not pending for this seat (no decision is pending)"
                if p is None
                else f"decision {decision_id} is not pending for this seat "
                f"(decision {p.decision_id} was answered already)"
            )
        if decision_id != p.decision_id:
            return Stale(
                f"decision {decision_id} is not pending for this seat "
                f"(the pending decision is {p.decision_id})"
            )
        p.delivered = True
        now = self.clock()
        ok = move_id in p.legal
        if len(p.telemetry.attempts) < MAX_RECORDED_ATTEMPTS or ok:
            p.telemetry.attempts.append(
                AttemptRecord(
                    n=len(p.telemetry.attempts) + 1,
                    outcome="ok" if ok else "illegal",
                    detail=None if ok else "not a legal move id of the decision",
                    started_s=round(now - p.started, 6),
                    move=move_id[:200],
                )
            )
        if not ok:
            p.rejected += 1
            return Rejected(p.decision_id, f"{move_id[:80]!r} is not a legal move id", p.legal)
        p.answered = True
        p.answer.set_result(move_id)
        if p.waiter is not None:
            _wake(p.waiter)
        return Accepted(p.decision_id, move_id, p.cursor)

    # -- the rest of the seat protocol -------------------------------------------------------
    def seat_record(self, seat: int, time_per_move_s: float, transcripts: bool) -> SeatRecord:
        return SeatRecord(
            seat=seat, spec=self.spec, display_name=self.display_name,
            controller="human" if self.kind == "human" else "ai", kind=self.kind,
            lang=self.lang, options={"disconnect_grace_s": self.grace_s},
            time_per_move_s=time_per_move_s,
            # what the seat was given: an agent polling without our prompts saw none
            system_prompt=self.prompter.system_given if transcripts else None,
        )  # fmt: skip

    def finish(self) -> None:
        """The match ended and its record is made (call this after: the record names the
        system prompt given): no decision comes any more, so the prompter lets its memory,
        views, prompts and payloads go while the service keeps the match."""
        self.prompter.close()

    def detach(self) -> None:
        """Drop the seat's link into a reference cycle once its match is forgotten: the
        service's change signal (the prompter's latest payload, which points back at the
        prompter, went at :meth:`finish`)."""
        self.on_change = None

    async def aclose(self) -> None:
        p = self.pending
        if p is not None and not p.answer.done():
            p.answer.cancel()
            if p.waiter is not None:
                _wake(p.waiter)


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


async def _answer_or_timeout(
    p: PendingDecision, loop: asyncio.AbstractEventLoop, timeout: float
) -> None:
    """Return once ``p`` is answered or cancelled (:meth:`RemoteSeat.submit` and
    :meth:`RemoteSeat.aclose` wake ``p.waiter`` themselves: no done-callback on the answer and
    no loop hop for it) or ``timeout`` seconds have passed."""
    if p.answer.done():
        return
    waiter: asyncio.Future[None] = loop.create_future()
    p.waiter = waiter
    timer = loop.call_later(timeout, _wake, waiter)
    try:
        await waiter
    finally:
        timer.cancel()
        p.waiter = None


__all__ = [
    "DISCONNECT_GRACE_S",
    "Accepted",
    "PendingDecision",
    "Rejected",
    "RemoteSeat",
    "Stale",
    "SubmitResult",
]
