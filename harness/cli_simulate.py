"""``bangarena simulate``: seeded batch games with the invariant checks (stable JSON output)."""

from __future__ import annotations

import json
import sys

import typer

from .simulate import MODE_CHOICES, SEAT_CHOICES, parse_players, simulate


def simulate_command(
    games: int = typer.Option(100, "--games", min=1, help="Number of games."),
    seed: int = typer.Option(0, "--seed", help="Seed of the first game; game i uses seed+i."),
    seats: str = typer.Option("all", "--seats", help="4..8 or all (round-robin over seat counts)."),
    mode: str = typer.Option(
        "all", "--mode", help="classic, partners, double_agent, old_classic or all."
    ),
    players: str = typer.Option(
        "random",
        "--players",
        help=(
            "Who plays: random or rule (every seat), or per team, e.g. "
            "law=rule,outlaws=random,renegade=random (teams: law = sheriff + deputies, "
            "outlaws = outlaws + double agent, renegade; a team left out plays random)."
        ),
    ),
    no_check: bool = typer.Option(
        False, "--no-check", help="Skip the invariant checks (speed runs)."
    ),
) -> None:
    """Play N seeded games and print one JSON object with the totals."""
    if seats not in SEAT_CHOICES:
        raise typer.BadParameter(
            f"{seats!r}; valid: {', '.join(SEAT_CHOICES)}", param_hint="--seats"
        )
    if mode not in MODE_CHOICES:
        raise typer.BadParameter(f"{mode!r}; valid: {', '.join(MODE_CHOICES)}", param_hint="--mode")
    try:
        teams = parse_players(players)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--players") from None
    summary = simulate(games, seed, seats, mode, check=not no_check, players=teams)
    print(json.dumps(summary.to_dict()))
    if summary.violations:
        for v in summary.violations[:10]:
            print(v, file=sys.stderr)
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate_command)
