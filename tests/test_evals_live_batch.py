"""Storing live matches in batches: the matches that finish while the service's store thread is
busy go in one transaction with consecutive deals, each marked stored; a participant is
registered once per store object (again when its spec changes); a match id done already is not
written twice, within a batch or across batches; SQLite's multi-row decision inserts give the
rows executemany gave."""

from __future__ import annotations

import asyncio
import functools
import sqlite3
import threading
from collections.abc import Iterator

import pytest
from evals_support import store_url  # noqa: F401
from service_support import bot_players, service_settings
from sqlalchemy import event, select
from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError

from bangarena.evals import live
from bangarena.evals.live import LIVE_SUITE, LiveParticipant, store_live_match, store_live_matches
from bangarena.evals.store import Store, open_store
from bangarena.evals.store import store as store_module
from bangarena.evals.store.rows import DECISION_COLUMNS, decision_tuples
from bangarena.evals.store.tables import DecisionRow, MatchRow, ParticipantRow
from bangarena.harness.match import Match, MatchSettings
from bangarena.harness.records import MatchRecord
from bangarena.harness.seats.factory import build_seat, plan_seat
from bangarena.service.models import CreateMatch
from bangarena.service.registry import LiveMatch, MatchRegistry
from bangarena.service.state import ServiceState, database_failure
from bangarena.service.tokens import TokenBook

SEATS = [LiveParticipant("rule", "rule", "rule")] * 4


@functools.cache
def _record(seed: int) -> MatchRecord:
    seats = [build_seat(plan_seat("rule"), seat=i, seed=seed) for i in range(4)]
    return asyncio.run(Match(MatchSettings(seats=4, seed=seed), seats).run())


def _deals(store: Store) -> list[tuple[str, int]]:
    with store.engine.connect() as conn:
        rows = conn.execute(select(MatchRow.key, MatchRow.deal).order_by(MatchRow.id))
        return [(k, d) for k, d in rows]


class Statements(list[str]):
    """The SQL statements the watched stores send."""

    def __init__(self) -> None:
        super().__init__()
        self.engines: list[object] = []

    def watch(self, store: Store) -> None:
        event.listen(store.engine, "before_cursor_execute", self._seen)
        self.engines.append(store.engine)

    def _seen(self, _conn: object, _cursor: object, statement: str, *_args: object) -> None:
        self.append(statement)

    def touching(self, table: str) -> list[str]:
        return [s for s in self if f" {table}" in s]


@pytest.fixture
def statements() -> Iterator[Statements]:
    seen = Statements()
    yield seen
    for engine in seen.engines:
        event.remove(engine, "before_cursor_execute", seen._seen)


# -- batches -----------------------------------------------------------------------------------
def test_a_batch_is_one_transaction_numbered_in_order(store_url: str) -> None:  # noqa: F811
    records = [_record(seed) for seed in (11, 12, 13, 14)]
    with open_store(store_url) as store:
        calls: list[int] = []
        write_all = store.write_all

        def counting(prepared, **kw):  # noqa: ANN001, ANN003, ANN202
            calls.append(len(prepared))
            return write_all(prepared, **kw)

        store.write_all = counting  # type: ignore[method-assign]
        assert store_live_match(store, records[0], SEATS) == ("done", None)
        outcomes = store_live_matches(store, [(r, SEATS) for r in records[1:]])
        assert [(o.status, o.written, o.error) for o in outcomes] == [("done", True, None)] * 3
        assert calls == [3]  # the single match went through write_prepared, the batch at once
        assert _deals(store) == [(r.match_id, i) for i, r in enumerate(records)]
        stored_at = {r["stored_at"] for r in store.matches(LIVE_SUITE)[1:]}
        assert len(stored_at) == 1
        for r in records:
            assert store.load_record(r.match_id, LIVE_SUITE).model_dump() == r.model_dump()


def test_a_done_match_is_not_written_twice_within_or_across_batches(store_url: str) -> None:  # noqa: F811
    a, b, c, d = (_record(seed) for seed in (21, 22, 23, 24))
    with open_store(store_url) as store:
        first = store_live_matches(store, [(a, SEATS), (a, SEATS), (b, SEATS)])
        assert [o.written for o in first] == [True, False, True]
        assert all(o.status == "done" and o.error is None for o in first)
        assert _deals(store) == [(a.match_id, 0), (b.match_id, 1)]
        # b is done already: the batch falls back to one transaction per match, and the written
        # ones still take consecutive numbers
        second = store_live_matches(store, [(c, SEATS), (b, SEATS), (d, SEATS)])
        assert [(o.written, o.error) for o in second] == [(True, None), (False, None), (True, None)]
        assert _deals(store) == [(a.match_id, 0), (b.match_id, 1), (c.match_id, 2), (d.match_id, 3)]
        assert store_live_match(store, a, SEATS) == ("done", None)  # alone, too
        assert len(_deals(store)) == 4
        with store.engine.connect() as conn:
            per_match = conn.execute(
                select(DecisionRow.match_id).group_by(DecisionRow.match_id)
            ).all()
        assert len(per_match) == 4


