"""The pool of worker processes that the ``processes`` backend plays its batches on, and that
``bangarena simulate --workers N`` plays its chunks of games on."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor


def process_pool(workers: int) -> ProcessPoolExecutor:
    """``workers`` worker processes, spawned: a forked child would inherit the parent's running
    event loop (and its threads). A spawned child inherits the environment, so a
    ``BANGARENA_ENGINE=compiled`` parent has compiled workers."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
