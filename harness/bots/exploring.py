"""A bot that sometimes plays a uniformly random legal move (``rule:eps=0.3``)."""

from __future__ import annotations

import random

from bangarena.engine import Decision, SeatView

from .base import Bot


class ExploringBot(Bot):
    """Wraps a bot: with probability ``eps`` a uniformly random legal move replaces its choice.

    The inner bot is asked every decision all the same, so its memory of the table (built from
    the views it is shown) stays whole; the coin and the random move come from a stream of their
    own, so the inner bot's choices are the ones it would make without the wrapper.
    """

    def __init__(self, inner: Bot, eps: float) -> None:
        super().__init__(inner.seed, inner.seat)
        self.inner = inner
        self.eps = eps
        self.kind = inner.kind
        self.needs_view = inner.needs_view
        self.coin = random.Random(inner.seed ^ 0xE95)

    def choose(self, view: SeatView, decision: Decision) -> str:
        move = self.inner.choose(view, decision)
        if self.coin.random() < self.eps:
            moves = decision.moves
            return moves[self.coin.randrange(len(moves))].id
        return move
