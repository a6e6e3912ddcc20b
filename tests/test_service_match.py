"""Full matches over a real seat service on loopback: two remote agents (plain httpx) and three
bots play to the end; the stored record equals the record of the same moves played in process;
what the store then serves (suites, leaderboard, the live site)."""

from __future__ import annotations

import asyncio
import gc
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from service_support import (
    bearer,
    bot_players,
    create_match,
    play_remote,
    running_service,
    service_settings,
    wait_status,
)

from bangarena.evals.live import LIVE_SUITE
from bangarena.evals.store import open_store
from bangarena.harness.match import Match, MatchSettings
from bangarena.harness.records import MatchRecord
from bangarena.harness.seats.factory import build_seat, plan_seat
from bangarena.harness.seats.protocol import Seat
from bangarena.harness.seats.remote_seat import RemoteSeat

VOLATILE = frozenset(
    {
        "started_at", "finished_at", "duration_s", "elapsed_s", "started_s", "latency_s",
        "mean_latency_s", "provenance", "match_id",
    }
)  # fmt: skip
"""Record fields that are the clock's or the process's, not the play's."""


def _strip(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k not in VOLATILE}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


async def replay_in_process(record: MatchRecord) -> MatchRecord:
    """Play ``record``'s moves again in this process: the same bots, and remote seats answered
    in process with the recorded answers (rejected ones included)."""
    c = record.config
    settings = MatchSettings(
        seats=c.seats, mode=c.mode, seed=c.seed, max_rounds=c.max_rounds, lang=c.lang,
        time_per_move_s=c.time_per_move_s, transcripts=c.transcripts,
    )  # fmt: skip
    seats: list[Seat] = []
    for sr in record.seats:
        if sr.kind in ("remote", "human"):
            seats.append(RemoteSeat(sr.display_name, kind=sr.kind, lang=sr.lang or "en"))  # type: ignore[arg-type]
        else:
            seats.append(build_seat(plan_seat(sr.spec), seat=sr.seat, seed=c.seed))
    match = Match(settings, seats, match_id=record.match_id)

    async def agent(i: int, seat: RemoteSeat) -> None:
        for m in (m for m in record.moves if m.seat == i):
            while seat.pending is None or seat.pending.decision_id != m.index:
                await asyncio.sleep(0)
            # as the agents' polls did (the record keeps the system prompt a seat was sent)
            seat.payload_json_now(seat.pending)
            for a in m.attempts:
                assert a.move is not None
                seat.submit(m.index, a.move)

    agents = [
        asyncio.ensure_future(agent(i, s)) for i, s in enumerate(seats) if isinstance(s, RemoteSeat)
    ]
    played = await match.run()
    await asyncio.gather(*agents)
    return played


