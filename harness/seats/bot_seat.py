"""Bot seats: the ``rule`` and ``random`` bots of :mod:`bangarena.harness.bots` behind the seat
protocol. A bot answers at once, so its answers never time out."""

from __future__ import annotations

from bangarena.engine import Decision, SeatView

from ..bots import BotSpec, make_bot, parse_bot_spec
from ..bots.information_set import Sampler
from ..records import DecisionTelemetry, SeatRecord
from .protocol import Deadline, SeatAnswer


class BotSeat:
    """A seeded bot for one chair, from a bot spec (``rule``, ``random``, ``rule:eps=0.3``)."""

    controller = "bot"

    def __init__(
        self, kind: str | BotSpec, seed: int, seat: int, display_name: str | None = None
    ) -> None:
        spec = kind if isinstance(kind, BotSpec) else parse_bot_spec(kind)
        self.kind = spec.kind
        self.spec = str(spec)
        self.params = dict(spec.params)
        self.seed = seed
        self.bot = make_bot(spec, seed, seat)
        self.display_name = display_name or f"Bot {seat + 1}"

    @property
    def needs_view(self) -> bool:
        """Whether the bot reads its view (the driver builds none for one that does not:
        ``random``)."""
        return self.bot.needs_view

    @property
    def wants_sampler(self) -> bool:
        """Whether the bot searches: the driver then sets :attr:`sampler` before each decision
        (``bots.information_set``: games from this seat's information set, never the game)."""
        return getattr(self.bot, "wants_sampler", False)

    @property
    def sampler(self) -> Sampler | None:
        return getattr(self.bot, "sampler", None)

    @sampler.setter
    def sampler(self, value: Sampler | None) -> None:
        self.bot.sampler = value  # type: ignore[attr-defined]

    async def decide(self, view: SeatView, decision: Decision, deadline: Deadline) -> SeatAnswer:
        return SeatAnswer(self.bot.choose(view, decision), DecisionTelemetry())

    def choose_now(self, view: SeatView | None, decision: Decision) -> str:
        """The bot's move at once: the driver calls this instead of :meth:`decide` (no clock,
        no telemetry — a bot answers in microseconds); ``view`` is None for a bot that does not
        read it (:attr:`needs_view`)."""
        return self.bot.choose(view, decision)

    def seat_record(self, seat: int, time_per_move_s: float, transcripts: bool) -> SeatRecord:
        return SeatRecord(
            seat=seat, spec=self.spec, display_name=self.display_name, controller="bot",
            kind=self.kind, options={"seed": self.seed, **self.params},
            time_per_move_s=time_per_move_s,
        )  # fmt: skip

    async def aclose(self) -> None:
        return None
