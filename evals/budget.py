"""Budgets of a suite run: ``[budget]`` counts the whole stored suite (every run of it, done and
void matches both, since both were paid for), ``--max-matches`` counts this run's matches.

When a budget is reached no new match starts; matches in flight finish and are stored. The cost
and tokens of matches still running count as soon as they are spent, so a run does not start
a match it can no longer afford because its last results are still out.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Final, Literal

from .store import SuiteTotals
from .suite import Budget

StopReason = Literal["max_usd", "max_tokens", "max_wall_s", "max_matches", "circuit_breaker"]
STOP_REASONS: Final = ("max_usd", "max_tokens", "max_wall_s", "max_matches", "circuit_breaker")


@dataclass
class BudgetState:
    """What the suite had spent before this run, what this run has spent, and the limits."""

    budget: Budget | None
    max_matches: int | None
    before: SuiteTotals
    started_at: float = field(default_factory=time.monotonic)
    started: int = 0
    """Matches this run has started."""
    cost_usd: float = 0.0
    """Cost of the matches this run has stored."""
    tokens: int = 0

    def add_stored(self, cost_usd: float, tokens: int) -> None:
        """A match of this run was stored (done or void)."""
        self.cost_usd += cost_usd
        self.tokens += tokens

    def wall_s(self) -> float:
        """Wall time of every run of the suite, this one included."""
        return self.before.wall_s + (time.monotonic() - self.started_at)

    def spent(self, live_cost: float = 0.0, live_tokens: int = 0) -> tuple[float, int]:
        """(cost, tokens) of the whole suite so far, matches in flight included."""
        return (
            self.before.cost_usd + self.cost_usd + live_cost,
            self.before.tokens + self.tokens + live_tokens,
        )

    def reached(self, live_cost: float = 0.0, live_tokens: int = 0) -> StopReason | None:
        """The first budget reached (None: a new match may start)."""
        b = self.budget
        if b is not None:
            cost, tokens = self.spent(live_cost, live_tokens)
            if b.max_usd is not None and cost >= b.max_usd:
                return "max_usd"
            if b.max_tokens is not None and tokens >= b.max_tokens:
                return "max_tokens"
            if b.max_wall_s is not None and self.wall_s() >= b.max_wall_s:
                return "max_wall_s"
        if self.max_matches is not None and self.started >= self.max_matches:
            return "max_matches"
        return None

    def describe(self, reason: StopReason, live_cost: float = 0.0, live_tokens: int = 0) -> str:
        """One line saying which budget stopped the suite and where it stands."""
        cost, tokens = self.spent(live_cost, live_tokens)
        b = self.budget or Budget()
        if reason == "max_usd":
            return f"the cost budget is spent: ${cost:.4f} of max_usd ${b.max_usd:g}"
        if reason == "max_tokens":
            return f"the token budget is spent: {tokens:,} of max_tokens {b.max_tokens:,}"
        if reason == "max_wall_s":
            return f"the wall-time budget is spent: {self.wall_s():.0f} s of max_wall_s {b.max_wall_s:g}"
        if reason == "max_matches":
            return f"--max-matches {self.max_matches}: this run started {self.started} matches"
        return "circuit breakers stopped participants whose provider kept failing"


__all__ = ["STOP_REASONS", "BudgetState", "StopReason"]
