"""A person at the terminal: the seat's view (with their own character's ability), then a
numbered list of the legal moves; the person types a number (or a move id) before the time per
move runs out — a countdown shows what is left — or the autopilot moves for them. Once
eliminated, they are told so and choose to watch the rest of the match or leave it (the match
then plays on without display and its record is still written).

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
from bangarena.prompts.catalog import catalog
from bangarena.prompts.memory import PromptMemory
from bangarena.prompts.render import turn_context

from ..records import DecisionTelemetry, SeatRecord
from .protocol import Deadline, SeatAnswer

_EOF = object()
TICK_S = 1.0
"""How often the countdown is redrawn on a terminal."""
WARN_AT_S: tuple[float, ...] = (10.0,)
"""Off a terminal (a pipe, a log), the time left is printed once as it crosses each of these."""
LEAVE_WORDS = frozenset({"q", "quit", "leave", "exit"})


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
        warn_at_s: tuple[float, ...] = WARN_AT_S,
    ) -> None:
        self.display_name = display_name
        self.warn_at_s = tuple(sorted(warn_at_s, reverse=True))
        self.watching = True  # False once the person, eliminated, left: show them nothing
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
        if view.seat is not None:
            cat = catalog(self.lang)
            me = view.players[view.seat].character
            out.print(
                f"[bold]Your character: {escape(cat.character[me])}[/bold] — "
                f"{escape(cat.ability[me])}"
            )
        for key in ("named", "summary"):
            if ctx[key]:
                out.print(escape(ctx[key]))
        out.print(escape(ctx["recent_title"]))
        for line in ctx["recent"]:
            out.print("  " + escape(line))
        out.print(f"[bold]{escape(ctx['decision'])}[/bold]")
        for i, (mid, text) in enumerate(zip(ctx["ids"], ctx["move_texts"], strict=True), 1):
            out.print(f"  [bold]{i:>2}[/bold]. {escape(text)}  [dim]({escape(mid)})[/dim]")
        out.print(f"[dim]{self._prompt(deadline.remaining())}[/dim]")
        return ctx["ids"]

    @staticmethod
    def _prompt(remaining: float) -> str:
        return f"Type a number (or a move id) — {max(0, round(remaining))}s left."

    def _tick(self, remaining: float, warned: list[float]) -> None:
        """The countdown: on a terminal, redraw the prompt line above the cursor (the line the
        person types on is left alone); elsewhere print the time left once per threshold."""
        out = self.console
        if out.is_terminal:
            # save the cursor, go up to the prompt line, rewrite it, come back
            out.file.write(f"\x1b7\x1b[1A\r\x1b[2m{self._prompt(remaining)}\x1b[0m\x1b[K\x1b8")
            out.file.flush()
            return
        for t in self.warn_at_s:
            if remaining <= t and t not in warned:
                warned.append(t)
                out.print(f"[yellow]{max(0, round(remaining))}s left.[/yellow]")
                break

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
        # thresholds already behind us at the start are not announced
        warned = [t for t in self.warn_at_s if deadline.remaining() <= t]
        while True:
            remaining = deadline.remaining()
            if remaining <= 0:
                self.console.print("[yellow]Time is up: the autopilot moves for you.[/yellow]")
                self._timed_out = True
                return SeatAnswer.give_up("timeout")
            try:
                item = await asyncio.wait_for(queue.get(), min(remaining, TICK_S))
            except TimeoutError:
                self._tick(deadline.remaining(), warned)
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
            # the countdown redraws the line above the cursor: make it the prompt again
            self.console.print(f"[dim]{self._prompt(deadline.remaining())}[/dim]")

    async def eliminated(self, view: SeatView) -> None:
        """Tell the person they are out, then read their choice: Enter (or nothing before the
        driver's time limit, or closed input) watches the rest of the match, ``q`` leaves it."""
        cat = catalog(self.lang)
        me = view.seat
        ev = next(
            (e for e in view.events if e.get("kind") == "eliminated" and e.get("seat") == me),
            None,
        )
        how = ""
        if ev is not None:
            by = f" by #{ev['killer']}" if ev.get("killer") is not None else ""
            how = f"eliminated{by} — you were {cat.role.get(ev['role'], ev['role'])}. "
        self.console.rule("[bold red]You are out[/bold red]")
        self.console.print(
            f"[bold red]You are out:[/bold red] {escape(how)}The match plays on without you. "
            "Press Enter to watch it to the end, or type q then Enter to leave "
            "(the bots finish it without display; the record is still written)."
        )
        queue = self._start_reader()
        if self._eof:
            return
        item = await queue.get()
        if item is _EOF:
            self._eof = True
            return
        if str(item).strip().lower() in LEAVE_WORDS:
            self.watching = False
            self.console.print("[dim]You left the table: the match finishes without display.[/dim]")

    def seat_record(self, seat: int, time_per_move_s: float, transcripts: bool) -> SeatRecord:
        return SeatRecord(
            seat=seat, spec=self.spec, display_name=self.display_name, controller="human",
            kind="human", lang=self.lang, time_per_move_s=time_per_move_s,
        )  # fmt: skip

    async def aclose(self) -> None:
        return None
