"""Model seats end to end: the real ``openai`` and ``anthropic`` SDKs, pointed at the fake servers
on loopback, play full matches. Every failure class (transport: 429 with Retry-After, 5xx, 401,
400, connection refused; timeout; truncated; empty; unparsable; illegal id; refusal) goes through
the whole path — provider, retries, feedback, autopilot — and lands in a correct record."""

from __future__ import annotations

import asyncio
import socket

import pytest
from fakes import FakeBehaviour, FakeServer, actions
from fakes.behaviour import ILLEGAL_ID, ids_from_prompt
from test_match import check_record

from bangarena.harness.match import MatchSettings, run_match
from bangarena.harness.model_spec import ModelOptions, parse_model_spec
from bangarena.harness.seats import BotSeat, ModelSeat, build_seat
from bangarena.harness.seats.factory import SeatPlan
from bangarena.harness.seats.model_seat import DOWN_AFTER, MIN_ATTEMPT_S


def answer_schema(legal=None, notes=True):
    try:
        from bangarena.rules_machine import answer_schema as real
    except ImportError:
        from bangarena.rules_machine.schemas import answer_schema as real
    return real(legal, notes=notes)


@pytest.fixture(scope="module")
def servers():
    with FakeServer("openai") as o, FakeServer("anthropic") as a:
        yield {"openai": o, "anthropic": a}


def model_seat(spec: str, seat: int, options: ModelOptions | None = None, **kw) -> ModelSeat:
    plan = SeatPlan(spec, "model", parse_model_spec(spec), options or ModelOptions())
    return build_seat(plan, seat=seat, seed=0, environ={}, **kw)


def table(seats: int, models: dict[int, ModelSeat], seed: int) -> list:
    return [models.get(i) or BotSeat("rule", seed * 16 + i, i) for i in range(seats)]


def system_of(kind: str, body: dict) -> str:
    if kind == "openai":
        return body["messages"][0]["content"]
    return "".join(b["text"] for b in body["system"])


def last_user(kind: str, body: dict) -> str:
    content = body["messages"][-1]["content"]
    return content if isinstance(content, str) else "".join(b["text"] for b in content)


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_real_sdk_seats_play_a_full_match(servers, kind: str) -> None:
    fake = servers[kind]
    reasoning = 7 if kind == "openai" else 0
    fake.behaviour = behaviour = FakeBehaviour(seed=3, cached_share=0.9, reasoning_tokens=reasoning)
    settings = MatchSettings(seats=5, seed=21, time_per_move_s=30)
    models = {0: model_seat(fake.spec("fake-model"), 0), 3: model_seat(fake.spec("fake-model"), 3)}
    rec = await run_match(settings, table(5, models, 21))
    check_record(rec, settings)
    mode = "json_schema" if kind == "openai" else "tool"
    for i in (0, 3):
        s, t = rec.seats[i], rec.totals.seats[i]
        assert (s.controller, s.kind, s.answer_mode, s.provider) == ("ai", "model", mode, kind)
        assert s.sdk.startswith(f"{kind} ") and s.prompt_version
        assert t.decisions > 0 and t.first_try_valid_rate == 1.0 and t.autopilot_moves == 0
        assert t.usage.input_tokens > t.usage.cached_tokens > 0 and t.usage.output_tokens > 0
        assert t.usage.reasoning_tokens == reasoning * t.attempts
        mine = [m for m in rec.moves if m.seat == i]
        assert all(m.attempts[0].model_id == "fake-model-fake" for m in mine)
        first = mine[0].attempts[0].usage
        assert first.cached_tokens == 0 and all(
            m.attempts[0].usage.cached_tokens > 0 for m in mine[1:]
        )
        if kind == "anthropic":
            assert first.cache_write_tokens > 0
    # one system prompt per model seat, byte-identical across all of its requests
    bodies = [r.body for r in behaviour.requests]
    assert len(bodies) == sum(rec.totals.seats[i].attempts for i in (0, 3))
    systems = {system_of(kind, b) for b in bodies}
    assert systems == {rec.seats[0].system_prompt, rec.seats[3].system_prompt}
    schema = answer_schema()
    for b in bodies:
        if kind == "openai":
            assert b["response_format"]["json_schema"] == {
                "name": "bangarena_move", "schema": schema, "strict": True,
            }  # fmt: skip
        else:
            assert b["system"][0]["cache_control"] == {"type": "ephemeral"}
            assert b["tools"][0]["input_schema"] == schema
            assert b["tool_choice"] == {"type": "tool", "name": "bangarena_move"}
    # the transcript holds what was sent; the turn prompt ends with the legal ids
    m = next(m for m in rec.moves if m.seat == 0)
    sent = m.attempts[0].transcript.messages[-1]["content"]
    assert sent.splitlines()[-1].startswith("Legal move ids: ")
    assert sent in {last_user(kind, b) for b in bodies}