def test_one_bad_match_does_not_keep_the_others_out(store_url: str) -> None:  # noqa: F811
    a, b = _record(31), _record(32)
    with open_store(store_url) as store:
        out = store_live_matches(store, [(a, SEATS), (b, SEATS[:3]), (b, SEATS)])
        assert out[0].written and out[2].written
        assert isinstance(out[1].error, ValueError)  # 3 participants for a 4-seat match
        assert _deals(store) == [(a.match_id, 0), (b.match_id, 1)]
        with pytest.raises(ValueError, match="3 participants"):
            store_live_match(store, _record(33), SEATS[:3])


# -- registration ------------------------------------------------------------------------------
def test_participants_are_registered_once_and_again_when_changed(
    store_url: str,  # noqa: F811
    statements: Statements,
) -> None:
    seats = [LiveParticipant("remote:ann", "remote:ann", "remote"), *SEATS[1:]]
    with open_store(store_url) as store:
        statements.watch(store)
        store_live_match(store, _record(41), seats)
        assert statements.touching("participants")
        statements.clear()
        store_live_match(store, _record(42), seats)
        assert not statements.touching("participants") and not statements.touching("suites")
        # the same id with another spec and kind: its row is updated
        changed = [LiveParticipant("remote:ann", "human:ann", "human"), *SEATS[1:]]
        store_live_match(store, _record(43), changed)
        with store.engine.connect() as conn:
            row = conn.execute(
                select(ParticipantRow.spec, ParticipantRow.kind).where(
                    ParticipantRow.participant == "remote:ann"
                )
            ).one()
        assert tuple(row) == ("human:ann", "human")
        statements.clear()
        store_live_match(store, _record(44), changed)
        assert not statements.touching("participants")
    # another store object on the same database registers once, finding the rows there
    with open_store(store_url) as again:
        statements.watch(again)
        statements.clear()
        store_live_match(again, _record(45), changed)
        store_live_match(again, _record(46), changed)
        assert len(statements.touching("participants")) == 1  # read once, nothing to change
        assert [d for _, d in _deals(again)] == [0, 1, 2, 3, 4, 5]


def test_a_failure_before_writing_is_every_matchs_and_not_remembered(
    store_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*_args: object, **_kw: object) -> object:
        raise RuntimeError("the disk is full")

    batch = [(_record(51), SEATS), (_record(52), SEATS)]
    with open_store(store_url) as store:
        for name in ("_session", "_insert_prepared"):  # registering, writing
            monkeypatch.setattr(Store, name, broken)
            out = store_live_matches(store, batch)
            assert all(isinstance(o.error, RuntimeError) and not o.written for o in out)
            monkeypatch.undo()
        assert [o.written for o in store_live_matches(store, batch)] == [True, True]
        assert _deals(store) == [(_record(51).match_id, 0), (_record(52).match_id, 1)]
        with store.engine.connect() as conn:
            assert conn.execute(select(ParticipantRow.participant)).scalars().all() == ["rule"]


# -- the service: matches finishing while the store thread is busy ----------------------------
def _service(tmp_path, **overrides) -> tuple[MatchRegistry, ServiceState]:  # noqa: ANN001, ANN003
    """A registry whose finished matches the service state stores, with its store open."""
    settings = service_settings(tmp_path, **overrides).resolved()
    assert settings.admin_token is not None
    tokens = TokenBook(settings.admin_token)
    registry = MatchRegistry(settings, tokens)
    state = ServiceState(settings=settings, tokens=tokens, registry=registry)
    registry.on_finish = state.store_match
    state.store = open_store(settings.db_url)
    return registry, state


