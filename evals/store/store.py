"""The evaluation store: suites, participants, matches and their telemetry in SQLite or
PostgreSQL.

```python
store = open_store("results.db")               # or postgresql+psycopg://user:pw@host/db
with store.lock(suite.name):                   # one runner per suite and database
    store.register_suite(suite, plan)
    done = store.done_keys(suite.name)
    for planned in plan:
        if planned.key not in done:
            record = await planned.play()
            store.write_match(planned, record)  # one transaction, telemetry included
```
"""

from __future__ import annotations

import functools
import itertools
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from sqlalchemy import Connection, Engine, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from bangarena.harness.provenance import redact_credentials
from bangarena.harness.records import MatchRecord, load_match_record

from ..keys import play_options, seat_spec, seat_versions
from ..schedule import PlannedMatch
from ..suite import Suite
from .database import (
    StoreError,
    make_engine,
    migrate,
    normalize_url,
    redact_url,
    write_options,
)
from .locks import DEFAULT_STALE_AFTER_S, LockHolder, RunLock, lock_holder, try_lock, wait_lock
from .rows import DECISION_COLUMNS, PreparedMatch, decompress_record, prepare_match
from .tables import (
    DecisionRow,
    MatchRow,
    MatchSeatRow,
    ParticipantRow,
    RunRow,
    SuiteRow,
)


@dataclass(frozen=True, slots=True)
class SuiteTotals:
    """What a suite has used over all its runs (done and void matches both cost money)."""

    cost_usd: float
    tokens: int
    input_tokens: int
    output_tokens: int
    wall_s: float
    matches_done: int
    matches_void: int


@dataclass(frozen=True, slots=True)
class SuiteStatus:
    """How far a suite is. ``planned``/``missing`` are None unless a plan was given."""

    name: str
    hash: str
    updated_at: datetime
    totals: SuiteTotals
    planned: int | None = None
    missing: int | None = None
    runs: int = 0
    holder: LockHolder | None = None

    @property
    def complete(self) -> bool | None:
        return None if self.missing is None else self.missing == 0


