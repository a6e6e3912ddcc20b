"""The one seat protocol: every kind of seat (bot, model, scripted, human, remote agent)
answers ``await seat.decide(view, decision, deadline)`` with a :class:`SeatAnswer` — the chosen
move id (or None: the driver then plays the autopilot's move) and the decision's telemetry.

The driver gives a seat only its own view (events since its previous decision) and the pending
decision; a seat never sees the game. A seat may also define ``async def eliminated(view)``: the
driver calls it once, with the seat's own view, when the seat is eliminated and the game goes on
(bounded by its time per move) — the terminal seat tells the person and lets them watch or leave.

Seats that talk to an agent outside the process (the seat service's remote seats, push agents)
may define ``match_id`` and ``decision_index`` attributes: the driver sets the first when the
match is made and the second (the decision's index in the match record) before each decision.
A seat that keeps its own clock, always answering by the decision's deadline (the remote seat:
its wait wakes at the deadline and gives up), may set ``self_timed = True``: the driver then
runs it without a timer of its own. A seat that keeps per-decision state (a prompter's memory,
views and payloads) may define ``finish()``: the seat service calls it once the match has ended
and its record is made, so a finished match it keeps in memory does not keep that state.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from bangarena.engine import Decision, SeatView

from ..records import AutopilotReason, Controller, DecisionTelemetry, SeatKind, SeatRecord


class Deadline:
    """The clock of one decision (monotonic seconds). Time a seat spends backing off on a
    provider's rate limit may be credited back, up to ``backoff_cap_s`` per decision, so it is
    not charged to the seat's clock; all backoff is counted in ``backoff_s``."""

    __slots__ = ("limit_s", "start", "at", "backoff_cap_s", "credited_s", "backoff_s")

    def __init__(self, seconds: float, *, backoff_cap_s: float = 60.0) -> None:
        self.limit_s = float(seconds)
        self.start = time.monotonic()
        self.at = self.start + self.limit_s
        self.backoff_cap_s = float(backoff_cap_s)
        self.credited_s = 0.0
        self.backoff_s = 0.0

    def remaining(self) -> float:
        """Seconds left (negative once past the deadline)."""
        return self.at - time.monotonic()

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    @property
    def expired(self) -> bool:
        return time.monotonic() >= self.at

    def credit(self, seconds: float) -> float:
        """Move the deadline back by up to ``seconds`` (within the cap); returns the grant."""
        grant = max(0.0, min(seconds, self.backoff_cap_s - self.credited_s))
        self.credited_s += grant
        self.at += grant
        return grant


@dataclass(slots=True)
class SeatAnswer:
    """A seat's answer to one decision. ``move_id`` None means "no move": the driver plays the
    autopilot's move, for ``telemetry.autopilot_reason``."""

    move_id: str | None
    telemetry: DecisionTelemetry

    @classmethod
    def give_up(cls, reason: AutopilotReason, telemetry: DecisionTelemetry | None = None):
        t = telemetry or DecisionTelemetry()
        t.autopilot_reason = reason
        return cls(None, t)


@runtime_checkable
class Seat(Protocol):
    """What the match driver needs from a seat."""

    controller: Controller
    kind: SeatKind
    spec: str
    display_name: str

    async def decide(self, view: SeatView, decision: Decision, deadline: Deadline) -> SeatAnswer:
        """Choose one of ``decision.moves`` before ``deadline`` (or return no move)."""
        ...

    def seat_record(self, seat: int, time_per_move_s: float, transcripts: bool) -> SeatRecord:
        """The seat's entry in the match record (called once the match is over)."""
        ...

    async def aclose(self) -> None:
        """Release the seat's resources (HTTP clients, input readers)."""
        ...
