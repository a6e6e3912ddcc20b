"""The fake servers themselves: move choice, scripting by function, serving in the test's loop."""

from __future__ import annotations

import json

import httpx
import pytest
from fakes import (
    FakeBehaviour,
    FakeServer,
    actions,
    aserve,
    create_app,
    ids_from_prompt,
    offered_ids,
    reset_server,
)
from fakes.sample import answer_schema, make_request

from bangarena.harness.providers import ProviderError, get_provider


def test_ids_come_from_the_last_legal_line_of_the_last_user_message():
    messages = [
        {"role": "user", "content": "Legal move ids: old_a, old_b"},
        {"role": "assistant", "content": "{}"},
        {
            "role": "user",
            "content": "Legal move ids: x\nmore text\nLegal move ids: shot@3, end_turn, discard:shot",
        },
    ]
    assert ids_from_prompt(messages) == ["shot@3", "end_turn", "discard:shot"]
    blocks = [{"role": "user", "content": [{"type": "text", "text": "Legal move ids: a, b"}]}]
    assert ids_from_prompt(blocks) == ["a", "b"]
    assert ids_from_prompt([{"role": "user", "content": "no list"}]) == []


def test_the_schema_enum_wins_over_the_prompt():
    body = {
        "messages": [{"role": "user", "content": "Legal move ids: a, b"}],
        "response_format": {"type": "json_schema", "json_schema": {"schema": answer_schema(["z"])}},
    }
    assert offered_ids(body) == ["z"]
    body["response_format"]["json_schema"]["schema"] = answer_schema(None)
    assert offered_ids(body) == ["a", "b"]


async def test_behaviour_function_and_chooser_drive_each_request(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)

    def by_request(body):
        return actions.server_error() if body.get("temperature") == 1.5 else None

    behaviour = FakeBehaviour(fn=by_request, chooser=lambda ids, body: ids[-1])
    async with FakeServer("openai", behaviour) as fake:
        p = get_provider(fake.spec())
        try:
            reply = await p.complete(make_request("text"))
            assert json.loads(reply.text)["move"] == "heal"  # the last offered id
            with pytest.raises(ProviderError) as err:
                await p.complete(make_request("text", temperature=1.5))
            assert err.value.kind == "server"
        finally:
            await p.aclose()
    assert behaviour.counts == {"answer": 1, "server_error": 1}
    assert [r.path for r in behaviour.requests] == ["/v1/chat/completions"] * 2


async def test_aserve_in_the_same_loop_speaks_the_wire_formats():
    app = create_app("anthropic", FakeBehaviour([actions.rate_limit(4)]))
    async with aserve(app, same_loop=True) as url, httpx.AsyncClient() as client:
        body = {
            "model": "m",
            "max_tokens": 50,
            "system": [{"type": "text", "text": "sys", "cache_control": {"type": "ephemeral"}}],
            "messages": [{"role": "user", "content": "Legal move ids: a, b"}],
        }
        limited = await client.post(f"{url}/v1/messages", json=body)
        ok = await client.post(f"{url}/v1/messages", json=body)
    assert limited.status_code == 429 and limited.headers["retry-after"] == "4"
    assert limited.json()["error"]["type"] == "rate_limit_error"
    message = ok.json()
    assert message["type"] == "message" and message["id"].startswith("msg_")
    assert message["stop_reason"] == "end_turn"
    assert json.loads(message["content"][0]["text"])["move"] in ("a", "b")
    assert set(message["usage"]) >= {
        "input_tokens",
        "output_tokens",
        "cache_creation_input_tokens",
        "cache_read_input_tokens",
    }


def test_openai_fake_wire_format_for_an_auto_tool_call():
    with FakeServer("openai") as fake:
        tool = {"type": "function", "function": {"name": "f", "parameters": answer_schema(["a"])}}
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "tools": [tool]}
        data = httpx.post(f"{fake.base_url}/chat/completions", json=body).json()
    assert data["object"] == "chat.completion" and data["id"].startswith("chatcmpl-")
    (choice,) = data["choices"]
    assert choice["finish_reason"] == "tool_calls"
    call = choice["message"]["tool_calls"][0]
    assert call["type"] == "function" and json.loads(call["function"]["arguments"])["move"] == "a"
    assert choice["message"]["content"] is None
    assert data["usage"]["prompt_tokens_details"]["cached_tokens"] == 0
    assert (
        data["usage"]["total_tokens"]
        == data["usage"]["prompt_tokens"] + data["usage"]["completion_tokens"]
    )


@pytest.mark.parametrize(("kind", "path"), [("openai", "/v1"), ("anthropic", "")])
async def test_a_connection_reset_mid_request_is_a_connection_error(monkeypatch, kind, path):
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"):
        monkeypatch.delenv(var, raising=False)
    with reset_server(path) as url:
        p = get_provider(f"{kind}:m@{url}")
        try:
            with pytest.raises(ProviderError) as err:
                await p.complete(make_request("text", model="m", timeout_s=5))
        finally:
            await p.aclose()
    assert err.value.kind == "connection" and err.value.retryable
