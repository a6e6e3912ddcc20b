"""The offline scripted provider: bot policies through the text path and seeded fault injection."""

from __future__ import annotations

import json
import time
from collections import Counter

import pytest
from fakes.behaviour import count_tokens
from fakes.sample import LEGAL, SYSTEM, make_request

from bangarena.engine import GameConfig, new_game
from bangarena.harness.model_spec import ModelOptions
from bangarena.harness.providers import (
    FAULT_KINDS,
    ProviderError,
    ScriptedContext,
    ScriptedProvider,
    bot_policy,
    get_provider,
)
from bangarena.harness.providers.scripted import ILLEGAL_MOVE_ID


def observed_fault(reply, legal) -> str | None:
    """Classify a reply the way a caller would, to compare with what was injected."""
    if reply.finish_reason == "refusal":
        return "refusal"
    if reply.finish_reason == "length":
        return "truncated"
    if not reply.text:
        return "empty"
    try:
        move = json.loads(reply.text)["move"]
    except ValueError:
        return "invalid_json"
    return None if move in legal else "illegal_id"


def first_legal(context) -> str:
    return context[0]


async def test_fault_counts_match_what_the_replies_show():
    faults = {k: 0.06 for k in FAULT_KINDS if k != "delay"}  # 30 % in all
    provider = ScriptedProvider(first_legal, faults=faults, seed=3)
    seen: Counter[str] = Counter()
    for _ in range(400):
        reply = await provider.complete(make_request("text", model="scripted", context=list(LEGAL)))
        kind = observed_fault(reply, LEGAL)
        if kind:
            seen[kind] += 1
    assert seen == provider.injected
    assert provider.calls == 400
    assert 0.22 < sum(seen.values()) / 400 < 0.38
    assert set(seen) == set(faults)


async def test_same_seed_same_faults():
    async def run(seed: int) -> list[str]:
        p = ScriptedProvider(first_legal, faults={"invalid_json": 0.3, "empty": 0.2}, seed=seed)
        out = []
        for _ in range(50):
            r = await p.complete(make_request("text", model="scripted", context=list(LEGAL)))
            out.append(repr(r.text))
        return out

    assert await run(7) == await run(7)
    assert await run(7) != await run(8)


async def test_delay_fault_sleeps_and_times_out_past_the_request_timeout():
    p = ScriptedProvider(first_legal, faults={"delay": 1.0}, delay_s=0.15, seed=0)
    reply = await p.complete(make_request("text", model="scripted", context=list(LEGAL)))
    assert reply.latency_s >= 0.15
    assert json.loads(reply.text)["move"] == LEGAL[0]
    slow = ScriptedProvider(first_legal, faults={"delay": 1.0}, delay_s=5.0, seed=0)
    started = time.perf_counter()
    with pytest.raises(ProviderError) as err:
        await slow.complete(
            make_request("text", model="scripted", context=list(LEGAL), timeout_s=0.1)
        )
    assert err.value.kind == "timeout"
    assert time.perf_counter() - started < 1.0
    assert slow.injected == Counter(delay=1)


@pytest.mark.parametrize("notes", [False, True])
async def test_answer_follows_the_schema_and_mode(notes):
    p = ScriptedProvider(first_legal)
    req = make_request("tool", model="scripted", context=list(LEGAL))
    if notes:
        props = dict(req.answer_schema["properties"])
        req = req.model_copy(
            update={
                "answer_schema": {
                    **req.answer_schema,
                    "properties": {"reason": props["reason"], "notes": {}, "move": props["move"]},
                }
            }
        )
    reply = await p.complete(req)
    answer = json.loads(reply.text)
    assert list(answer) == list(req.answer_schema["properties"])
    assert answer["move"] == LEGAL[0]
    assert reply.finish_reason == "tool"
    assert reply.model_id == "scripted:scripted"
    assert reply.sdk == "bangarena-scripted"


async def test_usage_comes_from_the_o200k_tokenizer():
    p = ScriptedProvider(first_legal)
    req = make_request("text", model="scripted", context=list(LEGAL))
    reply = await p.complete(req)
    expected_in = count_tokens(SYSTEM) + sum(count_tokens(m.content) for m in req.messages)
    assert reply.usage.input_tokens == expected_in
    assert reply.usage.output_tokens == count_tokens(reply.text) > 0
    assert reply.usage.cached_tokens == 0


async def test_illegal_fault_uses_an_id_that_is_never_legal():
    p = ScriptedProvider(first_legal, faults={"illegal_id": 1.0})
    reply = await p.complete(make_request("text", model="scripted", context=list(LEGAL)))
    assert json.loads(reply.text)["move"] == ILLEGAL_MOVE_ID


@pytest.mark.parametrize("kind", ["rule", "random"])
async def test_bot_policies_play_legal_moves_of_a_real_game(kind):
    game = new_game(GameConfig(seats=5, mode="classic"), seed=4)
    provider = get_provider(f"scripted:{kind}", seed=9)
    cursors: dict[int, int] = {}
    for _ in range(60):
        if game.over:
            break
        seat = game.to_move
        view = game.view(seat, since=cursors.get(seat, 0))
        cursors[seat] = view.cursor
        decision = game.decision
        ctx = ScriptedContext(seat=seat, view=view, decision=decision)
        reply = await provider.complete(make_request("text", model=f"scripted:{kind}", context=ctx))
        move = json.loads(reply.text)["move"]
        assert move in {m.id for m in decision.moves}
        game.apply(seat, move)
    assert provider.injected == Counter()


def test_registry_builds_scripted_with_faults_from_options():
    options = ModelOptions(faults={"refusal": 0.5, "truncated": 0.25}, delay_s=0.5)
    p = get_provider("scripted:random", options, seed=1)
    assert isinstance(p, ScriptedProvider)
    assert p.faults == {"refusal": 0.5, "truncated": 0.25} and p.delay_s == 0.5
    assert p.label == "random"


def test_bad_fault_settings_are_rejected():
    with pytest.raises(ValueError, match="unknown fault"):
        ScriptedProvider(first_legal, faults={"explode": 0.1})
    with pytest.raises(ValueError, match="add up"):
        ScriptedProvider(first_legal, faults={"empty": 0.7, "refusal": 0.7})


def test_policy_fallback_without_a_view_picks_from_the_ids():
    rule = bot_policy("rule", seed=0)
    rand = bot_policy("random", seed=0)
    assert rule(["b", "a"]) == "b"
    assert {rand(["x", "y", "z"]) for _ in range(40)} == {"x", "y", "z"}
