"""Push agents over plain HTTP (``http:URL``): a suite with the example push agent on loopback
finishes and is rated; injected faults (slow, garbage, illegal, 500, a dropped connection,
empty) are classified as a model's would be, answered with feedback, and the record counts
exactly what was injected; nothing an agent is sent carries hidden information; a refused
connection, a 401 and a redirect are classified and the match goes on; the token goes only to
the agent's own origin."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path

import pytest
from fakes.agent_faults import FaultyAgent
from fakes.agent_leaks import leaks
from fakes.serve import aserve, serve
from test_match import check_record

from bangarena.evals import parse_suite
from bangarena.evals.runner import RunOptions, run_suite
from bangarena.evals.store import open_store
from bangarena.evals.suite import SuiteError
from bangarena.harness.agent_spec import parse_agent_spec
from bangarena.harness.match import MatchSettings, run_match
from bangarena.harness.model_spec import ModelOptions, ModelSpecError
from bangarena.harness.seats import BotSeat, build_seat, plan_seat
from bangarena.harness.seats.http_seat import HttpSeat
from bangarena.harness.seats.model_seat import DOWN_AFTER
from bangarena.leaderboard.board import build_boards

ROOT = Path(__file__).resolve().parents[1]


def load_example(name: str):
    """An example agent script as a module (examples/ is not a package)."""
    path = ROOT / "examples" / "agents" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"example_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def free_port_url(path: str = "/decide") -> str:
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now: connections are refused
    return f"http://127.0.0.1:{port}{path}"


def http_seat(url: str, seat: int, **options) -> HttpSeat:
    plan = plan_seat(f"http:{url}")
    plan = type(plan)(plan.text, plan.kind, options=ModelOptions(**options), agent=plan.agent)
    built = build_seat(plan, seat=seat, seed=seat, environ={})
    assert isinstance(built, HttpSeat)
    return built


async def test_injected_faults_are_classified_autopiloted_and_counted() -> None:
    agent = FaultyAgent({0, 2}, slow_s=2.0, every=2)
    settings = MatchSettings(seats=4, seed=21, model_time_per_move_s=6.0, transcripts=True)
    async with aserve(agent) as url:
        seats = [
            http_seat(url + "/decide", 0, timeout_s=1.0, retry_budget=2),
            BotSeat("rule", 1, 1),
            http_seat(url + "/decide", 2, timeout_s=1.0, retry_budget=1),
            BotSeat("rule", 3, 3),
        ]
        rec = await run_match(settings, seats)
    check_record(rec, settings)
    assert rec.status == "complete"
    assert (rec.seats[0].controller, rec.seats[0].kind) == ("ai", "http")
    for s in (0, 2):
        got: Counter[str] = Counter()
        for m in rec.moves:
            if m.seat == s:
                got.update(a.outcome for a in m.attempts if a.outcome != "ok")
        want = Counter({o: n for (seat, o), n in agent.injected.items() if seat == s})
        assert got == want, s
        totals = rec.totals.seats[s]
        for outcome, n in want.items():
            assert totals.failures[outcome] == n
        gave_up = [m for m in rec.moves if m.seat == s and m.how == "autopilot"]
        assert {m.autopilot_reason for m in gave_up} <= {"failures"}
        assert len(gave_up) == sum(1 for k in agent.always if k[1] == s)
        budget = 2 if s == 0 else 1
        assert all(len(m.attempts) == budget + 1 for m in gave_up)
        assert all(m.how == "chosen" for m in rec.moves if m.seat == s and m not in gave_up)
    classes = {o for (_, o) in agent.injected}
    assert classes == {"timeout", "unparsable", "illegal", "transport", "empty"}, classes
    assert agent.always, "no decision where every attempt failed"
    # the retry carries the feedback a model gets, with the previous failure
    retried = [b for _, _, b in agent.received if "feedback" in b]
    assert retried and all(b["feedback"]["text"].splitlines()[-1].startswith("Legal move ids:")
                           for b in retried)  # fmt: skip
    assert {b["feedback"]["failure"] for b in retried} >= {"unparsable", "illegal", "empty"}
    problems, checked = leaks(rec, agent.received)
    assert not problems and checked == len(agent.received)


def test_a_suite_with_the_example_push_agent_finishes_and_is_rated(tmp_path: Path) -> None:
    push = load_example("push_agent")
    app = push.create_app(push.random_policy(5), token="s3cret")
    with serve(app) as url:
        suite = parse_suite(
            f"""
[suite]
name = "push"
seed = 3
deals = 2

