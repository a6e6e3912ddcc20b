"""``bangarena scenario run FILE.json [--moves ID,ID,...]``: play moves from an exact position
and print the pending decision, the events and every seat's view as one JSON object."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from bangarena.engine import EngineError, view_to_dict
from bangarena.engine.scenario import load_scenario

scenario_app = typer.Typer(
    help="Build games from exact positions (docs/scenarios.md).", no_args_is_help=True
)


@scenario_app.command("run")
def run_command(
    file: Path = typer.Argument(
        ..., exists=True, dir_okay=False, readable=True, help="Scenario JSON file."
    ),
    moves: str = typer.Option(
        "", "--moves", help="Comma-separated move ids, each played by the seat to move."
    ),
) -> None:
    """Load a scenario, apply the moves, print the decision, events and views."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        typer.echo(f"error: {file} is not valid JSON: {e}", err=True)
        raise typer.Exit(2) from None
    try:
        game = load_scenario(data)
        for mid in [m.strip() for m in moves.split(",") if m.strip()]:
            if game.over:
                raise EngineError(f"move {mid!r}: the game is already over")
            game.apply(game.to_move, mid)
    except EngineError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None
    d = game.decision
    out = {
        "decision": None
        if d is None
        else {"kind": d.kind, "seat": d.seat, "legal_moves": [m.id for m in d.moves]},
        "events": game.events(None, full=True),
        "result": game.result(),
        "views": {str(s): view_to_dict(game.view(s)) for s in range(game.config.seats)},
    }
    typer.echo(json.dumps(out, ensure_ascii=False, indent=1))


def register(app: typer.Typer) -> None:
    app.add_typer(scenario_app, name="scenario")