class Store:
    """A connected, migrated store. Writes are single-writer by design (the runner's driver);
    readers may run beside it."""

    def __init__(self, engine: Engine, url: str) -> None:
        self.engine = engine
        self.url = url
        self.shown_url = redact_url(url)
        self._suite_ids: dict[str, int] = {}

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _session(self, write: bool = False) -> Session:
        bind = self.engine.execution_options(**write_options()) if write else self.engine
        return Session(bind=bind, expire_on_commit=False)

    # -- suites and participants ------------------------------------------------------------
    def register_suite(self, suite: Suite, plan: Sequence[PlannedMatch] | None = None) -> int:
        """Store the suite's file and participants (updating both when they changed); with the
        plan, relabel reused done matches whose seats now belong to other participant ids (a
        participant renamed, same spec). Returns the suite's row id."""
        now = datetime.now(UTC)
        f = suite.file
        text = redact_credentials(suite.text)  # URLs with user:password@ stay out of the store
        with self._session(write=True) as s, s.begin():
            row = s.scalars(select(SuiteRow).where(SuiteRow.name == suite.name)).first()
            if row is None:
                row = SuiteRow(
                    name=suite.name,
                    hash=suite.sha256,
                    file_text=text,
                    created_at=now,
                    updated_at=now,
                )
                s.add(row)
                s.flush()
            elif row.hash != suite.sha256:
                row.hash, row.file_text, row.updated_at = suite.sha256, text, now
            suite_id = row.id
            current = {
                p.participant: p
                for p in s.scalars(
                    select(ParticipantRow).where(ParticipantRow.suite_id == suite_id)
                )
            }
            for p in f.participants:
                values = {
                    "spec": seat_spec(p.plan),
                    "kind": p.plan.kind,
                    "options": p.options.model_dump(mode="json", exclude_unset=True),
                    "play_options": play_options(p.plan),
                    "versions": seat_versions(p.plan),
                }
                have = current.get(p.id)
                if have is None:
                    s.add(
                        ParticipantRow(
                            suite_id=suite_id, participant=p.id, updated_at=now, **values
                        )
                    )
                elif any(getattr(have, k) != v for k, v in values.items()):
                    for k, v in values.items():
                        setattr(have, k, v)
                    have.updated_at = now
            if plan is not None:
                self._relabel(s, suite_id, plan)
        self._suite_ids[suite.name] = suite_id
        return suite_id

    def _relabel(self, s: Session, suite_id: int, plan: Sequence[PlannedMatch]) -> None:
        wanted = {m.key: list(m.participants) for m in plan}
        rows = s.execute(
            select(MatchRow.id, MatchRow.key, MatchRow.lineup).where(
                MatchRow.suite_id == suite_id, MatchRow.status == "done"
            )
        ).all()
        for match_id, key, lineup in rows:
            new = wanted.get(key)
            if new is None or list(lineup) == new:
                continue
            s.execute(update(MatchRow).where(MatchRow.id == match_id).values(lineup=new))
            for seat, pid in enumerate(new):
                s.execute(
                    update(MatchSeatRow)
                    .where(MatchSeatRow.match_id == match_id, MatchSeatRow.seat == seat)
                    .values(participant=pid)
                )
                s.execute(
                    update(DecisionRow)
                    .where(DecisionRow.match_id == match_id, DecisionRow.seat == seat)
                    .values(participant=pid)
                )

    def suite_id(self, name: str) -> int | None:
        """The row id of suite ``name`` (None when it was never registered)."""
        if name in self._suite_ids:
            return self._suite_ids[name]
        with self.engine.connect() as conn:
            found = conn.execute(select(SuiteRow.id).where(SuiteRow.name == name)).scalar()
        if found is not None:
            self._suite_ids[name] = found
        return found

    def _require(self, name: str) -> int:
        sid = self.suite_id(name)
        if sid is None:
            raise StoreError(f"suite {name!r} is not in {self.shown_url}")
        return sid

    def suite_names(self) -> list[str]:
        """Every stored suite's name, in order."""
        with self.engine.connect() as conn:
            return list(conn.execute(select(SuiteRow.name).order_by(SuiteRow.name)).scalars())

    def suite_text(self, name: str) -> str:
        """The latest file text registered for suite ``name``."""
        with self.engine.connect() as conn:
            text = conn.execute(select(SuiteRow.file_text).where(SuiteRow.name == name)).scalar()
        if text is None:
            raise StoreError(f"suite {name!r} is not in {self.shown_url}")
        return text

    # -- matches ----------------------------------------------------------------------------
    def done_keys(self, suite: str) -> set[str]:
        """The keys of the suite's done matches (what a re-run skips)."""
        sid = self.suite_id(suite)
        if sid is None:
            return set()
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(MatchRow.key).where(MatchRow.suite_id == sid, MatchRow.status == "done")
            )
            return set(rows.scalars())

    def write_match(
        self,
        planned: PlannedMatch,
        record: MatchRecord | PreparedMatch,
        *,
        status: str = "done",
        void_reason: str | None = None,
    ) -> bool:
        """Store one match with its seats and telemetry in one transaction: all of it or, after
        a crash, none. ``record`` may be prepared already (:func:`rows.prepare_match`, e.g. in
        a worker). Returns False, writing nothing, when the key is already done."""
        prepared = (
            record
            if isinstance(record, PreparedMatch)
            else prepare_match(planned, record, status, void_reason)
        )
        if prepared.key != planned.key:
            raise ValueError(f"prepared match {prepared.key!r} is not {planned.key!r}")
        return self.write_prepared(prepared)

    def write_prepared(self, prepared: PreparedMatch, *, append_deals: bool = False) -> bool:
        """Insert a prepared match (see :meth:`write_match`; ``append_deals``: see
        :meth:`write_all`)."""
        try:
            with self.engine.connect().execution_options(**write_options()) as conn, conn.begin():
                self._insert_prepared(conn, [prepared], append_deals)
        except IntegrityError:
            if prepared.status == "done" and prepared.key in self.done_keys(prepared.suite):
                return False
            raise
        return True

    def write_many(self, prepared: Sequence[PreparedMatch]) -> int:
        """Insert prepared matches in one transaction (a batch costs one commit and one
        statement per table, not one per match; a crash keeps none of them, so none is
        half-written). If one of them is done already, they are written one by one instead.
        Returns how many were written."""
        if len(prepared) <= 1:
            return sum(self.write_prepared(p) for p in prepared)
        try:
            self.write_all(prepared)
        except IntegrityError:
            return sum(self.write_prepared(p) for p in prepared)
        return len(prepared)

    def write_all(self, prepared: Sequence[PreparedMatch], *, append_deals: bool = False) -> None:
        """Insert prepared matches in one transaction: all of them, or none and the error
        raised (an IntegrityError when one is done already) — :meth:`write_many` without its
        fallback, for a caller that handles failures its own way. ``append_deals``: instead of
        their own deal numbers, the matches take the next ones of their suite in the order
        given (one more than its highest, read in the same transaction: a suite without a
        plan, such as ``live``, numbers its matches as they are stored)."""
        with self.engine.connect().execution_options(**write_options()) as conn, conn.begin():
            self._insert_prepared(conn, prepared, append_deals)

    def _insert_prepared(
        self, conn: Connection, prepared: Sequence[PreparedMatch], append_deals: bool = False
    ) -> None:
        now = datetime.now(UTC)
        values = [
            {**p.match, "suite_id": self._require(p.suite), "stored_at": now} for p in prepared
        ]
        if append_deals:
            following: dict[int, int] = {}
            for v in values:
                sid = v["suite_id"]
                if sid not in following:
                    # a lookup in ix_matches_suite_deal (a count would read every match)
                    last = conn.execute(_LAST_DEAL, {"suite_id": sid}).scalar_one()
                    following[sid] = 0 if last is None else int(last) + 1
                v["deal"] = following[sid]
                following[sid] += 1
        # One statement per table for the whole batch (the match rows through Core's
        # insertmanyvalues with their ids back in order), the decisions (and on SQLite the
        # seats) through the driver: per-statement overhead costs more than a bot game's rows.
        if len(values) == 1:
            ids = [conn.execute(_INSERT_MATCH, values[0]).scalar_one()]
        else:
            ids = list(conn.execute(_INSERT_MATCHES, values).scalars())
        pairs = list(zip(prepared, ids, strict=True))
        if conn.dialect.name == "postgresql":
            seats = [{**s, "match_id": mid} for p, mid in pairs for s in p.seats]
            conn.execute(insert(MatchSeatRow.__table__), seats)
        else:
            rows = [(mid, *[s[c] for c in SEAT_COLUMNS[1:]]) for p, mid in pairs for s in p.seats]
            _sqlite_insert(conn, "match_seats", SEAT_COLUMNS, rows)
        decisions = [(mid, *t[1:]) for p, mid in pairs for t in p.decisions]
        if decisions:
            self._insert_decisions(conn, decisions)

    def _insert_decisions(self, conn: Connection, rows: list[tuple[Any, ...]]) -> None:
        if conn.dialect.name == "postgresql":
            # COPY: a few hundred rows per match in one round trip.
            cols = ", ".join(DECISION_COLUMNS)
            cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
            with cursor.copy(f"COPY decisions ({cols}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        _sqlite_insert(conn, "decisions", DECISION_COLUMNS, rows)

    def _match_row(self, suite: str | None, key: str, status: str = "done") -> MatchRow:
        q = select(MatchRow).where(MatchRow.key == key, MatchRow.status == status)
        if suite is not None:
            q = q.where(MatchRow.suite_id == self._require(suite))
        with self._session() as s:
            row = s.scalars(q.order_by(MatchRow.id)).first()
        if row is None:
            raise StoreError(f"no {status} match {key!r} in {self.shown_url}")
        return row

    def record_dict(self, key: str, suite: str | None = None, status: str = "done") -> dict:
        """A stored match record as a JSON object."""
        row = self._match_row(suite, key, status)
        return decompress_record(row.record, row.record_format)

    def load_record(self, key: str, suite: str | None = None, status: str = "done") -> MatchRecord:
        """A stored match record."""
        return load_match_record(self.record_dict(key, suite, status))

    def matches(self, suite: str | None = None, status: str | None = None) -> list[dict[str, Any]]:
        """The match rows (without their records), oldest first."""
        cols = [c for c in MatchRow.__table__.columns if c.name != "record"]
        q = select(*cols, SuiteRow.name.label("suite")).join(SuiteRow)
        if suite is not None:
            q = q.where(MatchRow.suite_id == self._require(suite))
        if status is not None:
            q = q.where(MatchRow.status == status)
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(q.order_by(MatchRow.id))]

    def iter_records(
        self, suite: str | None = None, status: str | None = None, batch: int = 64
    ) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
        """(match row, record) pairs, oldest first, a batch of rows in memory at a time."""
        last = 0
        while True:
            q = select(MatchRow, SuiteRow.name).join(SuiteRow).where(MatchRow.id > last)
            if suite is not None:
                q = q.where(MatchRow.suite_id == self._require(suite))
            if status is not None:
                q = q.where(MatchRow.status == status)
            with self._session() as s:
                got = s.execute(q.order_by(MatchRow.id).limit(batch)).all()
                if not got:
                    return
                for row, name in got:
                    last = row.id
                    data = {c.name: getattr(row, c.name) for c in MatchRow.__table__.columns}
                    data["suite"] = name
                    record = decompress_record(data.pop("record"), row.record_format)
                    yield data, record

    # -- totals, status, locks ----------------------------------------------------------------
    def totals(self, suite: str) -> SuiteTotals:
        """Cost, tokens, wall time and match counts over every run of the suite."""
        sid = self.suite_id(suite)
        with self.engine.connect() as conn:
            wall = conn.execute(
                select(func.coalesce(func.sum(RunRow.wall_s), 0.0)).where(RunRow.suite == suite)
            ).scalar_one()
            if sid is None:
                return SuiteTotals(0.0, 0, 0, 0, float(wall), 0, 0)
            rows = conn.execute(
                select(
                    MatchRow.status,
                    func.count(),
                    func.coalesce(func.sum(MatchRow.cost_usd), 0.0),
                    func.coalesce(func.sum(MatchRow.input_tokens), 0),
                    func.coalesce(func.sum(MatchRow.output_tokens), 0),
                )
                .where(MatchRow.suite_id == sid)
                .group_by(MatchRow.status)
            ).all()
        by = {r[0]: r for r in rows}
        cost = sum(float(r[2]) for r in rows)
        tin = sum(int(r[3]) for r in rows)
        tout = sum(int(r[4]) for r in rows)
        done = int(by["done"][1]) if "done" in by else 0
        void = int(by["void"][1]) if "void" in by else 0
        return SuiteTotals(cost, tin + tout, tin, tout, float(wall), done, void)

    def suite_status(self, suite: str, plan: Sequence[PlannedMatch] | None = None) -> SuiteStatus:
        """How far suite ``suite`` is (with its plan: how many planned matches are missing)."""
        sid = self._require(suite)
        with self.engine.connect() as conn:
            row = conn.execute(select(SuiteRow).where(SuiteRow.id == sid)).one()
            runs = conn.execute(
                select(func.count()).select_from(RunRow).where(RunRow.suite == suite)
            ).scalar_one()
        planned = missing = None
        if plan is not None:
            done = self.done_keys(suite)
            planned = len(plan)
            missing = sum(1 for m in plan if m.key not in done)
        return SuiteStatus(
            name=row.name,
            hash=row.hash,
            updated_at=row.updated_at,
            totals=self.totals(suite),
            planned=planned,
            missing=missing,
            runs=int(runs),
            holder=lock_holder(self.engine, suite),
        )

    def suites(self) -> list[SuiteStatus]:
        """The status of every stored suite (without plans)."""
        return [self.suite_status(name) for name in self.suite_names()]

    def lock(
        self,
        suite: str,
        *,
        wait: bool = False,
        timeout_s: float | None = None,
        stale_after_s: float = DEFAULT_STALE_AFTER_S,
        poll_s: float = 1.0,
    ) -> RunLock:
        """Take the run lock of ``suite``: raises :class:`SuiteLocked` when another runner holds
        it, or with ``wait`` waits for it (up to ``timeout_s``)."""
        if wait:
            return wait_lock(self.engine, suite, self.shown_url, stale_after_s, timeout_s, poll_s)
        return try_lock(self.engine, suite, self.shown_url, stale_after_s)

    def unlock(self, lock: RunLock, stopped: str | None = None) -> None:
        """Release ``lock`` (``stopped``: the reason the run stopped early, if any)."""
        lock.release(stopped)


