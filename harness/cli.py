"""The ``bangarena`` command. Each command family lives in its own ``cli_*`` module exposing
``register(app)``; this file only assembles them (so the families stay small and separate)."""

from __future__ import annotations

import importlib
import importlib.util

import typer

app = typer.Typer(
    name="bangarena",
    help="BangArena: rules engine, model seats, evaluation suites and leaderboard.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """BangArena: rules engine, model seats, evaluation suites and leaderboard."""


# Command families, in the order `bangarena --help` lists them.
COMMAND_MODULES = (
    "bangarena.harness.cli_simulate",
    "bangarena.harness.cli_play",
    "bangarena.harness.cli_scenario",
    "bangarena.harness.cli_rules",
    "bangarena.harness.cli_eval",
)

for _name in COMMAND_MODULES:
    # A family whose module is not part of this build is simply not offered.
    if importlib.util.find_spec(_name) is not None:
        importlib.import_module(_name).register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
