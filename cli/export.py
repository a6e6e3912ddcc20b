"""``bangarena export``: a store's matches, per-decision telemetry or model trajectories as
JSON Lines or Parquet (thin over :func:`bangarena.evals.export.export`)."""

from __future__ import annotations

from pathlib import Path
from typing import Final

import typer

from .support import fail

EXPORT_HELP: Final = (
    "Export a store's matches, decisions or trajectories as JSON Lines or Parquet.\n\n"
    "matches: one line per stored match (done and void: `status` tells them apart); "
    "decisions: one line per move, forced ones included; trajectories: per model or scripted "
    "seat and match, each decision's prompt, answer, move and outcome, with the result. The "
    "columns are listed in docs/evals.md."
)


def export_command(
    db: str | None = typer.Option(
        None, "--db", help="Database URL or SQLite path (default: BANGARENA_DB)."
    ),
    fmt: str = typer.Option("jsonl", "--format", help="jsonl or parquet."),
    what: str = typer.Option("matches", "--what", help="matches, decisions or trajectories."),
    suite: str | None = typer.Option(None, "--suite", help="Only this suite."),
    participant: str | None = typer.Option(
        None, "--participant", help="Only this participant's matches (its own rows)."
    ),
    out: Path = typer.Option(..., "--out", help="The file to write (replaced atomically)."),
) -> None:
    from bangarena.evals.export import FORMATS, WHATS, ExportError, export
    from bangarena.evals.store import StoreError

    from .eval import _store_url, open_existing

    if fmt not in FORMATS:
        raise fail(f"--format {fmt!r}: valid formats are {', '.join(FORMATS)}")
    if what not in WHATS:
        raise fail(f"--what {what!r}: valid are {', '.join(WHATS)}")
    store = open_existing(_store_url(db))
    try:
        if suite is not None and store.suite_id(suite) is None:
            names = store.suite_names()
            raise fail(
                f"--suite {suite!r} is not in {store.shown_url} (it holds: "
                f"{', '.join(names) or 'no suite'})"
            )
        try:
            n = export(store, fmt, what, out=out, suite=suite, participant=participant)  # type: ignore[arg-type]
        except (ExportError, StoreError) as exc:
            raise fail(str(exc)) from None
        except OSError as exc:
            raise fail(f"--out {out}: {exc.strerror or exc}") from None
    finally:
        store.close()
    typer.echo(f"{n} {what} rows written to {out}", err=True)


def register(app: typer.Typer) -> None:
    """Add ``export`` to ``app``."""
    app.command("export", help=EXPORT_HELP)(export_command)
