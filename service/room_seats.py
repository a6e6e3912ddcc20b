"""The seats a web room adds around a match: :class:`PacedBotSeat` (a bot that waits for the
table's speed before each answer) and :class:`StandIn` (a rule bot playing an absent person's
seat, through that seat, while the host has handed it over)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from bangarena.engine import Decision, SeatView
from bangarena.harness.bots import make_bot
from bangarena.harness.records import DecisionTelemetry, SeatRecord
from bangarena.harness.seats.bot_seat import BotSeat
from bangarena.harness.seats.protocol import Deadline, SeatAnswer

from .registry import LiveMatch

if TYPE_CHECKING:
    from .rooms import Room


class PacedBotSeat:
    """A bot seat that pauses before each answer (the table's speed, read at every decision):
    people can follow what the bots do. Its record is the bot's own."""

    controller = "bot"

    def __init__(self, inner: BotSeat, pause: Callable[[], float]) -> None:
        self.inner = inner
        self.kind = inner.kind
        self.spec = inner.spec
        self.display_name = inner.display_name
        self.pause = pause

    async def decide(self, view: SeatView, decision: Decision, deadline: Deadline) -> SeatAnswer:
        wait = min(self.pause(), max(0.0, deadline.remaining()))
        if wait > 0:
            await asyncio.sleep(wait)
        return SeatAnswer(self.inner.bot.choose(view, decision), DecisionTelemetry())

    def seat_record(self, seat: int, time_per_move_s: float, transcripts: bool) -> SeatRecord:
        return self.inner.seat_record(seat, time_per_move_s, transcripts)

    async def aclose(self) -> None:
        await self.inner.aclose()


HANDED_NOTE: Final = "handed to a bot by the host: a rule bot played this seat's move"


class StandIn:
    """A rule bot answering a person's decisions while the host has handed the seat over. It
    reads the seat's own view (from the start of the game, as the seat saw it) and answers
    through the remote seat, so the clock and the record are the seat's; each such decision's
    telemetry says it was handed over."""

    def __init__(self, room: Room, live: LiveMatch, chair: int, seed: int) -> None:
        self.room, self.live, self.chair = room, live, chair
        self.bot = make_bot("rule", seed, chair)
        self.cursor = 0
        self.task = asyncio.get_running_loop().create_task(
            self._run(), name=f"stand-in-{live.match_id}-{chair}"
        )

    def _wanted(self) -> bool:
        return self.room.handed.get(self.chair) is self and not self.live.ended

    async def _run(self) -> None:
        seat = self.live.remote[self.chair]
        live = self.live
        while self._wanted():
            await live.wait_until(
                lambda: (
                    not self._wanted() or (seat.pending is not None and not seat.pending.answered)
                ),
                5.0,
            )
            p = seat.pending
            if not self._wanted() or p is None or p.answered:
                continue
            await asyncio.sleep(self.room.pause())
            if not self._wanted() or seat.pending is not p or p.answered:
                continue
            view = live.game.view(self.chair, since=self.cursor)
            self.cursor = view.cursor
            move = self.bot.choose(view, p.decision)
            p.telemetry.reason = HANDED_NOTE
            seat.submit(p.decision_id, move)

    def stop(self) -> None:
        self.task.cancel()


__all__ = ["HANDED_NOTE", "PacedBotSeat", "StandIn"]
