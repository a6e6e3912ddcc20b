"""``bangarena play``: one full match with bots, scripted seats, models and people, live progress,
a summary table and the match record. Every seat spec, key and option is checked before the
match starts; a bad one is a clear error and exit code 2."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.live import Live
from rich.markup import escape
from rich.table import Table

from bangarena.engine import Game
from bangarena.engine.roles import MAX_SEATS, MIN_SEATS, MODES
from bangarena.engine.texts import ROLES, TEAMS
from bangarena.prompts.catalog import LANGS

from .match import PEOPLE_TIMES_S, MatchSettings, run_match
from .model_spec import ModelOptions, ModelSpecError, load_model_options
from .records import MatchRecord, MoveRecord
from .seats import Seat, build_seat, plan_seat
from .seats.factory import SeatPlan

EXIT_USAGE = 2


def _fail(message: str) -> typer.Exit:
    Console(stderr=True, highlight=False).print(f"[bold red]error:[/bold red] {escape(message)}")
    return typer.Exit(EXIT_USAGE)


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


class Progress:
    """Live progress: one line about the match, redrawn on every move (on a terminal); else a
    line per round and per autopilot move."""

    def __init__(self, console: Console, seats: list[Seat], live: bool) -> None:
        self.console, self.seats, self.live = console, seats, live
        self.autopilot = [0] * len(seats)
        self.round = 0
        self._live: Live | None = None

    def __enter__(self) -> Progress:
        if self.live:
            self._live = Live(console=self.console, refresh_per_second=8, transient=True)
            self._live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._live is not None:
            self._live.__exit__(None, None, None)

    def on_move(self, rec: MoveRecord, game: Game) -> None:
        if rec.how == "autopilot":
            self.autopilot[rec.seat] += 1
        state = game.state
        how = (
            "" if rec.how == "chosen" else f" [yellow](autopilot: {rec.autopilot_reason})[/yellow]"
        )
        line = (
            f"round {state.round} · decision {rec.index + 1} · "
            f"#{rec.seat} {escape(self.seats[rec.seat].display_name)}: {rec.move}{how}"
        )
        if self._live is not None:
            alive = sum(p.alive for p in state.players)
            auto = sum(self.autopilot)
            self._live.update(f"{line}\n[dim]{alive} alive · autopilot moves {auto}[/dim]")
        elif rec.how == "autopilot" or state.round != self.round:
            # Without a live display, print only what matters: rounds and autopilot moves.
            self.round = state.round
            self.console.print(line)


def summary_table(rec: MatchRecord, lang: str) -> Table:
    """Per seat: name, controller, role, decisions, first-try valid rate, retries, autopilot
    moves, tokens, cost and latency."""
    result = rec.result or {}
    team = result.get("winning_team")
    title = (
        f"Winner: {TEAMS[team].get(lang)} (seats {', '.join(map(str, result.get('winners', [])))})"
        if team in TEAMS
        else f"Result: {team}"
    )
    table = Table(title=f"{title} · {result.get('rounds')} rounds · {result.get('reason')}")
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
        role = ROLES[roles[s.seat]].name.get(lang) if s.seat < len(roles) else "?"
        player = (
            "★ " if won else ""
        ) + f"{escape(s.display_name)} [dim]{s.controller}/{s.kind}[/dim]"
        table.add_row(
            str(s.seat), player, role, str(t.decisions), rate, str(t.retries), auto, tokens,
            cost, latency,
        )  # fmt: skip
    return table


def play_command(
    seats: int = typer.Option(5, "--seats", help=f"Seats at the table ({MIN_SEATS}–{MAX_SEATS})."),
    mode: str = typer.Option("classic", "--mode", help=f"Roles mode: {', '.join(MODES)}."),
    seed: int = typer.Option(0, "--seed", help="Seed of the deal (and of the bots)."),
    seat: list[str] = typer.Option(
        [],
        "--seat",
        help="N=SPEC for seat N: rule, random, human, scripted[:rule|random], "
        "PROVIDER:MODEL[@BASE_URL] or a table of the models file (repeatable).",
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
) -> None:
    """Play one full match and print its summary (no API key needed with rule, random, scripted
    and human seats)."""
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 132)
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise _fail(f"--seats {seats}: a table has {MIN_SEATS} to {MAX_SEATS} seats")
    if mode not in MODES:
        raise _fail(f"--mode {mode!r}: valid modes are {', '.join(MODES)}")
    if lang.split("-")[0].lower() not in LANGS:
        raise _fail(f"--lang {lang!r}: prompts exist in {', '.join(LANGS)}")
    if time_per_move <= 0 or (model_time_per_move is not None and model_time_per_move <= 0):
        raise _fail("times per move must be positive")
    try:
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
    settings = MatchSettings(
        seats=seats, mode=mode, seed=seed, lang=lang, time_per_move_s=time_per_move,
        model_time_per_move_s=model_time_per_move, backoff_cap_s=backoff_cap,
        transcripts=not no_transcripts,
    )  # fmt: skip
    names = ", ".join(f"#{i} {escape(s.display_name)} ({s.kind})" for i, s in enumerate(built))
    console.print(f"[bold]BangArena[/bold] · {seats} seats · {mode} · seed {seed} · {names}")
    with Progress(console, built, live=not quiet and not has_human and sys.stdout.isatty()) as prog:
        on_move = None if quiet else prog.on_move
        record = asyncio.run(run_match(settings, built, on_move=on_move))
    console.print(summary_table(record, lang))
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(record.model_dump_json(), encoding="utf-8")
        console.print(f"record: {out} ({out.stat().st_size:,} bytes)")


def register(app: typer.Typer) -> None:
    app.command("play")(play_command)
