"""The optional litellm provider against the fake OpenAI server (skipped without litellm)."""

from __future__ import annotations

import json
import os
import socket
import warnings

import pytest
from fakes import FakeBehaviour, FakeServer, actions
from fakes.sample import LEGAL, make_request

from bangarena.harness.pricing import cost_usd
from bangarena.harness.providers import ProviderError, Usage, get_provider

# Keep litellm off the network: its bundled cost map, not a download at import.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

MODEL = "openai/gpt-fake"
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # litellm's lazy pydantic models


@pytest.fixture(scope="module", autouse=True)
def litellm():
    """litellm, imported by the worker that runs these tests (~5 s), not at collection."""
    with warnings.catch_warnings():  # litellm's import floods pydantic UserWarnings
        warnings.simplefilter("ignore")
        return pytest.importorskip("litellm")


@pytest.fixture(scope="module")
def fake():
    with FakeServer("openai") as server:
        yield server


@pytest.fixture
def provider(fake):
    fake.behaviour = FakeBehaviour()
    return get_provider(f"litellm:{MODEL}@{fake.base_url}")


@pytest.mark.parametrize("mode", ["json_schema", "tool", "text"])
async def test_answer_modes_through_litellm(fake, provider, mode):
    reply = await provider.complete(make_request(mode, model=MODEL, constrained=True))
    body = fake.requests[-1].body
    assert json.loads(reply.text)["move"] in LEGAL
    if mode == "json_schema":
        assert body["response_format"]["json_schema"]["strict"] is True
    elif mode == "tool":
        assert body["tools"][0]["function"]["name"] == "bangarena_move"
    assert reply.sdk.startswith("litellm ")
    assert reply.usage.input_tokens > 0


async def test_rate_limit_is_one_attempt_and_classified(fake, provider):
    fake.behaviour = FakeBehaviour([actions.rate_limit(2)])
    with pytest.raises(ProviderError) as err:
        await provider.complete(make_request(model=MODEL))
    assert err.value.kind == "rate_limit" and err.value.status == 429
    assert err.value.retry_after == 2.0
    assert len(fake.requests) == 1


async def test_server_error_is_classified(fake, provider):
    fake.behaviour = FakeBehaviour([actions.server_error()])
    with pytest.raises(ProviderError) as err:
        await provider.complete(make_request(model=MODEL))
    assert err.value.kind == "server"


async def test_connection_refused():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    p = get_provider(f"litellm:{MODEL}@http://127.0.0.1:{port}/v1")
    with pytest.raises(ProviderError) as err:
        await p.complete(make_request(model=MODEL))
    assert err.value.kind == "connection"


def test_cost_matches_litellms_own_calculator(litellm):
    usage = Usage(input_tokens=1_000, cached_tokens=200, output_tokens=100)
    prompt, completion = litellm.cost_per_token(
        model="gpt-4o-mini", prompt_tokens=1_000, completion_tokens=100, cache_read_input_tokens=200
    )
    assert cost_usd(usage, None, "openai:gpt-4o-mini") == pytest.approx(prompt + completion)
