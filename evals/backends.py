"""Where a run's matches are played: in the driver's own event loop (``local``), in worker
processes (``processes``, a ProcessPoolExecutor), or as Ray tasks (``ray``).

Every backend plays batches of planned matches, each batch on asyncio with many matches in
flight, and hands back :class:`BatchResult` objects (prepared rows, counts, breaker trips, the
limits' state). The driver is the single writer: it alone talks to the store. Worker processes
keep one event loop, one set of limits and one set of breakers for their whole life, so an
adaptive limit learnt in one batch holds in the next; each worker's limits are its share
(``1 / workers``) of the suite's.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, Protocol

from bangarena.harness.providers.limits import ProviderLimits
from bangarena.harness.providers.sdk_client import keep_clients_open
from bangarena.harness.records import INFRASTRUCTURE_THRESHOLD
from bangarena.harness.simulate import batch_gc

from .breakers import DEFAULT_MAX_FAILURES, CircuitBreakers
from .execute import MatchOutcome, PlayContext, Tally, play_planned
from .process_pool import process_pool
from .schedule import PlannedMatch

BackendName = Literal["local", "processes", "ray"]
BACKENDS: Final = ("local", "processes", "ray")
DEFAULT_MATCHES_IN_FLIGHT: Final = 64
MAX_BATCH: Final = 32
"""The most matches a worker is sent at once (results come back a batch at a time)."""


class BackendError(RuntimeError):
    """A backend that cannot start (Ray missing, a cluster that cannot be reached); one line."""


@dataclass(frozen=True, slots=True)
class WorkerConfig:
    """What every worker is built with (it pickles)."""

    per_provider: Mapping[str, int]
    share: float = 1.0
    concurrency: int = DEFAULT_MATCHES_IN_FLIGHT
    """Matches in flight within one worker."""
    max_failures: int = DEFAULT_MAX_FAILURES
    threshold: float = INFRASTRUCTURE_THRESHOLD
    command: tuple[str, ...] | None = None
    spool: bool = True
    keep_records: bool = False


@dataclass
class BatchResult:
    """What a batch gave: its outcomes, the decisions counted while it ran (None when they
    were counted live, in the driver's loop), the breakers its worker has open, the limits."""

    outcomes: list[MatchOutcome]
    tally: Tally | None = None
    trips: dict[str, str] = field(default_factory=dict)
    limits: dict[str, dict[str, Any]] = field(default_factory=dict)
    worker: str = ""


async def play_batch(batch: Sequence[PlannedMatch], ctx: PlayContext, concurrency: int):
    """Play ``batch`` with at most ``concurrency`` matches at once; outcomes in batch order."""
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(planned: PlannedMatch) -> MatchOutcome:
        async with gate:
            return await play_planned(planned, ctx)

    return list(await asyncio.gather(*(one(m) for m in batch)))


# -- worker processes (and Ray workers) ---------------------------------------------------------
class _WorkerState:
    def __init__(self, config: WorkerConfig) -> None:
        self.config = config
        self.loop = asyncio.new_event_loop()
        keep_clients_open(self.loop)  # one SDK client per provider for the worker's life
        self.limits = ProviderLimits(config.per_provider, share=config.share)
        self.breakers = CircuitBreakers(config.max_failures)


_STATE: _WorkerState | None = None


def _worker_state(config: WorkerConfig) -> _WorkerState:
    global _STATE
    if _STATE is None or _STATE.config != config:
        if _STATE is not None:
            _STATE.loop.close()
        _STATE = _WorkerState(config)
    return _STATE


def run_batch(
    config: WorkerConfig, batch: Sequence[PlannedMatch], tripped: Mapping[str, str]
) -> BatchResult:
    """Play one batch in this worker process (its persistent loop, limits and breakers)."""
    state = _worker_state(config)
    state.breakers.merge(tripped)
    state.breakers.drain()
    ctx = PlayContext(
        limits=state.limits,
        breakers=state.breakers,
        command=config.command,
        threshold=config.threshold,
        spool=config.spool,
        keep_records=config.keep_records,
    )
    with batch_gc():
        outcomes = state.loop.run_until_complete(play_batch(batch, ctx, config.concurrency))
    return BatchResult(
        outcomes=outcomes,
        tally=ctx.tally,
        trips=dict(state.breakers.reasons),
        limits=state.limits.snapshot(),
        worker=str(os.getpid()),
    )


# -- the backends -------------------------------------------------------------------------------
class Backend(Protocol):
    """What the driver needs of a backend."""

    name: str
    slots: int
    """Batches the driver keeps in flight."""

    def batch_size(self, remaining: int) -> int: ...

    async def run(self, batch: list[PlannedMatch], tripped: Mapping[str, str]) -> BatchResult: ...

    def live_spend(self) -> tuple[float, int]: ...

    def limits(self) -> dict[str, dict[str, Any]]: ...

    def close(self) -> None: ...


class LocalBackend:
    """Every match in the driver's event loop, one match per batch, decisions counted live."""

    name = "local"

    def __init__(
        self,
        config: WorkerConfig,
        breakers: CircuitBreakers,
        tally: Tally,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.config = config
        self.slots = max(1, config.concurrency)
        self.ctx = PlayContext(
            limits=ProviderLimits(config.per_provider),
            breakers=breakers,
            tally=tally,
            environ=environ,
            command=config.command,
            threshold=config.threshold,
            spool=config.spool,
            keep_records=config.keep_records,
        )

    def batch_size(self, remaining: int) -> int:
        return 1

    async def run(self, batch: list[PlannedMatch], tripped: Mapping[str, str]) -> BatchResult:
        return BatchResult([await play_planned(m, self.ctx) for m in batch])

    def live_spend(self) -> tuple[float, int]:
        return self.ctx.live_spend()

    def limits(self) -> dict[str, dict[str, Any]]:
        return self.ctx.limits.snapshot()

    def close(self) -> None:
        return None


class _PooledBackend:
    """What the processes and Ray backends share: batches sized to keep every worker busy,
    limits as the workers last reported them."""

    name = "pooled"

    def __init__(self, config: WorkerConfig, workers: int) -> None:
        self.config = config
        self.workers = workers
        # Two batches per worker: the next one is queued when a worker finishes its batch.
        self.slots = 2 * workers
        self._limits: dict[str, dict[str, dict[str, Any]]] = {}

    def batch_size(self, remaining: int) -> int:
        # Small batches early in a long queue would waste round trips; big ones at the end
        # would leave workers idle: a share of what is left, within [1, per-worker limit].
        share = math.ceil(remaining / (self.slots * 2))
        return max(1, min(share, self.config.concurrency, MAX_BATCH))

    def _note(self, result: BatchResult) -> BatchResult:
        if result.limits:
            self._limits[result.worker] = result.limits
        return result

    def live_spend(self) -> tuple[float, int]:
        return 0.0, 0  # counted when a batch returns

    def limits(self) -> dict[str, dict[str, Any]]:
        """Each limit summed over the workers (limits and requests in flight add up)."""
        out: dict[str, dict[str, Any]] = {}
        for snap in self._limits.values():
            for name, s in snap.items():
                have = out.setdefault(name, {"limit": 0, "in_flight": 0, "rate_limited": 0})
                if s.get("limit") is None or have["limit"] is None:
                    have["limit"] = None
                else:
                    have["limit"] += s["limit"]
                have["in_flight"] += s.get("in_flight", 0)
                have["rate_limited"] += s.get("rate_limited", 0)
        return out


class ProcessBackend(_PooledBackend):
    """Worker processes (spawned: a forked child would inherit the driver's running loop)."""

    name = "processes"

    def __init__(self, config: WorkerConfig, workers: int) -> None:
        super().__init__(config, workers)
        self.pool = process_pool(workers)

    async def run(self, batch: list[PlannedMatch], tripped: Mapping[str, str]) -> BatchResult:
        future = self.pool.submit(run_batch, self.config, batch, dict(tripped))
        return self._note(await asyncio.wrap_future(future))

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


class RayBackend(_PooledBackend):
    """Ray tasks on a cluster (``address``) or a local one started here with ``workers``
    CPUs; the driver shuts down only a cluster it started."""

    name = "ray"

    def __init__(self, config: WorkerConfig, workers: int | None, address: str | None) -> None:
        try:
            import ray
        except ImportError:
            raise BackendError(
                "--backend ray needs the ray package: pip install 'bangarena[ray]'"
            ) from None
        self.ray = ray
        self.owned = False
        address = address or os.environ.get("RAY_ADDRESS") or None
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {
                "include_dashboard": False,
                "log_to_driver": False,
                "configure_logging": False,
            }
            if address:
                kwargs["address"] = address
            elif workers:
                kwargs["num_cpus"] = workers
            try:
                ray.init(**kwargs)
            except Exception as exc:  # noqa: BLE001 — ray raises many kinds; one line for each
                where = f"at {address!r}" if address else "locally"
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                raise BackendError(f"cannot start Ray {where}: {first}") from None
            self.owned = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        super().__init__(config, max(1, workers or cpus))
        self._task = ray.remote(num_cpus=1, max_retries=0)(run_batch)

    async def run(self, batch: list[PlannedMatch], tripped: Mapping[str, str]) -> BatchResult:
        ref = self._task.remote(self.config, batch, dict(tripped))
        return self._note(await ref)

    def close(self) -> None:
        if self.owned:
            with contextlib.suppress(Exception):
                self.ray.shutdown()


def default_workers() -> int:
    """The core count this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def make_backend(
    name: str,
    config: WorkerConfig,
    *,
    breakers: CircuitBreakers,
    tally: Tally,
    workers: int | None = None,
    ray_address: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> Backend:
    """The backend called ``name`` (``environ``: where the local backend's seats read their
    API keys; workers read their own environment); raises BackendError when it cannot
    start."""
    if name == "local":
        return LocalBackend(config, breakers, tally, environ)
    if name == "processes":
        return ProcessBackend(config, workers or default_workers())
    if name == "ray":
        return RayBackend(config, workers, ray_address)
    raise BackendError(f"unknown backend {name!r}; valid: {', '.join(BACKENDS)}")


def worker_share(workers: int) -> float:
    """Each worker's share of a suite-wide limit."""
    return 1.0 / max(1, workers)


__all__ = [
    "BACKENDS",
    "DEFAULT_MATCHES_IN_FLIGHT",
    "Backend",
    "BackendError",
    "BackendName",
    "BatchResult",
    "LocalBackend",
    "ProcessBackend",
    "RayBackend",
    "WorkerConfig",
    "default_workers",
    "make_backend",
    "play_batch",
    "run_batch",
    "worker_share",
]
