"""The evaluation store (SQLAlchemy 2 + Alembic): a SQLite file by default, PostgreSQL by URL.

:func:`open_store` connects, migrates and returns a :class:`Store`; see ``docs/evals.md`` for the
tables. Errors are one line with credentials redacted: :class:`StoreError` (cannot connect,
unsupported URL), :class:`StoreSchemaError` (a database written by a newer BangArena),
:class:`SuiteLocked` (another runner holds the suite).
"""

from .database import (
    DB_ENV,
    SCHEMA_HEAD,
    StoreError,
    StoreSchemaError,
    default_store_url,
    normalize_url,
    redact_url,
    sqlite_path,
)
from .locks import LockHolder, LockLost, RunLock, SuiteLocked
from .rows import RECORD_FORMAT, decision_values, decompress_record
from .store import Store, SuiteStatus, SuiteTotals, open_store

__all__ = [
    "DB_ENV",
    "RECORD_FORMAT",
    "SCHEMA_HEAD",
    "LockHolder",
    "LockLost",
    "RunLock",
    "Store",
    "StoreError",
    "StoreSchemaError",
    "SuiteLocked",
    "SuiteStatus",
    "SuiteTotals",
    "decision_values",
    "default_store_url",
    "decompress_record",
    "normalize_url",
    "open_store",
    "redact_url",
    "sqlite_path",
]