def test_full_match_two_remote_agents_three_bots(tmp_path: Path) -> None:
    with running_service(service_settings(tmp_path)) as svc, httpx.Client(timeout=30) as client:
        players = [{"kind": "remote", "name": "agent-a"}, {"kind": "remote", "name": "agent-b"}]
        body = create_match(
            client, svc, seats=5, seed=3, time_per_move=30, players=players + bot_players(3)
        )
        assert body["status"] == "waiting"  # until both remote seats connect
        mid = body["match_id"]
        tokens = {s["seat"]: s["token"] for s in body["seats"]}
        assert tokens[2] is None and tokens[0] and tokens[1]
        out: dict[int, list[tuple[int, str]]] = {}

        def run(seat: int) -> None:
            out[seat] = play_remote(svc.url, mid, tokens[seat], seed=seat, illegal_first=seat == 0)

        threads = [threading.Thread(target=run, args=(s,)) for s in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        status = wait_status(client, svc, mid, ("over",))
        assert status["result"] is not None and status["decisions"] > 20
        assert out[0] and out[1]  # both agents played
        # after the end: polls and moves are 410 with the result
        r = client.get(f"{svc.url}/v1/matches/{mid}/decision", headers=bearer(tokens[0]))
        assert r.status_code == 410 and r.json()["result"] == status["result"]
        r = client.post(
            f"{svc.url}/v1/matches/{mid}/moves",
            json={"decision_id": 0, "move_id": "end_turn"},
            headers=bearer(tokens[1]),
        )
        assert r.status_code == 410 and r.json()["error"] == "match_over"
        status = wait_status(client, svc, mid, ("over",))
        for _ in range(200):
            if client.get(f"{svc.url}/v1/matches/{mid}").json()["stored"]:
                break
            threading.Event().wait(0.05)
        suites = client.get(f"{svc.url}/v1/suites").json()
        assert [s["name"] for s in suites] == [LIVE_SUITE]
        assert suites[0]["totals"]["matches_done"] == 1
        detail = client.get(f"{svc.url}/v1/suites/{LIVE_SUITE}").json()
        ids = {p["id"] for p in detail["participants"]}
        assert {"remote:agent-a", "remote:agent-b", "rule"} <= ids
        assert client.get(f"{svc.url}/v1/suites/nope").status_code == 404
        boards = client.get(f"{svc.url}/v1/leaderboard", params={"suite": LIVE_SUITE})
        assert boards.status_code == 200 and isinstance(boards.json(), list)
        assert client.get(f"{svc.url}/v1/leaderboard", params={"suite": "x"}).status_code == 404

    with open_store(tmp_path / "live.db") as store:
        record = store.load_record(mid, LIVE_SUITE)
    # the agents' moves are in the record, in order, chosen by them
    for seat in (0, 1):
        mine = [(m.index, m.move) for m in record.moves if m.seat == seat and m.how == "chosen"]
        assert mine == out[seat]
    first = next(m for m in record.moves if m.seat == 0)
    assert [a.outcome for a in first.attempts] == ["illegal", "ok"]  # the rejected answer kept
    assert record.totals.seats[0].first_try_valid == record.totals.seats[0].decisions - 1
    again = asyncio.run(replay_in_process(record))
    assert _strip(again.model_dump(mode="json")) == _strip(record.model_dump(mode="json"))


def test_leaderboard_site_served_live(tmp_path: Path) -> None:
    """/leaderboard is the site built from the store, rebuilt once the store changes."""
    with (
        running_service(service_settings(tmp_path), extensions=[]) as svc,
        httpx.Client(timeout=60) as client,
    ):
        r = client.get(f"{svc.url}/leaderboard", follow_redirects=True)
        assert r.status_code == 200 and "<html" in r.text.lower()
        body = create_match(client, svc, seats=4, seed=1, time_per_move=5, players=bot_players(4))
        wait_status(client, svc, body["match_id"], ("over",))
        for _ in range(200):
            if client.get(f"{svc.url}/v1/matches/{body['match_id']}").json()["stored"]:
                break
            threading.Event().wait(0.05)
        boards = client.get(f"{svc.url}/leaderboard/leaderboard.json").json()
        assert boards and boards[0]["participants"]
        assert client.get(f"{svc.url}/leaderboard/../pyproject.toml").status_code == 404
        assert client.get(f"{svc.url}/leaderboard/nope.html").status_code == 404


@pytest.mark.parametrize("kind", ["bot", "model"])
def test_bots_and_server_models_only_start_at_once(tmp_path: Path, kind: str) -> None:
    """A table without remote seats starts at once; a model participant is seated by id (a
    scripted one here: no key, no network)."""
    from bangarena.service.settings import parse_participants

    participants = parse_participants('[[participants]]\nid = "house"\nspec = "scripted:rule"\n')
    settings = service_settings(tmp_path, participants=participants)
    with running_service(settings, extensions=[]) as svc, httpx.Client(timeout=30) as client:
        first = {"kind": "model", "participant": "house"} if kind == "model" else bot_players(1)[0]
        body = create_match(
            client, svc, seats=4, seed=2, time_per_move=10, players=[first, *bot_players(3)]
        )
        assert body["status"] == "running"
        status = wait_status(client, svc, body["match_id"], ("over",))
        assert status["players"][0]["kind"] == kind
        r = client.post(
            f"{svc.url}/v1/matches",
            json={
                "seats": 4,
                "players": [{"kind": "model", "participant": "nope"}, *bot_players(3)],
            },
            headers=svc.admin_headers,
        )
        assert r.status_code == 422 and "house" in r.json()["reason"]


def test_finished_matches_leave_memory_once_stored(tmp_path: Path) -> None:
    """Beyond ``keep_finished`` the oldest stored matches are forgotten (the store keeps
    them): their status is 404 and their tokens are unknown (401)."""
    settings = service_settings(tmp_path, keep_finished=0)
    with running_service(settings, extensions=[]) as svc, httpx.Client(timeout=30) as client:
        body = create_match(client, svc, seats=4, seed=1, time_per_move=5, players=bot_players(4))
        url = f"{svc.url}/v1/matches/{body['match_id']}"
        for _ in range(400):
            if client.get(url).status_code == 404:
                break
            threading.Event().wait(0.025)
        assert client.get(url).status_code == 404
        r = client.get(f"{url}/view", headers=bearer(body["spectator_token"]))
        assert r.status_code == 401
        assert client.get(f"{svc.url}/v1/suites").json()[0]["totals"]["matches_done"] == 1


def test_the_registry_counts_unfinished_matches_and_forgets_the_oldest_stored(
    tmp_path: Path,
) -> None:
    """``max_live_matches`` counts the matches not finished (waiting ones included);
    ``keep_finished`` keeps the most recently finished stored matches, and a forgotten match's
    tokens go with it (and only its own)."""
    from bangarena.service.models import CreateMatch
    from bangarena.service.registry import CreateError, MatchRegistry
    from bangarena.service.tokens import TokenBook

    async def run() -> None:
        settings = service_settings(tmp_path, keep_finished=2, max_live_matches=3).resolved()
        tokens = TokenBook("x" * 40)
        registry = MatchRegistry(settings, tokens)
        waiting = CreateMatch.model_validate(
            {"seats": 4, "players": [{"kind": "remote", "name": "a"}, *bot_players(3)]}
        )
        bots = CreateMatch.model_validate({"seats": 4, "players": bot_players(4), "seed": 3})
        held = [registry.create(waiting)[1] for _ in range(2)]  # never started: unfinished
        done = []
        for _ in range(4):  # one slot left: each bots' match must finish before the next
            live, made = registry.create(bots)
            await asyncio.wait_for(live.task, 30)  # type: ignore[arg-type]
            live.stored = True
            registry.evict()
            done.append(made.match_id)
        assert len(registry.matches) == 4 and set(done[-2:]) <= set(registry.matches)
        assert not set(done[:2]) & set(registry.matches)
        third = registry.create(waiting)[1]
        with pytest.raises(CreateError, match="3 unfinished"):
            registry.create(waiting)
        known = {g.match_id for g in tokens._grants.values()}
        assert known == {held[0].match_id, held[1].match_id, third.match_id, *done[-2:]}
        assert tokens.lookup(held[0].seats[0].token or "") is not None
        await registry.aclose()

    asyncio.run(run())


@pytest.mark.parametrize("store_matches", [True, False])
def test_finished_matches_stay_bounded_when_nothing_stores_them(
    tmp_path: Path, store_matches: bool
) -> None:
    """With ``store_matches`` off no match is ever stored, so ``keep_finished`` bounds the
    finished matches held all the same; with it on, a match whose storing failed (never
    marked stored) stays, its status saying it is not stored."""
    from bangarena.service.models import CreateMatch
    from bangarena.service.registry import MatchRegistry
    from bangarena.service.tokens import TokenBook

    async def run() -> None:
        settings = service_settings(
            tmp_path, keep_finished=2, store_matches=store_matches
        ).resolved()
        registry = MatchRegistry(settings, TokenBook("x" * 40))
        made = []
        for seed in range(5):
            live, created = registry.create(
                CreateMatch.model_validate({"seats": 4, "players": bot_players(4), "seed": seed})
            )
            await asyncio.wait_for(live.task, 30)  # type: ignore[arg-type]
            made.append(created.match_id)
        registry.evict()
        if store_matches:  # none was stored (no store here): all five stay
            assert set(registry.matches) == set(made)
            assert all(not m.public_status().stored for m in registry.matches.values())
        else:
            assert set(registry.matches) == set(made[-2:])
        await registry.aclose()

    asyncio.run(run())


async def _played_out(
    registry: Any, seats: int, seed: int, answer: Callable[[RemoteSeat, Any], str]
) -> Any:
    """A match of ``registry``: a remote seat (seat 0) and bots, started at once, the remote
    seat's every decision answered with ``answer(seat, pending)`` in process until it ends."""
    from bangarena.service.models import CreateMatch

    request = {
        "seats": seats, "seed": seed, "start": "now",
        "players": [{"kind": "remote", "name": "a"}, *bot_players(seats - 1)],
    }  # fmt: skip
    live, _ = registry.create(CreateMatch.model_validate(request))
    seat = live.remote[0]
    while live.task is not None and not live.task.done():
        pending = seat.take_pending()
        if pending is not None:
            seat.submit(pending.decision_id, answer(seat, pending))
        await asyncio.sleep(0)
    return live


def test_a_forgotten_match_is_freed_without_the_cyclic_collector(tmp_path: Path) -> None:
    """A finished match the registry forgets is freed by reference counting alone (its cycles
    undone: the driver's callback and the remote seats' change signals; their prompters'
    latest payloads went at the end), not left for an older generation's pass of the
    collector."""
    from bangarena.service.registry import MatchRegistry
    from bangarena.service.tokens import TokenBook

    async def play_out(registry: MatchRegistry) -> list[weakref.ref[Any]]:
        live = await _played_out(registry, 4, 5, lambda seat, pending: pending.legal[0])
        seat = live.remote[0]
        assert live.status == "over" and live.record is not None
        assert live.match.on_applied is not None and seat.on_change is not None  # cycles
        assert seat.prompter.latest is None  # the seat's prompter let go at the end
        record = weakref.ref(live.record)
        gc.disable()
        try:
            live.mark_stored()  # the store has the record: it goes at once
            assert record() is None
        finally:
            gc.enable()
        return [weakref.ref(x) for x in (live, live.match, seat, seat.prompter)]

    async def run() -> None:
        registry = MatchRegistry(
            service_settings(tmp_path, keep_finished=0).resolved(), TokenBook("x" * 40)
        )
        refs = await play_out(registry)
        gc.collect()
        gc.disable()
        try:
            assert all(r() is not None for r in refs)  # held by the registry
            registry.evict()
            assert registry.matches == {}
            assert [r() for r in refs] == [None] * len(refs)
        finally:
            gc.enable()
        await registry.aclose()

    asyncio.run(run())


def test_the_service_runs_without_the_agents_extra(tmp_path: Path, monkeypatch, caplog) -> None:
    """Without a2a-sdk and mcp (the optional ``[agents]`` extra) the service still builds and
    serves; the A2A evaluator and the MCP seat are off, and a warning names the extra."""
    import sys

    from bangarena.service import create_app

    # every loaded module of both packages goes (another test of this worker may have loaded
    # them); a None entry makes `import name` raise ModuleNotFoundError
    for name in list(sys.modules):
        if name.split(".")[0] in ("a2a", "mcp"):
            monkeypatch.delitem(sys.modules, name)
    for name in ("a2a", "mcp"):
        monkeypatch.setitem(sys.modules, name, None)
    for name in ("bangarena.service.a2a_evaluator", "bangarena.service.mcp_seat"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    with caplog.at_level("WARNING", logger="bangarena.service"):
        app = create_app(service_settings(tmp_path))

    async def get(path: str) -> int:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            return (await client.get(path)).status_code

    assert asyncio.run(get("/healthz")) == 200
    assert asyncio.run(get("/a2a/evaluator/.well-known/agent-card.json")) == 404
    assert asyncio.run(get("/mcp")) == 404
    warned = " ".join(r.getMessage() for r in caplog.records)
    assert "A2A evaluator" in warned and "MCP seat" in warned and "bangarena[agents]" in warned


def test_a_stored_match_lets_its_record_go_and_keeps_what_late_readers_need(
    tmp_path: Path,
) -> None:
    """Once stored, a finished match drops its record and the driver's annotations (the store
    has them) but keeps its status, its game (views, events) and the summary screen's
    numbers; its remote seats' prompters let go when it ends."""
    from bangarena.service.registry import MatchRegistry
    from bangarena.service.tokens import TokenBook
    from bangarena.service.web.summary import player_stats

    async def run() -> None:
        registry = MatchRegistry(service_settings(tmp_path).resolved(), TokenBook("x" * 40))
        last = None

        def answer(seat: RemoteSeat, pending: Any) -> str:
            nonlocal last
            last = pending.decision
            seat.prompter.render(pending.payload)  # as a poll asking for our prompts
            return pending.legal[-1]

        live = await _played_out(registry, 5, 11, answer)
        seat = live.remote[0]
        record = live.record
        assert record is not None and live.status == "over" and last is not None
        assert seat.prompter.latest is None and seat.prompter.unseen == []
        with pytest.raises(RuntimeError, match="closed"):
            seat.prompter.prepare(live.match_id, 999, live.game.view(0), last)
        before = player_stats(live)
        status = live.public_status().model_dump()
        view = live.game.view(0, since=0)
        live.mark_stored()
        assert live.record is None and live.match.moves == [] and live.stored
        assert live.status == "over" and live.ended
        assert player_stats(live) == before
        assert live.public_status().model_dump() == {**status, "stored": True}
        assert live.game.view(0, since=0) == view
        by_seat = {s: sum(1 for m in record.moves if m.seat == s) for s in range(5)}
        assert {r["seat"]: r["decisions"] for r in before} == by_seat
        with pytest.raises(RuntimeError, match="stored"):
            live.match.record()
        await registry.aclose()

    asyncio.run(run())