[[participants]]
id = "pusher"
spec = "http:{url}/decide"
options = {{ api_key_env = "PUSH_TOKEN", display_name = "Pusher" }}

[[participants]]
id = "rule"
spec = "rule"

[[participants]]
id = "random"
spec = "random"

[[tables]]
seats = 4
time_per_move = 10
lineup = ["pusher", "rule", "random", "rule"]
"""
        )
        db = tmp_path / "push.db"
        result = run_suite(
            suite, RunOptions(db=str(db), environ={"PUSH_TOKEN": "s3cret"}, keep_records=True)
        )
    assert result.matches_done == result.matches_planned == 8, result.void_reasons
    for outcome in result.outcomes:
        rec = outcome.record
        assert rec is not None and rec.status == "complete"
        seat = next(s for s in rec.seats if s.kind == "http")
        assert seat.display_name == "Pusher" and seat.controller == "ai"
        assert "s3cret" not in rec.model_dump_json()
        assert all(m.how == "chosen" for m in rec.moves if m.seat == seat.seat)
    store = open_store(f"sqlite:///{db}")
    try:
        board = build_boards(store, "push", resamples=20, online=False)[0]
    finally:
        store.close()
    entry = board.participant("pusher")
    assert entry.matches == 8 and entry.kind == "http"
    assert entry.first_try_valid == 1.0


async def test_a_refused_connection_is_transport_and_the_match_goes_on() -> None:
    settings = MatchSettings(seats=4, seed=2, model_time_per_move_s=0.6, transcripts=False)
    seats = [http_seat(free_port_url(), 0)] + [BotSeat("rule", i, i) for i in range(1, 4)]
    rec = await run_match(settings, seats)
    assert rec.status == "complete"
    mine = [m for m in rec.moves if m.seat == 0]
    assert mine and all(m.how == "autopilot" for m in mine)
    assert {m.autopilot_reason for m in mine} <= {"transport", "timeout"}
    assert all(a.outcome == "transport" for m in mine for a in m.attempts)
    assert any("ConnectError" in (a.detail or "") for m in mine for a in m.attempts)
    # after three decisions lost in a row to transport, one probe per decision (a decision
    # whose clock ran out between retries is a transport loss too; on a loaded machine one can
    # start with its clock already spent, and make no attempt)
    streak = 0
    for m in mine:
        if streak >= DOWN_AFTER:
            assert len(m.attempts) <= 1, m.attempts
        streak += m.autopilot_reason == "transport"
    assert streak > DOWN_AFTER
    assert rec.totals.seats[0].lost_to_provider == len(mine)


async def test_a_401_stops_the_match_as_an_auth_failure() -> None:
    push = load_example("push_agent")
    app = push.create_app(push.random_policy(1), token="right")
    async with aserve(app) as url:
        seat = http_seat(url + "/decide", 0)
        seat._token = "wrong"  # as if BANGARENA_HTTP_AGENT_TOKEN held a stale token
        rec = await run_match(
            MatchSettings(seats=4, seed=4), [seat] + [BotSeat("rule", i, i) for i in range(1, 4)]
        )
    assert rec.status == "aborted" and "HTTP 401" in (rec.status_detail or "")
    assert rec.moves[-1].autopilot_reason == "auth"


async def test_the_token_goes_only_to_the_agents_origin_and_redirects_are_not_followed() -> None:
    other = FaultyAgent(set())

    async def redirect(scope, receive, send):  # noqa: ANN001
        while (await receive()).get("more_body"):
            pass
        await send({"type": "http.response.start", "status": 307,
                    "headers": [(b"location", target.encode())]})  # fmt: skip
        await send({"type": "http.response.body", "body": b""})

    async with aserve(other) as target_base, aserve(redirect) as url:
        target = target_base + "/decide"
        seat = http_seat(url + "/decide", 0, retry_budget=0)
        seat._token = "tok"
        assert seat.auth_headers(url + "/x") == {"Authorization": "Bearer tok"}
        assert seat.auth_headers(target) == {}
        rec = await run_match(
            MatchSettings(seats=4, seed=4, model_time_per_move_s=2, transcripts=False),
            [seat] + [BotSeat("rule", i, i) for i in range(1, 4)],
        )
    assert rec.status == "complete"
    mine = [m for m in rec.moves if m.seat == 0]
    assert all(m.autopilot_reason == "failures" for m in mine)
    assert all("redirect" in (m.attempts[0].detail or "") for m in mine)
    assert other.received == []  # never followed, so the token never went there


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("http:127.0.0.1:8700/decide", "expected http:http://HOST"),
        ("a2a:ftp://example.org", "expected a2a:http://HOST"),
        ("http:http://", "no valid host"),
        ("http:http://h:99999/x", "no valid host"),
        ("http:http://h/ x", "whitespace"),
    ],
)
def test_bad_agent_specs_are_one_precise_error(text: str, message: str) -> None:
    with pytest.raises(ModelSpecError, match=message):
        plan_seat(text)


def test_agent_specs_in_suites_keys_and_options() -> None:
    plan = plan_seat("http:http://user:pw@127.0.0.1:8700/decide")
    assert (plan.kind, plan.agent) == ("http", parse_agent_spec(plan.text))
    base = """
