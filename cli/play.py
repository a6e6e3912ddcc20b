"""``bangarena play``: one full match with bots, scripted seats, models and people, live progress,
a summary table and the match record. Every seat spec, key, option and the ``--out`` path is
checked before the match starts; a bad one is a clear error and exit code 2.

Exit codes (the same as ``bangarena eval``'s): 0 the match was played and measured; 2 bad input;
3 infrastructure failure — a seat's provider refused the credentials (the match stops at once,
the record is written with status ``aborted``), or a seat was autopiloted for transport or auth
errors on more than 10 % of its decisions; 130 interrupted (Ctrl-C: the record so far is
written with status ``aborted``).

What the terminal shows while the match runs comes only from the viewer's view: the human
seat's when a person plays, else the spectator's (``MoveNotice`` and ``SeatView``, never the
game).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import sys
import tempfile
from pathlib import Path

import typer
from rich.console import Console
from rich.live import Live
from rich.markup import escape
from rich.table import Table

from bangarena.engine import DEFAULT_MAX_ROUNDS, SeatView
from bangarena.engine.roles import MAX_SEATS, MIN_SEATS, MODES
from bangarena.engine.texts import ROLES, TEAMS
from bangarena.harness.match import PEOPLE_TIMES_S, Match, MatchSettings, MoveNotice, viewer_of
from bangarena.harness.model_spec import ModelOptions, ModelSpecError, load_model_options
from bangarena.harness.provenance import redact_credentials
from bangarena.harness.records import (
    RULE_FOLLOWING_KINDS,
    MatchRecord,
    infrastructure_failures,
)
from bangarena.harness.seats import Seat, build_seat, plan_seat
from bangarena.harness.seats.factory import SeatPlan
from bangarena.prompts.catalog import LANGS, catalog
from bangarena.prompts.events import event_line

from .simulate import parse_expansions
from .support import EXIT_USAGE, one_line

EXIT_INFRASTRUCTURE = 3
EXIT_INTERRUPTED = 130
DOUBLE_AGENT_MIN_SEATS = 5
"""rules.md §2: the double agent joins from 5 seats; a 4-seat double_agent table plays classic."""


def _say(message: str) -> None:
    """One line on stderr (never wrapped, whatever the terminal's width)."""
    typer.echo(one_line(message), err=True)


def _fail(message: str, code: int = EXIT_USAGE) -> typer.Exit:
    _say(f"error: {message}")
    return typer.Exit(code)


def parse_seat_options(items: list[str], seats: int) -> dict[int, str]:
    """``["0=openai:gpt-4.1-mini", "3=human"]`` → {0: ..., 3: ...}; raises ValueError."""
    out: dict[int, str] = {}
    for item in items:
        index, sep, spec = item.partition("=")
        if not sep or not index.strip().isdigit() or not spec.strip():
            raise ValueError(f"--seat {item!r}: expected N=SPEC, e.g. --seat 0=openai:gpt-4.1-mini")
        i = int(index)
        if not 0 <= i < seats:
            raise ValueError(
                f"--seat {item!r}: seat {i} is not at a {seats}-seat table (0–{seats - 1})"
            )
        if i in out:
            raise ValueError(f"--seat {i} is given twice")
        out[i] = spec.strip()
    return out


def plan_table(
    seats: int, seat_items: list[str], fill: str, models: dict[str, ModelOptions]
) -> list[SeatPlan]:
    """Every chair's checked plan; raises ValueError or ModelSpecError."""
    given = parse_seat_options(seat_items, seats)
    plans = [plan_seat(given.get(i, fill), models) for i in range(seats)]
    if sum(p.kind == "human" for p in plans) > 1:
        raise ValueError("at most one human seat per terminal")
    return plans


def check_out_path(out: Path) -> None:
    """Raise ValueError unless the record can be written to ``out``: not a directory, its
    parent folders creatable (they are created now) and writable."""
    if out.is_dir():
        raise ValueError(f"--out {out}: is a directory; name a file, e.g. {out / 'match.json'}")
    if out.exists() and not out.is_file():
        raise ValueError(f"--out {out}: not a regular file")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ValueError(f"--out {out}: cannot create {out.parent}: {e.strerror or e}") from None
    if out.exists() and not os.access(out, os.W_OK):
        raise ValueError(f"--out {out}: the file is not writable")
    try:  # what really matters: a file can be created beside it
        with tempfile.NamedTemporaryFile(dir=out.parent, prefix=".bangarena-", delete=True):
            pass
    except OSError as e:
        raise ValueError(f"--out {out}: cannot write in {out.parent}: {e.strerror or e}") from None


def write_record(record: MatchRecord, out: Path) -> int:
    """Write ``record`` to ``out`` atomically (a temporary file beside it, then a rename), so an
    interrupted write never leaves half a record; returns the size in bytes."""
    data = record.model_dump_json().encode("utf-8")
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp's 0600 would hide the record from others
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, out)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return len(data)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def move_text(notice: MoveNotice, view: SeatView, lang: str) -> str:
    """The move as the viewer may know it: its id when the viewer sees it, else what the
    viewer's events say about it (e.g. "#3 put a card back on the deck")."""
    if notice.move is not None:
        return notice.move
    cat = catalog(lang)
    for e in view.events:
        if e.get("kind") != "move" and e.get("seat") == notice.seat:
            line = event_line(e, cat)
            if line:
                return line
    return f"{notice.move_kind} (hidden)"


