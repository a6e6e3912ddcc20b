"""The decision routes' fast path (``service/routes/decisions.py``) answers exactly what the
FastAPI routes answer: the same request sequence against two servers playing the same seeded
match, one with the fast path and one without, gets the same statuses and bodies (the match id
and the seconds left aside) — good requests and every kind of bad one it hands on. Also the
pieces the service's performance rests on: the cheap constrained answer schema, the unvalidated
payload, the per-seat waits of a match."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from itertools import product
from pathlib import Path
from typing import Any

import httpx
import pytest
from service_support import (
    RunningService,
    bearer,
    bot_players,
    create_match,
    running_service,
    service_settings,
)

from bangarena.engine import GameConfig, new_game
from bangarena.harness.decision_payload import (
    PROMPT_PARTS,
    DecisionPayload,
    DecisionPrompter,
    constrained_schema,
)
from bangarena.rules_machine.schemas import answer_schema
from bangarena.service.routes.decisions import fast_handler

LIMIT = 2048


def _scope(method: str, path: str) -> dict[str, Any]:
    return {"type": "http", "method": method, "path": path}


def test_fast_handler_takes_only_the_two_routes_with_a_valid_id(tmp_path: Path) -> None:
    from bangarena.service import create_app

    assert create_app(service_settings(tmp_path), extensions=[]).fast_path  # the default
    assert not create_app(
        service_settings(tmp_path, cors_origins=("http://x",)), extensions=[]
    ).fast_path
    assert fast_handler(_scope("GET", "/v1/matches/ab_C-9/decision")) is not None
    assert fast_handler(_scope("POST", "/v1/matches/ab_C-9/moves")) is not None
    for method, path in [
        ("POST", "/v1/matches/abc/decision"),
        ("GET", "/v1/matches/abc/moves"),
        ("HEAD", "/v1/matches/abc/decision"),
        ("GET", "/v1/matches/abc/view"),
        ("GET", "/v1/matches/abc/decision/x"),
        ("GET", "/v1/matches//decision"),
        ("GET", "/v1/matches/a$b/decision"),
        ("GET", f"/v1/matches/{'a' * 65}/decision"),
        ("GET", "/v2/matches/abc/decision"),
    ]:
        assert fast_handler(_scope(method, path)) is None, (method, path)


@pytest.fixture(scope="module")
def twins(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[dict[str, Any]]]:
    """Two services (fast path on, off), each with the same seeded match waiting at its remote
    seat's first decision."""
    out = []
    with ExitStack() as stack:
        for fast in (True, False):
            tmp = tmp_path_factory.mktemp(f"fast-{fast}")
            settings = service_settings(tmp, max_body_bytes=LIMIT)
            svc: RunningService = stack.enter_context(running_service(settings, extensions=[]))
            svc.app.fast_path = fast
            client = stack.enter_context(httpx.Client(base_url=svc.url, timeout=30))
            made = create_match(
                client, svc, seats=4, seed=5, time_per_move=600, start="now",
                players=[{"kind": "remote", "name": "a"}, *bot_players(3)],
            )  # fmt: skip
            live = svc.state.registry.get(made["match_id"])
            end = time.monotonic() + 10
            while svc.call(lambda live=live: live.remote[0].pending) is None:
                assert time.monotonic() < end, "no decision for the remote seat"
                time.sleep(0.02)
            out.append({"svc": svc, "client": client, "made": made})
        yield out


def _normal(r: httpx.Response, match_id: str) -> tuple[int, Any]:
    """Status and body, with what differs between the twins (the match id, the seconds left)
    taken out."""
    if not r.content:
        return r.status_code, None
    body = json.loads(r.text.replace(match_id, "MATCH"))
    if isinstance(body, dict):
        body.pop("deadline_s", None)
    return r.status_code, body


