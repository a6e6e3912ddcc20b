"""The store's tables (SQLAlchemy 2 ORM). Their history is the migrations in ``migrations/``;
``tests/test_evals_store.py`` checks that these classes and the migrated schema agree."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

JSONType = JSON().with_variant(JSONB(), "postgresql")
DONE_ONLY = text("status = 'done'")

# Named constraints, so migrations on both dialects name them the same way.
NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {dict[str, Any]: JSONType, list[Any]: JSONType}


class SuiteRow(Base):
    """A suite, identified by its name; its latest file text and hash."""

    __tablename__ = "suites"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    hash: Mapped[str] = mapped_column(String(64))
    file_text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ParticipantRow(Base):
    """A participant of a suite: its spec, its options (all that were set) and the versions its
    play depends on."""

    __tablename__ = "participants"

    suite_id: Mapped[int] = mapped_column(
        ForeignKey("suites.id", ondelete="CASCADE"), primary_key=True
    )
    participant: Mapped[str] = mapped_column(String(100), primary_key=True)
    spec: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]]
    play_options: Mapped[dict[str, Any]]
    versions: Mapped[dict[str, Any]]
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MatchRow(Base):
    """One stored match: ``done`` (unique per suite and key) or ``void`` (kept beside)."""

    __tablename__ = "matches"
    __table_args__ = (
        Index(
            "uq_matches_done_key",
            "suite_id",
            "key",
            unique=True,
            sqlite_where=DONE_ONLY,
            postgresql_where=DONE_ONLY,
        ),
        Index("ix_matches_suite_status", "suite_id", "status"),
        # the next live match's deal number is max(deal) + 1 (evals.live)
        Index("ix_matches_suite_deal", "suite_id", "deal"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(64), index=True)
    suite_id: Mapped[int] = mapped_column(ForeignKey("suites.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(8))
    void_reason: Mapped[str | None] = mapped_column(Text)
    table_index: Mapped[int] = mapped_column(Integer)
    table_config: Mapped[dict[str, Any]]
    seats: Mapped[int] = mapped_column(Integer)
    mode: Mapped[str] = mapped_column(String(32))
    lang: Mapped[str] = mapped_column(String(8))
    deal: Mapped[int] = mapped_column(Integer)
    deal_seed: Mapped[int] = mapped_column(BigInteger)
    rotation: Mapped[int] = mapped_column(Integer)
    lineup: Mapped[list[Any]]
    specs: Mapped[list[Any]]
    roles: Mapped[list[Any]]
    rules_version: Mapped[str] = mapped_column(String(64))
    engine_version: Mapped[str] = mapped_column(String(32))
    prompt_version: Mapped[str | None] = mapped_column(String(64))
    versions: Mapped[dict[str, Any]]
    winner: Mapped[str | None] = mapped_column(String(16))
    winning_seats: Mapped[list[Any]]
    end_reason: Mapped[str | None] = mapped_column(String(64))
    rounds: Mapped[int] = mapped_column(Integer)
    decisions: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    duration_s: Mapped[float] = mapped_column(Float)
    stored_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    cost_usd: Mapped[float] = mapped_column(Float)
    input_tokens: Mapped[int] = mapped_column(BigInteger)
    output_tokens: Mapped[int] = mapped_column(BigInteger)
    record_format: Mapped[str] = mapped_column(String(16))
    record_bytes: Mapped[int] = mapped_column(Integer)
    record: Mapped[bytes] = mapped_column(LargeBinary)


class MatchSeatRow(Base):
    """Who sat where in a match, and how that seat did (for per-participant queries)."""

    __tablename__ = "match_seats"

    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    participant: Mapped[str] = mapped_column(String(100), index=True)
    spec: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(String(16))
    role: Mapped[str | None] = mapped_column(String(16))
    won: Mapped[bool] = mapped_column(Boolean)
    decisions: Mapped[int] = mapped_column(Integer)
    answered: Mapped[int | None] = mapped_column(Integer)
    first_try_valid: Mapped[int | None] = mapped_column(Integer)
    autopilot_moves: Mapped[int] = mapped_column(Integer)
    input_tokens: Mapped[int] = mapped_column(BigInteger)
    output_tokens: Mapped[int] = mapped_column(BigInteger)
    cost_usd: Mapped[float | None] = mapped_column(Float)


class DecisionRow(Base):
    """Per-decision telemetry: every move of a match in order (``how`` ``chosen`` or
    ``autopilot`` for the seats' decisions, ``auto`` for the engine's forced moves)."""

    __tablename__ = "decisions"

    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    move_index: Mapped[int | None] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    participant: Mapped[str] = mapped_column(String(100))
    decision: Mapped[str | None] = mapped_column(String(32))
    legal: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(Text)
    how: Mapped[str] = mapped_column(String(10))
    outcome: Mapped[str | None] = mapped_column(String(16))
    attempts: Mapped[int] = mapped_column(Integer)
    retries: Mapped[int] = mapped_column(Integer)
    attempt_outcomes: Mapped[str] = mapped_column(Text)
    """Each attempt's outcome, comma-separated ("" without attempts)."""
    input_tokens: Mapped[int] = mapped_column(Integer)
    output_tokens: Mapped[int] = mapped_column(Integer)
    cached_tokens: Mapped[int] = mapped_column(Integer)
    reasoning_tokens: Mapped[int] = mapped_column(Integer)
    cost_usd: Mapped[float | None] = mapped_column(Float)
    latency_s: Mapped[float] = mapped_column(Float)
    elapsed_s: Mapped[float] = mapped_column(Float)
    autopilot_reason: Mapped[str | None] = mapped_column(String(16))


class RunRow(Base):
    """One run of a suite (for cumulative wall-time budgets and ``suites status``)."""

    __tablename__ = "runs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    suite: Mapped[str] = mapped_column(String(100), index=True)
    pid: Mapped[int] = mapped_column(Integer)
    host: Mapped[str] = mapped_column(String(255))
    started_at: Mapped[float] = mapped_column(Float)
    heartbeat_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float)
    wall_s: Mapped[float] = mapped_column(Float)
    stopped: Mapped[str | None] = mapped_column(String(32))


class LockRow(Base):
    """The run lock of a suite: held by one run, stale when its heartbeat is old (or, on the
    same host, when its process is gone)."""

    __tablename__ = "run_locks"

    suite: Mapped[str] = mapped_column(String(100), primary_key=True)
    run_id: Mapped[str] = mapped_column(String(32))
    pid: Mapped[int] = mapped_column(Integer)
    host: Mapped[str] = mapped_column(String(255))
    acquired_at: Mapped[float] = mapped_column(Float)
    heartbeat_at: Mapped[float] = mapped_column(Float)


__all__ = [
    "Base",
    "DecisionRow",
    "LockRow",
    "MatchRow",
    "MatchSeatRow",
    "ParticipantRow",
    "RunRow",
    "SuiteRow",
]
