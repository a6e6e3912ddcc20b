"""``bangarena eval`` (run a suite) and ``bangarena suites list|status`` (what a store holds),
thin over :mod:`bangarena.evals.runner`.

Exit codes of ``eval``: 0 complete; 1 an engine invariant broke; 2 bad input (found before any
match starts: the suite file, an API key, the database, a second runner); 3 infrastructure
failure (a circuit breaker tripped, or matches were void); 4 incomplete (a budget or
``--max-matches`` stopped it); 130 interrupted (Ctrl-C: what finished is stored).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Final

import typer

from .support import fail, one_line

EXIT_INTERRUPTED: Final = 130
EVAL_HELP: Final = (
    "Run an evaluation suite: every planned match not yet stored, at full concurrency and "
    "within its budgets, stored in SQLite or PostgreSQL.\n\n"
    "A re-run (or a run after a crash) plays only what is missing. Exit codes: 0 complete, "
    "1 an engine invariant broke, 2 bad input, 3 infrastructure failure (a circuit breaker "
    "tripped, or matches were void), 4 incomplete (a budget or --max-matches stopped it). "
    "See docs/evals.md."
)
SUITES_HELP: Final = "What a store holds: its suites and how far each one is."
DB_HELP: Final = (
    "Database URL or SQLite path (postgresql+psycopg://USER:PW@HOST/DB); default: "
    "BANGARENA_DB, else <suite name>.db beside the suite file."
)


def _say(message: str) -> None:
    typer.echo(one_line(message), err=True)


def _load(path: str) -> Any:
    from bangarena.evals.suite import SuiteError, load_suite

    try:
        return load_suite(path)
    except SuiteError as exc:
        raise fail(str(exc)) from None


def eval_command(
    suite_file: str = typer.Argument(..., metavar="SUITE.toml", help="The suite file."),
    db: str | None = typer.Option(None, "--db", help=DB_HELP),
    backend: str = typer.Option(
        "local", "--backend", help="Where matches run: local, processes or ray."
    ),
    workers: int | None = typer.Option(
        None, "--workers", help="Worker processes (default: the core count) or Ray CPUs."
    ),
    ray_address: str | None = typer.Option(
        None,
        "--ray-address",
        envvar="RAY_ADDRESS",
        help="A Ray cluster to run on (default: a local one).",
    ),
    max_matches: int | None = typer.Option(
        None, "--max-matches", help="Start at most N matches in this run."
    ),
    dry_run: bool = typer.Option(
        False, "--dry-run", help="Print the plan and its expected decisions, tokens and cost."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead."),
    wait: bool = typer.Option(
        False, "--wait", help="Wait for another runner of the suite instead of refusing."
    ),
) -> None:
    from bangarena.evals.runner import RunInputError, RunOptions, run_suite, store_url_for

    suite = _load(suite_file)
    options = RunOptions(
        db=db, backend=backend, workers=workers, ray_address=ray_address,
        max_matches=max_matches, wait=wait, command=list(sys.argv),
    )  # fmt: skip
    if dry_run:
        try:
            _dry_run(suite, store_url_for(suite, db, None), as_json)
        except RunInputError as exc:
            raise fail(str(exc)) from None
        return
    from rich.console import Console

    from bangarena.evals.progress import LiveProgress, result_lines, summary_table
    from bangarena.evals.runner import RunObserver

    err = Console(stderr=True, highlight=False, width=None if sys.stderr.isatty() else 160)
    observer = RunObserver() if as_json else LiveProgress(err, live=sys.stderr.isatty())
    try:
        result = run_suite(suite, options, observer)
    except RunInputError as exc:
        raise fail(str(exc)) from None
    except KeyboardInterrupt:
        _say("interrupted: the matches that finished are stored; run the suite again to go on")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    if as_json:
        typer.echo(json.dumps(result.to_json()))
    else:
        out = Console(highlight=False, width=None if sys.stdout.isatty() else 132)
        out.print(summary_table(result))
        for line in result_lines(result):
            _say(line)
    raise typer.Exit(result.exit_code)


def _dry_run(suite: Any, url: str, as_json: bool) -> None:
    from bangarena.evals.plan_estimate import estimate_plan
    from bangarena.evals.schedule import plan_suite
    from bangarena.evals.store import StoreError, open_store, redact_url, sqlite_path

    plan = plan_suite(suite)
    done: set[str] = set()
    path = sqlite_path(url)
    if path is None or path.exists():  # a store that does not exist yet is not created
        try:
            store = open_store(url)
        except StoreError as exc:
            raise fail(str(exc)) from None
        try:
            done = store.done_keys(suite.name)
        finally:
            store.close()
    est = estimate_plan(suite, plan, done, redact_url(url))
    if as_json:
        typer.echo(json.dumps(est.to_json()))
        return
    from rich.console import Console
    from rich.table import Table

    data = est.to_json()
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 132)
    cost = data["expected_cost_usd"]
    console.print(
        f"[bold]{suite.name}[/bold]: {data['matches_planned']} matches planned, "
        f"{data['matches_reused']} already stored, {data['matches_to_run']} to run · "
        f"~{data['expected_model_decisions']:,} model decisions · "
        f"~{data['expected_tokens']:,} tokens · "
        + ("cost unknown (a model has no price)" if cost is None else f"~${cost:.4f}")
    )
    table = Table(title="expected, for the matches to run")
    for col in ("participant", "spec", "seats", "decisions", "tokens in", "tokens out", "$"):
        table.add_column(col, justify="left" if col in ("participant", "spec") else "right")
    for p in data["participants"]:
        c = p["expected_cost_usd"]
        table.add_row(
            p["participant"], p["spec"], str(p["seats"]), f"{p['expected_decisions']:,}",
            f"{p['expected_input_tokens']:,}", f"{p['expected_output_tokens']:,}",
            "unknown" if c is None else f"{c:.4f}",
        )  # fmt: skip
    console.print(table)
    if data["budget"]:
        console.print("budget: " + ", ".join(f"{k} {v:g}" for k, v in data["budget"].items()))


def _store_url(db: str | None) -> str:
    from bangarena.evals.store import DB_ENV, StoreError, normalize_url

    value = db or os.environ.get(DB_ENV)
    if not value:
        raise fail(f"no database: give --db URL (or set {DB_ENV})")
    try:
        return normalize_url(value)
    except StoreError as exc:
        raise fail(str(exc)) from None


def open_existing(url: str) -> Any:
    """The store at ``url``, which must exist (a SQLite file is never created by a reader)."""
    from bangarena.evals.store import StoreError, open_store, redact_url, sqlite_path

    path = sqlite_path(url)
    if path is not None and not path.is_file():
        raise fail(f"no database at {redact_url(url)}: no such file")
    try:
        return open_store(url)
    except StoreError as exc:
        raise fail(str(exc)) from None


def _status_dict(status: Any, now: float) -> dict[str, Any]:
    t = status.totals
    return {
        "suite": status.name,
        "hash": status.hash,
        "updated_at": status.updated_at.isoformat(),
        "matches_planned": status.planned,
        "matches_done": t.matches_done,
        "matches_void": t.matches_void,
        "matches_missing": status.missing,
        "complete": status.complete,
        "cost_usd": t.cost_usd,
        "tokens": t.tokens,
        "wall_s": t.wall_s,
        "runs": status.runs,
        "running": None if status.holder is None else status.holder.describe(now),
    }


def _statuses(store: Any, names: list[str]) -> list[dict[str, Any]]:
    import time

    from bangarena.evals.schedule import plan_suite
    from bangarena.evals.suite import SuiteError, parse_suite

    out = []
    now = time.time()
    for name in names:
        plan = None
        try:
            # The stored file (credentials redacted) plans as the original did.
            plan = plan_suite(parse_suite(store.suite_text(name), where=name))
        except SuiteError:
            plan = None
        out.append(_status_dict(store.suite_status(name, plan), now))
    return out


def _print_statuses(rows: list[dict[str, Any]], as_json: bool, title: str) -> None:
    if as_json:
        typer.echo(json.dumps(rows))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    for col in ("suite", "done", "planned", "missing", "void", "cost $", "tokens", "wall",
                "runs", "running"):  # fmt: skip
        table.add_column(col, justify="left" if col in ("suite", "running") else "right")
    for r in rows:
        table.add_row(
            r["suite"], str(r["matches_done"]), _opt(r["matches_planned"]),
            _opt(r["matches_missing"]), str(r["matches_void"]), f"{r['cost_usd']:.4f}",
            f"{r['tokens']:,}", f"{r['wall_s']:.0f}s", str(r["runs"]), r["running"] or "—",
        )  # fmt: skip
    Console(highlight=False, width=None if sys.stdout.isatty() else 160).print(table)


def _opt(value: Any) -> str:
    return "—" if value is None else str(value)


suites_app = typer.Typer(help=SUITES_HELP, no_args_is_help=True)


@suites_app.command("list")
def suites_list(
    db: str | None = typer.Option(None, "--db", help="Database URL or SQLite path (BANGARENA_DB)."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON list instead."),
) -> None:
    """List every suite a store holds, with how far each is."""
    store = open_existing(_store_url(db))
    try:
        rows = _statuses(store, store.suite_names())
        _print_statuses(rows, as_json, f"suites in {store.shown_url}")
    finally:
        store.close()


@suites_app.command("status")
def suites_status(
    suite: str | None = typer.Argument(
        None, metavar="[SUITE]", help="A stored suite's name, or a suite file (default: all)."
    ),
    db: str | None = typer.Option(None, "--db", help=DB_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON list instead."),
) -> None:
    """How far a suite is: planned, done, missing and void matches, cost, runs, and who is
    running it."""
    from bangarena.evals.runner import RunInputError, store_url_for

    name = suite
    if suite is not None and suite.endswith(".toml") and Path(suite).is_file():
        loaded = _load(suite)
        name = loaded.name
        try:
            url = store_url_for(loaded, db, None)
        except RunInputError as exc:
            raise fail(str(exc)) from None
    else:
        url = _store_url(db)
    store = open_existing(url)
    try:
        names = store.suite_names()
        if name is not None and name not in names:
            raise fail(
                f"suite {name!r} is not in {store.shown_url} (it holds: "
                f"{', '.join(names) or 'no suite'})"
            )
        rows = _statuses(store, [name] if name is not None else names)
        _print_statuses(rows, as_json, f"suites in {store.shown_url}")
    finally:
        store.close()


def register(app: typer.Typer) -> None:
    """Add ``eval`` and ``suites`` to ``app``."""
    app.command("eval", help=EVAL_HELP)(eval_command)
    app.add_typer(suites_app, name="suites", help=SUITES_HELP)