def test_matches_finishing_while_the_store_is_busy_are_stored_together(tmp_path) -> None:  # noqa: ANN001
    registry, state = _service(tmp_path)
    writes: list[int] = []
    write_all = state.store.write_all

    def counting(prepared, **kw):  # noqa: ANN001, ANN003, ANN202
        writes.append(len(prepared))
        return write_all(prepared, **kw)

    state.store.write_all = counting  # type: ignore[method-assign]

    async def play() -> list:
        gate = threading.Event()
        busy = asyncio.ensure_future(state.run_store(gate.wait))  # the store thread is busy
        lives = []
        for seed in (61, 62, 63, 64, 65):
            body = {"seats": 4, "seed": seed, "players": bot_players(4), "start": "now"}
            lives.append(registry.create(CreateMatch.model_validate(body))[0])
        for _ in range(2000):  # every match has played and waits for the store
            if len(state.store_queue) == len(lives):
                break
            await asyncio.sleep(0.01)
        assert len(state.store_queue) == len(lives)
        assert not any(m.stored for m in lives)
        gate.set()
        await busy
        await asyncio.gather(*(m.task for m in lives))
        return lives

    try:
        lives = asyncio.run(play())
        assert writes == [5]
        assert all(m.stored and m.store_error is None for m in lives)
        in_finishing_order = sorted(lives, key=lambda m: m.finished)
        assert _deals(state.store) == [(m.match_id, i) for i, m in enumerate(in_finishing_order)]
        assert not state.store_queue
    finally:
        state.store.close()
        state.executor.shutdown(wait=True)


def test_a_store_failure_is_each_matchs_and_is_not_raised(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    registry, state = _service(tmp_path)

    def broken(*_args: object, **_kw: object) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(Store, "write_prepared", broken)
    monkeypatch.setattr(Store, "write_all", broken)

    async def play() -> list:
        lives = []
        for seed in (71, 72):
            body = {"seats": 4, "seed": seed, "players": bot_players(4), "start": "now"}
            lives.append(registry.create(CreateMatch.model_validate(body))[0])
        await asyncio.gather(*(m.task for m in lives))
        return lives

    try:
        lives = asyncio.run(play())
        assert all(not m.stored and m.store_error == "RuntimeError" for m in lives)
        monkeypatch.undo()
        assert _deals(state.store) == []
    finally:
        state.store.close()
        state.executor.shutdown(wait=True)


def test_a_database_failure_is_retried_until_the_match_is_stored_once(
    tmp_path, monkeypatch, caplog
) -> None:  # noqa: ANN001
    """The database failing (a locked file, a lost connection) does not lose a finished match:
    it is stored again after a wait that doubles, and stored once."""
    registry, state = _service(tmp_path, store_retry_s=0.05)
    write_prepared = Store.write_prepared  # one match at a time is written by this
    calls: list[str] = []

    def flaky(self, prepared, **kw):  # noqa: ANN001, ANN003, ANN202
        calls.append(prepared.key)
        if len(calls) <= 2:
            raise OperationalError("INSERT INTO matches", {}, sqlite3.OperationalError("locked"))
        return write_prepared(self, prepared, **kw)

    monkeypatch.setattr(Store, "write_prepared", flaky)

    async def play() -> LiveMatch:
        body = {"seats": 4, "seed": 81, "players": bot_players(4), "start": "now"}
        live_match = registry.create(CreateMatch.model_validate(body))[0]
        seen_error = None
        while not live_match.stored:  # its status says so while it waits
            seen_error = seen_error or live_match.store_error
            await asyncio.sleep(0.01)
        await live_match.task
        assert seen_error == "OperationalError"
        return live_match

    try:
        with caplog.at_level("WARNING", logger="bangarena.service"):
            done = asyncio.run(play())
        assert len(calls) == 3 and done.store_error is None
        assert _deals(state.store) == [(done.match_id, 0)]
        assert "trying again in 0.05 s" in caplog.text and "trying again in 0.1 s" in caplog.text
    finally:
        state.store.close()
        state.executor.shutdown(wait=True)


@pytest.mark.parametrize(
    ("error", "retried"),
    [
        (OperationalError("SELECT 1", {}, sqlite3.OperationalError("locked")), True),
        (InterfaceError("SELECT 1", {}, sqlite3.InterfaceError("closed")), True),
        (ConnectionRefusedError(111, "refused"), True),
        (TimeoutError(), True),
        (IntegrityError("INSERT", {}, sqlite3.IntegrityError("unique")), False),
        (RuntimeError("the disk is full"), False),
        (ValueError("a record the store refuses"), False),
    ],
)
def test_only_the_databases_failures_are_retried(error: BaseException, retried: bool) -> None:
    assert database_failure(error) is retried


# -- SQLite's multi-row decision inserts ---------------------------------------------------------
def _decision_rows(n: int) -> list[tuple]:
    """``n`` decision rows of real matches (match ids 1, 2, … in order)."""
    rows: list[tuple] = []
    seed = 80
    while len(rows) < n:
        seed += 1
        rec = _record(seed)
        planned = live.live_plan(rec, SEATS, seed)
        mid = seed - 80
        rows.extend((mid, *t[1:]) for t in decision_tuples(planned, rec))
    return rows[:n]


def _read_decisions(store: Store) -> list[tuple]:
    cols = ", ".join(DECISION_COLUMNS)
    with store.engine.connect() as conn:
        return [
            tuple(r)
            for r in conn.exec_driver_sql(f"SELECT {cols} FROM decisions ORDER BY match_id, idx")
        ]


def _insert_both_ways(tmp_path, rows: list[tuple], limit: int | None = None) -> None:  # noqa: ANN001
    """The rows through Store._insert_decisions and through executemany: the same table."""
    got = {}
    for how in ("multi", "executemany"):
        with open_store(tmp_path / f"{how}.db") as store, store.engine.connect() as conn:
            dbapi = conn.connection.dbapi_connection
            assert dbapi is not None
            dbapi.execute("PRAGMA foreign_keys=OFF")  # outside a transaction: no match rows
            if limit is not None:
                dbapi.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, limit)  # type: ignore[attr-defined]
            with conn.begin():
                if how == "multi":
                    store._insert_decisions(conn, rows)
                else:
                    marks = ", ".join(["?"] * len(DECISION_COLUMNS))
                    sql = f"INSERT INTO decisions ({', '.join(DECISION_COLUMNS)}) VALUES ({marks})"
                    conn.exec_driver_sql(sql, rows)
            got[how] = _read_decisions(store)
    assert got["multi"] == got["executemany"]
    assert len(got["multi"]) == len(rows)


