"""The store on SQLite and (with BANGARENA_TEST_PG_URL) PostgreSQL: migrations, round trips of
real match records, keys unique among done rows with void rows beside, one transaction per
match (also under SIGKILL), totals, the newer-schema error, URL handling and the run lock."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from evals_support import played, small_suite, store_url  # noqa: F401
from sqlalchemy import func, insert, select, text
from sqlalchemy.exc import IntegrityError

from bangarena.evals import plan_suite
from bangarena.evals.store import (
    SCHEMA_HEAD,
    LockLost,
    StoreError,
    StoreSchemaError,
    SuiteLocked,
    normalize_url,
    open_store,
    redact_url,
)
from bangarena.evals.store.database import VERSION_TABLE, known_revisions
from bangarena.evals.store.rows import decision_values, prepare_match
from bangarena.evals.store.tables import Base, DecisionRow, LockRow, MatchRow, MatchSeatRow

ROOT = Path(__file__).resolve().parent.parent


def counts(store) -> tuple[int, int, int]:  # noqa: ANN001
    with store.engine.connect() as conn:
        return tuple(
            conn.execute(select(func.count()).select_from(t)).scalar_one()
            for t in (MatchRow, MatchSeatRow, DecisionRow)
        )  # type: ignore[return-value]


def test_schema_is_migrated_and_matches_the_tables(store_url: str) -> None:  # noqa: F811
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    store = open_store(store_url)
    known, heads = known_revisions()
    assert heads == {SCHEMA_HEAD} and SCHEMA_HEAD in known
    with store.engine.connect() as conn:
        assert conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar() == (
            SCHEMA_HEAD
        )
        ctx = MigrationContext.configure(
            conn, opts={"compare_type": True, "version_table": VERSION_TABLE}
        )
        assert compare_metadata(ctx, Base.metadata) == []
    store.close()
    open_store(store_url).close()  # opening again is a no-op


def test_round_trip_of_real_records(store_url: str) -> None:  # noqa: F811
    suite = small_suite()
    pairs = played()
    plan = [m for m, _ in pairs]
    with open_store(store_url) as store:
        store.register_suite(suite, plan)
        assert store.done_keys(suite.name) == set()
        for m, rec in pairs:
            assert store.write_match(m, rec) is True
        assert store.done_keys(suite.name) == {m.key for m in plan}
        for m, rec in pairs:
            assert store.load_record(m.key, suite.name).model_dump() == rec.model_dump()
        rows = {r["key"]: r for r in store.matches(suite.name)}
        for m, rec in pairs:
            row = rows[m.key]
            assert row["status"] == "done" and row["deal_seed"] == m.deal_seed
            assert row["lineup"] == list(m.participants) and row["specs"] == list(m.specs)
            assert row["winner"] == rec.result["winning_team"]
            assert row["winning_seats"] == rec.result["winners"]
            assert row["roles"] == rec.result["roles"]
            assert row["rules_version"] == rec.versions["rules"]
            assert row["record_bytes"] > 0
        status = store.suite_status(suite.name, plan)
        assert status.planned == len(plan) and status.missing == 0 and status.complete


def test_telemetry_rows_cover_every_move(store_url: str) -> None:  # noqa: F811
    suite = small_suite()
    (m, rec), *_ = played()
    with open_store(store_url) as store:
        store.register_suite(suite)
        store.write_match(m, rec)
        with store.engine.connect() as conn:
            rows = [dict(r._mapping) for r in conn.execute(select(DecisionRow.__table__))]
    forced = rec.result["forced"]
    assert len(rows) == len(rec.moves) + forced
    assert sorted(r["idx"] for r in rows) == list(range(len(rows)))
    assert sum(r["how"] == "auto" for r in rows) == forced
    chosen = sorted((r for r in rows if r["how"] != "auto"), key=lambda r: r["move_index"])
    assert [r["move"] for r in chosen] == [mv.move for mv in rec.moves]
    assert [r["participant"] for r in chosen] == [m.participants[mv.seat] for mv in rec.moves]
    assert sum(r["input_tokens"] for r in rows) == rec.totals.match.usage.input_tokens
    assert sum(r["output_tokens"] for r in rows) == rec.totals.match.usage.output_tokens
    faulty_seat = m.participants.index("faulty")
    outcomes = [r["attempt_outcomes"] for r in rows if r["seat"] == faulty_seat]
    assert any("," in o for o in outcomes)  # the injected faults made retries
    assert decision_values(m, rec)[0]["idx"] == 0


def _rows_by_key(store) -> dict[str, tuple]:  # noqa: ANN001
    """Every match's seat and decision rows, by key, without the row ids."""
    out: dict[str, tuple] = {}
    with store.engine.connect() as conn:
        keys = dict(conn.execute(select(MatchRow.id, MatchRow.key)).all())
        seats = conn.execute(select(MatchSeatRow.__table__)).mappings().all()
        decisions = conn.execute(select(DecisionRow.__table__)).mappings().all()
    for mid, key in keys.items():
        out[key] = tuple(
            sorted(
                (
                    tuple(sorted((k, v) for k, v in r.items() if k != "match_id"))
                    for r in rows
                    if r["match_id"] == mid
                ),
                key=repr,
            )
            for rows in (seats, decisions)
        )
    return out


