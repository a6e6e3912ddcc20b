"""``bangarena leaderboard build`` (the static site) and ``bangarena leaderboard show`` (the
board in the terminal), thin over :mod:`bangarena.leaderboard.site` and
:mod:`bangarena.leaderboard.board`.

What the store holds is never an error: an empty store, one participant or matches of several
rules versions build a site that says so. What the command was asked for and cannot give — a
suite or a match key the store does not hold — is one ``error:`` line and exit 2, after the
site was still built with what there is.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Final

import typer

from .support import EXIT_USAGE, fail, one_line

LEADERBOARD_HELP: Final = (
    "Build the leaderboard's static site from a store, or print the board in the terminal.\n\n"
    "Ratings come only from the stored matches (void ones left out), fitted once over all of "
    "them with bootstrap intervals over deals; matches of different rules versions are rated "
    "apart. See docs/leaderboard.md."
)
BUILD_HELP: Final = (
    "Write the static site: the board, plots, a page per participant, head to head, the "
    "methodology, leaderboard.json and replay pages.\n\n"
    "The site works from the file system and any static host (no CDN, no network): open "
    "OUT/index.html. Exit codes: 0 built; 2 bad input (the site is still built with what "
    "there is when the store could be read)."
)
SHOW_HELP: Final = "Print the board in the terminal."
DB_HELP: Final = "Database URL or SQLite path (default: BANGARENA_DB)."


def _say(message: str) -> None:
    typer.echo(one_line(message), err=True)


def _check_counts(replays: int, resamples: int) -> None:
    if replays < 0:
        raise fail(f"--replays {replays}: give 0 or more")
    if resamples < 1:
        raise fail(f"--resamples {resamples}: give 1 or more")


def build_command(
    db: str | None = typer.Option(None, "--db", help=DB_HELP),
    suite: str | None = typer.Option(None, "--suite", help="Only this suite (default: all)."),
    replays: int = typer.Option(
        200, "--replays", help="Replay pages for this many of the most recent matches."
    ),
    match: list[str] = typer.Option(
        [], "--match", help="Also a replay of this match (its key, or a prefix); repeatable."
    ),
    out: Path = typer.Option(..., "--out", help="The site's folder (made if missing)."),
    resamples: int = typer.Option(1000, "--resamples", help="Bootstrap resamples."),
    seed: int = typer.Option(0, "--seed", help="Seed of the bootstrap and split halves."),
    workers: int | None = typer.Option(
        None, "--workers", help="Processes for the replays (default: the cores, at most 4)."
    ),
) -> None:
    from bangarena.leaderboard.site import SiteError, build_site

    from .eval import _store_url, open_existing
    from .support import writable_dir

    _check_counts(replays, resamples)
    if workers is not None and workers < 1:
        raise fail(f"--workers {workers}: give 1 or more")
    writable_dir(out, "--out")
    store = open_existing(_store_url(db))
    try:
        report = build_site(
            store,
            out,
            suite=suite,
            replays=replays,
            keys=tuple(match),
            resamples=resamples,
            seed=seed,
            workers=workers,
        )
    except SiteError as exc:
        raise fail(str(exc)) from None
    finally:
        store.close()
    for notice in report.notices:
        _say(f"note: {notice}")
    for problem in report.replay_errors:
        _say(f"warning: {problem}")
    _say(
        f"site written to {out}/ ({report.participants} participants, {report.matches} matches, "
        f"{report.replays} replays, {report.seconds.get('total', 0.0):.1f} s): open "
        f"{out / 'index.html'}"
    )
    if report.problems:
        for problem in report.problems:
            typer.echo(f"error: {one_line(problem)}", err=True)
        raise typer.Exit(EXIT_USAGE)


def _fmt(value: Any, digits: int = 0, pct: bool = False) -> str:
    if value is None:
        return "—"
    if pct:
        return f"{100 * float(value):.{digits}f}%"
    return f"{float(value):.{digits}f}"


def show_command(
    db: str | None = typer.Option(None, "--db", help=DB_HELP),
    suite: str | None = typer.Option(None, "--suite", help="Only this suite (default: all)."),
    resamples: int = typer.Option(1000, "--resamples", help="Bootstrap resamples."),
    seed: int = typer.Option(0, "--seed", help="Seed of the bootstrap and split halves."),
) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    from bangarena.leaderboard.site.context import board_views, load_boards

    from .eval import _store_url, open_existing

    _check_counts(0, resamples)
    store = open_existing(_store_url(db))
    try:
        boards, problems, notices = load_boards(store, suite, resamples, seed)
    finally:
        store.close()
    if problems:
        raise fail("; ".join(problems))
    # A pipe or a file has no width: the board's own (rich would cut it to 80 columns).
    console = Console(width=None if sys.stdout.isatty() else 120)
    views = board_views(boards, links={})
    if not views:
        console.print(f"Nothing to rate yet in {store.shown_url}.")
    for notice in notices:
        console.print(f"[yellow]note:[/] {notice}")
    for b in views:
        title = f"rules {b.rules_version}" + (f" · suite {b.suite}" if b.suite else "")
        table = Table(title=title, caption=b.caption, box=box.SIMPLE_HEAD, pad_edge=False)
        widest = min(40, max((len(r.id) for r in b.rows), default=11))
        table.add_column("rank", justify="right", no_wrap=True)
        # The ids stay whole on a narrow terminal; the other headers are short.
        table.add_column("participant", no_wrap=True, min_width=widest)
        for name in ("rating [95 %]", "deals", "win", "1st try", "autopilot", "$/match"):
            table.add_column(name, justify="right", no_wrap=True)
        for r in b.rows:
            interval = "" if r.lo is None else f" [{r.lo:.0f}, {r.hi:.0f}]"
            table.add_row(
                r.rank_text,
                r.id,
                _fmt(r.rating) + interval,
                str(r.deals),
                _fmt(r.win_rate, 1, pct=True),
                _fmt(r.first_try_valid, 1, pct=True),
                _fmt(r.autopilot_rate, 1, pct=True),
                "—" if r.cost_per_match is None else f"{r.cost_per_match:.4f}",
            )
        console.print(table)


def register(app: typer.Typer) -> None:
    """Add ``leaderboard build|show`` to ``app``."""
    group = typer.Typer(help=LEADERBOARD_HELP, no_args_is_help=True)
    group.command("build", help=BUILD_HELP)(build_command)
    group.command("show", help=SHOW_HELP)(show_command)
    app.add_typer(group, name="leaderboard", help=LEADERBOARD_HELP)
