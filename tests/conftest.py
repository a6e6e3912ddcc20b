"""Suite-wide pytest settings."""

from __future__ import annotations

import gc
import os

import pytest

# The first generation collected every 10,000 new objects instead of 700, from collection on
# (as `harness.simulate.batch_gc` does for bot batches): the tests allocate millions of
# short-lived, acyclic objects that reference counting frees at once, and the frequent young
# passes found nothing (the GC time of the suite went from 31 CPU-s to 8; collection is ~6 %
# faster).
gc.set_threshold(10_000, 20, 20)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than the cores this process may use. About a fifth of the
    suite's wall time is spent waiting (browsers, servers on loopback, ``bangarena``
    subprocesses), and the extra worker fills it: 257 s instead of 295 s on 2 cores."""
    return len(os.sched_getaffinity(0)) + 1


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests that import litellm run first, one after the other. Importing it costs ~6 s of
    CPU in each process that does (it builds ~2,500 pydantic models). pytest-xdist's worksteal
    hands the first tests to one worker and steals from the end of a worker's queue, so these
    stay together there instead of making every worker pay for the import."""
    items.sort(key=_after_the_litellm_tests)  # stable: the order is kept otherwise


def _after_the_litellm_tests(item: pytest.Item) -> bool:
    return "litellm" not in item.nodeid.lower() and "test_providers_pricing" not in item.nodeid


def pytest_collection_finish(session: pytest.Session) -> None:
    """Move everything collection allocated (the test items, ~450,000 objects of imported
    modules) out of the garbage collector's sight: its full collections would otherwise walk
    them again and again, and a test's own garbage is all it needs to look at. ~9 % less CPU
    in the conformance games."""
    gc.collect()
    gc.freeze()
