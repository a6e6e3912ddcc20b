"""An index on matches (suite, deal): the next live match's deal number is read from it
(``max(deal) + 1``, a lookup) instead of counting every stored live match.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_matches_suite_deal", "matches", ["suite_id", "deal"])


def downgrade() -> None:
    op.drop_index("ix_matches_suite_deal", table_name="matches")