def _requests(decision_id: int, legal: str) -> list[tuple[str, str, dict[str, Any]]]:
    """(method, path tail, httpx options) in order; ``tok`` marks the seat token's place."""
    post = {"headers": {"content-type": "application/json"}}
    return [
        ("GET", "/decision", {}),
        ("GET", "/decision?wait=0", {}),
        ("GET", "/decision?wait=0.5", {}),
        ("GET", "/decision?wait=abc", {}),
        ("GET", "/decision?wait=61", {}),
        ("GET", "/decision?wait=-1", {}),
        ("GET", "/decision?wait=", {}),
        ("GET", "/decision?wait=1e0", {}),
        ("GET", "/decision?wait=0&wait=1", {}),
        ("GET", "/decision?other=1", {}),
        ("GET", "/decision?prompt=turn", {}),
        ("GET", "/decision?wait=0&prompt=none", {}),
        ("GET", "/decision?prompt=full&wait=0.5", {}),
        ("GET", "/decision?prompt=bogus", {}),
        ("GET", "/decision?prompt=", {}),
        ("GET", "/decision?prompt", {}),
        ("GET", "/decision?prompt=none&prompt=turn", {}),
        ("GET", "/decision?prompt=none&other=1", {}),
        ("GET", "/decision", {"token": None}),
        ("GET", "/decision", {"token": "unknown-token-0123456789"}),
        ("GET", "/decision", {"token": "admin"}),
        ("GET", "/decision", {"token": "spectator"}),
        ("GET", "/decision", {"token": None, "headers": {"authorization": "Basic abc"}}),
        ("GET", "/decision", {"token": None, "headers": {"authorization": "Bearer"}}),
        ("GET", "/decision", {"token": None, "headers": {"cookie": "bangarena_token=nope"}}),
        (
            "POST",
            "/moves",
            {
                "headers": {**post["headers"], "authorization": "bearer"},
                "json": {"decision_id": decision_id, "move_id": legal},
                "token": None,
            },
        ),
        ("POST", "/moves", {**post, "content": b"{not json"}),
        ("POST", "/moves", {**post, "content": b"[]"}),
        ("POST", "/moves", {**post, "content": b""}),
        ("POST", "/moves", {**post, "json": {"decision_id": "0", "move_id": legal}}),
        ("POST", "/moves", {**post, "json": {"decision_id": True, "move_id": legal}}),
        (
            "POST",
            "/moves",
            {**post, "json": {"decision_id": decision_id, "move_id": legal, "x": 1}},
        ),  # fmt: skip
        ("POST", "/moves", {**post, "json": {"decision_id": decision_id, "move_id": ""}}),
        ("POST", "/moves", {**post, "content": b"x" * (LIMIT + 1)}),
        (
            "POST",
            "/moves",
            {"content": json.dumps({"decision_id": decision_id + 7, "move_id": legal}).encode()},
        ),  # fmt: skip
        ("POST", "/moves", {**post, "json": {"decision_id": decision_id + 7, "move_id": legal}}),
        ("POST", "/moves", {**post, "json": {"decision_id": decision_id, "move_id": "nope"}}),
        (
            "POST",
            "/moves",
            {**post, "json": {"decision_id": decision_id, "move_id": legal}, "token": "spectator"},
        ),  # fmt: skip
        ("POST", "/moves", {**post, "json": {"decision_id": decision_id, "move_id": legal}}),
        ("POST", "/moves", {**post, "json": {"decision_id": decision_id, "move_id": legal}}),
        ("GET", "/decision?wait=5", {}),
    ]


def _send(twin: dict[str, Any], method: str, tail: str, options: dict[str, Any]) -> httpx.Response:
    made, svc = twin["made"], twin["svc"]
    options = dict(options)
    who = options.pop("token", "seat")
    token = {"seat": made["seats"][0]["token"], "admin": svc.admin_token,
             "spectator": made["spectator_token"]}.get(who, who)  # fmt: skip
    headers = {**options.pop("headers", {}), **(bearer(token) if token else {})}
    url = f"/v1/matches/{made['match_id']}{tail}"
    return twin["client"].request(method, url, headers=headers, **options)


