"""Live matches in the store (suite ``live``): each is its own deal, numbered in the order they
are stored, read from an index (no count of every stored live match); a store at schema 0001
is upgraded in place, its rows kept."""

from __future__ import annotations

import asyncio

from evals_support import store_url  # noqa: F401
from sqlalchemy import create_engine, inspect, select, text

from bangarena.evals.live import LIVE_SUITE, LiveParticipant, store_live_match
from bangarena.evals.store import SCHEMA_HEAD, open_store
from bangarena.evals.store.database import VERSION_TABLE, alembic_config
from bangarena.evals.store.tables import MatchRow
from bangarena.harness.match import Match, MatchSettings
from bangarena.harness.seats.factory import build_seat, plan_seat

SEATS = [LiveParticipant("rule", "rule", "rule")] * 4


def _record(seed: int):  # noqa: ANN202
    seats = [build_seat(plan_seat("rule"), seat=i, seed=seed) for i in range(4)]
    return asyncio.run(Match(MatchSettings(seats=4, seed=seed), seats).run())


def _deals(store) -> list[tuple[str, int]]:  # noqa: ANN001
    with store.engine.connect() as conn:
        rows = conn.execute(select(MatchRow.key, MatchRow.deal).order_by(MatchRow.id))
        return [(k, d) for k, d in rows]


def test_live_matches_are_numbered_in_the_order_they_are_stored(store_url: str) -> None:  # noqa: F811
    records = [_record(seed) for seed in (3, 4, 5)]
    with open_store(store_url) as store:
        for rec in records:
            assert store_live_match(store, rec, SEATS) == ("done", None)
        assert _deals(store) == [(r.match_id, i) for i, r in enumerate(records)]
        # the same match again is not written twice, and takes no number
        store_live_match(store, records[0], SEATS)
        assert len(_deals(store)) == 3
        assert LIVE_SUITE in store.suite_names()


def test_the_next_deal_is_read_from_the_index(tmp_path) -> None:  # noqa: ANN001
    url = f"sqlite:///{tmp_path / 'live.db'}"
    open_store(url).close()
    engine = create_engine(url)
    with engine.connect() as conn:
        plan = conn.execute(
            text("EXPLAIN QUERY PLAN SELECT max(deal) FROM matches WHERE suite_id = 1")
        ).all()
    engine.dispose()
    detail = " ".join(str(row[-1]) for row in plan)
    assert "ix_matches_suite_deal" in detail, detail


def test_a_store_at_revision_0001_is_upgraded_and_keeps_its_matches(tmp_path) -> None:  # noqa: ANN001
    from alembic import command

    url = f"sqlite:///{tmp_path / 'old.db'}"
    first = _record(8)
    with open_store(url) as store:
        store_live_match(store, first, SEATS)
    engine = create_engine(url)
    with engine.begin() as conn:  # back to the schema of 0001, its match kept
        cfg = alembic_config()
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0001")
    with engine.connect() as conn:
        assert conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar() == "0001"
        names = {i["name"] for i in inspect(conn).get_indexes("matches")}
        assert "ix_matches_suite_deal" not in names
    engine.dispose()
    with open_store(url) as store:  # upgraded to the head on opening
        with store.engine.connect() as conn:
            version = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
            names = {i["name"] for i in inspect(conn).get_indexes("matches")}
        assert version == SCHEMA_HEAD == "0002"
        assert "ix_matches_suite_deal" in names
        second = _record(9)
        store_live_match(store, second, SEATS)
        assert _deals(store) == [(first.match_id, 0), (second.match_id, 1)]
        assert store.load_record(first.match_id, LIVE_SUITE).model_dump() == first.model_dump()
