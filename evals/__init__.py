"""Evaluation suites: a TOML suite file (:mod:`.suite`), deal seeds (:mod:`.seeds`), the plan of
duplicate-deal matches (:mod:`.schedule`, :mod:`.pool`), match keys (:mod:`.keys`), the store
(:mod:`.store`, SQLite or PostgreSQL) and exports (:mod:`.export`).

```python
from bangarena.evals import load_suite, plan_suite
from bangarena.evals.store import open_store

suite = load_suite("examples/quickstart.toml")
plan = plan_suite(suite)
store = open_store("quickstart.db")
```

The store and the exporter import SQLAlchemy and pyarrow, so they are imported from their own
modules, not from here; so is the runner (:mod:`.runner`: ``run_suite(suite, RunOptions(...))``,
what ``bangarena eval`` runs), with its backends (:mod:`.backends`), budgets (:mod:`.budget`),
circuit breakers (:mod:`.breakers`), the playing of one match (:mod:`.execute`, :mod:`.spool`),
the live display (:mod:`.progress`), the per-participant summary (:mod:`.summary`) and the dry
run's estimates (:mod:`.plan_estimate`).
"""

from .keys import BOT_VERSIONS, match_key
from .schedule import PlannedMatch, PlannedSeat, plan_suite
from .seeds import deal_seed
from .suite import Suite, SuiteError, check_api_keys, load_suite, parse_suite, suite_json_schema

__all__ = [
    "BOT_VERSIONS",
    "PlannedMatch",
    "PlannedSeat",
    "Suite",
    "SuiteError",
    "check_api_keys",
    "deal_seed",
    "load_suite",
    "match_key",
    "parse_suite",
    "plan_suite",
    "suite_json_schema",
]
