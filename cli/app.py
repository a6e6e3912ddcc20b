"""The ``bangarena`` command. Each command family lives in its own ``cli_*`` module exposing
``register(app)``; this file only assembles them (so the families stay small and separate).

Start-up is kept short: the families are listed in :data:`FAMILIES` with their one-line summary,
and a family's module is imported only when one of its commands runs or shows its own help, so
``bangarena --help`` imports typer and nothing of the engine, the schemas or the SDKs. Errors are
one line on stderr (``error: …``) with exit code 2, usage errors included; ``-h`` is ``--help``.
"""

from __future__ import annotations

import difflib
import errno
import importlib
import importlib.util
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup

from .support import EXIT_USAGE, one_line

CONTEXT_SETTINGS: Final[dict[str, Any]] = {"help_option_names": ["-h", "--help"]}
"""The root's settings; click hands ``help_option_names`` down to every subcommand."""


@dataclass(frozen=True)
class Family:
    """A command family: its command (or group) name, its module, and its line in
    ``bangarena --help`` (the opening sentences of the command's own help; a test checks it)."""

    name: str
    module: str
    summary: str


# Command families, in the order `bangarena --help` lists them.
FAMILIES: Final[tuple[Family, ...]] = (
    Family(
        "simulate",
        "bangarena.cli.simulate",
        "Play N seeded games and print one JSON object with the totals.",
    ),
    Family(
        "play",
        "bangarena.cli.play",
        "Play one full match and print its summary (no API key needed with rule, random, "
        "scripted and human seats).",
    ),
    Family(
        "scenario",
        "bangarena.cli.scenario",
        "Build games from exact positions (docs/scenarios.md).",
    ),
    Family(
        "rules",
        "bangarena.cli.rules",
        "Machine-readable rules: rules.json, JSON Schemas, rules for AI.",
    ),
    Family(
        "eval",
        "bangarena.cli.eval",
        "Run an evaluation suite: every planned match not yet stored, at full concurrency and "
        "within its budgets, stored in SQLite or PostgreSQL.",
    ),
    Family(
        "suites",
        "bangarena.cli.eval",
        "What a store holds: its suites and how far each one is.",
    ),
    Family(
        "export",
        "bangarena.cli.export",
        "Export a store's matches, decisions or trajectories as JSON Lines or Parquet.",
    ),
    Family(
        "leaderboard",
        "bangarena.cli.leaderboard",
        "Build the leaderboard's static site from a store, or print the board in the terminal.",
    ),
    Family(
        "engine",
        "bangarena.cli.engine_build",
        "The engine's optional compiled build (Cython): compile it, or say which one runs.",
    ),
    Family(
        "serve",
        "bangarena.cli.serve",
        "Serve the seat service: remote agents and people sit at tables over HTTP (API v1; "
        "OpenAPI at /docs, the guide at /developers).",
    ),
)


def _click_class(name: str) -> type[Exception]:
    """A class of the click that typer runs on (its own copy from typer 0.26 on, the click
    package before), found from typer's public BadParameter."""
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == name)


ClickException: Final = _click_class("ClickException")
UsageError: Final = _click_class("UsageError")


def available(family: Family) -> bool:
    """Whether the family's module is part of this build (a missing one is not offered)."""
    return importlib.util.find_spec(family.module) is not None


def load_family(family: Family) -> Any:
    """The click command (or group) the family's module registers under its name."""
    sub = typer.Typer()
    importlib.import_module(family.module).register(sub)
    command = typer.main.get_group(sub).commands.get(family.name)
    if command is None:
        raise RuntimeError(f"{family.module} registers no command {family.name!r}")
    return command


class LazyGroup(TyperGroup):
    """The root group: families load on first use; the command list in the root's help is
    written from their summaries; every error is reported on one line."""

    _summaries_only = False

    def list_commands(self, ctx: Any) -> list[str]:
        names = list(super().list_commands(ctx))
        return names + [f.name for f in FAMILIES if f.name not in names and available(f)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        family = next((f for f in FAMILIES if f.name == cmd_name), None)
        if family is None or not available(family):
            return None
        if self._summaries_only:
            return TyperCommand(name=family.name, help=family.summary)
        command = load_family(family)
        self.commands[family.name] = command
        return command

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._summaries_only = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._summaries_only = False

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        try:
            return super().resolve_command(ctx, args)
        except UsageError as e:
            # typer suggests only among loaded commands; suggest among every family.
            if args and "Did you mean" not in e.message:
                close = difflib.get_close_matches(args[0], self.list_commands(ctx))
                if close:
                    e.message = (
                        f"{e.message.rstrip('.')}. Did you mean {', '.join(map(repr, close))}?"
                    )
            raise

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except ClickException as e:
            sys.exit(report_click_error(e))
        except typer.Abort:
            typer.echo("aborted", err=True)
            sys.exit(1)
        except ImportError as e:
            # BANGARENA_ENGINE=compiled with a missing or stale build: one line that says how to
            # rebuild (matched by name: importing the engine here would slow every start-up).
            if type(e).__name__ != "CompiledBuildError":
                raise
            typer.echo(f"error: {one_line(str(e))}", err=True)
            sys.exit(EXIT_USAGE)
        except OSError as e:
            # What a command did not expect of the system (a full disk, a closed stream):
            # still one line, not a traceback.
            if e.errno == errno.EPIPE:
                sys.exit(1)
            where = f": {e.filename}" if e.filename is not None else ""
            typer.echo(f"error: {one_line(f'{e.strerror or e}{where}')}", err=True)
            sys.exit(EXIT_USAGE)
        sys.exit(code if isinstance(code, int) else 0)


def report_click_error(e: Any) -> int:
    """Print a click error as one line (``error: <message> (see '<command> -h')``); the help a
    bare group prints instead of an error is shown as typer shows it. Returns the exit code."""
    if type(e).__name__ == "NoArgsIsHelpError":
        if not getattr(typer.core, "HAS_RICH", False):
            e.show()  # with rich, the help was printed when the error was made
        return int(e.exit_code)
    ctx = getattr(e, "ctx", None)
    hint = f" (see '{ctx.command_path} -h')" if ctx is not None else ""
    typer.echo(f"error: {one_line(e.format_message())}{hint}", err=True)
    return int(e.exit_code)


def package_version() -> str:
    """The installed distribution's version (``unknown`` when run from an uninstalled tree)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("bangarena")
    except PackageNotFoundError:
        return "unknown"


def version_line() -> str:
    """``bangarena <version> (rules <RULES_VERSION>, engine <ENGINE_VERSION>)``."""
    from bangarena.engine.version import ENGINE_VERSION, RULES_VERSION

    return f"bangarena {package_version()} (rules {RULES_VERSION}, engine {ENGINE_VERSION})"


def _print_version(value: bool) -> None:
    if value:
        typer.echo(version_line())
        raise typer.Exit()


app = typer.Typer(
    name="bangarena",
    help="BangArena: rules engine, model seats, evaluation suites and leaderboard.",
    cls=LazyGroup,
    context_settings=CONTEXT_SETTINGS,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root(
    version: bool = typer.Option(
        False,
        "--version",
        is_eager=True,
        callback=_print_version,
        help="Print the version with the rules and engine versions, and exit.",
    ),
) -> None:
    """BangArena: rules engine, model seats, evaluation suites and leaderboard."""


def main() -> None:
    """Run the command line (the ``bangarena`` entry point is :data:`app`)."""
    app()


if __name__ == "__main__":
    main()
