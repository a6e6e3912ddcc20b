"""Shared request limits for providers: a static cap per provider and an adaptive (AIMD) limit
per model, applied by :class:`LimitedProvider` around any :class:`~.base.Provider`.

An :class:`AdaptiveLimit` admits requests while fewer than ``current`` are in flight. On a 429
(``ProviderError`` kind ``rate_limit``) it halves (at least 1), remembers the concurrency that
was refused, and pauses every new request for the Retry-After the provider gave; after
successes it grows back by one per ``current`` successes (additive increase), up to one below
the refused level, and probes that level again only after ``probe_after_s`` without a 429.
So against a provider that refuses above *K* concurrent requests the limit settles at *K*.

Limits are asyncio objects of one event loop at a time (one runner, or one worker process,
per loop). Waiting for a slot never runs past the attempt's own timeout: a request that gets no
slot in time fails as a ``rate_limit`` transport error, which is never the model's fault.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from .base import Provider, ProviderError, ProviderReply, ProviderRequest

if TYPE_CHECKING:
    from ..model_spec import ModelOptions, ModelSpec

DEFAULT_PROBE_AFTER_S: Final = 60.0
"""Seconds without a 429 before a limit may grow past the level that was refused."""
MAX_PAUSE_S: Final = 120.0
"""The longest Retry-After honoured as a pause of every request (a bogus header is cut)."""
SLOT_MARGIN_S: Final = 0.05
"""A slot is waited for until this long before the attempt's timeout, so the wait fails as a
transport error of ours rather than as the model's timeout."""

Observer = Callable[[str], None]
"""Told the outcome of every attempt: ``ok`` or the ProviderError kind (``rate_limit``,
``server``, ``connection``, ``timeout``, ``bad_request``, ``auth``), or ``cancelled``."""


class _Waiter:
    __slots__ = ("event",)

    def __init__(self) -> None:
        self.event = asyncio.Event()


