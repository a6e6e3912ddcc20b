"""The real `anthropic` client, through AnthropicProvider, against the fake Messages server."""

from __future__ import annotations

import json
import socket
import time

import pytest
from fakes import FakeBehaviour, FakeServer, actions
from fakes.behaviour import ILLEGAL_ID, count_tokens
from fakes.sample import LEGAL, SYSTEM, make_request

from bangarena.harness.model_spec import ModelSpecError
from bangarena.harness.providers import ProviderError, get_provider
from bangarena.harness.providers.anthropic_provider import sdk_supports
from bangarena.harness.providers.base import DUMMY_API_KEY

MODEL = "claude-fake"


@pytest.fixture(scope="module")
def fake():
    with FakeServer("anthropic") as server:
        yield server


@pytest.fixture
def script(fake):
    def set_script(*acts, **kwargs) -> FakeBehaviour:
        fake.behaviour = FakeBehaviour(list(acts), **kwargs)
        return fake.behaviour

    set_script()
    return set_script


@pytest.fixture
async def provider(fake, monkeypatch):
    for var in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    p = get_provider(fake.spec(MODEL))
    yield p
    await p.aclose()


async def test_system_prompt_is_one_cached_text_block(fake, script, provider):
    await provider.complete(make_request("tool", model=MODEL))
    body = fake.requests[-1].body
    assert body["system"] == [
        {"type": "text", "text": SYSTEM, "cache_control": {"type": "ephemeral"}}
    ]
    assert body["messages"][0]["role"] == "user"
    assert all(m["role"] != "system" for m in body["messages"])


async def test_tool_mode_forces_the_answer_tool(fake, script, provider):
    req = make_request("tool", model=MODEL, constrained=True)
    reply = await provider.complete(req)
    body = fake.requests[-1].body
    (tool,) = body["tools"]
    assert tool["name"] == "bangarena_move"
    assert tool["input_schema"] == req.answer_schema
    assert body["tool_choice"] == {"type": "tool", "name": "bangarena_move"}
    assert "output_config" not in body
    assert reply.finish_reason == "tool"
    assert json.loads(reply.text)["move"] in LEGAL
    assert reply.model_id == f"{MODEL}-fake"
    assert reply.sdk.startswith("anthropic ")


async def test_json_schema_mode_uses_structured_outputs_when_the_sdk_has_them(
    fake, script, provider
):
    req = make_request("json_schema", model=MODEL, constrained=True)
    reply = await provider.complete(req)
    body = fake.requests[-1].body
    if sdk_supports("output_config"):
        assert body["output_config"]["format"] == {
            "type": "json_schema",
            "schema": req.answer_schema,
        }
        assert "tools" not in body
        assert reply.request_params["answer_mode"] == "json_schema"
        assert reply.finish_reason == "stop"
    else:  # older SDKs: the forced tool, recorded as such
        assert body["tool_choice"]["name"] == "bangarena_move"
        assert reply.request_params["answer_mode_requested"] == "json_schema"
    assert json.loads(reply.text)["move"] in LEGAL


@pytest.mark.parametrize("mode", ["text", "json_object"])
async def test_text_modes_send_no_schema(fake, script, provider, mode):
    reply = await provider.complete(make_request(mode, model=MODEL))
    body = fake.requests[-1].body
    assert "tools" not in body and "output_config" not in body
    assert json.loads(reply.text)["move"] in LEGAL
    assert reply.finish_reason == "stop"


async def test_request_params_record_everything_sent(fake, script, provider):
    req = make_request("tool", model=MODEL, temperature=0.2, reasoning_effort="low", max_tokens=300)
    reply = await provider.complete(req)
    body = fake.requests[-1].body
    params = reply.request_params
    for key in ("model", "max_tokens", "tools", "tool_choice", "temperature", "output_config"):
        assert params[key] == body[key], key
    assert body["temperature"] == 0.2 and body["max_tokens"] == 300
    assert body["output_config"] == {"effort": "low"}
    assert params["system_cache_control"] == {"type": "ephemeral"}
    assert set(body) - set(params) == {"messages", "system"}


