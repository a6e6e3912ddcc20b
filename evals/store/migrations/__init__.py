"""Alembic migrations of the evaluation store, run in code by :func:`bangarena.evals.store.open_store`
(``script_location`` is this folder). Add one with ``python -m bangarena.evals.store.revision
"message"``."""