def test_fast_path_answers_what_the_fastapi_routes_answer(twins: list[dict[str, Any]]) -> None:
    fast, slow = twins
    first = _send(fast, "GET", "/decision", {}).json()
    assert first == {**_send(slow, "GET", "/decision", {}).json(), "match_id": first["match_id"],
                     "deadline_s": first["deadline_s"]}  # fmt: skip
    statuses = []
    for method, tail, options in _requests(first["decision_id"], first["moves"][0]["id"]):
        a, b = (_send(t, method, tail, options) for t in twins)
        got = _normal(a, fast["made"]["match_id"])
        assert got == _normal(b, slow["made"]["match_id"]), (method, tail, options)
        assert a.headers["content-type"] == b.headers["content-type"], (method, tail)
        statuses.append(got[0])
    # the sequence covers the answers of the contract: served, handed on, refused
    assert {200, 204, 401, 403, 409, 413, 422} <= set(statuses) | {204}
    assert statuses[-3] == 200 and statuses[-2] == 409  # the move played once, then stale


def test_chunked_move_bodies_go_through_the_app(twins: list[dict[str, Any]]) -> None:
    fast = twins[0]
    body = b'{"decision_id": 0, "move_id": "x"}' * 100

    def chunks() -> Iterator[bytes]:
        yield body[:1000]
        yield body[1000:]

    r = _send(fast, "POST", "/moves", {"headers": {"content-type": "application/json"},
                                       "content": chunks()})  # fmt: skip
    assert r.status_code == 413 and r.json()["error"] == "body_too_large"


# --- the payload and the waits ------------------------------------------------------------


@pytest.mark.parametrize("notes", [False, True])
def test_constrained_schema_equals_answer_schema(notes: bool) -> None:
    for ids in (["a"], ["end", "play:shot_07:2", "end"], [f"id{i}" for i in range(40)]):
        fast, full = constrained_schema(ids, notes), answer_schema(ids, notes)
        assert fast == full and json.dumps(fast) == json.dumps(full)
    with pytest.raises(ValueError):
        constrained_schema([])


def test_unvalidated_payloads_equal_validated_ones() -> None:
    import random

    game = new_game(GameConfig(5), 3)
    prompter, rng, cursor, n = DecisionPrompter(), random.Random(3), 0, 0
    while not game.over and n < 40:
        d = game.decision
        if d.seat == 0:
            view = game.view(0, since=cursor)
            cursor = view.cursor
            p = prompter.payload("m", len(game.state.history), view, d, 9.0)
            checked = DecisionPayload.model_validate(p.model_dump(by_alias=True))
            assert checked == p
            assert checked.model_dump_json(by_alias=True) == p.model_dump_json(by_alias=True)
            n += 1
        game.apply(d.seat, rng.choice(d.ids))
    assert n > 5


def test_seat_waits_wake_on_their_seat_and_leave_nothing_behind(tmp_path: Path) -> None:
    from bangarena.service.models import CreateMatch
    from bangarena.service.registry import MatchRegistry
    from bangarena.service.tokens import TokenBook

    async def run() -> None:
        registry = MatchRegistry(service_settings(tmp_path).resolved(), TokenBook("x" * 40))
        live, _ = registry.create(CreateMatch.model_validate({
            "seats": 4, "players": [{"kind": "remote", "name": "a"},
                                    {"kind": "remote", "name": "b"}, *bot_players(2)],
        }))  # fmt: skip
        flag = {"ready": False}
        seat0 = asyncio.ensure_future(live.wait_until(lambda: flag["ready"], 5, seat=0))
        anyone = asyncio.ensure_future(live.wait_until(lambda: flag["ready"], 5))
        await asyncio.sleep(0)
        flag["ready"] = True
        live.notify(1)  # another seat's change: wakes the general waiter, not seat 0's
        assert await asyncio.wait_for(anyone, 1) is True
        await asyncio.sleep(0.05)
        assert not seat0.done()
        live.notify(0)
        assert await asyncio.wait_for(seat0, 1) is True
        flag["ready"] = False
        t = time.monotonic()
        assert await live.wait_until(lambda: flag["ready"], 0.05, seat=0) is False
        assert time.monotonic() - t < 1
        cancelled = asyncio.ensure_future(live.wait_until(lambda: False, 5, seat=0))
        await asyncio.sleep(0)
        cancelled.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cancelled
        assert live._seat_waiters[0] == [] and live._waiters == []
        await registry.aclose()

    asyncio.run(run())


