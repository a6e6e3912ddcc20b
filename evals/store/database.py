"""Connecting to a store: URLs, the SQLite settings (WAL, foreign keys, real transactions), the
PostgreSQL driver, and the schema migrations run on open.

A SQLite file is the default (``sqlite:///results.db`` or a bare path); PostgreSQL is chosen by
URL (``postgresql+psycopg://user:password@host/db``; ``postgresql://`` and ``postgres://`` mean
the same, psycopg 3). A database whose schema revision this version does not know (written by a
newer BangArena) is refused with :class:`StoreSchemaError` rather than touched.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError, OperationalError
from sqlalchemy.pool import StaticPool

from bangarena.harness.provenance import redact_credentials

VERSION_TABLE: Final = "bangarena_schema"
"""Alembic's version table, named for this project so a shared PostgreSQL database can hold other
applications' migrations too."""
SCHEMA_HEAD: Final = "0002"
"""The newest schema revision (checked against the migration scripts by a test); a store at this
revision opens without loading Alembic."""
MIGRATIONS_DIR: Final = Path(__file__).resolve().parent / "migrations"
SQLITE_BUSY_TIMEOUT_MS: Final = 30_000
DB_ENV: Final = "BANGARENA_DB"
_PG_MIGRATION_LOCK: Final = 0x42A9E7  # pg_advisory_xact_lock key: one migrator at a time
_SECRET_PARAMS: Final = ("password", "passwd", "secret", "token", "key", "sslpassword")


class StoreError(RuntimeError):
    """A store that cannot be used; ``str()`` is one line (credentials redacted)."""


class StoreSchemaError(StoreError):
    """The database was written by a newer schema than this version knows."""


def normalize_url(url: str | Path) -> str:
    """A SQLAlchemy URL for ``url``: a bare path becomes a SQLite file URL, ``postgres://`` and
    ``postgresql://`` get the psycopg 3 driver."""
    s = str(url).strip()
    if not s:
        raise StoreError("empty database URL")
    if "://" not in s:
        return f"sqlite:///{Path(s).expanduser().resolve()}"
    for prefix in ("postgres://", "postgresql://"):
        if s.startswith(prefix):
            return "postgresql+psycopg://" + s[len(prefix) :]
    return s


def redact_url(url: str | Path) -> str:
    """``url`` for printing: password and secret-looking query parameters replaced by ``***``."""
    s = str(url)
    try:
        u = make_url(normalize_url(s))
    except (ArgumentError, StoreError, ValueError):
        # Not a URL SQLAlchemy can read: the harness's textual redaction (user info, secret
        # parameters, key-like tokens).
        return redact_credentials(s)
    if u.query:
        query = {
            k: ("***" if any(w in k.lower() for w in _SECRET_PARAMS) else v)
            for k, v in u.query.items()
        }
        u = u.set(query=query)
    return u.render_as_string(hide_password=True)


def default_store_url(
    suite_name: str, suite_path: str | Path | None = None, environ: Mapping[str, str] | None = None
) -> str:
    """Where a suite is stored when no URL is given: ``BANGARENA_DB``, else the SQLite file
    ``<suite name>.db`` beside the suite file (in the current folder without one)."""
    env = os.environ if environ is None else environ
    if env.get(DB_ENV):
        return normalize_url(env[DB_ENV])
    folder = Path(suite_path).resolve().parent if suite_path is not None else Path.cwd()
    return normalize_url(folder / f"{suite_name}.db")


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None for other databases and for ``sqlite://`` in memory)."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    return Path(u.database)


def _sqlite_engine(url: str) -> Engine:
    path = sqlite_path(url)
    if path is None:
        engine = create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
    else:
        if not path.parent.is_dir():
            raise StoreError(f"cannot create SQLite database {str(path)!r}: no such folder")
        engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # The driver's own transaction handling skips DDL and BEGIN IMMEDIATE; take it over.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        if path is not None:
            cur.execute("PRAGMA journal_mode=WAL")
            # WAL + NORMAL: a commit survives a killed process (not a power cut), and is fast.
            cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # Writers take the write lock at BEGIN so a read-then-write never fails half-way.
        immediate = conn.get_execution_options().get("sqlite_immediate", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


def make_engine(url: str | Path) -> Engine:
    """An engine for ``url`` that has connected once (raises :class:`StoreError` otherwise)."""
    full = normalize_url(url)
    shown = redact_url(full)
    try:
        backend = make_url(full).get_backend_name()
    except ArgumentError:
        raise StoreError(f"malformed database URL {shown!r}") from None
    try:
        if backend == "sqlite":
            engine = _sqlite_engine(full)
        elif backend == "postgresql":
            engine = create_engine(full, pool_pre_ping=True)
        else:
            raise StoreError(
                f"unsupported database {backend!r} in {shown!r}: use a SQLite file or "
                "postgresql+psycopg://USER:PASSWORD@HOST/DB"
            )
    except (NoSuchModuleError, ArgumentError) as exc:
        raise StoreError(f"cannot use database URL {shown!r}: {exc}") from None
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except (OperationalError, DBAPIError) as exc:
        engine.dispose()
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
        raise StoreError(f"cannot connect to database {shown}: {reason}") from None
    return engine


def write_options() -> dict[str, Any]:
    """Execution options of a writing transaction (SQLite: BEGIN IMMEDIATE)."""
    return {"sqlite_immediate": True}


def current_revisions(conn: Connection) -> set[str]:
    """The schema revisions recorded in the database (empty when it is new)."""
    from sqlalchemy import inspect

    if not inspect(conn).has_table(VERSION_TABLE):
        return set()
    rows = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).all()
    return {r[0] for r in rows}


def alembic_config() -> Any:
    """An Alembic config built in code: the package's migrations, our version table."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("version_table", VERSION_TABLE)
    return cfg


def known_revisions() -> tuple[set[str], set[str]]:
    """(every revision of the migration scripts, the heads)."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())
    return {r.revision for r in script.walk_revisions()}, set(script.get_heads())


def migrate(engine: Engine, shown_url: str) -> None:
    """Bring the schema to the newest revision (in one transaction, one migrator at a time);
    raises :class:`StoreSchemaError` for a schema newer than this version."""
    with engine.connect() as probe:
        if current_revisions(probe) == {SCHEMA_HEAD}:
            return
    from alembic import command

    known, heads = known_revisions()
    with engine.connect().execution_options(**write_options()) as conn, conn.begin():
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_MIGRATION_LOCK})
        current = current_revisions(conn)
        unknown = current - known
        if unknown:
            raise StoreSchemaError(
                f"database {shown_url} was written by a newer BangArena (schema revision "
                f"{', '.join(sorted(unknown))}; this version knows up to "
                f"{', '.join(sorted(heads))}): upgrade bangarena to use it"
            )
        if current != heads:
            cfg = alembic_config()
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")


__all__ = [
    "MIGRATIONS_DIR",
    "SCHEMA_HEAD",
    "DB_ENV",
    "VERSION_TABLE",
    "StoreError",
    "StoreSchemaError",
    "default_store_url",
    "make_engine",
    "migrate",
    "normalize_url",
    "redact_url",
    "sqlite_path",
]
