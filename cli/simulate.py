"""``bangarena simulate``: seeded batch games with the invariant checks (stable JSON output)."""

from __future__ import annotations

import functools
import json
import sys

import typer

from .support import fail

MAX_WORKERS = 256
MAX_SEED = 2**64
"""Seeds are ints in ``0 ≤ seed < 2**64`` (the engine's SplitMix64 state)."""

SEATS_HELP = "4..8 or all (round-robin over seat counts)."
MODES_HELP = "classic, partners, double_agent, old_classic or all."


SIMULATE_HELP = (
    "Play N seeded games and print one JSON object with the totals.\n\n"
    "double_agent at 4 seats deals the classic roles (rules.md: the double agent joins from 5 "
    "seats); the command says so on stderr."
)


def simulate_command(
    games: int = typer.Option(100, "--games", min=1, help="Number of games."),
    seed: int = typer.Option(
        0, "--seed", min=0, help="Seed of the first game; game i uses seed+i (0 ≤ seed < 2**64)."
    ),
    seats: str = typer.Option("all", "--seats", help=SEATS_HELP),
    mode: str = typer.Option("all", "--mode", help=MODES_HELP),
    players: str = typer.Option(
        "random",
        "--players",
        help=(
            "Who plays: a bot spec for every seat (random, rule, rule:eps=0.3), or per team, "
            "e.g. law=rule:eps=0.3,outlaws=random,renegade=random (teams: law = sheriff + "
            "deputies, outlaws = outlaws + double agent, renegade; a team left out plays random)."
        ),
    ),
    no_check: bool = typer.Option(
        False, "--no-check", help="Skip the invariant checks (speed runs)."
    ),
    expansions: str = typer.Option(
        "", "--expansions", help="Comma-separated expansions every game has (armed_dangerous)."
    ),
    workers: int = typer.Option(
        1,
        "--workers",
        min=1,
        max=MAX_WORKERS,
        help=(
            "Worker processes (the evaluation runner's pool); the JSON is the same as with one, "
            "apart from the timings and rates."
        ),
    ),
) -> None:
    """Play N seeded games and print one JSON object with the totals (see
    :data:`SIMULATE_HELP`)."""
    # The engine and the bots load here, not at import, so that `bangarena -h` stays fast.
    try:
        from bangarena.harness.simulate import (
            MODE_CHOICES,
            SEAT_CHOICES,
            cells,
            parse_players,
            simulate,
        )
    except ImportError as e:  # BANGARENA_ENGINE=compiled with a missing or stale build
        raise fail(str(e)) from None
    from bangarena.engine.compiled import build_info

    if seats not in SEAT_CHOICES:
        raise typer.BadParameter(
            f"{seats!r}; valid: {', '.join(SEAT_CHOICES)}", param_hint="--seats"
        )
    if mode not in MODE_CHOICES:
        raise typer.BadParameter(f"{mode!r}; valid: {', '.join(MODE_CHOICES)}", param_hint="--mode")
    if seed >= MAX_SEED:
        raise fail(f"--seed {seed}: a seed is an int with 0 ≤ seed < 2**64")
    if seed + games > MAX_SEED:
        raise fail(
            f"--seed {seed} with --games {games}: game seeds run to {seed + games - 1}, "
            f"and a seed is below 2**64"
        )
    try:
        teams = parse_players(players)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--players") from None
    exps = parse_expansions(expansions)
    if mode == "double_agent" and any(c.seats == 4 for c in cells(seats, mode)):
        typer.echo(
            "note: double_agent at 4 seats plays the classic roles (the double agent joins "
            "from 5 seats; rules.md)",
            err=True,
        )
    run = functools.partial(
        simulate, games, seed, seats, mode, check=not no_check, players=teams, expansions=exps
    )
    if workers == 1:
        summary = run()
    else:
        from bangarena.evals.process_pool import process_pool

        with process_pool(workers) as pool:
            summary = run(executor=pool, workers=workers)
    out = summary.to_dict()
    out["engine_build"] = build_info()["build"]
    print(json.dumps(out))
    if summary.violations:
        for v in summary.violations[:10]:
            print(v, file=sys.stderr)
        raise typer.Exit(1)


def parse_expansions(text: str) -> tuple[str, ...]:
    """``--expansions a,b`` as a tuple; an unknown name is a ``--expansions`` error."""
    from bangarena.engine import ConfigError
    from bangarena.engine.config import check_expansions

    names = [x.strip() for x in text.split(",") if x.strip()]
    try:
        return check_expansions(names)
    except ConfigError as e:
        raise typer.BadParameter(str(e), param_hint="--expansions") from None


def register(app: typer.Typer) -> None:
    """Add ``simulate`` to ``app``."""
    app.command("simulate", help=SIMULATE_HELP)(simulate_command)