class AdaptiveLimit:
    """Requests in flight for one model (or, with ``adaptive=False``, a fixed cap for one
    provider). ``maximum`` None: no ceiling until the provider refuses a request."""

    def __init__(
        self,
        name: str,
        maximum: int | None = None,
        *,
        adaptive: bool = True,
        probe_after_s: float = DEFAULT_PROBE_AFTER_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if maximum is not None and maximum < 1:
            raise ValueError(f"limit {name!r}: maximum {maximum} must be at least 1")
        self.name = name
        self.maximum = maximum
        self.adaptive = adaptive
        self.probe_after_s = probe_after_s
        self._clock = clock
        self._limit: float = float(maximum) if maximum is not None else math.inf
        self.in_flight = 0
        self.peak_in_flight = 0
        self.paused_until = 0.0
        self.refused_level: int | None = None
        """The concurrency at which the provider last answered 429 (None: never)."""
        self.last_cut_at: float | None = None
        self.rate_limited = 0
        self.cuts = 0
        self.successes = 0
        self.slot_timeouts = 0
        self._waiters: deque[_Waiter] = deque()

    # -- reading -----------------------------------------------------------------------------
    @property
    def current(self) -> int | None:
        """The limit now (None: unlimited)."""
        return None if math.isinf(self._limit) else max(1, int(self._limit))

    @property
    def waiting(self) -> int:
        return len(self._waiters)

    def snapshot(self) -> dict[str, Any]:
        """A JSON-ready picture (for progress displays and reports)."""
        return {
            "limit": self.current,
            "maximum": self.maximum,
            "in_flight": self.in_flight,
            "waiting": self.waiting,
            "peak_in_flight": self.peak_in_flight,
            "rate_limited": self.rate_limited,
            "cuts": self.cuts,
            "refused_level": self.refused_level,
            "slot_timeouts": self.slot_timeouts,
        }

    # -- slots -------------------------------------------------------------------------------
    def _free(self) -> bool:
        return self.in_flight < self._limit and self._clock() >= self.paused_until

    async def acquire(self, timeout: float | None = None) -> int:
        """Take a slot (waiting in FIFO order); returns the number in flight with this one.
        Raises TimeoutError when none is free within ``timeout`` seconds."""
        if not self._waiters and self._free():
            return self._take()
        loop = asyncio.get_running_loop()
        end = None if timeout is None else loop.time() + timeout
        me = _Waiter()
        self._waiters.append(me)
        try:
            while True:
                if self._waiters[0] is me and self._free():
                    self._waiters.popleft()
                    taken = self._take()
                    self._wake()  # the next one may fit too
                    return taken
                wait = None if end is None else end - loop.time()
                pause = self.paused_until - self._clock()
                if pause > 0:
                    wait = pause if wait is None else min(wait, pause)
                if wait is not None and wait <= 0:
                    if end is not None and loop.time() >= end:
                        self.slot_timeouts += 1
                        raise TimeoutError(f"no request slot of {self.name} free in time")
                    continue
                me.event.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(me.event.wait(), wait)
        except BaseException:
            if me in self._waiters:
                head = self._waiters[0] is me
                self._waiters.remove(me)
                if head:
                    self._wake()
            raise

    def _take(self) -> int:
        self.in_flight += 1
        self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        return self.in_flight

    def _wake(self) -> None:
        if self._waiters:
            self._waiters[0].event.set()

    def release(
        self, outcome: str = "ok", *, sent_at: int | None = None, retry_after: float | None = None
    ) -> None:
        """Give a slot back with the attempt's outcome (``ok``, ``rate_limit`` or another
        error kind; ``sent_at``: how many were in flight when it was sent)."""
        # The concurrency the provider refused: what was in flight when this request went out
        # or when its 429 came back, whichever was more (requests sent after it may have
        # reached the provider first).
        level = max(sent_at or 0, self.in_flight)
        self.in_flight = max(0, self.in_flight - 1)
        if outcome == "rate_limit":
            self.rate_limited += 1
            if self.adaptive:
                self._cut(max(1, level))
            if retry_after:
                until = self._clock() + min(retry_after, MAX_PAUSE_S)
                self.paused_until = max(self.paused_until, until)
        elif outcome == "ok":
            self.successes += 1
            if self.adaptive:
                self._grow()
        self._wake()

    def _cut(self, level: int) -> None:
        now = self._clock()
        if self.refused_level is not None and self._recently_cut(now):
            level = min(self.refused_level, level)
        self.refused_level = level
        base = min(self._limit, float(level))
        self._limit = max(1.0, math.floor(base / 2))
        self.last_cut_at = now
        self.cuts += 1

    def _recently_cut(self, now: float) -> bool:
        return self.last_cut_at is not None and now - self.last_cut_at < self.probe_after_s

    def _grow(self) -> None:
        if math.isinf(self._limit):
            return
        ceiling = float(self.maximum) if self.maximum is not None else math.inf
        if self.refused_level is not None:
            if self._recently_cut(self._clock()):
                ceiling = min(ceiling, float(self.refused_level - 1))
            else:
                self.refused_level = None  # long enough without a 429: probe upwards again
        if self._limit >= ceiling:
            self._limit = max(1.0, min(self._limit, ceiling)) if ceiling >= 1 else 1.0
            return
        grown = self._limit + 1.0 / max(1.0, math.floor(self._limit))
        if self.maximum is None and self.refused_level is None and grown > self.peak_in_flight + 1:
            # Nothing refused and no ceiling: stop counting up past what was ever used.
            self._limit = math.inf
            return
        self._limit = min(grown, ceiling)


@dataclass(frozen=True, slots=True)
class LimitKey:
    """Which model a limit belongs to."""

    provider: str
    model: str
    base_url: str | None

    def label(self) -> str:
        where = f"@{self.base_url}" if self.base_url else ""
        return f"{self.provider}:{self.model}{where}"


def _share(limit: int | None, share: float) -> int | None:
    return None if limit is None else max(1, math.floor(limit * share))


class ProviderLimits:
    """Every limit of one run (one event loop): a fixed cap per provider (``per_provider``)
    and an adaptive limit per model (its ceiling: the model's ``concurrency`` option). With
    ``share`` < 1 each cap is this process's part of a limit that is global for the suite
    (``1 / workers``)."""

    def __init__(
        self,
        per_provider: Mapping[str, int] | None = None,
        *,
        share: float = 1.0,
        probe_after_s: float = DEFAULT_PROBE_AFTER_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not 0 < share <= 1:
            raise ValueError(f"share {share} must be within (0, 1]")
        self.share = share
        self.probe_after_s = probe_after_s
        self._clock = clock
        self.providers: dict[str, AdaptiveLimit] = {
            name: AdaptiveLimit(
                name, _share(limit, share), adaptive=False, probe_after_s=probe_after_s,
                clock=clock,
            )
            for name, limit in (per_provider or {}).items()
        }  # fmt: skip
        self.models: dict[LimitKey, AdaptiveLimit] = {}

    def model_limit(self, spec: ModelSpec, options: ModelOptions | None) -> AdaptiveLimit:
        """The adaptive limit of ``spec`` (made on first use)."""
        key = LimitKey(spec.provider, spec.model, spec.base_url)
        found = self.models.get(key)
        if found is None:
            ceiling = _share(options.concurrency if options is not None else None, self.share)
            found = AdaptiveLimit(
                key.label(), ceiling, probe_after_s=self.probe_after_s, clock=self._clock
            )
            self.models[key] = found
        return found

    def wrap(
        self,
        provider: Provider,
        spec: ModelSpec,
        options: ModelOptions | None = None,
        *,
        observer: Observer | None = None,
        refuse: Callable[[], str | None] | None = None,
    ) -> LimitedProvider:
        """``provider`` behind this run's limits for ``spec`` (``observer``: told every
        attempt's outcome; ``refuse``: asked before each attempt for a reason to fail it at
        once, e.g. an open circuit breaker)."""
        return LimitedProvider(
            provider,
            self.model_limit(spec, options),
            self.providers.get(spec.provider),
            observer=observer,
            refuse=refuse,
        )

    def snapshot(self) -> dict[str, dict[str, Any]]:
        """Every limit's picture, providers first (``provider:NAME``), then models."""
        out = {f"provider:{k}": v.snapshot() for k, v in self.providers.items()}
        out.update({k.label(): v.snapshot() for k, v in self.models.items()})
        return out


class LimitedProvider:
    """A provider whose every attempt takes a slot of its model's limit (and of its provider's
    cap), reports 429s to the limit, and tells an observer each attempt's outcome. Everything
    else is the wrapped provider's."""

    def __init__(
        self,
        inner: Provider,
        model: AdaptiveLimit,
        provider: AdaptiveLimit | None = None,
        *,
        observer: Observer | None = None,
        refuse: Callable[[], str | None] | None = None,
    ) -> None:
        self.inner = inner
        self.name = inner.name
        self.model_limit = model
        self.provider_limit = provider
        self.observer = observer
        self.refuse = refuse

    def __getattr__(self, item: str) -> Any:
        # Only called for what this wrapper lacks: the wrapped provider's own attributes.
        return getattr(self.inner, item)

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        if self.refuse is not None:
            why = self.refuse()
            if why:
                # Not retryable, so the seat gives the decision to the autopilot at once.
                raise ProviderError("bad_request", why)
        loop = asyncio.get_running_loop()
        started = loop.time()
        budget = max(0.0, req.timeout_s - SLOT_MARGIN_S)
        limits = [self.model_limit] + ([self.provider_limit] if self.provider_limit else [])
        held: list[tuple[AdaptiveLimit, int]] = []
        try:
            # The model's slot first, then the provider's: a request waiting on its model never
            # holds a slot other models of the provider could use.
            for limit in limits:
                left = budget - (loop.time() - started)
                try:
                    held.append((limit, await limit.acquire(max(0.0, left))))
                except TimeoutError:
                    raise ProviderError(
                        "rate_limit",
                        f"no request slot free within {req.timeout_s:.1f}s ({limit.name}: "
                        f"limit {limit.current}, {limit.in_flight} in flight)",
                    ) from None
        except BaseException as exc:
            for limit, _ in held:
                limit.release("cancelled")
            if isinstance(exc, ProviderError):
                self._tell(exc.kind)
            raise
        waited = loop.time() - started
        if waited > 0.001:
            req = req.model_copy(update={"timeout_s": max(0.001, req.timeout_s - waited)})
        outcome, retry_after = "cancelled", None
        try:
            reply = await self.inner.complete(req)
            outcome = "ok"
            return reply
        except ProviderError as exc:
            outcome, retry_after = exc.kind, exc.retry_after
            raise
        except Exception:
            outcome = "bad_request"
            raise
        finally:
            for limit, sent_at in held:
                limit.release(outcome, sent_at=sent_at, retry_after=retry_after)
            self._tell(outcome)

    def _tell(self, outcome: str) -> None:
        if self.observer is not None:
            self.observer(outcome)

    async def aclose(self) -> None:
        await self.inner.aclose()


__all__ = [
    "DEFAULT_PROBE_AFTER_S",
    "AdaptiveLimit",
    "LimitKey",
    "LimitedProvider",
    "Observer",
    "ProviderLimits",
]