@pytest.mark.parametrize(
    ("kind", "mode"),
    [("openai", "json_schema"), ("openai", "tool"), ("openai", "json_object"), ("openai", "text"),
     ("anthropic", "tool"), ("anthropic", "json_schema"), ("anthropic", "text")],
)  # fmt: skip
async def test_the_answer_schema_sent_matches_the_answer_mode(
    servers, kind: str, mode: str
) -> None:
    fake = servers[kind]
    fake.behaviour = behaviour = FakeBehaviour(seed=1)
    constrain = mode == "json_schema"
    seat = model_seat(fake.spec("m"), 1, ModelOptions(answer_mode=mode), constrain_ids=constrain)
    settings = MatchSettings(seats=4, seed=4, time_per_move_s=30)
    rec = await run_match(settings, table(4, {1: seat}, 4))
    assert rec.seats[1].answer_mode == mode and rec.totals.seats[1].autopilot_moves == 0
    for r in behaviour.requests:
        b = r.body
        ids = ids_from_prompt(b["messages"])
        schema = answer_schema(ids if constrain else None)
        if kind == "openai":
            fmt, tools = b.get("response_format"), b.get("tools")
            if mode == "json_schema":
                assert fmt["json_schema"]["schema"] == schema and tools is None
                assert fmt["json_schema"]["schema"]["properties"]["move"]["enum"] == ids
            elif mode == "tool":
                assert tools[0]["function"]["parameters"] == schema and fmt is None
                assert b["tool_choice"]["function"]["name"] == "bangarena_move"
            elif mode == "json_object":
                assert fmt == {"type": "json_object"} and tools is None
            else:
                assert fmt is None and tools is None
        else:
            out, tools = (b.get("output_config") or {}).get("format"), b.get("tools")
            if mode == "tool":
                assert tools[0]["input_schema"] == schema and out is None
            elif mode == "json_schema":
                assert out == {"type": "json_schema", "schema": schema} and tools is None
            else:
                assert out is None and tools is None
        system = system_of(kind, b)
        assert ("bangarena_move" in system) == (mode == "tool")