_MATCHES: Final = MatchRow.__table__
_INSERT_MATCH: Final = insert(_MATCHES).returning(_MATCHES.c.id)
_INSERT_MATCHES: Final = insert(_MATCHES).returning(_MATCHES.c.id, sort_by_parameter_order=True)
_LAST_DEAL: Final = select(func.max(MatchRow.deal)).where(
    MatchRow.suite_id == bindparam("suite_id")
)
SEAT_COLUMNS: Final = tuple(c.name for c in MatchSeatRow.__table__.columns)
"""The ``match_seats`` columns, ``match_id`` first (a prepared seat row has the others)."""

SQLITE_MAX_ROWS_PER_INSERT: Final = 256
"""The most rows in one SQLite INSERT (fewer when the bound-parameter limit is lower): chunks of
at most 64, 256 or 1560 rows cost the same within the measurement's noise."""


def _sqlite_max_variables(dbapi: Any) -> int:
    """The connection's bound-parameter limit: asked of the connection when the driver can
    (Python's sqlite3 since 3.11), else SQLite's default for its version (32766 since 3.32,
    999 before)."""
    try:
        return int(dbapi.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER))
    except (AttributeError, sqlite3.Error):
        return 32766 if sqlite3.sqlite_version_info >= (3, 32, 0) else 999


