"""The baseline: a uniformly random legal move."""

from __future__ import annotations

from bangarena.engine import Decision, SeatView

from .base import Bot


class RandomBot(Bot):
    """Picks uniformly among the legal moves with its own seeded stream."""

    kind = "random"
    needs_view = False

    def choose(self, view: SeatView | None, decision: Decision) -> str:
        moves = decision.moves
        return moves[self.rng.randrange(len(moves))].id
