"""``bangarena scenario run FILE.json [--moves ID,ID,...]``: play moves from an exact position
and print the pending decision (every field), the full-truth events, each seat's own events and
every seat's view as one JSON object."""

from __future__ import annotations

import json

import typer

from .support import fail, read_json, shown

scenario_app = typer.Typer(
    help="Build games from exact positions (docs/scenarios.md).", no_args_is_help=True
)


@scenario_app.command("run")
def run_command(
    file: str = typer.Argument(..., metavar="FILE", help="Scenario JSON file (- for stdin)."),
    moves: str = typer.Option(
        "", "--moves", help="Comma-separated move ids, each played by the seat to move."
    ),
    expansions: str = typer.Option(
        "",
        "--expansions",
        help="Comma-separated expansions (armed_dangerous) added to the scenario's own.",
    ),
) -> None:
    """Load a scenario, apply the moves, print the decision, events and views."""
    # The engine loads here, not at import, so that `bangarena -h` stays fast.
    from bangarena.engine import EngineError, view_to_dict
    from bangarena.engine.scenario import load_scenario

    data = read_json(file, "scenario file")
    label = "<stdin>" if file == "-" else file
    extra = [x.strip() for x in expansions.split(",") if x.strip()]
    if extra and isinstance(data, dict):
        have = data.get("expansions", [])
        if isinstance(have, list):
            data["expansions"] = have + [e for e in extra if e not in have]
    try:
        game = load_scenario(data)
    except EngineError as e:  # ScenarioError's message starts with where in the scenario
        raise fail(f"scenario {label}: {e}") from None
    except RecursionError:
        raise fail(f"scenario {label}: nested too deeply") from None
    for n, mid in enumerate([m.strip() for m in moves.split(",") if m.strip()], 1):
        if game.over:
            raise fail(f"--moves, move {n} {shown(mid)}: the game is already over")
        try:
            game.apply(game.to_move, mid)
        except EngineError as e:  # the engine's message names the move
            raise fail(f"--moves, move {n}: {e}") from None
    d = game.decision
    seats = range(game.config.seats)
    out = {
        # Every field of the pending decision: its public context (source, needed, card) too.
        "decision": None
        if d is None
        else {
            "kind": d.kind,
            "seat": d.seat,
            "source": d.source,
            "needed": d.needed,
            "card": d.card,
            "legal_moves": [m.id for m in d.moves],
        },
        # The whole truth (every private event in full), labelled apart from what each seat saw.
        "full_truth_events": game.omniscient_events(),
        "seat_events": {str(s): game.events(s) for s in seats},
        "result": game.result(),
        "views": {str(s): view_to_dict(game.view(s)) for s in seats},
    }
    typer.echo(json.dumps(out, ensure_ascii=False, indent=1))


def register(app: typer.Typer) -> None:
    """Add the ``scenario`` group to ``app``."""
    app.add_typer(scenario_app, name="scenario")
