"""A person at the terminal: the seat's view, then a numbered list of the legal moves; the person
types a number (or a move id) before the time per move runs out, or the autopilot moves for them.

Lines are read by a background thread feeding an asyncio queue, so waiting for a person never
blocks the event loop (other seats and matches keep running). Lines typed ahead answer the next
decisions in order (so moves can be piped in), but a line typed after a timeout is dropped: it
was meant for the decision the autopilot already played.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import TextIO

from rich.console import Console
from rich.markup import escape

from bangarena.engine import Decision, SeatView
from bangarena.prompts.memory import PromptMemory
from bangarena.prompts.render import turn_context

from ..records import DecisionTelemetry, SeatRecord
from .protocol import Deadline, SeatAnswer

_EOF = object()


class HumanSeat:
    """A person playing through ``stream`` (stdin by default) and ``console``."""

    controller = "human"
    kind = "human"
    spec = "human"

    def __init__(
        self,
        display_name: str = "You",
        *,
        lang: str = "en",
        stream: TextIO | None = None,
        console: Console | None = None,
    ) -> None:
        self.display_name = display_name
        self.lang = lang
        self.stream = stream if stream is not None else sys.stdin
        self.console = console or Console(highlight=False)
        self.memory = PromptMemory()
        self._queue: asyncio.Queue[object] | None = None
        self._thread: threading.Thread | None = None
        self._eof = False
        self._timed_out = False

    def _start_reader(self) -> asyncio.Queue[object]:
        if self._queue is None:
            loop = asyncio.get_running_loop()
            queue: asyncio.Queue[object] = asyncio.Queue()

            def pump() -> None:
                try:
                    for line in iter(self.stream.readline, ""):
                        loop.call_soon_threadsafe(queue.put_nowait, line)
                    loop.call_soon_threadsafe(queue.put_nowait, _EOF)
                except RuntimeError:
                    pass  # the match (and its loop) ended while the person was still typing

            self._thread = threading.Thread(target=pump, name="human-seat-input", daemon=True)
            self._thread.start()
            self._queue = queue
        return self._queue

    def _show(self, view: SeatView, decision: Decision, deadline: Deadline) -> list[str]:
        ctx = turn_context(view, decision, self.memory, self.lang)
        out = self.console
        out.rule(escape(ctx["header"]))
        for line in ctx["table"]:
            out.print("  " + escape(line))
        out.print(escape(ctx["hand"]))
        for key in ("named", "summary"):
            if ctx[key]:
                out.print(escape(ctx[key]))
        out.print(escape(ctx["recent_title"]))
        for line in ctx["recent"]:
            out.print("  " + escape(line))
        out.print(f"[bold]{escape(ctx['decision'])}[/bold]")
        for i, (mid, text) in enumerate(zip(ctx["ids"], ctx["move_texts"], strict=True), 1):
            out.print(f"  [bold]{i:>2}[/bold]. {escape(text)}  [dim]({escape(mid)})[/dim]")
        out.print(f"[dim]Type a number (or a move id) — {deadline.remaining():.0f}s.[/dim]")
        return ctx["ids"]

    async def decide(self, view: SeatView, decision: Decision, deadline: Deadline) -> SeatAnswer:
        queue = self._start_reader()
        if self._timed_out:  # a line typed after the last timeout answers nothing
            self._timed_out = False
            while not queue.empty():
                if queue.get_nowait() is _EOF:
                    self._eof = True
        ids = self._show(view, decision, deadline)
        if self._eof:
            return SeatAnswer.give_up("no_answer")
        while True:
            remaining = deadline.remaining()
            if remaining <= 0:
                self.console.print("[yellow]Time is up: the autopilot moves for you.[/yellow]")
                self._timed_out = True
                return SeatAnswer.give_up("timeout")
            try:
                item = await asyncio.wait_for(queue.get(), remaining)
            except TimeoutError:
                continue
            if item is _EOF:
                self._eof = True
                return SeatAnswer.give_up("no_answer")
            text = str(item).strip()
            if text.isdigit() and 1 <= int(text) <= len(ids):
                return SeatAnswer(ids[int(text) - 1], DecisionTelemetry())
            if text in ids:
                return SeatAnswer(text, DecisionTelemetry())
            self.console.print(f"[red]{escape(text)!r} is not 1–{len(ids)} or a legal id.[/red]")

    def seat_record(self, seat: int, time_per_move_s: float, transcripts: bool) -> SeatRecord:
        return SeatRecord(
            seat=seat, spec=self.spec, display_name=self.display_name, controller="human",
            kind="human", lang=self.lang, time_per_move_s=time_per_move_s,
        )  # fmt: skip

    async def aclose(self) -> None:
        return None
