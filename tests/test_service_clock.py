"""The clock of remote seats (rules.md §3) and reconnecting: a silent seat is autopiloted after
the disconnect grace (8 s by default; shorter here) and plays again when it comes back; the
event stream resumes from ``Last-Event-ID`` with no event lost or doubled."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path

import httpx
from service_support import (
    bearer,
    bot_players,
    create_match,
    play_remote,
    played_moves,
    running_service,
    service_settings,
    sse_events,
    wait_status,
)

from bangarena.evals.live import LIVE_SUITE
from bangarena.evals.store import open_store
from bangarena.harness.records import DecisionTelemetry
from bangarena.harness.seats.protocol import Deadline
from bangarena.harness.seats.remote_seat import DISCONNECT_GRACE_S, PendingDecision, RemoteSeat
from bangarena.service.settings import ServiceSettings


def test_the_default_disconnect_grace_is_8_seconds() -> None:
    assert DISCONNECT_GRACE_S == 8.0
    assert ServiceSettings().disconnect_grace_s == 8.0
    assert RemoteSeat("x").grace_s == 8.0


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _pending(seat: RemoteSeat, limit_s: float) -> PendingDecision:
    loop = asyncio.new_event_loop()
    try:
        deadline = Deadline(limit_s)
        deadline.at = seat.clock() + limit_s  # on the seat's clock
        return PendingDecision(
            decision_id=0, decision=None, payload=None, cursor=0, deadline=deadline,  # type: ignore[arg-type]
            started=seat.clock(), telemetry=DecisionTelemetry(), answer=loop.create_future(),
        )  # fmt: skip
    finally:
        loop.close()


def test_when_a_remote_decision_expires() -> None:
    clock = _Clock()
    seat = RemoteSeat("x", disconnect_grace_s=8.0, clock=clock)
    # never connected: disconnected, 8 s from the decision's start
    p = _pending(seat, 60.0)
    assert seat._limit(p, clock.now) == clock.now + 8.0
    # polled 3 s ago: connected for 5 s more, then 8 s to answer
    seat.last_seen = clock.now - 3.0
    assert seat.connected() and seat._limit(p, clock.now) == clock.now + 13.0
    # silent for long before the decision: 8 s from its start
    seat.last_seen = clock.now - 100.0
    assert not seat.connected() and seat._limit(p, clock.now) == p.started + 8.0
    # a stream open, or the decision picked up: the table's time
    seat.open_connection()
    assert seat._limit(p, clock.now) == p.deadline.at
    seat.close_connection()
    clock.now += 20.0
    p.delivered = True
    assert seat._limit(p, clock.now) == p.deadline.at
    # the table's time bounds everything
    short = _pending(seat, 2.0)
    assert seat._limit(short, clock.now) == short.deadline.at


def test_a_silent_seat_is_autopiloted_and_plays_again_when_back(tmp_path: Path) -> None:
    settings = service_settings(tmp_path, disconnect_grace_s=0.3)
    with running_service(settings, extensions=[]) as svc, httpx.Client(timeout=30) as client:
        body = create_match(
            client, svc, seats=4, seed=5, time_per_move=30, start="now",
            players=[{"kind": "remote", "name": "sleepy"}, *bot_players(3)],
        )  # fmt: skip
        mid, token = body["match_id"], body["seats"][0]["token"]
        live = svc.state.registry.get(mid)

        def autopiloted() -> int:
            return sum(1 for m in played_moves(svc, live) if m.seat == 0 and m.how == "autopilot")

        end = time.monotonic() + 20
        while autopiloted() < 2 and time.monotonic() < end:
            time.sleep(0.05)
        moves = [m for m in played_moves(svc, live) if m.seat == 0]
        assert len(moves) >= 2 and all(m.how == "autopilot" for m in moves)
        for m in moves:
            assert m.autopilot_reason == "timeout" and m.chosen_by == "autopilot"
            assert m.reason is not None and m.reason.startswith("disconnected")
            assert m.elapsed_s < 2.0  # the grace, not the table's 30 s
        status = client.get(f"{svc.url}/v1/matches/{mid}").json()
        assert status["players"][0]["connected"] is False
        # it comes back and plays its decisions again
        played = play_remote(svc.url, mid, token, seed=1, wait=2.0)
        final = wait_status(client, svc, mid, ("over",))
        assert final["result"] is not None
        end = time.monotonic() + 20
        while not client.get(f"{svc.url}/v1/matches/{mid}").json()["stored"]:
            assert time.monotonic() < end, "the finished match was not stored"
            time.sleep(0.05)
    with open_store(tmp_path / "live.db") as store:  # a stored match's record is the store's
        record = store.load_record(mid, LIVE_SUITE)
    chosen = [m for m in record.moves if m.seat == 0 and m.how == "chosen"]
    assert played  # (seed 5: it is still alive when it comes back)
    assert [(m.index, m.move) for m in chosen] == played
    assert all(m.chosen_by == "ai" for m in chosen)


def _read_until(response: httpx.Response, last_id: int) -> list[dict[str, str]]:
    out = []
    for ev in sse_events(response):
        out.append(ev)
        if ev.get("event") == "end" or (ev.get("id") and int(ev["id"]) >= last_id):
            break
    return out


def test_the_event_stream_resumes_from_last_event_id(tmp_path: Path) -> None:
    settings = service_settings(tmp_path, disconnect_grace_s=60.0)
    with running_service(settings, extensions=[]) as svc, httpx.Client(timeout=30) as client:
        body = create_match(
            client, svc, seats=4, seed=9, time_per_move=60, start="now",
            players=[{"kind": "remote", "name": "late"}, *bot_players(3)],
        )  # fmt: skip
        mid, token = body["match_id"], body["seats"][0]["token"]
        live = svc.state.registry.get(mid)
        end = time.monotonic() + 10
        while svc.call(lambda: live.remote[0].pending) is None and time.monotonic() < end:
            time.sleep(0.02)
        blocked_at = svc.call(live.log_length)
        url = f"{svc.url}/v1/matches/{mid}/events"
        spectator = bearer(body["spectator_token"])
        # 1: the spectator reads up to where the game waits for the remote seat, then leaves
        with client.stream("GET", url, headers=spectator) as r:
            assert r.status_code == 200
            assert r.headers["content-type"].startswith("text/event-stream")
            first = _read_until(r, blocked_at)
        # 2: the match goes on without it
        agent = threading.Thread(target=play_remote, args=(svc.url, mid, token, 3))
        agent.start()
        agent.join(60)
        wait_status(client, svc, mid, ("over",))
        # 3: it comes back where it left
        resume = first[-1]["id"]
        with client.stream("GET", url, headers={**spectator, "Last-Event-ID": resume}) as r:
            rest = _read_until(r, 10**9)
        # the seat's own stream, from a cursor in the middle
        mid_cursor = blocked_at // 2
        seat_url_headers = {**bearer(token), "Last-Event-ID": str(mid_cursor)}
        with client.stream("GET", url, headers=seat_url_headers) as r:
            seat_events = _read_until(r, 10**9)
        public = svc.call(lambda: live.game.events(None))
        private = svc.call(lambda: live.game.events(0, since=mid_cursor))
        bad = client.get(url, headers={**spectator, "Last-Event-ID": str(len(public) + 5)})
        assert bad.status_code == 400 and bad.json()["error"] == "bad_last_event_id"

    game = [e for e in first + rest if e["event"] == "game"]
    ids = [int(e["id"]) for e in game]
    assert ids == list(range(1, len(public) + 1))  # none lost, none twice
    assert [json.loads(e["data"]) for e in game] == public
    assert rest[-1]["event"] == "end" and json.loads(rest[-1]["data"])["status"] == "over"
    mine = [e for e in seat_events if e["event"] == "game"]
    assert int(mine[0]["id"]) == mid_cursor + 1
    assert [json.loads(e["data"]) for e in mine] == private
    assert private != public[mid_cursor:]  # the seat's stream has its own private forms


def test_an_eliminated_seat_is_told_410_while_the_match_goes_on(tmp_path: Path) -> None:
    """Seat 0 plays (polling), seat 1 never shows up and is autopiloted at once (a tiny
    grace); on these deals seat 0 dies while the match goes on: its poll is 410 ``eliminated``
    (the first seed does so here; the loop only guards against a slow machine changing the
    autopiloted game)."""
    import random

    settings = service_settings(tmp_path, disconnect_grace_s=0.05)
    seen: list[dict[str, object]] = []
    with running_service(settings, extensions=[]) as svc, httpx.Client(timeout=30) as client:
        for seed in (5, 6, 7, 8, 9):
            body = create_match(
                client, svc, seats=4, seed=seed, time_per_move=600, start="now",
                players=[{"kind": "remote", "name": "a"}, {"kind": "remote", "name": "away"},
                         *bot_players(2)],
            )  # fmt: skip
            mid, token = body["match_id"], body["seats"][0]["token"]
            rng = random.Random(0)
            while True:
                r = client.get(
                    f"{svc.url}/v1/matches/{mid}/decision", params={"wait": 0.5},
                    headers=bearer(token),
                )  # fmt: skip
                if r.status_code == 410:
                    break
                if r.status_code == 200:
                    p = r.json()
                    client.post(
                        f"{svc.url}/v1/matches/{mid}/moves",
                        json={"decision_id": p["decision_id"], "move_id": rng.choice(p["moves"])["id"]},
                        headers=bearer(token),
                    )  # fmt: skip
            if r.json()["error"] == "eliminated":
                status = client.get(f"{svc.url}/v1/matches/{mid}").json()
                seen.append({"status": status, "body": r.json()})
                break
            assert r.json()["error"] == "match_over" and r.json()["result"] is not None
    assert seen, "seat 0 was never eliminated before the end"
    status = seen[0]["status"]
    assert status["players"][0]["alive"] is False  # type: ignore[index]
    assert "result" not in seen[0]["body"]  # the match is not over: no result yet