def test_a_batch_is_written_as_its_matches_one_by_one(tmp_path: Path) -> None:
    """write_many inserts a batch with one statement per table: each match keeps its own seat
    and decision rows and its record, as if written alone; a batch with a match done already
    falls back to one transaction per match."""
    suite = small_suite()
    pairs = played()
    plan = [m for m, _ in pairs]
    prepared = [prepare_match(m, rec) for m, rec in pairs]
    assert len(prepared) >= 4
    one, many = open_store(tmp_path / "one.db"), open_store(tmp_path / "many.db")
    for store in (one, many):
        store.register_suite(suite, plan)
    for p in prepared:
        assert one.write_many([p]) == 1
    assert many.write_many(prepared[:3]) == 3
    # prepared[2] is done: the batch is written one by one, the others still go in
    assert many.write_many(prepared[2:]) == len(prepared) - 3
    assert counts(many) == counts(one)
    assert _rows_by_key(many) == _rows_by_key(one)
    for m, rec in pairs:
        assert many.load_record(m.key, suite.name).model_dump() == rec.model_dump()
    one.close()
    many.close()


def test_done_keys_are_unique_and_void_rows_stay_beside(store_url: str) -> None:  # noqa: F811
    suite = small_suite()
    (m, rec), (m2, rec2), *_ = played()
    with open_store(store_url) as store:
        store.register_suite(suite)
        assert store.write_match(m, rec, status="void", void_reason="transport: seat 1") is True
        assert store.done_keys(suite.name) == set()
        assert store.write_match(m, rec, status="void", void_reason="again") is True
        assert store.write_match(m, rec) is True
        before = counts(store)
        assert store.write_match(m, rec) is False  # already done: nothing written
        assert counts(store) == before
        assert store.done_keys(suite.name) == {m.key}
        statuses = sorted(r["status"] for r in store.matches(suite.name) if r["key"] == m.key)
        assert statuses == ["done", "void", "void"]
        # The database itself refuses a second done row (a partial unique index).
        values = {
            **prepare_match(m, rec).match,
            "suite_id": store.suite_id(suite.name),
            "stored_at": datetime.now(UTC),
        }
        with pytest.raises(IntegrityError), store.engine.begin() as conn:
            conn.execute(insert(MatchRow.__table__).values(**values))
        totals = store.totals(suite.name)
        assert totals.matches_done == 1 and totals.matches_void == 2
        assert totals.tokens == 3 * rec.totals.match.usage.total
        with pytest.raises(ValueError, match="needs its reason"):
            store.write_match(m2, rec2, status="void")
        with pytest.raises(ValueError, match="is not planned match"):
            store.write_match(m2, rec)