[suite]
name = "s"
deals = 1
[[participants]]
id = "a"
spec = "a2a:http://127.0.0.1:9/"
{options}
[[participants]]
id = "rule"
spec = "rule"
[[tables]]
seats = 4
lineup = ["a", "rule", "rule", "rule"]
"""
    with pytest.raises(SuiteError, match=r"participants\[0\]\.options: agent .* takes only"):
        parse_suite(base.format(options="options = { temperature = 0.5 }"))
    suite = parse_suite(base.format(options="options = { retry_budget = 1 }"))
    from bangarena.evals import plan_suite
    from bangarena.evals.keys import seat_identity

    planned = plan_suite(suite)
    assert planned[0].uses_prompts is not None
    ident = seat_identity(suite.file.participant("a").plan)
    assert ident == {"kind": "a2a", "spec": "a2a:http://127.0.0.1:9/",
                     "options": {"retry_budget": 1, "notes": False}}  # fmt: skip
    # credentials in an agent URL never reach a key, a store or a printed command
    from bangarena.evals.keys import seat_spec

    assert "pw" not in seat_spec(plan)
    assert json.dumps(planned[0].table)  # the table as played is JSON


async def test_the_leak_check_catches_a_leak() -> None:
    """Control: a body carrying another seat's hand or the deck's order is reported."""
    from bangarena.engine import GameConfig, new_game
    from bangarena.engine.cards import CARD_IDS

    settings = MatchSettings(seats=4, seed=8)
    rec = await run_match(settings, [BotSeat("rule", i, i) for i in range(4)])
    game = new_game(GameConfig(4, "classic", settings.max_rounds), 8)
    first = rec.moves[0]
    state = game.omniscient_state()["state"]
    other = next(p for p in state["players"] if p["seat"] != first.seat)
    did = len(game.state.history)
    hand = {"view": {"players": []}, "note": [CARD_IDS[c] for c in other["hand"]]}
    deck = {"view": {"players": []}, "note": [CARD_IDS[c] for c in state["deck"][:3]]}
    for body, what in ((hand, "hidden card"), (deck, "deck order")):
        problems, checked = leaks(rec, [(first.seat, did, body)])
        assert checked == 1 and any(what in p for p in problems), problems


def test_an_agents_answer_is_read_from_one_object_never_guessed() -> None:
    from bangarena.harness.answers import Answer
    from bangarena.harness.seats.agent_seat import answer_from_object, answer_from_text

    legal = ("end_turn", "shot_01")
    ok = answer_from_object({"move_id": "shot_01", "decision_id": 4.0, "reason": "r"}, legal, 4)
    assert ok == Answer("shot_01", "r", None)
    assert answer_from_object({"move": "end_turn"}, legal, 4) == Answer("end_turn")
    cases = [
        ({"move_id": "shot_01", "decision_id": 3}, "unparsable", "names decision 3, not 4"),
        ({"move_id": "shot_01", "decision_id": True}, "unparsable", "names decision True"),
        ({"move_id": 5}, "unparsable", "not a string"),
        ({"reason": "I shoot"}, "unparsable", 'no "move_id"'),
        ({"move_id": "shot_02"}, "illegal", "not a legal move id"),
        (["shot_01"], "unparsable", "not a JSON object"),
    ]
    for obj, kind, detail in cases:
        got = answer_from_object(obj, legal, 4)
        assert got.kind == kind and detail in got.detail, (obj, got)  # type: ignore[union-attr]
    assert answer_from_text("I play shot_01, obviously", legal, 4).kind == "unparsable"  # type: ignore[union-attr]
    assert answer_from_text("  ", legal, 4).kind == "empty"  # type: ignore[union-attr]
    said = 'Thinking… {"move_id": "shot_01"}'
    assert answer_from_text(said, legal, 4) == Answer("shot_01")
