"""The cyclic collector's passes of a server process, for ``service_load.py --gc``.

On ``PYTHONPATH``, Python imports this module at start-up in every process. When
``BANGARENA_GC_TRACE`` names a file, each finished collection appends one line to it: the
monotonic time it started, its generation and the CPU milliseconds it took (the process's CPU
clock: the store thread's work during a pass counts too, as it would in the server's CPU).
Without the variable it does nothing.
"""

from __future__ import annotations

import gc
import os
import time

_PATH = os.environ.get("BANGARENA_GC_TRACE")

if _PATH:
    # open for the process's whole life: each pass appends a line
    _out = open(_PATH, "a", buffering=1, encoding="utf-8")  # noqa: SIM115
    _started: dict[int, tuple[float, float]] = {}

    def _trace(phase: str, info: dict) -> None:
        generation = info["generation"]
        if phase == "start":
            _started[generation] = (time.monotonic(), time.process_time())
            return
        at, cpu = _started.pop(generation, (time.monotonic(), time.process_time()))
        _out.write(f"{at:.6f} {generation} {(time.process_time() - cpu) * 1e3:.3f}\n")

    gc.callbacks.append(_trace)
