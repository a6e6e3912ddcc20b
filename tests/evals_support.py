"""Shared pieces of the evals tests: small suites, real match records (played once per process)
and the store URLs to test on (a SQLite file per test; PostgreSQL when BANGARENA_TEST_PG_URL
is set, one database per xdist worker, a fresh schema per test)."""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from bangarena.evals import PlannedMatch, Suite, parse_suite, plan_suite
from bangarena.harness.records import MatchRecord

PG_ENV = "BANGARENA_TEST_PG_URL"

SMALL_SUITE = """
[suite]
name = "small"
seed = 7
deals = 1
design = "rotation"

[[participants]]
id = "rule"
spec = "rule"

[[participants]]
id = "faulty"
spec = "scripted:rule"
options = { faults = { invalid_json = 0.2, illegal_id = 0.1 }, price_input_per_mtok = 1.0, price_output_per_mtok = 2.0 }

[[participants]]
id = "random"
spec = "random"

[[participants]]
id = "scripted"
spec = "scripted:random"

[[tables]]
seats = 4
time_per_move = 30
"""


def small_suite(text: str = SMALL_SUITE) -> Suite:
    """A 4-seat rotation suite of bots and scripted seats (4 matches a deal)."""
    return parse_suite(text, where="small.toml")


@functools.cache
def played(text: str = SMALL_SUITE) -> tuple[tuple[PlannedMatch, MatchRecord], ...]:
    """Every planned match of the suite with its record (played once per process)."""
    plan = plan_suite(small_suite(text))

    async def play_all() -> list[MatchRecord]:
        return [await m.play() for m in plan]

    records = asyncio.run(play_all())
    return tuple(zip(plan, records, strict=True))


def pg_base_url() -> str | None:
    return os.environ.get(PG_ENV) or None


@functools.cache
def _worker_database() -> str:
    """Create (once per process) this xdist worker's own PostgreSQL database; its URL."""
    base = make_url(pg_base_url() or "")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"bangarena_test_{worker}".lower()
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


def fresh_pg_url() -> str:
    """This worker's database with an empty schema."""
    url = _worker_database()
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:  # noqa: ANN001
    """A store URL to test on: a SQLite file, then PostgreSQL when BANGARENA_TEST_PG_URL is set
    (skipped, and saying so, when it is not)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.db'}"
        return
    if pg_base_url() is None:
        pytest.skip(f"{PG_ENV} is not set: PostgreSQL store tests skipped")
    yield fresh_pg_url()