def test_a_match_is_written_in_one_transaction(
    store_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    suite = small_suite()
    (m, rec), *_ = played()
    with open_store(store_url) as store:
        store.register_suite(suite)

        def broken(self, conn, rows):  # noqa: ANN001, ANN202
            raise RuntimeError("the disk is full")

        monkeypatch.setattr(type(store), "_insert_decisions", broken)
        with pytest.raises(RuntimeError, match="disk is full"):
            store.write_match(m, rec)
        assert counts(store) == (0, 0, 0)
        assert store.done_keys(suite.name) == set()
        monkeypatch.undo()
        assert store.write_match(m, rec) is True
        assert counts(store)[0] == 1


WRITER = """
import pickle, sys
from bangarena.evals.store import open_store
store = open_store(sys.argv[1])
items = pickle.load(open(sys.argv[2], "rb"))
store.register_suite(items["suite"])
print("ready", flush=True)
n = 0
while True:
    for prepared in items["prepared"]:
        store.write_prepared(prepared)
        n += 1
        if n == 3:
            print("written", flush=True)
"""


def test_sigkill_mid_write_leaves_only_whole_matches(tmp_path: Path) -> None:
    """A writer killed at any moment leaves every stored match with all its seats and
    decisions (the void status lets it write the same matches over and over)."""
    import pickle

    suite = small_suite()
    pairs = played()
    prepared = [
        prepare_match(m, rec, status="void", void_reason=f"test {i}")
        for i, (m, rec) in enumerate(pairs)
    ]
    data = tmp_path / "items.pkl"
    data.write_bytes(pickle.dumps({"suite": suite, "prepared": prepared}))
    url = f"sqlite:///{tmp_path / 'killed.db'}"
    open_store(url).close()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "tests")}
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, url, str(data)], stdout=subprocess.PIPE, env=env
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == b"ready"
    assert proc.stdout.readline().strip() == b"written"
    time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    with open_store(url) as store:
        expected = {p.key: (len(p.seats), len(p.decisions)) for p in prepared}
        with store.engine.connect() as conn:
            rows = conn.execute(
                select(
                    MatchRow.id,
                    MatchRow.key,
                    select(func.count())
                    .where(MatchSeatRow.match_id == MatchRow.id)
                    .scalar_subquery(),
                    select(func.count())
                    .where(DecisionRow.match_id == MatchRow.id)
                    .scalar_subquery(),
                )
            ).all()
        assert len(rows) >= 3
        for _, key, seats, decisions in rows:
            assert (seats, decisions) == expected[key]


def test_newer_schema_is_refused(store_url: str) -> None:  # noqa: F811
    open_store(store_url).close()
    store = open_store(store_url)
    with store.engine.begin() as conn:
        conn.execute(text(f"UPDATE {VERSION_TABLE} SET version_num = '9999'"))
    store.close()
    with pytest.raises(StoreSchemaError) as info:
        open_store(store_url)
    message = str(info.value)
    assert "newer BangArena" in message and "9999" in message and "\n" not in message


def test_store_errors_are_one_line_without_credentials(tmp_path: Path) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(StoreError) as info:
        open_store(f"postgresql+psycopg://alice:s3cret@127.0.0.1:{port}/db?connect_timeout=2")
    message = str(info.value)
    assert "cannot connect" in message and "s3cret" not in message and "\n" not in message
    with pytest.raises(StoreError, match="no such folder"):
        open_store(tmp_path / "missing" / "x.db")
    with pytest.raises(StoreError, match="unsupported database"):
        open_store("mysql://u:p@localhost/db")


def test_urls_are_normalized_and_redacted(tmp_path: Path) -> None:
    assert normalize_url(tmp_path / "a.db") == f"sqlite:///{tmp_path / 'a.db'}"
    assert normalize_url("postgres://u@h/d") == "postgresql+psycopg://u@h/d"
    assert normalize_url("postgresql://u@h/d") == "postgresql+psycopg://u@h/d"
    shown = redact_url("postgresql+psycopg://bob:hunter2@db.example:5432/evals?password=x&a=1")
    assert "hunter2" not in shown and "password=x" not in shown and "db.example" in shown
    assert "a=1" in shown
    assert redact_url("sqlite:///tmp/x.db") == "sqlite:///tmp/x.db"


def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    with open_store(tmp_path / "wal.db") as store, store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


def test_register_suite_updates_and_relabels(store_url: str) -> None:  # noqa: F811
    suite = small_suite()
    (m, rec), *_ = played()
    with open_store(store_url) as store:
        store.register_suite(suite)
        store.write_match(m, rec)
        renamed = small_suite(suite.text.replace('id = "random"', 'id = "baseline"'))
        new_plan = plan_suite(renamed)
        assert m.key in {p.key for p in new_plan}  # a rename keeps the keys
        store.register_suite(renamed, new_plan)
        assert store.suite_text(suite.name) == renamed.text
        row = next(r for r in store.matches(suite.name) if r["key"] == m.key)
        assert "baseline" in row["lineup"] and "random" not in row["lineup"]
        with store.engine.connect() as conn:
            seats = set(conn.execute(select(MatchSeatRow.participant)).scalars())
            assert "baseline" in seats and "random" not in seats
        assert store.suite_names() == [suite.name]


