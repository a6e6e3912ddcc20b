"""A2A participants (``a2a:URL``) through the real a2a-sdk client against real a2a-sdk servers
on loopback: a suite with the example purple agent finishes and is rated; injected faults
(slow, garbage, illegal, 500, dropped, input-required, failed, rejected, another context,
another task) are classified, retried with feedback and autopiloted, and the record counts
exactly what was injected; one context per seat and match; nothing sent carries hidden
information; a card that does not parse and a refused connection are classified failures and
the match goes on."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import pytest
from fakes.agent_a2a import FaultPlan, example, faulty_agent_app, serve_at
from fakes.agent_leaks import leaks
from fakes.serve import aserve
from starlette.applications import Starlette
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route
from test_match import check_record

from bangarena.evals import parse_suite
from bangarena.evals.runner import RunOptions, run_suite
from bangarena.evals.store import open_store
from bangarena.harness.match import MatchSettings, run_match
from bangarena.harness.model_spec import ModelOptions
from bangarena.harness.seats import BotSeat, build_seat, plan_seat
from bangarena.harness.seats.a2a_seat import A2ASeat
from bangarena.leaderboard.board import build_boards


def a2a_seat(url: str, seat: int, **options) -> A2ASeat:
    plan = plan_seat(f"a2a:{url}")
    plan = type(plan)(plan.text, plan.kind, options=ModelOptions(**options), agent=plan.agent)
    built = build_seat(plan, seat=seat, seed=seat, environ={})
    assert isinstance(built, A2ASeat)
    return built


@pytest.mark.parametrize(("streaming", "agents"), [(True, (0, 2)), (False, (0,))])
async def test_injected_faults_are_classified_and_counted(
    streaming: bool, agents: tuple[int, ...]
) -> None:
    plan = FaultPlan(set(agents), every=2 if streaming else 1, rounds=1)
    settings = MatchSettings(seats=4, seed=31, model_time_per_move_s=6.0)
    with serve_at(lambda url: faulty_agent_app(url, plan, streaming=streaming)) as url:
        seats = [
            a2a_seat(url, i, timeout_s=1.75, retry_budget=2)
            if i in agents
            else BotSeat("rule", i, i)
            for i in range(4)
        ]
        rec = await run_match(settings, seats)
    check_record(rec, settings)
    assert rec.status == "complete"
    assert (rec.seats[0].controller, rec.seats[0].kind) == ("ai", "a2a")
    assert rec.seats[0].sdk and rec.seats[0].sdk.startswith("a2a-sdk")
    for s in agents:
        got: Counter[str] = Counter()
        for m in rec.moves:
            if m.seat == s:
                got.update(a.outcome for a in m.attempts if a.outcome != "ok")
        want = Counter({o: n for (seat, o), n in plan.injected.items() if seat == s})
        assert got == want, (s, got, want)
        mine = [m for m in rec.moves if m.seat == s]
        assert all(m.how == "chosen" for m in mine)  # one fault per decision: retried and fixed
        assert len(plan.contexts[s]) == 1  # one A2A context per seat and match
    assert len(set().union(*plan.contexts.values())) == len(agents)
    classes = {o for (_, o) in plan.injected}
    assert classes == {"timeout", "unparsable", "illegal", "transport", "empty", "refusal"}
    details = " ".join(a.detail or "" for m in rec.moves for a in m.attempts)
    for phrase in ("input-required", "failed", "rejected", "context", "another-task", "500"):
        assert phrase in details, phrase
    problems, checked = leaks(rec, plan.received)
    assert not problems and checked == len(plan.received)


def test_a_suite_with_two_a2a_agents_finishes_and_is_rated(tmp_path: Path) -> None:
    agent = example("a2a_agent")
    with (
        serve_at(lambda url: agent.create_app(url, agent.random_policy(1), name="A")) as a,
        serve_at(lambda url: agent.create_app(url, agent.random_policy(2), streaming=False)) as b,
    ):
        suite = parse_suite(
            f"""
[suite]
name = "a2a"
seed = 5
deals = 1

[[participants]]
id = "purple-a"
spec = "a2a:{a}"

[[participants]]
id = "purple-b"
spec = "a2a:{b}"

[[participants]]
id = "rule"
spec = "rule"

