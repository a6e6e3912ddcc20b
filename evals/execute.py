"""Playing one planned match for a run: its model seats behind the run's shared limits and
circuit breakers, every decision counted as it is made, the void rule applied to the record,
and the rows the store will write prepared (the CPU part of a write, done where the match ran).

A match is **void** — stored with its reason, left out of every statistic and played again by
the next run — when it did not measure the seats: a seat's decisions were lost to provider
errors (transport or auth) on more than the threshold of them
(:func:`bangarena.harness.records.infrastructure_failures`, the rule ``bangarena play``'s exit
code uses), or the match was stopped (an auth error aborts it at once).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bangarena.harness.model_spec import ModelSpecError
from bangarena.harness.providers.base import Provider
from bangarena.harness.providers.limits import ProviderLimits
from bangarena.harness.records import (
    INFRASTRUCTURE_THRESHOLD,
    MatchRecord,
    MoveRecord,
    infrastructure_failures,
)
from bangarena.harness.seats.protocol import Seat

from .breakers import CircuitBreakers
from .schedule import PlannedMatch, PlannedSeat
from .spool import RunnerMatch, live_cost
from .store.rows import PreparedMatch, prepare_match

OutcomeStatus = Literal["done", "void", "error"]
ErrorKind = Literal["engine", "setup"]


@dataclass
class Tally:
    """Counts of decisions as they are made (for the live display)."""

    decisions: int = 0
    model_decisions: int = 0
    """Decisions of seats that answer through the text path (models, scripted seats)."""
    attempts: int = 0
    autopilot: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)
    """Attempts by failure class (``transport`` included: it is shown, never the model's)."""
    cost_usd: float = 0.0
    tokens: int = 0

    def add_move(self, rec: MoveRecord) -> None:
        self.decisions += 1
        if rec.how == "autopilot":
            self.autopilot[rec.autopilot_reason or "no_answer"] += 1
        atts = rec.attempts
        if not atts:
            return
        self.model_decisions += 1
        self.attempts += len(atts)
        for a in atts:
            if a.outcome != "ok":
                self.failures[a.outcome] += 1
            if a.cost_usd:
                self.cost_usd += a.cost_usd
            u = a.usage
            self.tokens += u.input_tokens + u.output_tokens

    def merge(self, other: Tally) -> None:
        self.decisions += other.decisions
        self.model_decisions += other.model_decisions
        self.attempts += other.attempts
        self.autopilot.update(other.autopilot)
        self.failures.update(other.failures)
        self.cost_usd += other.cost_usd
        self.tokens += other.tokens


@dataclass
class MatchOutcome:
    """What became of one planned match (it pickles: workers send it to the driver)."""

    key: str
    status: OutcomeStatus
    prepared: PreparedMatch | None = None
    reason: str | None = None
    """Why it is void, or the error."""
    error_kind: ErrorKind | None = None
    cost_usd: float = 0.0
    tokens: int = 0
    decisions: int = 0
    duration_s: float = 0.0
    record: MatchRecord | None = None
    """The record itself, only with ``PlayContext.keep_records`` (tests, benchmarks)."""


@dataclass
class PlayContext:
    """What the matches of one event loop share."""

    limits: ProviderLimits
    breakers: CircuitBreakers
    tally: Tally = field(default_factory=Tally)
    environ: Mapping[str, str] | None = None
    command: Sequence[str] | None = None
    threshold: float = INFRASTRUCTURE_THRESHOLD
    spool: bool = True
    keep_records: bool = False
    live: dict[str, list[Seat]] = field(default_factory=dict)
    """The seats that spend (model, scripted) of the matches being played, by key (their
    spending so far counts in budgets)."""

    def live_spend(self) -> tuple[float, int]:
        """(cost, tokens) spent so far by the matches being played."""
        cost, tokens = 0.0, 0
        for seats in self.live.values():
            c, t = live_cost(seats)
            cost, tokens = cost + c, tokens + t
        return cost, tokens

    def wrap(self, seat: PlannedSeat, provider: Provider) -> Provider:
        """A model seat's provider behind the shared limits and its participant's breaker
        (scripted seats are offline: nothing to limit)."""
        if seat.kind != "model" or seat.plan is None or seat.plan.spec is None:
            return provider
        who = seat.participant
        return self.limits.wrap(
            provider,
            seat.plan.spec,
            seat.plan.options,
            observer=self.breakers.observer(who),
            refuse=self.breakers.refusal(who),
        )


def verdict(record: MatchRecord, threshold: float = INFRASTRUCTURE_THRESHOLD) -> str | None:
    """Why a played match is void (None: it is a result)."""
    if record.status != "complete" or record.result is None:
        return f"the match was stopped: {record.status_detail or 'not finished'}"
    failures = infrastructure_failures(record, threshold)
    return "; ".join(failures) if failures else None


async def play_planned(planned: PlannedMatch, ctx: PlayContext) -> MatchOutcome:
    """Play ``planned`` and prepare its rows; never raises but for cancellation (an exception
    of the match is an ``error`` outcome: the engine or a seat broke)."""
    try:
        seats = planned.build_seats(ctx.environ, ctx.wrap)
    except ModelSpecError as exc:
        return MatchOutcome(planned.key, "error", reason=str(exc), error_kind="setup")
    prompted = planned.uses_prompts
    match = RunnerMatch(
        planned.settings(),
        seats,
        spool=ctx.spool and prompted and bool(planned.table["transcripts"]),
        on_decision=ctx.tally.add_move,
        match_id=planned.key,
        command=ctx.command,
    )
    # Only seats that spend (models; scripted seats count their tokens) are watched by the
    # live budget: a bots-only match is not summed at every match the runner starts.
    spenders = [s for s in seats if hasattr(s, "cost") or hasattr(s, "usage")]
    if spenders:
        ctx.live[planned.key] = spenders
    try:
        record = await match.run()
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # noqa: BLE001 — reported, and the run exits 1
        return MatchOutcome(
            planned.key, "error", reason=f"{type(exc).__name__}: {exc}", error_kind="engine"
        )
    finally:
        ctx.live.pop(planned.key, None)
    ctx.breakers.note_record(planned.participants, record)
    why = verdict(record, ctx.threshold)
    status: OutcomeStatus = "done" if why is None else "void"
    try:
        prepared = prepare_match(planned, record, status, why)
    except ValueError as exc:  # the record does not fit its plan: the engine's or ours
        return MatchOutcome(planned.key, "error", reason=str(exc), error_kind="engine")
    totals = record.totals.match
    return MatchOutcome(
        key=planned.key,
        status=status,
        prepared=prepared,
        reason=why,
        cost_usd=float(totals.cost_usd or 0.0),
        tokens=totals.usage.total,
        decisions=len(record.moves),
        duration_s=record.duration_s,
        record=record if ctx.keep_records else None,
    )


def outcome_summary(outcome: MatchOutcome) -> dict[str, Any]:
    """A JSON-ready line about one outcome (logs, tests)."""
    return {
        "key": outcome.key,
        "status": outcome.status,
        "reason": outcome.reason,
        "cost_usd": outcome.cost_usd,
        "tokens": outcome.tokens,
        "decisions": outcome.decisions,
    }


__all__ = [
    "MatchOutcome",
    "OutcomeStatus",
    "PlayContext",
    "Tally",
    "outcome_summary",
    "play_planned",
    "verdict",
]