async def test_cache_write_then_read_is_reported_and_normalised(fake, script, provider):
    first = await provider.complete(make_request("tool", model=MODEL))
    second = await provider.complete(make_request("tool", model=MODEL))
    system_tokens = count_tokens(SYSTEM)
    assert (first.usage.cache_write_tokens, first.usage.cached_tokens) == (system_tokens, 0)
    assert (second.usage.cache_write_tokens, second.usage.cached_tokens) == (0, system_tokens)
    # input_tokens counts the whole prompt, cached or not, on both calls.
    assert first.usage.input_tokens == second.usage.input_tokens > system_tokens
    wire = fake.requests[-1]
    assert wire.body["system"][0]["cache_control"] == {"type": "ephemeral"}


async def test_dummy_key_with_a_base_url(fake, script, provider):
    await provider.complete(make_request("text", model=MODEL))
    assert fake.requests[-1].headers["x-api-key"] == DUMMY_API_KEY


async def test_env_base_url_and_key(fake, script, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-env")
    p = get_provider(f"anthropic:{MODEL}")
    try:
        await p.complete(make_request("text", model=MODEL))
    finally:
        await p.aclose()
    assert fake.requests[-1].headers["x-api-key"] == "sk-ant-env"


def test_missing_key_without_base_url_is_a_spec_error(monkeypatch):
    for var in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(ModelSpecError, match="ANTHROPIC_API_KEY"):
        get_provider("anthropic:claude-3-5-sonnet@20241022")


async def test_rate_limit_with_retry_after_is_one_attempt(fake, script, provider):
    script(actions.rate_limit(3))
    with pytest.raises(ProviderError) as err:
        await provider.complete(make_request(model=MODEL))
    assert (err.value.kind, err.value.status, err.value.retry_after) == ("rate_limit", 429, 3.0)
    assert len(fake.requests) == 1


@pytest.mark.parametrize(
    ("action", "kind", "status"),
    [
        (actions.server_error(), "server", 500),
        (actions.overloaded(), "server", 529),
        (actions.unauthorized(), "auth", 401),
        (actions.bad_request(), "bad_request", 400),
    ],
)
async def test_http_errors_are_classified(fake, script, provider, action, kind, status):
    script(action)
    with pytest.raises(ProviderError) as err:
        await provider.complete(make_request(model=MODEL))
    assert (err.value.kind, err.value.status) == (kind, status)
    assert len(fake.requests) == 1


async def test_connection_refused(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    p = get_provider(f"anthropic:{MODEL}@http://127.0.0.1:{port}")
    try:
        with pytest.raises(ProviderError) as err:
            await p.complete(make_request(model=MODEL))
    finally:
        await p.aclose()
    assert err.value.kind == "connection"


async def test_timeout(fake, script, provider):
    # the answer would take 3 s: a timeout of 0.3 s cuts it short, with room for a loaded CI
    script(actions.slow(3.0))
    started = time.perf_counter()
    with pytest.raises(ProviderError) as err:
        await provider.complete(make_request(model=MODEL, timeout_s=0.3))
    assert err.value.kind == "timeout"
    assert time.perf_counter() - started < 2.5


async def test_refusal_stop_reason(fake, script, provider):
    script(actions.refusal())
    reply = await provider.complete(make_request("tool", model=MODEL))
    assert reply.finish_reason == "refusal"
    assert reply.text is None and reply.refusal


@pytest.mark.parametrize("mode", ["tool", "text"])
async def test_max_tokens_is_length(fake, script, provider, mode):
    script(actions.truncated())
    reply = await provider.complete(make_request(mode, model=MODEL))
    assert reply.finish_reason == "length"
    if mode == "text":
        with pytest.raises(json.JSONDecodeError):
            json.loads(reply.text)


async def test_invalid_json_illegal_and_empty_answers(fake, script, provider):
    script(actions.invalid_json(), actions.illegal_id(), actions.empty())
    bad = await provider.complete(make_request("tool", model=MODEL))
    with pytest.raises(json.JSONDecodeError):
        json.loads(bad.text)
    illegal = await provider.complete(make_request("tool", model=MODEL))
    assert json.loads(illegal.text)["move"] == ILLEGAL_ID
    empty = await provider.complete(make_request("text", model=MODEL))
    assert empty.text is None and empty.finish_reason == "stop"


def test_one_provider_serves_successive_event_loops(fake, script, monkeypatch):
    import asyncio

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    p = get_provider(fake.spec(MODEL))
    for _ in range(3):
        reply = asyncio.run(p.complete(make_request("tool", model=MODEL)))
        assert json.loads(reply.text)["move"] in LEGAL
    asyncio.run(p.aclose())
