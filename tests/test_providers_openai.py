"""The real `openai` client, through OpenAIProvider, against the fake Chat Completions server."""

from __future__ import annotations

import asyncio
import json
import socket
import time

import pytest
from fakes import FakeBehaviour, FakeServer, actions
from fakes.behaviour import ILLEGAL_ID, count_tokens
from fakes.sample import LEGAL, SYSTEM, make_request

from bangarena.harness.providers import ProviderError, get_provider
from bangarena.harness.providers.openai_provider import DUMMY_API_KEY, openai_params


@pytest.fixture(scope="module")
def fake():
    with FakeServer("openai") as server:
        yield server


@pytest.fixture
def script(fake):
    """Give the running server a fresh behaviour; returns a setter for the action queue."""

    def set_script(*acts, **kwargs) -> FakeBehaviour:
        fake.behaviour = FakeBehaviour(list(acts), **kwargs)
        return fake.behaviour

    set_script()
    return set_script


@pytest.fixture
async def provider(fake, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    p = get_provider(fake.spec("gpt-fake"))
    yield p
    await p.aclose()


@pytest.mark.parametrize("constrained", [False, True])
async def test_json_schema_mode_sends_a_strict_schema_and_gets_a_legal_move(
    fake, script, provider, constrained
):
    req = make_request("json_schema", model="gpt-fake", constrained=constrained, seed=11)
    reply = await provider.complete(req)
    body = fake.requests[-1].body
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "bangarena_move", "schema": req.answer_schema, "strict": True},
    }
    assert "tools" not in body
    assert body["seed"] == 11
    answer = json.loads(reply.text)
    assert answer["move"] in LEGAL
    assert list(answer) == list(req.answer_schema["properties"])
    assert reply.finish_reason == "stop"
    assert reply.model_id == "gpt-fake-fake"
    assert reply.sdk.startswith("openai ")
    assert reply.latency_s > 0


async def test_tool_mode_forces_one_strict_function_and_reads_its_arguments(fake, script, provider):
    req = make_request("tool", model="gpt-fake", constrained=True)
    reply = await provider.complete(req)
    body = fake.requests[-1].body
    (tool,) = body["tools"]
    assert tool["type"] == "function"
    assert tool["function"]["name"] == "bangarena_move"
    assert tool["function"]["parameters"] == req.answer_schema
    assert tool["function"]["strict"] is True
    assert body["tool_choice"] == {"type": "function", "function": {"name": "bangarena_move"}}
    assert "response_format" not in body
    assert json.loads(reply.text)["move"] in LEGAL


@pytest.mark.parametrize("mode", ["json_object", "text"])
async def test_json_object_and_text_modes(fake, script, provider, mode):
    reply = await provider.complete(make_request(mode, model="gpt-fake"))
    body = fake.requests[-1].body
    if mode == "json_object":
        assert body["response_format"] == {"type": "json_object"}
    else:
        assert "response_format" not in body
    assert "tools" not in body
    assert json.loads(reply.text)["move"] in LEGAL
    assert reply.request_params["answer_mode"] == mode


async def test_request_params_record_everything_sent_but_the_messages(fake, script, provider):
    req = make_request("tool", model="gpt-fake", temperature=0.3, reasoning_effort="low", seed=5)
    reply = await provider.complete(req)
    body = fake.requests[-1].body
    sent = {k: v for k, v in body.items() if k != "messages"}
    recorded = {
        k: v
        for k, v in reply.request_params.items()
        if k not in ("answer_mode", "base_url", "timeout_s")
    }
    assert recorded == sent
    assert reply.request_params["base_url"] == fake.base_url
    assert sent["temperature"] == 0.3 and sent["reasoning_effort"] == "low"
    # A compatible server gets the widely supported field; OpenAI itself the newer one.
    assert sent["max_tokens"] == 512
    assert openai_params(req, official=True)["max_completion_tokens"] == 512


async def test_system_prompt_is_sent_byte_for_byte_first(fake, script, provider):
    await provider.complete(make_request("text", model="gpt-fake"))
    received = fake.requests[-1]
    messages = received.body["messages"]
    assert messages[0] == {"role": "system", "content": SYSTEM}
    assert json.dumps(SYSTEM, ensure_ascii=False) in received.raw.decode("utf-8") or (
        json.dumps(SYSTEM) in received.raw.decode("utf-8")
    )
    assert [m["role"] for m in messages] == ["system", "user"]


async def test_usage_cached_and_reasoning_tokens_are_parsed(fake, script, provider):
    script(reasoning_tokens=7)
    first = await provider.complete(make_request("json_schema", model="gpt-fake"))
    second = await provider.complete(make_request("json_schema", model="gpt-fake"))
    assert first.usage.cached_tokens == 0
    assert second.usage.cached_tokens == count_tokens(SYSTEM) > 0
    assert second.usage.reasoning_tokens == 7
    assert second.usage.output_tokens >= 7
    assert second.usage.input_tokens == first.usage.input_tokens > second.usage.cached_tokens


async def test_no_key_with_a_base_url_sends_a_dummy(fake, script, provider):
    await provider.complete(make_request("text", model="gpt-fake"))
    assert fake.requests[-1].headers["authorization"] == f"Bearer {DUMMY_API_KEY}"


