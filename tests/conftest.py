"""Suite-wide pytest settings."""

from __future__ import annotations

import os

import pytest


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than the cores this process may use. About a fifth of the
    suite's wall time is spent waiting (browsers, servers on loopback, ``bangarena``
    subprocesses), and the extra worker fills it: 257 s instead of 295 s on 2 cores."""
    return len(os.sched_getaffinity(0)) + 1
