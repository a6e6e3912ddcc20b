"""Per-participant results of a stored suite (its done matches only: void matches are no
result): matches, wins by role, first-try valid rate, autopilot rate, tokens and cost."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Integer, cast, func, select

from .store import Store
from .store.tables import MatchRow, MatchSeatRow


@dataclass
class ParticipantSummary:
    """One participant over every done match of a suite it sat in (a seat is one match)."""

    participant: str
    kind: str = ""
    seats: int = 0
    """Seats played (a participant may sit at several seats of one match)."""
    wins: int = 0
    by_role: dict[str, tuple[int, int]] = field(default_factory=dict)
    """role → (wins, seats played in it)."""
    decisions: int = 0
    answered: int | None = None
    first_try_valid: int | None = None
    autopilot_moves: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0

    @property
    def first_try_valid_rate(self) -> float | None:
        if not self.answered or self.first_try_valid is None:
            return None
        return self.first_try_valid / self.answered

    @property
    def autopilot_rate(self) -> float | None:
        return self.autopilot_moves / self.decisions if self.decisions else None

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.seats if self.seats else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "participant": self.participant,
            "kind": self.kind,
            "matches": self.seats,
            "wins": self.wins,
            "wins_by_role": {r: {"wins": w, "played": n} for r, (w, n) in self.by_role.items()},
            "decisions": self.decisions,
            "first_try_valid_rate": self.first_try_valid_rate,
            "autopilot_rate": self.autopilot_rate,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cost_usd": self.cost_usd,
        }


def participant_summaries(
    store: Store, suite: str, order: list[str] | None = None
) -> list[ParticipantSummary]:
    """Every participant's results over the suite's done matches (``order``: the participant
    ids in the order to list them; others follow)."""
    sid = store.suite_id(suite)
    if sid is None:
        return []
    s = MatchSeatRow
    q = (
        select(
            s.participant,
            s.kind,
            s.role,
            func.count(),
            func.sum(cast(s.won, Integer)),
            func.sum(s.decisions),
            func.sum(s.answered),
            func.sum(s.first_try_valid),
            func.sum(s.autopilot_moves),
            func.sum(s.input_tokens),
            func.sum(s.output_tokens),
            func.sum(s.cost_usd),
        )
        .join(MatchRow, MatchRow.id == s.match_id)
        .where(MatchRow.suite_id == sid, MatchRow.status == "done")
        .group_by(s.participant, s.kind, s.role)
    )
    out: dict[str, ParticipantSummary] = {pid: ParticipantSummary(pid) for pid in order or ()}
    with store.engine.connect() as conn:
        rows = conn.execute(q).all()
    for pid, kind, role, n, won, dec, answered, ftv, auto, tin, tout, cost in rows:
        p = out.setdefault(pid, ParticipantSummary(pid))
        p.kind = kind
        p.seats += int(n)
        p.wins += int(won or 0)
        if role is not None:
            w0, n0 = p.by_role.get(role, (0, 0))
            p.by_role[role] = (w0 + int(won or 0), n0 + int(n))
        p.decisions += int(dec or 0)
        if answered is not None:
            p.answered = (p.answered or 0) + int(answered)
            p.first_try_valid = (p.first_try_valid or 0) + int(ftv or 0)
        p.autopilot_moves += int(auto or 0)
        p.input_tokens += int(tin or 0)
        p.output_tokens += int(tout or 0)
        p.cost_usd += float(cost or 0.0)
    return list(out.values())


__all__ = ["ParticipantSummary", "participant_summaries"]