SCRIPT = [
    # decision 1: a 429 with Retry-After (credited to the clock), then an answer
    (actions.rate_limit(0.3), "transport"), (actions.answer(), "ok"),
    # decision 2: two server errors, then an answer
    (actions.server_error(), "transport"), (actions.overloaded(), "transport"), (actions.answer(), "ok"),
    # decision 3: three bad replies: the retry budget (2) is spent -> autopilot
    (actions.refusal(), "refusal"), (actions.truncated(), "truncated"), (actions.invalid_json(), "unparsable"),
    # decision 4: an illegal id and an empty reply, then an answer
    (actions.illegal_id(), "illegal"), (actions.empty(), "empty"), (actions.answer(), "ok"),
    # decision 5: an answer slower than the whole time per move -> autopilot
    (actions.slow(3.5), "timeout"),
    # decisions 6 and 7: errors that are not retried -> autopilot
    (actions.unauthorized(), "transport"),
    (actions.bad_request(), "transport"),
]  # fmt: skip
# (how, autopilot reason, answer retries: transport retries are not the model's)
EXPECTED_MOVES = [
    ("chosen", None, 0), ("chosen", None, 0), ("autopilot", "failures", 2), ("chosen", None, 2),
    ("autopilot", "timeout", 0), ("autopilot", "auth", 0), ("autopilot", "transport", 0),
]  # fmt: skip


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_every_failure_class_end_to_end(servers, kind: str) -> None:
    fake = servers[kind]
    fake.behaviour = behaviour = FakeBehaviour([a for a, _ in SCRIPT], seed=2)
    # abort_on_auth off: the 401 is one class among the others here (the stop is tested in
    # test_play_hardening.py). 2 s per move: under a loaded full run the 401 of decision 6 once
    # took more than 1 s to come back (a "timeout" where "transport" was expected).
    settings = MatchSettings(seats=4, seed=6, time_per_move_s=30, model_time_per_move_s=2.0,
                             grace_s=0.5, abort_on_auth=False)  # fmt: skip
    seat = model_seat(fake.spec("m"), 2, ModelOptions(timeout_s=5.0))
    rec = await run_match(settings, table(4, {2: seat}, 6))
    check_record(rec, settings)
    mine = [m for m in rec.moves if m.seat == 2]
    outcomes = [a.outcome for m in mine for a in m.attempts]
    assert outcomes[: len(SCRIPT)] == [o for _, o in SCRIPT]
    assert set(outcomes[len(SCRIPT) :]) == {"ok"}
    for m, (how, reason, retries) in zip(mine, EXPECTED_MOVES, strict=False):
        assert (m.how, m.autopilot_reason, m.retries) == (how, reason, retries)
    # Retry-After honoured and credited to the model's clock, recorded
    first = mine[0]
    assert first.attempts[0].status == 429 and 0.3 <= first.attempts[1].waited_s < 0.5
    assert 0.3 <= first.credited_s < 0.5 and first.backoff_s >= 0.3
    assert [a.status for a in mine[1].attempts[:2]] == [500, 503 if kind == "openai" else 529]
    assert mine[4].attempts[0].detail and 2.0 <= mine[4].elapsed_s < 2.6
    assert [m.attempts[0].status for m in mine[5:7]] == [401, 400]
    # feedback: the re-prompt after the illegal id names it and repeats the legal ids
    illegal = behaviour.requests[9].body["messages"]
    assert illegal[-2]["role"] == "assistant" and ILLEGAL_ID in last_user(
        kind, behaviour.requests[9].body
    )
    assert ids_from_prompt(illegal) == [x for x in last_user(kind, behaviour.requests[8].body)
                                        .splitlines()[-1].removeprefix("Legal move ids: ").split(", ")]  # fmt: skip
    t = rec.totals.seats[2]
    assert t.failures == {"transport": 5, "timeout": 1, "truncated": 1, "empty": 1,
                          "unparsable": 1, "illegal": 1, "refusal": 1}  # fmt: skip
    assert t.autopilot == {"failures": 1, "timeout": 1, "auth": 1, "transport": 1}
    assert len(behaviour.requests) == t.attempts
    # a 429 or 5xx before a valid answer is still first-try valid; decisions the provider never
    # answered (401, 400) are not rated at all
    later = len(mine) - len(EXPECTED_MOVES)
    assert t.answered == 5 + later and t.first_try_valid == 2 + later
    assert rec.totals.kinds["model"].first_try_valid_rate == t.first_try_valid_rate
    assert rec.totals.match.first_try_valid_rate == t.first_try_valid_rate  # bots left out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def warm_openai_sdk() -> None:
    """One decision through the OpenAI SDK on a throwaway fake server: the SDK builds its
    response types on its first call in a process (about half a second, over a second in a
    fresh checkout on a loaded machine), which a short clock would count as a timeout."""
    from bangarena.engine import GameConfig, new_game
    from bangarena.harness.seats import Deadline

    warm = FakeServer("openai", FakeBehaviour(seed=1))
    await warm.__aenter__()
    try:
        game = new_game(GameConfig(4), 1)
        d = game.decision
        seat = model_seat(warm.spec("m"), d.seat)
        await seat.decide(game.view(d.seat), d, Deadline(30))
        await seat.aclose()
    finally:
        await warm.__aexit__(None, None, None)


