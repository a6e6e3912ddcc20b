"""Circuit breakers: one per participant, tripped when its provider keeps failing.

A breaker trips on an auth error (401/403: a wrong key does not get better) or on a run of
:data:`DEFAULT_MAX_FAILURES` consecutive failed requests with no success in between, across all
the participant's seats (server errors, dropped connections, timeouts; 429s only slow a run
down, they never trip it). Once tripped, no new match of the participant starts, and its seats
in matches already running fail at once without calling the provider (their decisions go to
the autopilot, so those matches are stored as void).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from bangarena.harness.records import MatchRecord

DEFAULT_MAX_FAILURES: Final = 25
"""Consecutive failed requests (no success between them) that trip a participant's breaker."""


@dataclass(frozen=True, slots=True)
class Trip:
    """A tripped breaker: whose, and why (one line)."""

    participant: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"participant": self.participant, "reason": self.reason}


class CircuitBreakers:
    """The breakers of one run (or one worker of it: trips found there travel back to the
    driver with the results, and the driver's trips travel out with every batch)."""

    def __init__(
        self,
        max_failures: int = DEFAULT_MAX_FAILURES,
        tripped: Mapping[str, str] | None = None,
    ) -> None:
        if max_failures < 1:
            raise ValueError(f"max_failures {max_failures} must be at least 1")
        self.max_failures = max_failures
        self.reasons: dict[str, str] = dict(tripped or {})
        self.streaks: Counter[str] = Counter()
        self.last_error: dict[str, str] = {}
        self._new: list[Trip] = []

    def is_open(self, participant: str) -> str | None:
        """Why the participant's breaker is open (None: closed, its matches may start)."""
        return self.reasons.get(participant)

    def trip(self, participant: str, reason: str) -> None:
        """Open the participant's breaker (the first reason is kept)."""
        if participant in self.reasons:
            return
        self.reasons[participant] = reason
        self._new.append(Trip(participant, reason))

    def merge(self, trips: Mapping[str, str]) -> None:
        """Open the breakers another process tripped."""
        for participant, reason in trips.items():
            self.trip(participant, reason)

    def drain(self) -> list[Trip]:
        """The trips since the last call."""
        out, self._new = self._new, []
        return out

    def trips(self) -> list[Trip]:
        """Every open breaker, in the order they tripped."""
        return [Trip(p, r) for p, r in self.reasons.items()]

    def observe(self, participant: str, outcome: str) -> None:
        """One request of the participant ended with ``outcome`` (``ok`` or a ProviderError
        kind, ``cancelled``)."""
        if outcome == "ok":
            self.streaks[participant] = 0
            return
        if outcome == "rate_limit":
            return  # a provider asking us to slow down is up; the limits slow down
        if outcome == "auth":
            self.trip(participant, "the provider refused the credentials (auth error)")
            return
        self.streaks[participant] += 1
        self.last_error[participant] = outcome
        n = self.streaks[participant]
        if n >= self.max_failures:
            self.trip(
                participant,
                f"{n} consecutive failed requests to its provider (last: {outcome})",
            )

    def observer(self, participant: str):  # noqa: ANN201 — an Observer (harness.providers.limits)
        """The callback a participant's providers report their attempts to."""

        def tell(outcome: str) -> None:
            self.observe(participant, outcome)

        return tell

    def refusal(self, participant: str):  # noqa: ANN201 — Callable[[], str | None]
        """What a participant's providers ask before each request: a reason to fail at once."""

        def why() -> str | None:
            reason = self.reasons.get(participant)
            return None if reason is None else f"circuit breaker open for {participant}: {reason}"

        return why

    def note_record(self, lineup: tuple[str, ...], record: MatchRecord) -> None:
        """Trip the breakers a finished match shows cause for (a seat stopped by an auth
        error), in case its requests were never observed."""
        for m in record.moves:
            if m.autopilot_reason == "auth":
                self.trip(lineup[m.seat], "the provider refused the credentials (auth error)")


__all__ = ["DEFAULT_MAX_FAILURES", "CircuitBreakers", "Trip"]