class Progress:
    """Live progress, rendered only from the viewer's view: one line about the match, redrawn on
    every move (on a terminal); else a line per round and per autopilot move (every move while
    an eliminated person watches; nothing once they left)."""

    def __init__(self, console: Console, seats: list[Seat], live: bool, lang: str = "en") -> None:
        self.console, self.seats, self.live, self.lang = console, seats, live, lang
        self.autopilot = [0] * len(seats)
        self.round = 0
        self.viewer = viewer_of(seats)
        self._live: Live | None = None

    def __enter__(self) -> Progress:
        if self.live:
            self._live = Live(console=self.console, refresh_per_second=8, transient=True)
            self._live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._live is not None:
            self._live.__exit__(None, None, None)

    def line(self, notice: MoveNotice, view: SeatView) -> str:
        """The progress line of one decision (rich markup)."""
        how = (
            ""
            if notice.how == "chosen"
            else f" [yellow](autopilot: {notice.autopilot_reason})[/yellow]"
        )
        name = escape(redact_credentials(self.seats[notice.seat].display_name))
        text = escape(move_text(notice, view, self.lang))
        return (
            f"round {view.round} · decision {notice.index + 1} · #{notice.seat} {name}: {text}{how}"
        )

    def on_move(self, notice: MoveNotice, view: SeatView) -> None:
        if notice.how == "autopilot":
            self.autopilot[notice.seat] += 1
        human = self.seats[self.viewer] if self.viewer is not None else None
        if human is not None and not getattr(human, "watching", True):
            return  # the person left after their elimination
        line = self.line(notice, view)
        if self._live is not None:
            alive = sum(p.alive for p in view.players)
            auto = sum(self.autopilot)
            self._live.update(f"{line}\n[dim]{alive} alive · autopilot moves {auto}[/dim]")
            return
        out = view.seat is not None and not view.players[view.seat].alive
        if out or notice.how == "autopilot" or view.round != self.round:
            # Without a live display, print only what matters: rounds and autopilot moves.
            self.round = view.round
            self.console.print(line)


def summary_table(rec: MatchRecord, lang: str) -> Table:
    """Per seat: name, controller, role, decisions, first-try valid rate, retries, autopilot
    moves, tokens, cost and latency."""
    result = rec.result or {}
    team = result.get("winning_team")
    if rec.status == "aborted" or not result:
        title = f"Aborted after {len(rec.moves)} decisions · {escape(rec.status_detail or '')}"
    elif team in TEAMS:
        winners = ", ".join(map(str, result.get("winners", [])))
        title = f"Winner: {TEAMS[team].get(lang)} (seats {winners})"
        title += f" · {result.get('rounds')} rounds · {result.get('reason')}"
    else:
        title = f"Result: {team} · {result.get('rounds')} rounds · {result.get('reason')}"
    table = Table(title=title)
    for col in ("#", "player", "role", "dec", "1st ok", "retry", "auto", "tokens in/out/cached",
                "$", "lat"):  # fmt: skip
        table.add_column(col, justify="left" if col in ("player", "role") else "right")
    roles = result.get("roles") or []
    for s, t in zip(rec.seats, rec.totals.seats, strict=True):
        won = s.seat in result.get("winners", [])
        rate = "—" if t.first_try_valid_rate is None else f"{t.first_try_valid_rate:.0%}"
        u = t.usage
        tokens = f"{u.input_tokens}/{u.output_tokens}/{u.cached_tokens}" if t.attempts else "—"
        cost = "—" if t.cost_usd is None else f"{t.cost_usd:.4f}"
        latency = "—" if t.mean_latency_s is None else f"{t.mean_latency_s:.2f}s"
        auto = f"{t.autopilot_moves}" + (
            f" ({', '.join(f'{k} {v}' for k, v in t.autopilot.items())})" if t.autopilot else ""
        )
        role = ROLES[roles[s.seat]].name.get(lang) if s.seat < len(roles) else "—"
        player = (
            "★ " if won else ""
        ) + f"{escape(s.display_name)} [dim]{s.controller}/{s.kind}[/dim]"
        table.add_row(
            str(s.seat), player, role, str(t.decisions), rate, str(t.retries), auto, tokens,
            cost, latency,
        )  # fmt: skip
    return table