async def test_a_provider_that_dies_mid_match_is_autopiloted(monkeypatch) -> None:
    await warm_openai_sdk()
    # The fake answers six requests and holds any later one: the server's shutdown (up to 1 s
    # with a connection open) must not leave the match time to run on, or to end, before the
    # server is gone (a CI run saw a whole match end in that window).
    answered = 0

    def six_then_hold(body: dict) -> actions.Action | None:
        nonlocal answered
        answered += 1
        return actions.slow(60) if answered > 6 else None

    fake = FakeServer("openai", FakeBehaviour(seed=5, fn=six_then_hold))
    await fake.__aenter__()
    seat = model_seat(fake.spec("m"), 0)
    # 1 s a move, the SDK warmed above: the first decisions must be answered in time.
    settings = MatchSettings(seats=4, seed=9, model_time_per_move_s=1.0, grace_s=0.3)
    task = asyncio.create_task(run_match(settings, table(4, {0: seat}, 9)))
    while len(fake.requests) < 6:
        await asyncio.sleep(0.01)
    await fake.__aexit__(None, None, None)  # the server goes away
    rec = await asyncio.wait_for(task, 120)
    check_record(rec, settings)
    mine = [m for m in rec.moves if m.seat == 0]
    alive = next(i for i, m in enumerate(mine) if m.how == "autopilot")
    assert alive == 6 and all(m.how == "chosen" and m.retries == 0 for m in mine[:alive])
    # every request that reached it was answered, but the one it held at the shutdown
    assert len(fake.requests) in (alive, alive + 1)
    dead = mine[alive:]
    # On a loaded machine the decision in flight while the server shuts down can end on its
    # clock (the connection was taken, no reply came): a timeout, which does not count towards
    # the seat's down streak. Every later one fails on the transport.
    if dead and dead[0].how == "autopilot" and dead[0].autopilot_reason == "timeout":
        dead = dead[1:]
    assert dead and all(m.how == "autopilot" and m.autopilot_reason == "transport" for m in dead)
    assert all(
        a.outcome == "transport" and "connection" in a.detail for m in dead for a in m.attempts
    )

    # retried with backoff while it might come back, then one probe per decision. A retry
    # starts only when the clock still holds the backoff drawn (up to 0.5 s after a first
    # failure) and MIN_ATTEMPT_S: on a loaded machine a slow first failure leaves no room.
    def room_to_retry(m) -> bool:
        first = m.attempts[0]
        return first.started_s + first.latency_s < m.time_limit_s - 0.5 - MIN_ATTEMPT_S

    assert all(len(m.attempts) >= 2 for m in dead[:DOWN_AFTER] if room_to_retry(m))
    assert all(len(m.attempts) == 1 and m.backoff_s == 0 for m in dead[DOWN_AFTER:])


async def test_connection_refused_from_the_start() -> None:
    seat = model_seat(f"anthropic:m@http://127.0.0.1:{free_port()}", 1)
    settings = MatchSettings(seats=4, seed=3, model_time_per_move_s=0.4, grace_s=0.3)
    rec = await run_match(settings, table(4, {1: seat}, 3))
    check_record(rec, settings)
    t = rec.totals.seats[1]
    # Every decision ends on the autopilot because the server is never there; on a loaded
    # machine the short deadline can run out during a backoff, which is recorded as a timeout.
    assert sum(t.autopilot.values()) == t.decisions
    assert set(t.autopilot) <= {"transport", "timeout"} and t.autopilot.get("transport", 0) > 0
    assert t.failures["transport"] + t.failures["timeout"] == t.attempts
    assert t.failures["transport"] > 0


@pytest.mark.parametrize("budget", ["tokens", "cost"])
async def test_a_spent_budget_autopilots_the_rest_of_the_match(servers, budget: str) -> None:
    fake = servers["openai"]
    fake.behaviour = behaviour = FakeBehaviour(seed=8)
    prices = {
        "price_input_per_mtok": 2.0,
        "price_output_per_mtok": 8.0,
        "price_cached_per_mtok": 0.5,
    }
    limit = {"token_budget": 4000} if budget == "tokens" else {"cost_budget_usd": 0.008}
    seat = model_seat(fake.spec("m"), 0, ModelOptions(**prices, **limit))
    settings = MatchSettings(seats=4, seed=12)
    rec = await run_match(settings, table(4, {0: seat}, 12))
    check_record(rec, settings)
    mine = [m for m in rec.moves if m.seat == 0]
    spent = [m for m in mine if m.attempts]
    assert spent and all(m.how == "chosen" for m in spent)
    rest = mine[len(spent) :]
    assert rest and all(m.how == "autopilot" and m.autopilot_reason == "budget" for m in rest)
    assert len(behaviour.requests) == len(spent)
    t = rec.totals.seats[0]
    assert t.cost_usd and t.cost_usd > 0
    if budget == "tokens":
        assert t.usage.total >= 4000 > t.usage.total - spent[-1].attempts[0].usage.total
    else:
        assert t.cost_usd >= 0.008 > t.cost_usd - spent[-1].attempts[0].cost_usd
