"""A developer tool: write the next migration script from the difference between the ORM tables
and the migrated schema (``python -m bangarena.evals.store.revision "add a column"``).

It migrates a scratch SQLite database to the current head, lets Alembic compare it with
:mod:`bangarena.evals.store.tables`, and writes ``migrations/versions/NNNN_<slug>.py``; review
the script (SQLite and PostgreSQL both run it), then raise ``SCHEMA_HEAD`` in ``database.py``.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

from .database import MIGRATIONS_DIR, alembic_config, known_revisions, make_engine, migrate


def next_revision_id() -> str:
    """The next four-digit revision id (0001, 0002 …)."""
    known, _ = known_revisions()
    numbers = [int(r) for r in known if r.isdigit()]
    return f"{max(numbers, default=0) + 1:04d}"


def write_revision(message: str) -> Path:
    """Autogenerate the next revision; returns the new script's path."""
    from alembic import command

    rev = next_revision_id()
    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(Path(tmp) / "scratch.db")
        if rev != "0001":
            migrate(engine, "scratch")
        with engine.connect() as conn:
            cfg = alembic_config()
            cfg.attributes["connection"] = conn
            slug = re.sub(r"[^a-z0-9]+", "_", message.lower()).strip("_")[:40] or "revision"
            command.revision(
                cfg,
                message=message,
                autogenerate=True,
                rev_id=rev,
                version_path=str(MIGRATIONS_DIR / "versions"),
            )
        engine.dispose()
    matches = sorted((MIGRATIONS_DIR / "versions").glob(f"{rev}_*.py"))
    if not matches:
        raise SystemExit(f"no revision {rev} written")
    path = matches[0]
    target = path.with_name(f"{rev}_{slug}.py")
    if target != path:
        path.rename(target)
    return target


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print('usage: python -m bangarena.evals.store.revision "what the migration does"')
        return 2
    print(write_revision(args[0]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
