"""``--dry-run``: the plan of a suite and what it is expected to cost, before anything is spent.

Decisions per seat come from bot play: each table is played by rule bots answering through the
text path (``scripted:rule``: the same games the rule bot plays) on the suite's first deals,
which also measures the prompts — the system prompt and each turn's prompt, in tokens of the
o200k_base tokenizer — and the size of an answer. A participant's expected tokens are its
expected decisions times those sizes (first attempts only: retries add to it); its expected
cost is what the price table (its options, else litellm's cost map) charges for them, None when
no price is known.
"""

from __future__ import annotations

import asyncio
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from bangarena.harness.match import MatchSettings, run_match
from bangarena.harness.pricing import cost_usd
from bangarena.harness.providers.base import Usage
from bangarena.harness.seats.factory import build_seat, plan_seat

from .keys import seat_spec
from .schedule import PlannedMatch
from .suite import Suite

SAMPLE_DEALS: Final = 2
"""Deals of each table played to measure it (the suite's first ones)."""


@dataclass(frozen=True, slots=True)
class TableProfile:
    """What a table's matches are like, measured on sample deals."""

    table_index: int
    seats: int
    mode: str
    sample_matches: int
    decisions_per_seat: float
    input_tokens_per_decision: float
    output_tokens_per_decision: float


@dataclass
class ParticipantEstimate:
    """One participant's share of the matches still to run."""

    participant: str
    spec: str
    kind: str
    seats: int = 0
    """Seats to play (a match where it sits twice counts twice)."""
    decisions: float = 0.0
    input_tokens: float = 0.0
    output_tokens: float = 0.0
    cost_usd: float | None = None
    priced: bool = True

    def to_dict(self) -> dict[str, Any]:
        prompted = self.kind in ("model", "scripted")
        return {
            "participant": self.participant,
            "spec": self.spec,
            "kind": self.kind,
            "seats": self.seats,
            "expected_decisions": round(self.decisions),
            "expected_model_decisions": round(self.decisions) if prompted else 0,
            "expected_input_tokens": round(self.input_tokens),
            "expected_output_tokens": round(self.output_tokens),
            "expected_cost_usd": None if self.cost_usd is None else round(self.cost_usd, 6),
        }


@dataclass
class PlanEstimate:
    """The dry run's answer."""

    suite: str
    db: str
    matches_planned: int
    matches_reused: int
    matches_to_run: int
    tables: list[TableProfile]
    participants: list[ParticipantEstimate]
    budget: dict[str, Any] = field(default_factory=dict)

    @property
    def model_decisions(self) -> float:
        return sum(p.decisions for p in self.participants if p.kind in ("model", "scripted"))

    @property
    def tokens(self) -> float:
        return sum(p.input_tokens + p.output_tokens for p in self.participants)

    @property
    def cost_usd(self) -> float | None:
        """Expected cost of the matches to run (None when a priced participant has no price)."""
        costs = [p.cost_usd for p in self.participants if p.kind == "model"]
        if any(c is None for c in costs):
            return None
        scripted = [p.cost_usd or 0.0 for p in self.participants if p.kind == "scripted"]
        return float(sum(c for c in costs if c is not None) + sum(scripted))

    def to_json(self) -> dict[str, Any]:
        cost = self.cost_usd
        return {
            "suite": self.suite,
            "db": self.db,
            "matches_planned": self.matches_planned,
            "matches_reused": self.matches_reused,
            "matches_to_run": self.matches_to_run,
            "expected_model_decisions": round(self.model_decisions),
            "expected_tokens": round(self.tokens),
            "expected_cost_usd": None if cost is None else round(cost, 6),
            "budget": self.budget,
            "tables": [
                {
                    "table": t.table_index,
                    "seats": t.seats,
                    "mode": t.mode,
                    "sample_matches": t.sample_matches,
                    "decisions_per_seat": round(t.decisions_per_seat, 2),
                    "input_tokens_per_decision": round(t.input_tokens_per_decision, 1),
                    "output_tokens_per_decision": round(t.output_tokens_per_decision, 1),
                }
                for t in self.tables
            ],
            "participants": [p.to_dict() for p in self.participants],
        }


