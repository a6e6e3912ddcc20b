"""The initial schema: suites, participants, matches (done or void, the record compressed),
match seats, per-decision telemetry, runs and the run lock.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DONE_ONLY = sa.text("status = 'done'")


def _json() -> sa.types.TypeEngine:
    return sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def _when() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "suites",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.Column("file_text", sa.Text(), nullable=False),
        sa.Column("created_at", _when(), nullable=False),
        sa.Column("updated_at", _when(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_suites")),
        sa.UniqueConstraint("name", name=op.f("uq_suites_name")),
    )
    op.create_table(
        "participants",
        sa.Column("suite_id", sa.Integer(), nullable=False),
        sa.Column("participant", sa.String(length=100), nullable=False),
        sa.Column("spec", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("options", _json(), nullable=False),
        sa.Column("play_options", _json(), nullable=False),
        sa.Column("versions", _json(), nullable=False),
        sa.Column("updated_at", _when(), nullable=False),
        sa.ForeignKeyConstraint(
            ["suite_id"],
            ["suites.id"],
            name=op.f("fk_participants_suite_id_suites"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("suite_id", "participant", name=op.f("pk_participants")),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("suite_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("void_reason", sa.Text(), nullable=True),
        sa.Column("table_index", sa.Integer(), nullable=False),
        sa.Column("table_config", _json(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("mode", sa.String(length=32), nullable=False),
        sa.Column("lang", sa.String(length=8), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("deal_seed", sa.BigInteger(), nullable=False),
        sa.Column("rotation", sa.Integer(), nullable=False),
        sa.Column("lineup", _json(), nullable=False),
        sa.Column("specs", _json(), nullable=False),
        sa.Column("roles", _json(), nullable=False),
        sa.Column("rules_version", sa.String(length=64), nullable=False),
        sa.Column("engine_version", sa.String(length=32), nullable=False),
        sa.Column("prompt_version", sa.String(length=64), nullable=True),
        sa.Column("versions", _json(), nullable=False),
        sa.Column("winner", sa.String(length=16), nullable=True),
        sa.Column("winning_seats", _json(), nullable=False),
        sa.Column("end_reason", sa.String(length=64), nullable=True),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("started_at", _when(), nullable=False),
        sa.Column("finished_at", _when(), nullable=False),
        sa.Column("duration_s", sa.Float(), nullable=False),
        sa.Column("stored_at", _when(), nullable=False),
        sa.Column("cost_usd", sa.Float(), nullable=False),
        sa.Column("input_tokens", sa.BigInteger(), nullable=False),
        sa.Column("output_tokens", sa.BigInteger(), nullable=False),
        sa.Column("record_format", sa.String(length=16), nullable=False),
        sa.Column("record_bytes", sa.Integer(), nullable=False),
        sa.Column("record", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["suite_id"],
            ["suites.id"],
            name=op.f("fk_matches_suite_id_suites"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_matches")),
    )
    op.create_index(op.f("ix_matches_key"), "matches", ["key"])
    op.create_index("ix_matches_suite_status", "matches", ["suite_id", "status"])
    # Keys are unique among done matches only: void rows stay beside the done re-run.
    op.create_index(
        "uq_matches_done_key",
        "matches",
        ["suite_id", "key"],
        unique=True,
        sqlite_where=DONE_ONLY,
        postgresql_where=DONE_ONLY,
    )
    op.create_table(
        "match_seats",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("participant", sa.String(length=100), nullable=False),
        sa.Column("spec", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=True),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("answered", sa.Integer(), nullable=True),
        sa.Column("first_try_valid", sa.Integer(), nullable=True),
        sa.Column("autopilot_moves", sa.Integer(), nullable=False),
        sa.Column("input_tokens", sa.BigInteger(), nullable=False),
        sa.Column("output_tokens", sa.BigInteger(), nullable=False),
        sa.Column("cost_usd", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_match_seats_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", "seat", name=op.f("pk_match_seats")),
    )
    op.create_index(op.f("ix_match_seats_participant"), "match_seats", ["participant"])
    op.create_table(
        "decisions",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("move_index", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("participant", sa.String(length=100), nullable=False),
        sa.Column("decision", sa.String(length=32), nullable=True),
        sa.Column("legal", sa.Integer(), nullable=False),
        sa.Column("move", sa.Text(), nullable=False),
        sa.Column("how", sa.String(length=10), nullable=False),
        sa.Column("outcome", sa.String(length=16), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("retries", sa.Integer(), nullable=False),
        sa.Column("attempt_outcomes", sa.Text(), nullable=False),
        sa.Column("input_tokens", sa.Integer(), nullable=False),
        sa.Column("output_tokens", sa.Integer(), nullable=False),
        sa.Column("cached_tokens", sa.Integer(), nullable=False),
        sa.Column("reasoning_tokens", sa.Integer(), nullable=False),
        sa.Column("cost_usd", sa.Float(), nullable=True),
        sa.Column("latency_s", sa.Float(), nullable=False),
        sa.Column("elapsed_s", sa.Float(), nullable=False),
        sa.Column("autopilot_reason", sa.String(length=16), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_decisions_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", "idx", name=op.f("pk_decisions")),
    )
    op.create_table(
        "runs",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("suite", sa.String(length=100), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=False),
        sa.Column("heartbeat_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.Column("wall_s", sa.Float(), nullable=False),
        sa.Column("stopped", sa.String(length=32), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_runs")),
    )
    op.create_index(op.f("ix_runs_suite"), "runs", ["suite"])
    op.create_table(
        "run_locks",
        sa.Column("suite", sa.String(length=100), nullable=False),
        sa.Column("run_id", sa.String(length=32), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("acquired_at", sa.Float(), nullable=False),
        sa.Column("heartbeat_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("suite", name=op.f("pk_run_locks")),
    )


def downgrade() -> None:
    for table in (
        "run_locks",
        "runs",
        "decisions",
        "match_seats",
        "matches",
        "participants",
        "suites",
    ):
        op.drop_table(table)
