"""Migration scripts, oldest first (Alembic skips this file)."""
