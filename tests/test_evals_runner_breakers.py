"""A provider that dies mid-suite: the matches in flight finish with its seats autopiloted and
are stored as void (with the reason), its circuit breaker stops its new matches, the rest of the
suite finishes, the exit code says so — and the next run, with the provider back, plays the void
matches again. An auth error trips the breaker at once."""

from __future__ import annotations

from pathlib import Path

from evals_runner_support import run, runner_suite
from fakes import FakeBehaviour, FakeServer, actions

from bangarena.evals import plan_suite
from bangarena.evals.breakers import CircuitBreakers
from bangarena.evals.store import open_store

DYING = """
[suite]
name = "dying"
seed = 21
deals = 2

[[participants]]
id = "model"
spec = "openai:gpt-fake@URL"
options = { price_input_per_mtok = 0.0, price_output_per_mtok = 0.0 }  # no litellm cost map

[[participants]]
id = "rule"
spec = "rule"

[[participants]]
id = "random"
spec = "random"

[[tables]]
seats = 4
time_per_move = 30
model_time_per_move = 1.0
transcripts = false
lineup = ["model", "rule", "random", "rule"]

[[tables]]
seats = 4
time_per_move = 30
transcripts = false
lineup = ["rule", "random", "rule", "random"]

[concurrency]
matches = 4
"""


def test_a_provider_dying_mid_suite_voids_its_matches_and_the_rest_finishes(
    tmp_path: Path, monkeypatch
) -> None:  # noqa: ANN001
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    answered = {"n": 0}

    def dies_after_some(body: dict) -> actions.Action:
        answered["n"] += 1
        return actions.answer() if answered["n"] <= 12 else actions.server_error(500)

    url = f"sqlite:///{tmp_path / 'd.db'}"
    with FakeServer("openai", FakeBehaviour(fn=dies_after_some)) as server:
        suite = runner_suite(DYING.replace("URL", server.base_url))
        plan = plan_suite(suite)
        result = run(suite, url, max_failures=8)
        assert result.exit_code == 3
        assert result.stopped == "circuit_breaker"
        (trip,) = result.breakers
        assert trip.participant == "model" and "consecutive failed requests" in trip.reason
        assert result.matches_void >= 1
        assert all("provider errors" in r for r in result.void_reasons)
        bots_only = [m for m in plan if "model" not in m.participants]
        store = open_store(url)
        try:
            done = store.done_keys("dying")
            void = store.matches("dying", status="void")
        finally:
            store.close()
        assert all(m.key in done for m in bots_only)  # the rest of the suite finished
        assert len(void) == result.matches_void
        assert {v["key"] for v in void}.isdisjoint(done)

        # The provider is back: the next run plays what was void or never started.
        server.behaviour = FakeBehaviour()
        again = run(suite, url)
    assert again.exit_code == 0 and again.complete, again.to_json()
    assert again.matches_run_now == len(plan) - len(done)
    store = open_store(url)
    try:
        rows = store.matches("dying")
    finally:
        store.close()
    done_keys = [r["key"] for r in rows if r["status"] == "done"]
    assert len(done_keys) == len(set(done_keys)) == len(plan)
    assert sum(r["status"] == "void" for r in rows) == result.matches_void


AUTH = """
[suite]
name = "auth"
seed = 4
deals = 1

[[participants]]
id = "locked-out"
spec = "openai:gpt-fake@URL"
options = { price_input_per_mtok = 0.0, price_output_per_mtok = 0.0 }

[[participants]]
id = "rule"
spec = "rule"

[[tables]]
seats = 4
time_per_move = 30
transcripts = false
lineup = ["locked-out", "rule", "rule", "rule"]

[concurrency]
matches = 1
"""


def test_an_auth_error_trips_the_breaker_at_once(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    behaviour = FakeBehaviour(default=actions.unauthorized())
    with FakeServer("openai", behaviour) as server:
        suite = runner_suite(AUTH.replace("URL", server.base_url))
        result = run(suite, f"sqlite:///{tmp_path / 'a.db'}")
    assert result.exit_code == 3 and result.stopped == "circuit_breaker"
    assert [t.participant for t in result.breakers] == ["locked-out"]
    assert "credentials" in result.breakers[0].reason
    assert result.matches_run_now == result.matches_void == 1  # no other match of it started
    assert "stopped" in result.void_reasons[0]
    assert len(behaviour.requests) == 1


def test_breakers_ignore_rate_limits_and_reset_on_success() -> None:
    b = CircuitBreakers(max_failures=3)
    for outcome in ["server", "connection", "ok", "server", "rate_limit", "server"]:
        b.observe("p", outcome)
    assert b.is_open("p") is None
    b.observe("p", "timeout")
    assert b.is_open("p") is not None and "last: timeout" in b.is_open("p")
    assert [t.participant for t in b.drain()] == ["p"] and b.drain() == []
    assert b.refusal("p")() is not None and b.refusal("q")() is None


def test_a_worker_that_dies_is_an_infrastructure_failure_not_a_crash(
    tmp_path: Path, monkeypatch
) -> None:  # noqa: ANN001
    import bangarena.evals.runner as runner
    from bangarena.evals.backends import LocalBackend

    class Dying(LocalBackend):
        async def run(self, batch, tripped):  # noqa: ANN001, ANN202
            if batch[0].rotation == 1:
                raise RuntimeError("worker process killed by the OOM killer")
            return await super().run(batch, tripped)

    monkeypatch.setattr(
        runner,
        "make_backend",
        lambda name, config, **kw: Dying(config, kw["breakers"], kw["tally"]),
    )
    bots = AUTH.replace('spec = "openai:gpt-fake@URL"\n', 'spec = "random"\n').replace(
        "options = { price_input_per_mtok = 0.0, price_output_per_mtok = 0.0 }\n", ""
    )
    suite = runner_suite(bots)
    result = run(suite, f"sqlite:///{tmp_path / 'w.db'}")
    assert result.exit_code == 3 and result.matches_run_now == 3
    (line,) = result.setup_errors
    assert "OOM killer" in line and not result.errors
