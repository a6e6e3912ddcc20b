"""Alembic environment: migrations run on the connection the store passes in
``config.attributes["connection"]``, inside the store's transaction."""

from __future__ import annotations

from alembic import context

from bangarena.evals.store.database import VERSION_TABLE
from bangarena.evals.store.tables import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("the BangArena store runs its migrations itself: use open_store(url)")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    version_table=VERSION_TABLE,
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
