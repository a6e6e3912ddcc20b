"""Bot seats: the ``rule`` and ``random`` bots of :mod:`bangarena.harness.bots` behind the seat
protocol. A bot answers at once, so its answers never time out."""

from __future__ import annotations

from bangarena.engine import Decision, SeatView

from ..bots import make_bot
from ..records import DecisionTelemetry, SeatRecord
from .protocol import Deadline, SeatAnswer


class BotSeat:
    """A seeded bot (``kind`` ``rule`` or ``random``) for one chair."""

    controller = "bot"

    def __init__(self, kind: str, seed: int, seat: int, display_name: str | None = None) -> None:
        self.kind = kind
        self.spec = kind
        self.seed = seed
        self.bot = make_bot(kind, seed, seat)
        self.display_name = display_name or f"Bot {seat + 1}"

    async def decide(self, view: SeatView, decision: Decision, deadline: Deadline) -> SeatAnswer:
        return SeatAnswer(self.bot.choose(view, decision), DecisionTelemetry())

    def seat_record(self, seat: int, time_per_move_s: float, transcripts: bool) -> SeatRecord:
        return SeatRecord(
            seat=seat, spec=self.spec, display_name=self.display_name, controller="bot",
            kind=self.kind, options={"seed": self.seed}, time_per_move_s=time_per_move_s,
        )  # fmt: skip

    async def aclose(self) -> None:
        return None