def kind_lines(rec: MatchRecord) -> list[str]:
    """One line per seat kind whose answers are rated (models, scripted seats): the kind's
    own first-try valid rate, never mixed with bots."""
    out = []
    for kind, t in rec.totals.kinds.items():
        if kind not in RULE_FOLLOWING_KINDS or t.answered is None:
            continue
        rate = "—" if t.first_try_valid_rate is None else f"{t.first_try_valid_rate:.0%}"
        out.append(
            f"{kind} seats: first-try valid {rate} of {t.answered} answered decisions · "
            f"{t.retries} retries · {t.autopilot_moves} autopilot moves of {t.decisions}"
        )
    return out


def _check_times(time_per_move: float, model_time: float | None, backoff_cap: float) -> None:
    for name, value in (("--time-per-move", time_per_move), ("--model-time-per-move", model_time)):
        if value is not None and not (math.isfinite(value) and value > 0):
            raise ValueError(f"{name} {value:g}: times per move must be positive and finite")
    if not (math.isfinite(backoff_cap) and backoff_cap >= 0):
        raise ValueError(f"--backoff-cap {backoff_cap:g}: must be a finite number of seconds ≥ 0")


def play_command(
    seats: int = typer.Option(5, "--seats", help=f"Seats at the table ({MIN_SEATS}–{MAX_SEATS})."),
    mode: str = typer.Option("classic", "--mode", help=f"Roles mode: {', '.join(MODES)}."),
    seed: int = typer.Option(0, "--seed", help="Seed of the deal (and of the bots)."),
    seat: list[str] = typer.Option(
        [],
        "--seat",
        # "\\[" keeps rich markup from eating the optional part
        help="N=SPEC for seat N: rule, random, human, scripted\\[:rule|random], "
        "PROVIDER:MODEL\\[@BASE_URL] or a table of the models file (repeatable).",
    ),  # fmt: skip
    fill: str = typer.Option("rule", "--fill", help="The spec of every seat not given by --seat."),
    time_per_move: float = typer.Option(
        60, "--time-per-move", help="Seconds per decision (people: 15, 30, 60 or 90)."
    ),
    model_time_per_move: float | None = typer.Option(
        None,
        "--model-time-per-move",
        help="Seconds per decision for models (default: the table's).",
    ),
    backoff_cap: float = typer.Option(
        60, "--backoff-cap", help="Rate-limit backoff not charged to a model's clock, per decision."
    ),
    models_file: Path | None = typer.Option(
        None, "--models-file", help="TOML file of per-model options."
    ),
    lang: str = typer.Option("en", "--lang", help=f"Prompt language: {', '.join(LANGS)}."),
    out: Path | None = typer.Option(None, "--out", help="Write the match record (JSON) here."),
    no_transcripts: bool = typer.Option(
        False, "--no-transcripts", help="Leave prompts and replies out of the record."
    ),
    no_notes: bool = typer.Option(False, "--no-notes", help="Models keep no private notes."),
    constrain_ids: bool = typer.Option(
        False, "--constrain-ids", help="Send the answer schema with the legal ids as an enum."
    ),
    quiet: bool = typer.Option(False, "--quiet", help="No live progress."),
    expansions: str = typer.Option(
        "", "--expansions", help="Comma-separated expansions the game has (armed_dangerous)."
    ),
    max_rounds: int = typer.Option(
        DEFAULT_MAX_ROUNDS, "--max-rounds", help="Round cap: a game still on after it is a draw."
    ),
) -> None:
    """Play one full match and print its summary (no API key needed with rule, random, scripted
    and human seats). Exit codes: 0 ok, 2 bad input, 3 infrastructure failure (a provider
    refused the key, or a seat lost more than 10 % of its decisions to provider errors), 130
    interrupted; the record is written in every case but bad input."""
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 132)
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise _fail(f"--seats {seats}: a table has {MIN_SEATS} to {MAX_SEATS} seats")
    if mode not in MODES:
        raise _fail(f"--mode {mode!r}: valid modes are {', '.join(MODES)}")
    if lang.split("-")[0].lower() not in LANGS:
        raise _fail(f"--lang {lang!r}: prompts exist in {', '.join(LANGS)}")
    if max_rounds < 1:
        raise _fail(f"--max-rounds {max_rounds}: a game has at least 1 round")
    exps = parse_expansions(expansions)
    try:
        _check_times(time_per_move, model_time_per_move, backoff_cap)
        models = load_model_options(models_file) if models_file is not None else {}
        plans = plan_table(seats, seat, fill, models)
    except (ValueError, ModelSpecError) as e:
        raise _fail(str(e)) from None
    has_human = any(p.kind == "human" for p in plans)
    if has_human and time_per_move not in PEOPLE_TIMES_S:
        raise _fail(
            f"--time-per-move {time_per_move:g}: a table with people uses "
            f"{', '.join(map(str, PEOPLE_TIMES_S))} seconds"
        )
    built: list[Seat] = []
    try:
        for i, plan in enumerate(plans):
            built.append(
                build_seat(
                    plan,
                    seat=i,
                    seed=seed,
                    lang=lang,
                    notes=not no_notes,
                    constrain_ids=constrain_ids,
                    transcripts=not no_transcripts,
                    console=console,
                )  # fmt: skip
            )
    except ModelSpecError as e:
        raise _fail(str(e)) from None
    if out is not None:
        try:
            check_out_path(out)
        except ValueError as e:
            raise _fail(str(e)) from None
    if mode == "double_agent" and seats < DOUBLE_AGENT_MIN_SEATS:
        _say(
            f"note: double_agent starts at {DOUBLE_AGENT_MIN_SEATS} seats; this {seats}-seat "
            "table plays classic (rules.md §2)"
        )
    settings = MatchSettings(
        seats=seats, mode=mode, seed=seed, max_rounds=max_rounds, lang=lang,
        time_per_move_s=time_per_move, model_time_per_move_s=model_time_per_move,
        backoff_cap_s=backoff_cap, transcripts=not no_transcripts, expansions=exps,
    )  # fmt: skip
    names = ", ".join(
        f"#{i} {escape(redact_credentials(s.display_name))} ({s.kind})" for i, s in enumerate(built)
    )
    table = f"{seats} seats · {mode}" + "".join(f" · {e}" for e in exps)
    console.print(f"[bold]BangArena[/bold] · {table} · seed {seed} · {names}")
    interrupted = False
    with Progress(
        console, built, live=not quiet and not has_human and sys.stdout.isatty(), lang=lang
    ) as prog:
        match = Match(settings, built, on_move=None if quiet else prog.on_move, command=sys.argv)
        try:
            record = asyncio.run(match.run())
        except KeyboardInterrupt:
            interrupted = True
            match.abort("interrupted (Ctrl-C)", replace=True)
            record = match.record()
    size = None
    if out is not None:  # first: the record matters more than the summary
        try:
            size = write_record(record, out)
        except OSError as e:
            raise _fail(f"--out {out}: the record could not be written: {e}") from None
    console.print(summary_table(record, lang))
    for line in kind_lines(record):
        console.print(line)
    if size is not None:
        console.print(f"record: {out} ({size:,} bytes, {record.status})")
    if interrupted:
        _say("interrupted: the match was stopped (Ctrl-C); the record so far is kept")
        raise typer.Exit(EXIT_INTERRUPTED)
    if record.status == "aborted":
        raise _fail(f"the match was stopped: {record.status_detail}", EXIT_INFRASTRUCTURE)
    failures = infrastructure_failures(record)
    if failures:  # one line per seat: the match measured the connection, not the model
        for line in failures:
            _say(f"error: infrastructure failure: {line}")
        raise typer.Exit(EXIT_INFRASTRUCTURE)


def register(app: typer.Typer) -> None:
    app.command("play")(play_command)
