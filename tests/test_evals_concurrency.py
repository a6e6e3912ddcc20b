"""Shared request limits: the AIMD limit (halve on a 429, honour Retry-After, grow back, settle
below the refused level), the provider wrapper, one SDK client per (provider, base URL, key,
loop), and a suite against a fake OpenAI server (the real SDK) that answers 429 above K
concurrent requests: it finishes, its limit settles at ≤ K, and no 429 counts against the
model."""

from __future__ import annotations

import asyncio

import pytest
from evals_runner_support import run, runner_suite
from fakes import FakeBehaviour, FakeServer, actions

from bangarena.harness.model_spec import ModelOptions, parse_model_spec
from bangarena.harness.providers import ProviderError, get_provider
from bangarena.harness.providers.base import ProviderReply, ProviderRequest, Usage
from bangarena.harness.providers.limits import AdaptiveLimit, ProviderLimits
from bangarena.harness.providers.sdk_client import keep_clients, shared_client_count


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_aimd_halves_on_a_429_grows_back_and_settles_below_the_refused_level() -> None:
    clock = Clock()
    lim = AdaptiveLimit("m", None, probe_after_s=60, clock=clock)
    assert lim.current is None  # nothing refused yet: no limit
    lim.in_flight = lim.peak_in_flight = 9
    lim.release("rate_limit", sent_at=9)  # the 9th concurrent request was refused
    assert lim.current == 4 and lim.refused_level == 9 and lim.cuts == 1
    for _ in range(200):
        lim.in_flight = 1
        lim.release("ok")
    assert lim.current == 8  # grew back one per window, up to one below the refused level
    clock.now += 61  # a minute without a 429: it may probe the refused level again
    for _ in range(10):
        lim.in_flight = 1
        lim.release("ok")
    assert lim.current is not None and lim.current > 8
    for _ in range(40):
        lim.in_flight = 1
        lim.release("ok")
    assert lim.current is None  # past the most ever used, and nothing refused: no limit
    lim.in_flight = 1
    lim.release("rate_limit", sent_at=2)
    assert lim.current == 1  # halved, never below 1
    lim.release("rate_limit", sent_at=1)
    assert lim.current == 1


def test_a_ceiling_is_never_passed_and_a_fixed_cap_never_moves() -> None:
    lim = AdaptiveLimit("m", 3)
    for _ in range(50):
        lim.in_flight = 1
        lim.release("ok")
    assert lim.current == 3
    fixed = AdaptiveLimit("openai", 5, adaptive=False)
    fixed.in_flight = 5
    fixed.release("rate_limit", sent_at=5)
    assert fixed.current == 5 and fixed.rate_limited == 1


async def test_slots_are_fifo_and_retry_after_pauses_everyone() -> None:
    lim = AdaptiveLimit("m", 1)
    order: list[int] = []

    async def user(i: int) -> None:
        await lim.acquire()
        order.append(i)
        await asyncio.sleep(0.01)
        lim.release("ok")

    await asyncio.gather(*(user(i) for i in range(5)))
    assert order == [0, 1, 2, 3, 4] and lim.peak_in_flight == 1

    await lim.acquire()
    lim.release("rate_limit", sent_at=1, retry_after=0.2)
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    await lim.acquire()
    assert loop.time() - t0 >= 0.18  # the provider's Retry-After held the next request back
    with pytest.raises(TimeoutError):
        await lim.acquire(timeout=0.05)  # the one slot is taken
    assert lim.slot_timeouts == 1 and lim.waiting == 0
    lim.release("ok")


class Flaky:
    """A provider that answers 429 while more than ``k`` calls are in flight."""

    name = "openai"

    def __init__(self, k: int) -> None:
        self.k, self.in_flight, self.peak = k, 0, 0

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            await asyncio.sleep(0.002)
            if self.in_flight > self.k:
                raise ProviderError("rate_limit", "too many", status=429)
            return ProviderReply(
                text="{}", finish_reason="stop", usage=Usage(), model_id="m", latency_s=0.0,
                request_params={}, sdk="test",
            )  # fmt: skip
        finally:
            self.in_flight -= 1

    async def aclose(self) -> None:
        return None


async def test_the_wrapper_learns_the_providers_limit_and_tells_the_observer() -> None:
    inner = Flaky(3)
    limits = ProviderLimits({"openai": 50})
    seen: list[str] = []
    p = limits.wrap(inner, parse_model_spec("openai:m"), observer=seen.append)
    req = ProviderRequest(
        model="m", system="s", messages=[], answer_mode="text", answer_schema={}, timeout_s=5
    )

    async def ask() -> None:
        for _ in range(30):
            try:
                await p.complete(req)
                return
            except ProviderError:
                await asyncio.sleep(0.001)

    await asyncio.gather(*(ask() for _ in range(40)))
    lim = limits.models[next(iter(limits.models))]
    assert lim.current is not None and lim.current <= 3
    assert seen.count("ok") == 40 and "rate_limit" in seen
    snap = limits.snapshot()
    assert snap["provider:openai"]["limit"] == 50 and snap["openai:m"]["rate_limited"] > 0

    refusing = limits.wrap(inner, parse_model_spec("openai:m"), refuse=lambda: "breaker open")
    with pytest.raises(ProviderError) as err:
        await refusing.complete(req)
    assert err.value.kind == "bad_request" and not err.value.retryable