MOST = store_module.SQLITE_MAX_ROWS_PER_INSERT


@pytest.mark.parametrize("n", [1, 7, MOST, MOST + 1, 2 * MOST + 13])
def test_multi_row_inserts_equal_executemany(tmp_path, n: int) -> None:  # noqa: ANN001
    _insert_both_ways(tmp_path, _decision_rows(n))


def test_multi_row_inserts_under_the_old_999_limit(tmp_path) -> None:  # noqa: ANN001
    # SQLite before 3.32 binds at most 999 parameters: 47 rows of 21 columns, then 47, …
    assert 999 // len(DECISION_COLUMNS) == 47
    for n in (47, 47 * 2 + 5):
        (tmp_path / str(n)).mkdir()
        _insert_both_ways(tmp_path / str(n), _decision_rows(n), limit=999)


def test_the_bound_parameter_limit_is_asked_of_the_connection() -> None:
    con = sqlite3.connect(":memory:")
    try:
        con.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 999)
        assert store_module._sqlite_rows_per_insert(con, len(DECISION_COLUMNS)) == 47
        con.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 32766)
        assert store_module._sqlite_rows_per_insert(con, len(DECISION_COLUMNS)) == MOST
    finally:
        con.close()
    expected = 32766 if sqlite3.sqlite_version_info >= (3, 32, 0) else 999
    assert store_module._sqlite_max_variables(object()) == expected  # a driver without getlimit


def test_seat_and_decision_rows_read_back_as_prepared(store_url: str) -> None:  # noqa: F811
    """The seat rows (multi-row INSERT on SQLite, Core executemany on PostgreSQL) and the
    decision rows read back as prepared, booleans and NULLs included, for a batch."""
    from bangarena.evals.store.rows import prepare_match
    from bangarena.evals.store.tables import MatchSeatRow

    records = [_record(seed) for seed in (91, 92, 93)]
    with open_store(store_url) as store:
        store_live_match(store, records[0], SEATS)  # registers the suite
        prepared = [prepare_match(live.live_plan(r, SEATS, 0), r) for r in records[1:]]
        store.write_all(prepared, append_deals=True)
        ids = {r["key"]: r["id"] for r in store.matches(LIVE_SUITE)}
        with store.engine.connect() as conn:
            seats = [dict(r) for r in conn.execute(select(MatchSeatRow.__table__)).mappings()]
        decisions = _read_decisions(store)
    for p in prepared:
        mid = ids[p.key]
        got = sorted((s for s in seats if s["match_id"] == mid), key=lambda s: s["seat"])
        assert got == [{**s, "match_id": mid} for s in p.seats]
        assert any(s["won"] is True for s in got) and any(s["won"] is False for s in got)
        assert [d for d in decisions if d[0] == mid] == [(mid, *t[1:]) for t in p.decisions]
    assert [d for _, d in _deals(store)] == [0, 1, 2]
