"""``batch_gc``: the collector's settings for a batch of games, restored afterwards, and what
the process had frozen before it (a server's heap) left frozen."""

from __future__ import annotations

import gc

from bangarena.harness.simulate import batch_gc


def test_a_batch_freezes_the_heap_and_restores_the_thresholds() -> None:
    old = gc.get_threshold()
    frozen = gc.get_freeze_count()
    gc.unfreeze()  # a process that had frozen nothing (the suite's workers freeze after collection)
    try:
        with batch_gc():
            assert gc.get_freeze_count() > 0
            assert gc.get_threshold() == (100_000, 50, 50)
        assert gc.get_freeze_count() == 0
        assert gc.get_threshold() == old
    finally:
        gc.freeze()
        assert gc.get_freeze_count() >= frozen


def test_what_was_frozen_before_a_batch_stays_frozen() -> None:
    gc.freeze()  # as `bangarena serve` does at start
    before = gc.get_freeze_count()
    with batch_gc():
        pass
    assert gc.get_freeze_count() >= before > 0
