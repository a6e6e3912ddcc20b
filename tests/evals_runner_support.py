"""Shared pieces of the runner tests: small fast suites (bots and scripted seats), running a
suite into a store, and match records compared apart from what a clock decides."""

from __future__ import annotations

from typing import Any

from bangarena.evals import Suite, parse_suite
from bangarena.evals.runner import RunObserver, RunOptions, RunResult, run_suite
from bangarena.evals.store import open_store

RUNNER_SUITE = """
[suite]
name = "runner"
seed = 11
deals = 2
design = "rotation"

[[participants]]
id = "rule"
spec = "rule"

[[participants]]
id = "random"
spec = "random"

[[participants]]
id = "scripted"
spec = "scripted:rule"

[[participants]]
id = "faulty"
spec = "scripted:random"
options = { faults = { invalid_json = 0.15, illegal_id = 0.1 } }

[[tables]]
seats = 4
time_per_move = 30
lineup = ["rule", "faulty", "random", "scripted"]

[[tables]]
seats = 4
mode = "partners"
time_per_move = 30
transcripts = false
lineup = ["scripted", "rule", "faulty", "random"]

[concurrency]
matches = 4
"""
"""16 matches: 2 deals × 2 tables × 4 rotations."""

VOLATILE = frozenset(
    {
        "started_at",
        "finished_at",
        "duration_s",
        "elapsed_s",
        "backoff_s",
        "credited_s",
        "started_s",
        "latency_s",
        "waited_s",
        "mean_latency_s",
        "timeout_s",
        "provenance",
    }
)
"""Record fields a clock decides (timestamps, latencies, the time left when an attempt was
sent) or the command line does: everything else of a bot or scripted match is determined."""


def runner_suite(text: str = RUNNER_SUITE, **replace: str) -> Suite:
    for old, new in replace.items():
        text = text.replace(old, new)
    return parse_suite(text, where="runner.toml")


def comparable(value: Any) -> Any:
    """``value`` (a record as JSON) without its :data:`VOLATILE` fields."""
    if isinstance(value, dict):
        return {k: comparable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [comparable(v) for v in value]
    return value


def stored_records(url: str, suite: str, status: str = "done") -> dict[str, Any]:
    """Every stored record of ``suite`` with ``status``, by key, made comparable."""
    store = open_store(url)
    try:
        return {
            row["key"]: comparable(record)
            for row, record in store.iter_records(suite, status=status)
        }
    finally:
        store.close()


def run(suite: Suite, url: str, observer: RunObserver | None = None, **options: Any) -> RunResult:
    """Run ``suite`` into the store at ``url``."""
    return run_suite(suite, RunOptions(db=url, **options), observer)