def test_prepared_payload_json_is_the_models_json() -> None:
    """The poll's bytes (``PreparedPayload.json``: made once per decision, the system prompt
    serialised once per seat) are the model's JSON with ``deadline_s`` moved to the front, in
    every seat of base and expansion games; a payload made later from the same view is equal."""
    import random

    for config, seed in ((GameConfig(5), 4), (GameConfig(7, expansions=("armed_dangerous",)), 5)):
        game = new_game(config, seed)
        prompters = [DecisionPrompter("es") for _ in range(config.seats)]
        cursors = [0] * config.seats
        rng, n = random.Random(seed), 0
        while not game.over and n < 300:
            d = game.decision
            view = game.view(d.seat, since=cursors[d.seat])
            cursors[d.seat] = view.cursor
            prepared = prompters[d.seat].prepare("m", len(game.state.history), view, d)
            for left, part in product((0.0, 12.3456, 90.0), rng.sample(PROMPT_PARTS, 3)):
                model = prepared.model(left, part)
                data = json.loads(prepared.json(left, part))
                assert list(data)[0] == "deadline_s"
                assert data == json.loads(model.model_dump_json(by_alias=True))
                rest = model.model_dump_json(by_alias=True, exclude={"deadline_s"}).encode()
                head = b'{"deadline_s":' + repr(float(round(left, 3))).encode() + b","
                assert prepared.json(left, part) == head + rest[1:]
                prompt = data["prompt"]
                if part == "none":
                    assert prompt is None
                else:
                    assert prompt["turn"] and prompt["turn"] == prepared.turn
                    assert prompt["system"] == (prepared.system if part == "full" else None)
            game.apply(d.seat, rng.choice(d.ids))
            n += 1
        assert n > 20


def test_turn_prompts_rendered_lazily_are_the_eager_ones() -> None:
    """A seat's turn prompt is rendered at its first use: the events of the decisions nobody
    asked a prompt for go to the prompt memory first, so the text is the one a prompter that
    rendered every decision gives (the summary, the recent events, the "first decision" title).
    A decision superseded unrendered can no longer be rendered, and says so."""
    import random

    for config, seed in ((GameConfig(6), 11), (GameConfig(5, expansions=("armed_dangerous",)), 12)):
        game = new_game(config, seed)
        eager = [DecisionPrompter() for _ in range(config.seats)]
        lazy = [DecisionPrompter() for _ in range(config.seats)]
        cursors = [0] * config.seats
        rng, rendered, skipped = random.Random(seed), 0, []
        while not game.over and rendered < 150:
            d = game.decision
            view = game.view(d.seat, since=cursors[d.seat])
            cursors[d.seat] = view.cursor
            index = len(game.state.history)
            want = eager[d.seat].prepare("m", index, view, d).turn_prompt()
            later = lazy[d.seat].prepare("m", index, view, d)
            if rng.random() < 0.3:
                assert later.turn_prompt() == want and later.turn == want
                assert json.loads(later.json(1.0))["prompt"]["turn"] == want
                rendered += 1
            else:
                assert later.json(1.0, "none") and later.turn is None  # nothing rendered
                skipped.append((d.seat, later))
            game.apply(d.seat, rng.choice(d.ids))
        assert rendered > 20
        stale = next(p for seat, p in skipped if p is not lazy[seat].latest)
        with pytest.raises(RuntimeError, match="moved past it"):
            stale.turn_prompt()


def test_plain_json_writes_what_to_json_writes() -> None:
    """The payload's serialiser (orjson) gives ``to_json``'s bytes, and hands it what it does
    not take itself."""
    from pydantic_core import to_json

    from bangarena.harness.decision_payload import plain_json

    for data in (
        {"a": [1, "é", None, True, {"b": (2, 3)}], "c": -(2**63), "d": 2**64 - 1},
        {"s": 'x\u2028\n"q"\t\x00\x1f\\/é😀', "f": [0.1, 1e300, -0.0]},  # escapes, floats
        {1: "int keys", (2, 3): "tuple keys"},  # non-string keys: to_json's output
        {"set": {1}, "big": 2**70},  # not orjson's: to_json's own output
    ):
        assert plain_json(data) == to_json(data)