async def test_env_base_url_and_key_apply_without_at_url(fake, script, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")
    p = get_provider("openai:gpt-env")
    try:
        reply = await p.complete(make_request("text", model="gpt-env"))
    finally:
        await p.aclose()
    assert reply.model_id == "gpt-env-fake"
    assert fake.requests[-1].headers["authorization"] == "Bearer sk-from-env"


async def test_rate_limit_with_retry_after_is_one_attempt(fake, script, provider):
    script(actions.rate_limit(2.5))
    with pytest.raises(ProviderError) as err:
        await provider.complete(make_request(model="gpt-fake"))
    assert (err.value.kind, err.value.status, err.value.retry_after) == ("rate_limit", 429, 2.5)
    assert err.value.retryable
    # The SDK's own retries are off: the server saw exactly one request.
    assert len(fake.requests) == 1


async def test_rate_limit_without_retry_after(fake, script, provider):
    script(actions.rate_limit(None))
    with pytest.raises(ProviderError) as err:
        await provider.complete(make_request(model="gpt-fake"))
    assert err.value.kind == "rate_limit" and err.value.retry_after is None


@pytest.mark.parametrize(
    ("action", "kind", "status"),
    [
        (actions.server_error(), "server", 500),
        (actions.overloaded(), "server", 503),
        (actions.unauthorized(), "auth", 401),
        (actions.bad_request(), "bad_request", 400),
    ],
)
async def test_http_errors_are_classified(fake, script, provider, action, kind, status):
    script(action)
    with pytest.raises(ProviderError) as err:
        await provider.complete(make_request(model="gpt-fake"))
    assert (err.value.kind, err.value.status) == (kind, status)
    assert err.value.retryable == (kind == "server")
    assert len(fake.requests) == 1


async def test_connection_refused_is_a_connection_error(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    p = get_provider(f"openai:gpt-fake@http://127.0.0.1:{port}/v1")
    try:
        with pytest.raises(ProviderError) as err:
            await p.complete(make_request(model="gpt-fake"))
    finally:
        await p.aclose()
    assert err.value.kind == "connection" and err.value.retryable


async def test_slow_answer_past_the_timeout_is_a_timeout(fake, script, provider):
    # the answer would take 3 s: a timeout of 0.3 s cuts it short, with room for a loaded CI
    script(actions.slow(3.0))
    started = time.perf_counter()
    with pytest.raises(ProviderError) as err:
        await provider.complete(make_request(model="gpt-fake", timeout_s=0.3))
    assert err.value.kind == "timeout"
    assert time.perf_counter() - started < 2.5


async def test_slow_answer_within_the_timeout_arrives(fake, script, provider):
    script(actions.slow(0.2))
    reply = await provider.complete(make_request(model="gpt-fake", timeout_s=5))
    assert reply.latency_s >= 0.2
    assert json.loads(reply.text)["move"] in LEGAL


@pytest.mark.parametrize("mode", ["json_schema", "tool"])
async def test_refusal(fake, script, provider, mode):
    script(actions.refusal())
    reply = await provider.complete(make_request(mode, model="gpt-fake"))
    assert reply.finish_reason == "refusal"
    assert reply.refusal and reply.text is None


@pytest.mark.parametrize("mode", ["json_schema", "tool"])
async def test_truncation(fake, script, provider, mode):
    script(actions.truncated())
    reply = await provider.complete(make_request(mode, model="gpt-fake"))
    assert reply.finish_reason == "length"
    with pytest.raises(json.JSONDecodeError):
        json.loads(reply.text)


@pytest.mark.parametrize(
    ("action", "check"),
    [
        (actions.invalid_json(), lambda t: pytest.raises(json.JSONDecodeError, json.loads, t)),
        (actions.illegal_id(), lambda t: json.loads(t)["move"] == ILLEGAL_ID),
        (actions.empty(), lambda t: t == ""),
        (actions.answer("heal"), lambda t: json.loads(t)["move"] == "heal"),
    ],
)
async def test_bad_answers_arrive_as_text(fake, script, provider, action, check):
    script(action)
    reply = await provider.complete(make_request("json_schema", model="gpt-fake"))
    assert reply.finish_reason == "stop"
    assert check(reply.text)


async def test_concurrency_limit_bounds_requests_in_flight(fake, script, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    script(default=actions.slow(0.15))
    from bangarena.harness.model_spec import ModelOptions

    p = get_provider(fake.spec("gpt-fake"), ModelOptions(concurrency=2))
    try:
        started = time.perf_counter()
        replies = await asyncio.gather(
            *(p.complete(make_request(model="gpt-fake")) for _ in range(6))
        )
        elapsed = time.perf_counter() - started
    finally:
        await p.aclose()
    assert len(replies) == 6
    assert elapsed >= 0.15 * 3 * 0.95  # three waves of two


def test_one_provider_serves_successive_event_loops(fake, script, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    from bangarena.harness.model_spec import ModelOptions

    p = get_provider(fake.spec("gpt-fake"), ModelOptions(concurrency=1))

    async def two_calls() -> list[str]:
        replies = await asyncio.gather(
            *(p.complete(make_request(model="gpt-fake")) for _ in range(2))
        )
        return [json.loads(r.text)["move"] for r in replies]

    for _ in range(3):  # each asyncio.run is a new loop; pooled connections must not leak across
        assert set(asyncio.run(two_calls())) <= set(LEGAL)
    asyncio.run(p.aclose())
    assert len(fake.requests) == 6
