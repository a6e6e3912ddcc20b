"""A 200 whose body is not a response (a proxy's HTML page, a cut or foreign JSON body) is the
server's fault: ``server``, retryable, for the openai, anthropic and litellm paths alike; a model
seat retries it inside the deadline instead of handing the move to the autopilot."""

from __future__ import annotations

import pytest
from fakes import FakeBehaviour, FakeServer, actions
from fakes.sample import make_request

from bangarena.engine import GameConfig, new_game
from bangarena.harness.model_spec import ModelOptions, parse_model_spec
from bangarena.harness.providers import ProviderError, get_provider
from bangarena.harness.seats import Deadline, build_seat
from bangarena.harness.seats.factory import SeatPlan

BODIES = [
    ("<html><body>502 Bad Gateway</body></html>", "text/html"),
    ('{"choices": [', "application/json"),  # cut mid-body
    ("[1, 2]", "application/json"),
    ('"just a string"', "application/json"),
    ("{}", "application/json"),
    ("", "application/json"),
]
PATHS = [
    ("openai", "openai:gpt-x"),
    ("anthropic", "anthropic:claude-x"),
    ("openai", "litellm:openai/gpt-x"),
    ("anthropic", "litellm:anthropic/claude-x"),
]
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # litellm's lazy pydantic models


@pytest.fixture(scope="module")
def servers():
    with FakeServer("openai") as o, FakeServer("anthropic") as a:
        yield {"openai": o, "anthropic": a}


@pytest.fixture(autouse=True)
def _no_keys(monkeypatch):
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(var, raising=False)


@pytest.mark.parametrize(("kind", "spec"), PATHS, ids=[s for _, s in PATHS])
@pytest.mark.parametrize(("body", "content_type"), BODIES)
async def test_a_200_that_is_not_a_response_is_a_retryable_server_error(
    servers, kind: str, spec: str, body: str, content_type: str
) -> None:
    if spec.startswith("litellm"):
        pytest.importorskip("litellm")
    fake = servers[kind]
    fake.behaviour = FakeBehaviour([actions.not_json(body, content_type)])
    provider = get_provider(f"{spec}@{fake.base_url}")
    try:
        with pytest.raises(ProviderError) as err:
            await provider.complete(make_request("text", model=parse_model_spec(spec).model))
    finally:
        await provider.aclose()
    assert err.value.kind == "server" and err.value.retryable, err.value.message
    assert len(err.value.message) <= 500
    assert len(fake.requests) == 1  # one attempt: the retry is the caller's


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_a_model_seat_retries_a_non_json_200_and_then_plays(servers, kind: str) -> None:
    fake = servers[kind]
    fake.behaviour = FakeBehaviour([actions.not_json()])
    spec = f"{kind}:m@{fake.base_url}"
    seat = build_seat(SeatPlan(spec, "model", parse_model_spec(spec), ModelOptions()), seat=0,
                      seed=1, environ={})  # fmt: skip
    game = new_game(GameConfig(seats=4), 3)
    d = game.decision
    try:
        ans = await seat.decide(game.view(d.seat), d, Deadline(10))
    finally:
        await seat.aclose()
    assert ans.move_id in d.ids and ans.telemetry.autopilot_reason is None
    first, second = ans.telemetry.attempts
    assert first.outcome == "transport" and first.detail.startswith("server: invalid response")
    assert second.outcome == "ok" and second.waited_s > 0