def test_limits_are_split_across_workers() -> None:
    limits = ProviderLimits({"openai": 32, "anthropic": 1}, share=0.25)
    assert limits.providers["openai"].current == 8 and limits.providers["anthropic"].current == 1
    lim = limits.model_limit(parse_model_spec("openai:m"), ModelOptions(concurrency=10))
    assert lim.current == 2


async def test_one_sdk_client_per_provider_url_key_and_loop(monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    url = "http://127.0.0.1:9/v1"
    priced = ModelOptions(price_input_per_mtok=0.0, price_output_per_mtok=0.0)
    a = get_provider(f"openai:m1@{url}", priced)
    b = get_provider(f"openai:m2@{url}", priced)  # another model, same server and key: one client
    c = get_provider(f"openai:m1@{url}", priced, environ={"OPENAI_API_KEY": "sk-other"})
    assert a._sdk_client.shared and b._sdk_client.shared
    ca, cb = a._sdk_client.bound(), b._sdk_client.bound()
    assert ca is cb
    monkeypatch.setenv("BANGARENA_HTTP_TRANSPORT", "httpx")
    d = get_provider(f"openai:m1@{url}", priced)
    assert d._sdk_client.bound() is not ca  # another transport: another client
    assert shared_client_count() >= 2
    await a.aclose()
    assert not ca.is_closed()  # b still uses it
    await b.aclose()
    assert ca.is_closed()
    await c.aclose()
    await d.aclose()

    def other_loop() -> object:
        async def go() -> object:
            async with keep_clients():
                p = get_provider(f"openai:m1@{url}", priced)
                client = p._sdk_client.bound()
                await p.aclose()
                assert not client.is_closed()  # kept between matches
            assert client.is_closed()
            return client

        return asyncio.run(go())

    assert await asyncio.to_thread(other_loop) is not ca


CONCURRENCY_SUITE = """
[suite]
name = "limited"
seed = 3
deals = 1

[[participants]]
id = "fake"
spec = "openai:gpt-fake@URL"
# Prices given: no need to load litellm's cost map (seconds of CPU) in the test process.
options = { temperature = 0.0, price_input_per_mtok = 0.0, price_output_per_mtok = 0.0 }

[[participants]]
id = "rule"
spec = "rule"

[[tables]]
seats = 4
time_per_move = 30
transcripts = false
lineup = ["fake", "rule", "rule", "rule"]

[concurrency]
matches = 4
"""
K = 2


def test_a_suite_against_a_server_that_refuses_above_k_settles_at_k(tmp_path, monkeypatch):  # noqa: ANN001
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    state = {"in_flight": 0, "peak": 0, "refused": 0}

    def decide(body: dict) -> actions.Action:
        if state["in_flight"] > K:
            state["refused"] += 1
            return actions.rate_limit(0.02)
        return actions.slow(0.01)

    server = FakeServer("openai", FakeBehaviour(fn=decide))

    @server.app.middleware("http")
    async def count(request, call_next):  # noqa: ANN001, ANN202
        state["in_flight"] += 1
        state["peak"] = max(state["peak"], state["in_flight"])
        try:
            return await call_next(request)
        finally:
            state["in_flight"] -= 1

    with server:
        suite = runner_suite(CONCURRENCY_SUITE.replace("URL", server.base_url))
        result = run(suite, f"sqlite:///{tmp_path / 'c.db'}", keep_records=True)
    assert result.exit_code == 0 and result.complete, result.to_json()
    assert state["refused"] > 0  # the server did refuse: the runner had more in flight than K
    (snap,) = [s for name, s in result.limits.items() if name.startswith("openai:gpt-fake")]
    assert snap["limit"] is not None and snap["limit"] <= K and snap["rate_limited"] > 0
    fake = next(p for p in result.participants if p.participant == "fake")
    assert fake.first_try_valid_rate == 1.0  # no 429 counted against the model
    assert fake.autopilot_moves == 0
    records = [o.record for o in result.outcomes if o.record is not None]
    statuses = [a.status for r in records for m in r.moves for a in m.attempts]
    assert 429 in statuses
    for r in records:
        seat = next(s for s in r.totals.seats if r.seats[s.seat].kind == "model")
        assert seat.retries == 0 and seat.first_try_valid == seat.answered