# -- the run lock ------------------------------------------------------------------------------
def test_a_second_runner_is_refused_until_release(store_url: str) -> None:  # noqa: F811
    with open_store(store_url) as store:
        lock = store.lock("small")
        with pytest.raises(SuiteLocked) as info:
            store.lock("small")
        message = str(info.value)
        assert f"pid {os.getpid()}" in message and socket.gethostname() in message
        assert "\n" not in message and "--wait" in message
        other = store.lock("another-suite")  # locks are per suite
        other.release()
        lock.heartbeat()
        time.sleep(0.02)
        lock.release(stopped="max_usd")
        store.lock("small").release()
        assert store.totals("small").wall_s > 0


def test_a_stale_lock_is_taken_over(store_url: str) -> None:  # noqa: F811
    with open_store(store_url) as store:
        old = store.lock("small")
        time.sleep(0.2)
        new = store.lock("small", stale_after_s=0.1)
        with pytest.raises(LockLost):
            old.heartbeat()
        assert old.lost
        new.release()


def test_a_dead_holder_on_this_host_is_taken_over_at_once(store_url: str) -> None:  # noqa: F811
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    now = time.time()
    with open_store(store_url) as store:
        with store.engine.begin() as conn:
            conn.execute(
                insert(LockRow).values(
                    suite="small",
                    run_id="0" * 32,
                    pid=dead.pid,
                    host=socket.gethostname(),
                    acquired_at=now,
                    heartbeat_at=now,
                )  # fmt: skip
            )
        store.lock("small").release()  # not stale by time, but its process is gone


def test_wait_takes_the_lock_when_it_is_released(store_url: str) -> None:  # noqa: F811
    with open_store(store_url) as store:
        held = store.lock("small")
        threading.Timer(0.3, held.release).start()
        started = time.monotonic()
        got = store.lock("small", wait=True, timeout_s=10, poll_s=0.05)
        assert time.monotonic() - started >= 0.25
        got.release()
        held2 = store.lock("small")
        with pytest.raises(SuiteLocked):
            store.lock("small", wait=True, timeout_s=0.2, poll_s=0.05)
        held2.release()


def test_heartbeat_thread_keeps_the_lock(store_url: str) -> None:  # noqa: F811
    with open_store(store_url) as store:
        lock = store.lock("small")
        lock.start_heartbeat(interval_s=0.05)
        time.sleep(0.3)
        with pytest.raises(SuiteLocked):
            store.lock("small", stale_after_s=0.2)
        lock.release()
        assert lock.released


def test_adding_deals_leaves_only_the_new_deals_missing(store_url: str) -> None:  # noqa: F811
    suite = small_suite()
    with open_store(store_url) as store:
        store.register_suite(suite)
        for m, rec in played():
            store.write_match(m, rec)
        bigger = small_suite(suite.text.replace("deals = 1", "deals = 3"))
        plan = plan_suite(bigger)
        store.register_suite(bigger, plan)
        status = store.suite_status(suite.name, plan)
        assert status.planned == 12 and status.missing == 8
        missing = [m for m in plan if m.key not in store.done_keys(suite.name)]
        assert {m.deal for m in missing} == {1, 2}


def test_default_store_url(tmp_path: Path) -> None:
    from bangarena.evals.store import DB_ENV, default_store_url

    suite_file = tmp_path / "suites" / "quick.toml"
    assert default_store_url("quick", suite_file, environ={}) == (
        f"sqlite:///{tmp_path / 'suites' / 'quick.db'}"
    )
    assert default_store_url("quick", suite_file, environ={DB_ENV: "postgres://u@h/d"}) == (
        "postgresql+psycopg://u@h/d"
    )


def test_stored_suite_text_has_no_credentials(tmp_path: Path) -> None:
    with_password = small_suite().text.replace(
        'spec = "random"', 'spec = "openai:m@http://alice:s3cret@127.0.0.1:8000/v1"'
    )
    suite = small_suite(with_password)
    with open_store(tmp_path / "c.db") as store:
        store.register_suite(suite, plan_suite(suite))
        assert "s3cret" not in store.suite_text(suite.name)
        with store.engine.connect() as conn:
            specs = list(conn.execute(text("SELECT spec FROM participants")).scalars())
        assert specs and not any("s3cret" in s for s in specs)