def _sqlite_rows_per_insert(dbapi: Any, columns: int) -> int:
    return max(1, min(SQLITE_MAX_ROWS_PER_INSERT, _sqlite_max_variables(dbapi) // columns))


@functools.cache
def _sqlite_insert_sql(table: str, columns: tuple[str, ...], n: int) -> str:
    """The INSERT of ``n`` rows (one ``(?, …)`` group per row)."""
    group = "(" + ", ".join(["?"] * len(columns)) + ")"
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES " + ", ".join([group] * n)


def _sqlite_insert(
    conn: Connection, table: str, columns: tuple[str, ...], rows: Sequence[Sequence[Any]]
) -> None:
    """Insert ``rows`` with multi-row INSERTs instead of executemany.

    sqlite3's executemany resets and steps the statement once per row, releasing and
    re-taking the GIL each time. Alone that costs no more CPU (a live match's ~140 decision
    rows: ~1.0 ms either way), but beside a thread as busy as the service's event loop every
    release is a hand-off: 4.5–5.4 ms of CPU through executemany, 2.0–4.0 ms in chunks. A
    statement holds as many rows as the bound-parameter limit allows (at most
    :data:`SQLITE_MAX_ROWS_PER_INSERT`), the rest go in power-of-two chunks: a connection
    compiles only a few distinct statements, which the driver's statement cache keeps."""
    most = _sqlite_rows_per_insert(conn.connection.dbapi_connection, len(columns))
    flat = itertools.chain.from_iterable
    start, total = 0, len(rows)
    while start < total:
        n = min(most, total - start)
        if n < most:
            n = 1 << (n.bit_length() - 1)
        sql = _sqlite_insert_sql(table, columns, n)
        conn.exec_driver_sql(sql, tuple(flat(rows[start : start + n])))
        start += n


def open_store(url: str | Path) -> Store:
    """Connect to ``url`` (a SQLite file path or URL, or ``postgresql+psycopg://…``), create or
    migrate its schema, and return the store. Raises StoreError (cannot connect, unsupported)
    or StoreSchemaError (written by a newer BangArena) with one clear line."""
    full = normalize_url(url)
    engine = make_engine(full)
    try:
        migrate(engine, redact_url(full))
    except BaseException:
        engine.dispose()
        raise
    return Store(engine, full)


__all__ = ["Store", "SuiteStatus", "SuiteTotals", "open_store"]
