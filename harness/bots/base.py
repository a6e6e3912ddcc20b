"""The bot interface: a bot sees one seat's view and the pending decision, never the game."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import ClassVar

from bangarena.engine import Decision, SeatView


class Bot(ABC):
    """A seeded player for one seat.

    The caller passes, on each call, ``game.view(seat, since=<cursor of the previous view it gave
    this bot>)`` (0 the first time), so ``view.events`` holds only the new events; the bot keeps
    whatever memory it needs. ``choose`` returns the id of one of ``decision.moves``. A bot draws
    randomness only from its own ``random.Random(seed)``, so its choices are reproducible and it
    never touches the game's streams.
    """

    kind: ClassVar[str] = ""
    #: False when the bot ignores the view (the random bot): a batch simulator may then skip
    #: building one and pass None.
    needs_view: ClassVar[bool] = True

    def __init__(self, seed: int, seat: int) -> None:
        self.seed = seed
        self.seat = seat
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, view: SeatView, decision: Decision) -> str:
        """The id of the chosen legal move."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed}, seat={self.seat})"
