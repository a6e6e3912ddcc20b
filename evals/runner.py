"""The evaluation runner: play every missing match of a suite, within its budgets, at full
concurrency, and store each one as it finishes.

```python
from bangarena.evals import load_suite
from bangarena.evals.runner import RunOptions, run_suite

result = run_suite(load_suite("examples/quickstart.toml"), RunOptions(db="quickstart.db"))
print(result.to_json(), result.exit_code)
```

What a run does, in order — everything that can be wrong with the input is found before any
match starts (:class:`RunInputError`, one line):

1. plan the suite; check model participants' API keys; open (and migrate) the store;
2. take the suite's run lock (a second runner is refused, or waits with ``wait``);
3. register the suite, and skip every planned match the store already holds as ``done``
   (a re-run, or a run after a crash, plays only what is missing);
4. start matches deal by deal on the backend, while no budget is reached and no breaker
   stops their participants; store each finished match in one transaction, ``done`` or
   ``void`` (:mod:`.execute`);
5. release the lock with the reason the run stopped, and sum up (:class:`RunResult`).

Exit codes (:attr:`RunResult.exit_code`): 0 complete, 1 an engine invariant broke (a match
raised), 2 bad input, 3 infrastructure failure (a circuit breaker tripped, or matches were
void), 4 incomplete (a budget or ``max_matches`` stopped it).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import deque
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final

from bangarena.harness.pricing import prepare_prices
from bangarena.harness.providers.sdk_client import keep_clients
from bangarena.harness.records import INFRASTRUCTURE_THRESHOLD
from bangarena.harness.simulate import batch_gc

from .backends import (
    DEFAULT_MATCHES_IN_FLIGHT,
    Backend,
    BackendError,
    BatchResult,
    WorkerConfig,
    default_workers,
    make_backend,
    worker_share,
)
from .breakers import DEFAULT_MAX_FAILURES, CircuitBreakers, Trip
from .budget import BudgetState, StopReason
from .execute import MatchOutcome, Tally
from .schedule import PlannedMatch, plan_suite
from .store import (
    Store,
    StoreError,
    SuiteLocked,
    default_store_url,
    open_store,
    redact_url,
)
from .suite import Suite, SuiteError, check_api_keys
from .summary import ParticipantSummary, participant_summaries

EXIT_COMPLETE: Final = 0
EXIT_ENGINE: Final = 1
EXIT_BAD_INPUT: Final = 2
EXIT_INFRASTRUCTURE: Final = 3
EXIT_INCOMPLETE: Final = 4
TICK_S: Final = 0.25
"""How often the driver looks at budgets and tells the display, at the least."""
JSON_KEYS: Final = (
    "suite",
    "db",
    "matches_planned",
    "matches_done",
    "matches_void",
    "matches_run_now",
    "matches_reused",
    "stopped",
    "breakers",
)


class RunInputError(ValueError):
    """Input that stops a run before any match starts (exit 2); ``str()`` is one line."""


@dataclass
class RunOptions:
    """How to run a suite (none of it changes a match key)."""

    db: str | None = None
    """Store URL or SQLite path (default: ``BANGARENA_DB``, else ``<name>.db`` by the file)."""
    backend: str = "local"
    workers: int | None = None
    """Worker processes or Ray CPUs (default: the core count; Ray: the cluster's CPUs)."""
    ray_address: str | None = None
    max_matches: int | None = None
    """Start at most this many matches in this run."""
    wait: bool = False
    """Wait for another runner of the suite to finish instead of refusing."""
    wait_timeout_s: float | None = None
    environ: Mapping[str, str] | None = None
    command: Sequence[str] | None = None
    """The command line, for the records' provenance."""
    max_failures: int = DEFAULT_MAX_FAILURES
    threshold: float = INFRASTRUCTURE_THRESHOLD
    spool: bool = True
    keep_records: bool = False
    """Keep each match record on its outcome (tests and benchmarks; costs memory)."""


@dataclass
class RunView:
    """The state of a run, as the live display shows it."""

    suite: str
    db: str
    backend: str
    planned: int
    reused: int
    to_run: int
    started_at: float
    done_now: int = 0
    void_now: int = 0
    errors: int = 0
    started: int = 0
    in_flight: int = 0
    tally: Tally = field(default_factory=Tally)
    cost_before: float = 0.0
    cost_now: float = 0.0
    limits: dict[str, dict[str, Any]] = field(default_factory=dict)
    stopped: StopReason | None = None
    stop_detail: str | None = None
    breakers: list[Trip] = field(default_factory=list)

    @property
    def finished_now(self) -> int:
        return self.done_now + self.void_now + self.errors

    @property
    def elapsed_s(self) -> float:
        return time.monotonic() - self.started_at

    @property
    def matches_per_s(self) -> float:
        t = self.elapsed_s
        return self.finished_now / t if t > 0 else 0.0

    @property
    def model_decisions_per_s(self) -> float:
        t = self.elapsed_s
        return self.tally.model_decisions / t if t > 0 else 0.0

    @property
    def eta_s(self) -> float | None:
        left = self.to_run - self.finished_now
        rate = self.matches_per_s
        if left <= 0:
            return 0.0
        return left / rate if rate > 0 else None

    @property
    def autopilot_rate(self) -> float | None:
        d = self.tally.decisions
        return sum(self.tally.autopilot.values()) / d if d else None


class RunObserver:
    """What a run tells its display (every method optional to override)."""

    def start(self, view: RunView) -> None:
        """The run is about to start its first match."""

    def tick(self, view: RunView) -> None:
        """Something changed (called at least every :data:`TICK_S` seconds)."""

    def stored(self, view: RunView, outcome: MatchOutcome) -> None:
        """A match was stored (or failed)."""

    def finish(self, view: RunView) -> None:
        """No match is left in flight."""


@dataclass
class RunResult:
    """How a run ended; :meth:`to_json` gives exactly :data:`JSON_KEYS`."""

    suite: str
    db: str
    matches_planned: int
    matches_done: int
    matches_void: int
    matches_run_now: int
    matches_reused: int
    stopped: StopReason | None
    breakers: list[Trip]
    stop_detail: str | None = None
    errors: list[str] = field(default_factory=list)
    """One line per match that raised (an engine invariant broke)."""
    setup_errors: list[str] = field(default_factory=list)
    void_reasons: list[str] = field(default_factory=list)
    participants: list[ParticipantSummary] = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)
    wall_s: float = 0.0
    outcomes: list[MatchOutcome] = field(default_factory=list, repr=False)
    """Every outcome of this run, without its rows once they are stored (records only with
    ``keep_records``)."""
    limits: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return self.matches_done == self.matches_planned

    @property
    def exit_code(self) -> int:
        """0 complete, 1 engine error, 3 infrastructure failure, 4 incomplete."""
        if self.errors:
            return EXIT_ENGINE
        if self.breakers or self.matches_void or self.setup_errors:
            return EXIT_INFRASTRUCTURE
        if not self.complete:
            return EXIT_INCOMPLETE
        return EXIT_COMPLETE

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object."""
        return {
            "suite": self.suite,
            "db": self.db,
            "matches_planned": self.matches_planned,
            "matches_done": self.matches_done,
            "matches_void": self.matches_void,
            "matches_run_now": self.matches_run_now,
            "matches_reused": self.matches_reused,
            "stopped": self.stopped,
            "breakers": [t.to_dict() for t in self.breakers],
        }


@dataclass
class Prepared:
    """A run ready to start: checked input, an open store, the plan."""

    suite: Suite
    plan: list[PlannedMatch]
    store: Store
    url: str

    def close(self) -> None:
        self.store.close()


def store_url_for(suite: Suite, db: str | None, environ: Mapping[str, str] | None) -> str:
    """The store a run of ``suite`` uses (``db`` given, else the default)."""
    try:
        if db is not None:
            from .store import normalize_url

            return normalize_url(db)
        return default_store_url(suite.name, suite.path, environ)
    except StoreError as exc:
        raise RunInputError(str(exc)) from None


def prepare_run(suite: Suite, options: RunOptions) -> Prepared:
    """Every check that needs no match: keys, the backend's name, the store (connect,
    migrate); raises :class:`RunInputError`."""
    if options.backend not in ("local", "processes", "ray"):
        raise RunInputError(
            f"--backend {options.backend!r}: valid backends are local, processes, ray"
        )
    if options.workers is not None and options.workers < 1:
        raise RunInputError(f"--workers {options.workers}: at least 1")
    if options.max_matches is not None and options.max_matches < 0:
        raise RunInputError(f"--max-matches {options.max_matches}: at least 0")
    try:
        check_api_keys(suite, options.environ)
    except SuiteError as exc:
        raise RunInputError(str(exc)) from None
    for p in suite.file.participants:
        if p.plan.kind == "model" and p.plan.spec is not None:
            # The price table (litellm's cost map: seconds to load) now, not inside the loop
            # while the first matches wait.
            prepare_prices(p.plan.spec, p.plan.options)
    plan = plan_suite(suite)
    url = store_url_for(suite, options.db, options.environ)
    try:
        store = open_store(url)
    except StoreError as exc:
        raise RunInputError(str(exc)) from None
    return Prepared(suite, plan, store, url)


def _matches_in_flight(suite: Suite) -> int:
    c = suite.file.concurrency
    return c.matches if c is not None and c.matches is not None else DEFAULT_MATCHES_IN_FLIGHT


def _per_provider(suite: Suite) -> dict[str, int]:
    c = suite.file.concurrency
    return dict(c.per_provider) if c is not None else {}


def worker_config(suite: Suite, options: RunOptions, workers: int) -> WorkerConfig:
    """Each worker's part of the suite's limits."""
    total = _matches_in_flight(suite)
    return WorkerConfig(
        per_provider=_per_provider(suite),
        share=worker_share(workers),
        concurrency=max(1, math.ceil(total / workers)),
        max_failures=options.max_failures,
        threshold=options.threshold,
        command=tuple(options.command) if options.command is not None else None,
        spool=options.spool,
        keep_records=options.keep_records,
    )


def run_suite(
    suite: Suite, options: RunOptions | None = None, observer: RunObserver | None = None
) -> RunResult:
    """Run ``suite`` to its end (or its budget); raises :class:`RunInputError` before any match
    starts when the input is bad."""
    options = options or RunOptions()
    prepared = prepare_run(suite, options)
    try:
        return asyncio.run(arun(prepared, options, observer or RunObserver()))
    finally:
        prepared.close()


async def arun(prepared: Prepared, options: RunOptions, observer: RunObserver) -> RunResult:
    """Run a prepared suite in the running event loop."""
    suite, plan, store = prepared.suite, prepared.plan, prepared.store
    try:
        lock = store.lock(suite.name, wait=options.wait, timeout_s=options.wait_timeout_s)
    except SuiteLocked as exc:
        raise RunInputError(str(exc)) from None
    stopped: str | None = "interrupted"  # what the runs table says unless the run ends
    try:
        lock.start_heartbeat()
        store.register_suite(suite, plan)
        done_before = store.done_keys(suite.name)
        missing = [m for m in plan if m.key not in done_before]
        budget = BudgetState(suite.file.budget, options.max_matches, store.totals(suite.name))
        breakers = CircuitBreakers(options.max_failures)
        tally = Tally()
        if options.backend == "local":
            workers = 1
        elif options.backend == "processes":
            workers = options.workers or default_workers()
        else:
            workers = options.workers or 0  # the cluster's CPUs, known once Ray is up
        try:
            backend = make_backend(
                options.backend,
                worker_config(suite, options, max(1, workers)),
                breakers=breakers,
                tally=tally,
                workers=workers or None,
                ray_address=options.ray_address,
                environ=options.environ,
            )
        except BackendError as exc:
            raise RunInputError(str(exc)) from None
        if options.backend == "ray" and not workers:
            # Now the cluster's size is known: split the limits across its workers.
            backend.config = worker_config(suite, options, backend.workers)  # type: ignore[attr-defined]
        view = RunView(
            suite=suite.name,
            db=redact_url(prepared.url),
            backend=backend.name,
            planned=len(plan),
            reused=len(plan) - len(missing),
            to_run=len(missing),
            started_at=time.monotonic(),
            tally=tally,
            cost_before=budget.before.cost_usd,
        )
        try:
            # Matches allocate millions of short-lived acyclic objects: keep the cyclic GC's
            # young passes (and full passes over every live match) out of the way.
            # keep_clients: the SDK clients stay open between this loop's matches.
            with batch_gc():
                async with keep_clients():
                    result = await _drive(store, backend, missing, budget, breakers, view, observer)
        finally:
            backend.close()
        stopped = result.stopped
        done_after = store.done_keys(suite.name)
        result.matches_done = sum(1 for m in plan if m.key in done_after)
        result.participants = participant_summaries(
            store, suite.name, [p.id for p in suite.file.participants]
        )
        return result
    except (KeyboardInterrupt, asyncio.CancelledError):
        raise
    except BaseException:
        stopped = "error"
        raise
    finally:
        lock.release(stopped)


async def _drive(
    store: Store,
    backend: Backend,
    missing: list[PlannedMatch],
    budget: BudgetState,
    breakers: CircuitBreakers,
    view: RunView,
    observer: RunObserver,
) -> RunResult:
    """Start, collect and store matches until none is left or a budget stops new ones."""
    queue: deque[PlannedMatch] = deque(missing)
    blocked: list[PlannedMatch] = []
    running: dict[asyncio.Future[BatchResult], list[PlannedMatch]] = {}
    result = RunResult(
        suite=view.suite,
        db=view.db,
        matches_planned=view.planned,
        matches_done=0,
        matches_void=0,
        matches_run_now=0,
        matches_reused=view.reused,
        stopped=None,
        breakers=[],
    )
    writer = ThreadPoolExecutor(1, thread_name_prefix="store-writer")
    loop = asyncio.get_running_loop()
    observer.start(view)
    last_tick = 0.0
    ended = False
    try:
        while True:
            while view.stopped is None and queue and len(running) < backend.slots:
                reason = budget.reached(*backend.live_spend())
                if reason is not None:
                    view.stopped = reason
                    view.stop_detail = budget.describe(reason, *backend.live_spend())
                    break
                size = backend.batch_size(len(queue))
                if budget.max_matches is not None:
                    size = min(size, budget.max_matches - budget.started)
                batch = _take(queue, size, breakers, blocked)
                if not batch:
                    break
                budget.started += len(batch)
                view.started = budget.started
                task = asyncio.ensure_future(backend.run(batch, dict(breakers.reasons)))
                running[task] = batch
            view.in_flight = sum(len(b) for b in running.values())
            if not running:
                break
            finished, _ = await asyncio.wait(
                running, timeout=TICK_S, return_when=asyncio.FIRST_COMPLETED
            )
            results: list[BatchResult] = []
            for task in finished:
                batch = running.pop(task)
                try:
                    results.append(task.result())
                except Exception as exc:  # noqa: BLE001 — a worker died (OOM, a lost Ray node)
                    why = f"its worker failed: {type(exc).__name__}: {exc}"
                    results.append(
                        BatchResult(
                            [
                                MatchOutcome(m.key, "error", reason=why, error_kind="setup")
                                for m in batch
                            ]
                        )
                    )
            if results:
                # Every batch that finished while the last write ran goes in one transaction
                # (one commit, one statement per table): with the local backend's one-match
                # batches the writes group themselves as the run speeds up.
                await _store_batches(
                    store, writer, loop, results, budget, breakers, view, result, observer
                )
            now = time.monotonic()
            if finished or now - last_tick >= TICK_S:
                last_tick = now
                view.limits = backend.limits()
                view.breakers = breakers.trips()
                view.cost_now = budget.cost_usd + backend.live_spend()[0]
                observer.tick(view)
        ended = True
    finally:
        for task in running:
            task.cancel()
        if running:
            await asyncio.gather(*running, return_exceptions=True)
        writer.shutdown(wait=True)
        if not ended:  # interrupted: let the display give the terminal back
            with contextlib.suppress(Exception):
                observer.finish(view)
    if queue and view.stopped is None:
        view.stopped = budget.reached() or "max_matches"
    if blocked and view.stopped is None:
        view.stopped = "circuit_breaker"
    if view.stopped is None and breakers.reasons:
        view.stopped = "circuit_breaker"
    if view.stopped == "circuit_breaker" and view.stop_detail is None:
        view.stop_detail = budget.describe("circuit_breaker")
    view.breakers = breakers.trips()
    view.limits = backend.limits()
    observer.finish(view)
    result.stopped = view.stopped
    result.stop_detail = view.stop_detail
    result.breakers = view.breakers
    result.tally = view.tally
    result.wall_s = view.elapsed_s
    result.limits = view.limits
    return result


def _take(
    queue: deque[PlannedMatch], size: int, breakers: CircuitBreakers, blocked: list[PlannedMatch]
) -> list[PlannedMatch]:
    """Up to ``size`` matches from the queue whose participants' breakers are all closed (the
    others are set aside: they do not start in this run)."""
    batch: list[PlannedMatch] = []
    while queue and len(batch) < size:
        m = queue.popleft()
        if any(breakers.is_open(p) for p in m.participants):
            blocked.append(m)
            continue
        batch.append(m)
    return batch


async def _store_batches(
    store: Store,
    writer: ThreadPoolExecutor,
    loop: asyncio.AbstractEventLoop,
    batches: list[BatchResult],
    budget: BudgetState,
    breakers: CircuitBreakers,
    view: RunView,
    result: RunResult,
    observer: RunObserver,
) -> None:
    """Write the batches' matches (on the writer thread, so the loop plays on meanwhile), then
    count them one by one, telling the observer after each: its counts then move one match at a
    time even when several matches were written in one transaction."""
    for batch in batches:
        if batch.tally is not None:
            view.tally.merge(batch.tally)
        breakers.merge(batch.trips)
    outcomes = [o for batch in batches for o in batch.outcomes]
    to_write = [o.prepared for o in outcomes if o.prepared is not None]
    if to_write:
        await loop.run_in_executor(writer, _write_all, store, to_write)
    for o in outcomes:
        o.prepared = None  # stored: a long run must not hold every match's rows
        result.outcomes.append(o)
        _count(o, budget, view, result)
        observer.stored(view, o)


def _count(o: MatchOutcome, budget: BudgetState, view: RunView, result: RunResult) -> None:
    """Add one stored match to the run's counts and the budget."""
    if o.status == "error":
        (result.errors if o.error_kind == "engine" else result.setup_errors).append(
            f"match {o.key}: {o.reason}"
        )
        view.errors += 1
        return
    budget.add_stored(o.cost_usd, o.tokens)
    result.matches_run_now += 1
    if o.status == "void":
        result.matches_void += 1
        view.void_now += 1
        if o.reason:
            result.void_reasons.append(f"match {o.key}: {o.reason}")
    else:
        view.done_now += 1


def _write_all(store: Store, prepared: list[Any]) -> None:
    store.write_many(prepared)


__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_COMPLETE",
    "EXIT_ENGINE",
    "EXIT_INCOMPLETE",
    "EXIT_INFRASTRUCTURE",
    "JSON_KEYS",
    "Prepared",
    "RunInputError",
    "RunObserver",
    "RunOptions",
    "RunResult",
    "RunView",
    "arun",
    "prepare_run",
    "run_suite",
    "store_url_for",
    "worker_config",
]