[[tables]]
seats = 4
time_per_move = 10
lineup = ["purple-a", "rule", "purple-b", "rule"]
"""
        )
        db = tmp_path / "a2a.db"
        result = run_suite(suite, RunOptions(db=str(db), environ={}, keep_records=True))
    assert result.matches_done == result.matches_planned == 4, result.void_reasons
    for outcome in result.outcomes:
        rec = outcome.record
        assert rec is not None and rec.status == "complete"
        assert all(m.how == "chosen" for m in rec.moves)
    store = open_store(f"sqlite:///{db}")
    try:
        board = build_boards(store, "a2a", resamples=20, online=False)[0]
    finally:
        store.close()
    for pid in ("purple-a", "purple-b"):
        entry = board.participant(pid)
        assert entry.matches == 4 and entry.kind == "a2a" and entry.first_try_valid == 1.0


def _bad_card_app(body: str, status: int = 200) -> Starlette:
    async def card(request):  # noqa: ANN001
        return PlainTextResponse(body, status_code=status, media_type="application/json")

    return Starlette(routes=[Route("/.well-known/agent-card.json", card)])


@pytest.mark.parametrize(
    ("body", "phrase"),
    [
        ("this is not json", "does not parse"),
        ('["a", "list"]', "does not parse"),
        ('{"name": 5, "supportedInterfaces": "nope"}', "does not parse"),
        ('{"name": "x", "supportedInterfaces": [{"url": "grpc://h", "protocolBinding": "GRPC"}]}',
         "JSON-RPC"),
    ],
)  # fmt: skip
async def test_a_card_that_does_not_parse_is_a_classified_failure(body: str, phrase: str) -> None:
    async with aserve(_bad_card_app(body)) as url:
        seats = [a2a_seat(url, 0)] + [BotSeat("rule", i, i) for i in range(1, 4)]
        rec = await run_match(MatchSettings(seats=4, seed=3, model_time_per_move_s=0.5), seats)
    assert rec.status == "complete"
    mine = [m for m in rec.moves if m.seat == 0]
    assert all(m.how == "autopilot" and m.autopilot_reason == "transport" for m in mine)
    first = mine[0].attempts[0]
    assert first.outcome == "transport" and phrase in (first.detail or ""), first.detail
    assert "agent-card.json" in (first.detail or "")


async def test_a_refused_connection_and_a_404_card_are_transport() -> None:
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    async with aserve(_bad_card_app("{}", 404)) as url404:
        for url, phrase in ((f"http://127.0.0.1:{port}", "ConnectError"), (url404, "404")):
            seats = [a2a_seat(url, 0)] + [BotSeat("rule", i, i) for i in range(1, 4)]
            rec = await run_match(MatchSettings(seats=4, seed=3, model_time_per_move_s=0.5), seats)
            assert rec.status == "complete"
            mine = [m for m in rec.moves if m.seat == 0]
            assert all(m.how == "autopilot" for m in mine)
            assert phrase in (mine[0].attempts[0].detail or ""), mine[0].attempts[0].detail


async def test_the_token_is_sent_to_the_agents_own_origin_only() -> None:
    seen: list[str | None] = []

    async def card(request):  # noqa: ANN001
        seen.append(request.headers.get("authorization"))
        return JSONResponse({"name": "x", "supportedInterfaces": [
            {"url": "http://127.0.0.1:9/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]})  # fmt: skip

    app = Starlette(routes=[Route("/.well-known/agent-card.json", card)])
    async with aserve(app) as url:
        plan = plan_seat(f"a2a:{url}")
        seat = build_seat(plan, seat=0, seed=0, environ={"BANGARENA_A2A_AGENT_TOKEN": "tok"})
        assert isinstance(seat, A2ASeat)
        await seat._connect(2.0)
        # the card's interface is on another port: no token goes there
        assert seat.auth_headers(seat._interface_url or "") == {}
        await seat.aclose()
    assert seen == ["Bearer tok"]


async def test_cancelled_at_the_deadline_keeps_the_attempt() -> None:
    plan = FaultPlan(None, every=1)  # every first message faulty
    with serve_at(lambda url: faulty_agent_app(url, plan)) as url:
        seat = a2a_seat(url, 0)
        rec = await asyncio.wait_for(
            run_match(
                MatchSettings(seats=4, seed=8, model_time_per_move_s=0.4, grace_s=0.1),
                [seat] + [BotSeat("rule", i, i) for i in range(1, 4)],
            ),  # fmt: skip
            60,
        )
    assert rec.status == "complete"
    assert all(m.attempts for m in rec.moves if m.seat == 0)
