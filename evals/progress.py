"""What a person watching a run sees: a live panel (matches done of total, ETA, matches/s,
model decisions/s, cost so far, failures by class, autopilot rate, concurrency per provider)
and, at the end, a table per participant (matches, wins by role, first-try valid rate,
autopilot rate, tokens, cost). Without a terminal the panel becomes a plain line every
:data:`PLAIN_EVERY_S` seconds.
"""

from __future__ import annotations

import time
from typing import Any, Final

from rich.console import Console, Group
from rich.live import Live
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from .execute import MatchOutcome
from .runner import RunObserver, RunResult, RunView
from .summary import ParticipantSummary

PLAIN_EVERY_S: Final = 30.0
ROLE_SHORT: Final = {
    "sheriff": "S",
    "deputy": "D",
    "outlaw": "O",
    "renegade": "R",
    "double_agent": "DA",
}


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{value:.1%}"


def concurrency_line(limits: dict[str, dict[str, Any]]) -> str:
    """``openai:gpt-4.1-mini 12/32 (429: 3)`` per limit: requests in flight / the limit now."""
    parts = []
    for name, s in limits.items():
        cap = "∞" if s.get("limit") is None else str(s["limit"])
        extra = f" (429: {s['rate_limited']})" if s.get("rate_limited") else ""
        parts.append(f"{name} {s.get('in_flight', 0)}/{cap}{extra}")
    return " · ".join(parts)


def status_lines(view: RunView) -> list[str]:
    """The live panel, as lines of rich markup."""
    t = view.tally
    total = view.planned
    done = view.reused + view.done_now
    head = (
        f"[bold]{escape(view.suite)}[/bold] · {done}/{total} done"
        f" ({view.reused} reused, {view.done_now} now"
        + (f", [yellow]{view.void_now} void[/yellow]" if view.void_now else "")
        + (f", [red]{view.errors} failed[/red]" if view.errors else "")
        + f") · {view.in_flight} in flight · {view.backend}"
    )
    speed = (
        f"elapsed {_duration(view.elapsed_s)} · ETA {_duration(view.eta_s)} · "
        f"{view.matches_per_s:.2f} matches/s · {view.model_decisions_per_s:.1f} model decisions/s"
        f" · ${view.cost_before + view.cost_now:.4f} so far (${view.cost_now:.4f} now)"
    )
    failures = ", ".join(f"{k} {v}" for k, v in sorted(t.failures.items())) or "none"
    auto = _rate(view.autopilot_rate)
    lines = [head, speed, f"failures: {failures} · autopilot {auto} of {t.decisions} decisions"]
    if view.limits:
        lines.append("concurrency: " + escape(concurrency_line(view.limits)))
    for trip in view.breakers:
        lines.append(f"[red]breaker: {escape(trip.participant)}: {escape(trip.reason)}[/red]")
    if view.stopped:
        lines.append(f"[yellow]stopping: {escape(view.stop_detail or view.stopped)}[/yellow]")
    return lines


def wins_by_role(p: ParticipantSummary) -> str:
    """``S 3/5 · O 7/12``: wins of seats played, per role."""
    order = list(ROLE_SHORT)
    items = sorted(p.by_role.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 9)
    return " ".join(f"{ROLE_SHORT.get(r, r)} {w}/{n}" for r, (w, n) in items) or "—"


def _count(n: int) -> str:
    """``2.2M``, ``15k``, ``312``: a token count at a glance."""
    for size, unit in ((1_000_000_000, "G"), (1_000_000, "M"), (1_000, "k")):
        if n >= size:
            return f"{n / size:.1f}{unit}"
    return str(n)


def summary_table(result: RunResult) -> Group:
    """Per participant over the suite's done matches (every run of it): matches, wins,
    first-try valid rate, autopilot rate, tokens, cost; then wins by role."""
    title = (
        f"{escape(result.suite)}: {result.matches_done}/{result.matches_planned} matches done"
        f" · {result.matches_run_now} run now ({result.matches_void} void)"
        f" · {result.matches_reused} reused"
    )
    table = Table(title=title)
    width = min(24, max((len(p.participant) for p in result.participants), default=11))
    table.add_column("participant", no_wrap=True, min_width=width)
    for col in ("matches", "wins", "1st-try ok", "autopilot", "tokens in/out", "cost $"):
        table.add_column(col, justify="right", min_width=10 if col.startswith("tokens") else None)
    roles = [r for r in ROLE_SHORT if any(r in p.by_role for p in result.participants)]
    by_role = Table(title="wins / matches by role")
    by_role.add_column("participant", no_wrap=True, min_width=width)
    for r in roles:
        by_role.add_column(r, justify="right")
    for p in result.participants:
        tokens = f"{_count(p.input_tokens)}/{_count(p.output_tokens)}" if p.input_tokens else "—"
        cost = f"{p.cost_usd:.4f}" if p.cost_usd else "—"
        table.add_row(
            escape(p.participant), str(p.seats), str(p.wins),
            _rate(p.first_try_valid_rate), _rate(p.autopilot_rate), tokens, cost,
        )  # fmt: skip
        cells = [f"{w}/{n}" if (w, n) != (0, 0) else "—" for w, n in
                 (p.by_role.get(r, (0, 0)) for r in roles)]  # fmt: skip
        by_role.add_row(escape(p.participant), *cells)
    return Group(table, by_role) if roles else Group(table)


def result_lines(result: RunResult) -> list[str]:
    """What follows the table: why the run stopped, breakers, void matches, errors."""
    out = []
    if result.stopped:
        out.append(f"stopped: {result.stopped}: {result.stop_detail or ''}".rstrip(": "))
    for trip in result.breakers:
        out.append(f"circuit breaker: {trip.participant}: {trip.reason}")
    for line in result.void_reasons[:5]:
        out.append(f"void: {line}")
    if len(result.void_reasons) > 5:
        out.append(f"void: … and {len(result.void_reasons) - 5} more")
    for line in (result.errors + result.setup_errors)[:5]:
        out.append(f"error: {line}")
    return out


class LiveProgress(RunObserver):
    """The rich live panel on a terminal (``live``), else a plain line now and then."""

    def __init__(self, console: Console, *, live: bool) -> None:
        self.console = console
        self.live = live
        self._live: Live | None = None
        self._last_plain = 0.0

    def _render(self, view: RunView) -> Group:
        return Group(*(Text.from_markup(line) for line in status_lines(view)))

    def start(self, view: RunView) -> None:
        if self.live:
            self._live = Live(
                self._render(view), console=self.console, refresh_per_second=4, transient=True
            )
            self._live.__enter__()
        else:
            self.console.print(Text.from_markup(status_lines(view)[0]))
            self._last_plain = time.monotonic()

    def tick(self, view: RunView) -> None:
        if self._live is not None:
            self._live.update(self._render(view))
            return
        now = time.monotonic()
        if now - self._last_plain >= PLAIN_EVERY_S:
            self._last_plain = now
            self.console.print(Text.from_markup(" · ".join(status_lines(view)[:2])))

    def stored(self, view: RunView, outcome: MatchOutcome) -> None:
        if outcome.status == "error" and self._live is None:
            self.console.print(f"error: match {outcome.key}: {escape(outcome.reason or '')}")

    def finish(self, view: RunView) -> None:
        if self._live is not None:
            self._live.__exit__(None, None, None)
            self._live = None
        for line in status_lines(view)[1:]:
            self.console.print(Text.from_markup(line))


__all__ = [
    "LiveProgress",
    "concurrency_line",
    "result_lines",
    "status_lines",
    "summary_table",
    "wins_by_role",
]