async def _profile(plan: Sequence[PlannedMatch], table_index: int) -> TableProfile:
    samples = [m for m in plan if m.table_index == table_index and m.rotation == 0]
    samples = samples[:SAMPLE_DEALS] or [m for m in plan if m.table_index == table_index][:1]
    first = samples[0]
    t = first.table
    decisions: list[float] = []
    inputs: list[int] = []
    outputs: list[int] = []
    probe = plan_seat("scripted:rule")
    for m in samples:
        settings = MatchSettings(
            seats=t["seats"],
            mode=t["mode"],
            seed=m.deal_seed,
            max_rounds=t["max_rounds"],
            lang=m.lang,
            time_per_move_s=3600.0,
            transcripts=False,
        )
        seats = [
            build_seat(probe, seat=i, seed=m.deal_seed, lang=m.lang, transcripts=False)
            for i in range(t["seats"])
        ]
        record = await run_match(settings, seats, match_id=f"dry-run-{m.key}")
        decisions.append(len(record.moves) / t["seats"])
        for mv in record.moves:
            if mv.attempts:
                inputs.append(mv.attempts[0].usage.input_tokens)
                outputs.append(mv.attempts[0].usage.output_tokens)
    return TableProfile(
        table_index=table_index,
        seats=t["seats"],
        mode=t["mode"],
        sample_matches=len(samples),
        decisions_per_seat=statistics.fmean(decisions),
        input_tokens_per_decision=statistics.fmean(inputs) if inputs else 0.0,
        output_tokens_per_decision=statistics.fmean(outputs) if outputs else 0.0,
    )


def estimate_plan(
    suite: Suite, plan: Sequence[PlannedMatch], done: set[str], db: str
) -> PlanEstimate:
    """The plan's matches, and per participant the expected decisions, tokens and cost of
    the matches not yet ``done``."""
    f = suite.file
    profiles = asyncio.run(_profiles(plan, len(f.tables)))
    by_id = {p.id: p for p in f.participants}
    est = {p.id: ParticipantEstimate(p.id, seat_spec(p.plan), p.plan.kind) for p in f.participants}
    to_run = [m for m in plan if m.key not in done]
    for m in to_run:
        prof = profiles[m.table_index]
        for s in m.seats:
            e = est[s.participant]
            e.seats += 1
            e.decisions += prof.decisions_per_seat
            if s.kind in ("model", "scripted"):
                e.input_tokens += prof.decisions_per_seat * prof.input_tokens_per_decision
                e.output_tokens += prof.decisions_per_seat * prof.output_tokens_per_decision
    for pid, e in est.items():
        plan_ = by_id[pid].plan
        if plan_.kind not in ("model", "scripted") or plan_.spec is None:
            e.cost_usd = 0.0
            continue
        usage = Usage(input_tokens=round(e.input_tokens), output_tokens=round(e.output_tokens))
        e.cost_usd = cost_usd(usage, plan_.options, plan_.spec)
        if e.cost_usd is None and plan_.kind == "scripted":
            e.cost_usd = 0.0  # offline: no price, nothing to pay
    budget = f.budget.model_dump(exclude_none=True) if f.budget is not None else {}
    return PlanEstimate(
        suite=suite.name,
        db=db,
        matches_planned=len(plan),
        matches_reused=len(plan) - len(to_run),
        matches_to_run=len(to_run),
        tables=[profiles[i] for i in range(len(f.tables))],
        participants=list(est.values()),
        budget=budget,
    )


async def _profiles(plan: Sequence[PlannedMatch], tables: int) -> dict[int, TableProfile]:
    return {i: await _profile(plan, i) for i in range(tables)}


__all__ = ["ParticipantEstimate", "PlanEstimate", "TableProfile", "estimate_plan"]
